package restserver_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/restserver"
)

// The only upstream request URLs the modules may build (issue #9): the
// configured host and base path, an identifier of the register's own shape
// as one path segment, and search parameters of fixed names.
var (
	brregPath = regexp.MustCompile(`^/api/(enheter|underenheter)/[0-9]{9}$`)
	chPath    = regexp.MustCompile(`^/company/[A-Z0-9]{8}$`)
)

// upstreamGuard is a fake of both registers that records every request URL
// that breaks the shape above. A well-shaped request gets a harmless answer:
// 404 for a lookup, a recorded page for a search.
type upstreamGuard struct {
	mu  sync.Mutex
	bad []string
	// queries are the search terms the registers received, in order.
	queries []string
	// lookups counts the well-formed lookups.
	lookups int
}

func (g *upstreamGuard) violations() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.bad)
}

func (g *upstreamGuard) lastQuery() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queries) == 0 {
		return ""
	}
	return g.queries[len(g.queries)-1]
}

func (g *upstreamGuard) transport(t testing.TB) *httpmock.MockTransport {
	brregSearch := upstreamFixture(t, "brreg_search_digitaliseringsdirektoratet.json")
	chSearch := upstreamFixture(t, "ch_search_bbc.json")
	ch404 := upstreamFixture(t, "ch_404_company-profile-not-found.json")
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		u := r.URL
		reply := func(status int, body string) (*http.Response, error) {
			res := httpmock.NewStringResponse(status, body)
			res.Header.Set("Content-Type", "application/json")
			return res, nil
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		q, qerr := url.ParseQuery(u.RawQuery)
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range q {
				if !yield(k) {
					return
				}
			}
		})
		plain := r.Method == http.MethodGet && u.User == nil && u.Fragment == "" && u.RawFragment == "" && qerr == nil
		switch {
		case plain && u.Host == "brreg.test" && brregPath.MatchString(u.Path) && u.RawQuery == "":
			g.lookups++
			return reply(http.StatusNotFound, "")
		case plain && u.Host == "brreg.test" && u.Path == "/api/enheter" && slices.Equal(keys, []string{"navn", "size"}) &&
			len(q["navn"]) == 1 && len(q["size"]) == 1:
			g.queries = append(g.queries, q.Get("navn"))
			return reply(http.StatusOK, brregSearch)
		case plain && u.Host == "ch.test" && chPath.MatchString(u.Path) && u.RawQuery == "":
			g.lookups++
			return reply(http.StatusNotFound, ch404)
		case plain && u.Host == "ch.test" && u.Path == "/search/companies" && slices.Equal(keys, []string{"items_per_page", "q"}) &&
			len(q["q"]) == 1 && len(q["items_per_page"]) == 1:
			g.queries = append(g.queries, q.Get("q"))
			return reply(http.StatusOK, chSearch)
		}
		g.bad = append(g.bad, r.Method+" "+u.String())
		return reply(http.StatusTeapot, "")
	})
	return mt
}

// hostileIDs try to leave the identifier's path segment, add a query or
// fragment, or smuggle a header or another host.
func hostileIDs() []string {
	return []string{
		"../../enheter?navn=x", "923609016/../../x", "923609016?size=1", "923609016#frag", "..", ".", "%2e%2e%2f",
		"923609016%2F..%2F..", "NO 923 609 016 MVA", "923.609.016", "08957400/../../search/companies?q=x", "SC123456?q=x",
		"sc 123456", "\r\nHost: evil.test", "http://evil.test/", "@evil.test", "..%252f", "923609016\x00", "０８９５７４００",
		"8957400;x=1", "08957400/", "/08957400", "923609016 OR 1=1", "%0d%0aX-Injected: 1",
	}
}

// hostileQueries try to add or override search parameters, change the
// path or inject headers.
func hostileQueries() []string {
	return []string{
		"x&size=1000", "x#y", "a/../../enheter/923609016", "%26navn%3Dx", "\r\nX-Injected: 1", "?navn=a", "sør æ å",
		"a+b", "=", "&&&", "x&items_per_page=1000&q=y", "x;size=1", "%", "..", "/", "\\", "x\x00y",
	}
}

