package ingest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/moduletest"
)

// feedServer plays Brønnøysund's three update feeds from items, read
// forwards as the register serves them: oppdateringsid (inclusive) or
// afterId (exclusive), or dato/afterTime; at most size items; ascending.
type feedServer struct {
	*httptest.Server
	mu       sync.Mutex
	items    map[string][]feedRaw // by feed name
	requests []*url.URL
	// status, when not 0, answers every request with this status.
	status int
	// body, when not nil, answers every request with these bytes.
	body []byte
	// only, when set, limits status and body to that feed.
	only string
}

type feedRaw struct {
	id   int64
	dato string
	raw  json.RawMessage
}

func newFeedServer(t *testing.T) *feedServer {
	t.Helper()
	s := &feedServer{items: map[string][]feedRaw{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// add adds raw items (objects with oppdateringsid/id and dato/time) to a
// feed.
func (s *feedServer) add(t testing.TB, feed string, raws ...json.RawMessage) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, raw := range raws {
		var it struct {
			ID    json.RawMessage `json:"oppdateringsid"`
			EvID  json.RawMessage `json:"id"`
			Dato  string          `json:"dato"`
			EvTim string          `json:"time"`
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			t.Fatal(err)
		}
		id, ok := parseID(json.RawMessage(cmp.Or(string(it.ID), string(it.EvID))))
		if !ok {
			t.Fatalf("item without id: %s", raw)
		}
		s.items[feed] = append(s.items[feed], feedRaw{id: id, dato: cmp.Or(it.Dato, it.EvTim), raw: raw})
	}
	slices.SortFunc(s.items[feed], func(a, b feedRaw) int { return cmp.Compare(a.id, b.id) })
}

// addRecording adds the items of a recorded feed answer.
func (s *feedServer) addRecording(t *testing.T, feed, file string) {
	t.Helper()
	b := moduletest.Recording(t, "brreg", file)
	var raws []json.RawMessage
	if feed == "roller" {
		if err := json.Unmarshal(b, &raws); err != nil {
			t.Fatal(err)
		}
	} else {
		var page struct {
			Embedded map[string][]json.RawMessage `json:"_embedded"`
		}
		if err := json.Unmarshal(b, &page); err != nil {
			t.Fatal(err)
		}
		for _, v := range page.Embedded {
			raws = append(raws, v...)
		}
	}
	s.add(t, feed, raws...)
}

func (s *feedServer) requestsOf(feed string) []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []url.Values
	for _, u := range s.requests {
		if u.Path == "/oppdateringer/"+feed {
			out = append(out, u.Query())
		}
	}
	return out
}

func (s *feedServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.URL)
	feed := r.URL.Path[len("/oppdateringer/"):]
	if s.only != "" && feed != s.only {
		s.serveItems(w, r, feed)
		return
	}
	if s.status != 0 {
		w.WriteHeader(s.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if s.body != nil {
		_, _ = w.Write(s.body)
		return
	}
	s.serveItems(w, r, feed)
}

func (s *feedServer) serveItems(w http.ResponseWriter, r *http.Request, feed string) {
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	size, _ := strconv.Atoi(q.Get("size"))
	var out []json.RawMessage
	for _, it := range s.items[feed] {
		if len(out) == size {
			break
		}
		switch {
		case q.Has("oppdateringsid"):
			n, _ := strconv.ParseInt(q.Get("oppdateringsid"), 10, 64)
			if it.id < n {
				continue
			}
		case q.Has("afterId"):
			n, _ := strconv.ParseInt(q.Get("afterId"), 10, 64)
			if it.id <= n {
				continue
			}
		case q.Has("dato"):
			if it.dato < q.Get("dato") {
				continue
			}
		case q.Has("afterTime"):
			if it.dato <= q.Get("afterTime") {
				continue
			}
		}
		out = append(out, it.raw)
	}
	if feed == "roller" {
		if out == nil {
			out = []json.RawMessage{}
		}
		_ = json.NewEncoder(w).Encode(out)
		return
	}
	page := map[string]any{
		"_links": map[string]any{"self": map[string]string{"href": "https://data.brreg.no/enhetsregisteret/api" + r.URL.String()}},
		"page":   map[string]int{"size": size, "totalElements": len(out), "totalPages": min(len(out), 1), "number": 0},
	}
	if len(out) > 0 {
		key := "oppdaterteEnheter"
		if feed == "underenheter" {
			key = "oppdaterteUnderenheter"
		}
		page["_embedded"] = map[string]any{key: out}
	}
	_ = json.NewEncoder(w).Encode(page)
}