// TestInputsNeverChangeTheUpstreamURL (issue #9): identifiers and search
// queries, given through the REST routes and through the library, never
// change which upstream URL is called: identifiers are validated and
// normalised before use and sent as one escaped path segment, queries are
// one escaped parameter whose value arrives unchanged.
func TestInputsNeverChangeTheUpstreamURL(t *testing.T) {
	t.Parallel()
	g := &upstreamGuard{}
	reg := newE2ERegistry(t, chKey, g.transport(t), newFakeClock())
	srv, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, country := range []string{"NO", "GB"} {
		for _, id := range hostileIDs() {
			_, _ = reg.Lookup(t.Context(), country, id)
			_, _ = reg.Deadlines(t.Context(), country, id, registry.NewDate(2026, 1, 15))
			for _, p := range []string{"/v1/" + country + "/company/" + url.PathEscape(id),
				"/v1/" + country + "/company/" + url.PathEscape(id) + "/deadlines"} {
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), http.MethodGet, p, nil))
				if w.Code >= 500 {
					t.Errorf("GET %s: status %d", p, w.Code)
				}
			}
		}
		for _, q := range hostileQueries() {
			if _, err := reg.Search(t.Context(), country, q, 5); err != nil {
				t.Errorf("Search(%s, %q): %v", country, q, err)
			} else if got, want := g.lastQuery(), strings.TrimSpace(q); got != want {
				t.Errorf("Search(%s, %q): the register received the query %q", country, q, got)
			}
			p := "/v1/" + country + "/search?limit=5&q=" + url.QueryEscape(q)
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), http.MethodGet, p, nil))
			if w.Code != http.StatusOK {
				t.Errorf("GET %s: status %d: %s", p, w.Code, w.Body)
			}
		}
	}
	for _, v := range g.violations() {
		t.Errorf("an input changed the upstream request: %s", v)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lookups == 0 {
		t.Error("no valid identifier among the inputs reached the registers; the test proves nothing")
	}
}

// FuzzRouter (issue #9) sends arbitrary paths and query strings through the
// REST handler over the real national modules, with registers that answer
// every well-formed request: the answer is never a 5xx nor a panic, and no
// input changes the shape of an upstream URL.
func FuzzRouter(f *testing.F) {
	for _, s := range [][2]string{
		{"/v1/NO/company/923609016", ""}, {"/v1/no/company/NO 923 609 016 MVA/deadlines", "today=2026-02-28"},
		{"/v1/GB/company/sc571653", ""}, {"/v1/GB/search", "q=bbc&limit=3"}, {"/v1/NO/search", "q=sør+as&limit=100"},
		{"/v1/NO/search", "q=x%26size%3D1000"}, {"/v1/GB/validate/../../x", ""}, {"/v1/UK/company/1", ""},
		{"/v1/NO/company/923609016/deadlines", "today=2026-13-45"}, {"/v1/NO/search", "q=%zz&limit=1e3"},
		{"//v1//countries", ""}, {"/openapi.json", ""}, {"/v1/GB/company/08957400%2F..%2Fsearch", ""},
	} {
		f.Add(s[0], s[1])
	}
	for _, id := range hostileIDs() {
		f.Add("/v1/NO/company/"+id, "")
		f.Add("/v1/GB/company/"+id+"/deadlines", "")
	}
	for _, q := range hostileQueries() {
		f.Add("/v1/GB/search", "q="+q)
	}
	g := &upstreamGuard{}
	reg := newE2ERegistry(f, chKey, g.transport(f), newFakeClock())
	h, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		r := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/" + strings.TrimPrefix(path, "/"), RawQuery: query},
			Header: http.Header{}, RemoteAddr: "192.0.2.1:1234", Host: "example.org"}
		r = r.WithContext(t.Context())
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 || w.Code == 422 {
			t.Errorf("status %d for %q?%q: %s", w.Code, path, query, w.Body)
		}
		if v := g.violations(); len(v) > 0 {
			t.Fatalf("%q?%q changed the upstream request: %s", path, query, strings.Join(v, "; "))
		}
	})
}
