// Package brregfeed is a fake of Brønnøysund's update feeds for the tests
// and scripts of this repository (never a stand-in for the register in
// production): GET …/oppdateringer/enheter, …/underenheter and …/roller
// as the register serves them (HAL pages of items with a JSON Patch each
// for units and sub-units, a bare array of CloudEvents for roles), read
// forwards by oppdateringsid (inclusive) or dato, at most size items,
// oldest first.
//
// An update is published through [Feed.Publish] (or POST
// …/oppdateringer/enheter with the organisation number and the fields, for
// a script): it replaces top-level fields of the unit's record, which
// [Feed.Unit] applies to the recorded body the fake register answers, and
// appears in the units' feed with those replacements as its endringer. So
// a watched company's update is a real change of its report, as on the
// register. The sub-units' and roles' feeds stay empty.
package brregfeed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TimeLayout is the register's time stamp format (dato, afterTime).
const TimeLayout = "2006-01-02T15:04:05.000Z"

// MaxPublishBytes bounds the body of a publication over HTTP.
const MaxPublishBytes = 64 << 10

// Feed is the fake's state. It is safe for concurrent use.
type Feed struct {
	now    func() time.Time
	mu     sync.Mutex
	items  []item                                // the units' feed, by id
	fields map[string]map[string]json.RawMessage // by organisation number: the fields published
	next   int64
}

type item struct {
	id     int64
	orgnr  string
	at     time.Time
	fields map[string]json.RawMessage
}

// New returns an empty feed whose updates are stamped by now (time.Now
// when nil). Update ids start at 1000.
func New(now func() time.Time) *Feed {
	if now == nil {
		now = time.Now
	}
	return &Feed{now: now, fields: map[string]map[string]json.RawMessage{}, next: 1000}
}

// Publish records an update of the unit orgnr (nine digits) that sets its
// top-level fields (for example {"navn": "NEW NAME AS"} or
// {"konkurs": true}) and returns its oppdateringsid.
func (f *Feed) Publish(orgnr string, fields map[string]any) (int64, error) {
	if len(orgnr) != 9 || strings.Trim(orgnr, "0123456789") != "" {
		return 0, errors.New("brregfeed: an organisation number has nine digits")
	}
	if len(fields) == 0 {
		return 0, errors.New("brregfeed: an update sets at least one field")
	}
	enc := make(map[string]json.RawMessage, len(fields))
	for k, v := range fields {
		if k == "" || strings.ContainsAny(k, "/~") {
			return 0, fmt.Errorf("brregfeed: %q is not a top-level field name", k)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return 0, fmt.Errorf("brregfeed: field %s: %w", k, err)
		}
		enc[k] = b
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	f.items = append(f.items, item{id: f.next, orgnr: orgnr, at: f.now().UTC(), fields: enc})
	if f.fields[orgnr] == nil {
		f.fields[orgnr] = map[string]json.RawMessage{}
	}
	maps.Copy(f.fields[orgnr], enc)
	return f.next, nil
}

// Unit returns body, a recorded unit record (a JSON object), with the
// fields published for orgnr; body itself when none was.
func (f *Feed) Unit(orgnr string, body []byte) ([]byte, error) {
	f.mu.Lock()
	set := maps.Clone(f.fields[orgnr])
	f.mu.Unlock()
	if len(set) == 0 {
		return body, nil
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(body, &rec); err != nil {
		return nil, fmt.Errorf("brregfeed: the unit record is not a JSON object: %w", err)
	}
	maps.Copy(rec, set)
	return json.Marshal(rec)
}

// Handler serves the three feeds under prefix (the API's base path, e.g.
// "/enhetsregisteret/api"), and a publication as POST
// prefix/oppdateringer/enheter?organisasjonsnummer=… with a JSON object of
// the fields as its body (answered with {"oppdateringsid": N}).
func (f *Feed) Handler(prefix string) http.Handler {
	api := strings.TrimRight(prefix, "/")
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+api+"/oppdateringer/enheter", f.serveUnits)
	mux.HandleFunc("POST "+api+"/oppdateringer/enheter", f.servePublish)
	mux.HandleFunc("GET "+api+"/oppdateringer/underenheter", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"page": page(sizeOf(r), 0)})
	})
	mux.HandleFunc("GET "+api+"/oppdateringer/roller", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, []any{})
	})
	return mux
}

func (f *Feed) serveUnits(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	size := sizeOf(r)
	var from int64
	var since time.Time
	switch {
	case q.Get("oppdateringsid") != "":
		n, err := strconv.ParseInt(q.Get("oppdateringsid"), 10, 64)
		if err != nil {
			http.Error(w, "bad oppdateringsid", http.StatusBadRequest)
			return
		}
		from = n
	case q.Get("dato") != "":
		t, err := time.Parse(TimeLayout, q.Get("dato"))
		if err != nil {
			http.Error(w, "bad dato", http.StatusBadRequest)
			return
		}
		since = t
	}
	f.mu.Lock()
	var out []map[string]any
	for _, it := range f.items {
		if it.id < from || it.at.Truncate(time.Millisecond).Before(since) {
			continue
		}
		if len(out) == size {
			break
		}
		var ops []map[string]any
		for _, k := range slices.Sorted(maps.Keys(it.fields)) {
			ops = append(ops, map[string]any{"op": "replace", "path": "/" + k, "value": it.fields[k]})
		}
		out = append(out, map[string]any{
			"oppdateringsid": it.id, "dato": it.at.Format(TimeLayout), "organisasjonsnummer": it.orgnr,
			"endringstype": "Endring", "endringer": ops,
			"_links": map[string]any{"enhet": map[string]string{"href": "https://data.brreg.no/enhetsregisteret/api/enheter/" + it.orgnr}},
		})
	}
	f.mu.Unlock()
	doc := map[string]any{"page": page(size, len(out))}
	if len(out) > 0 { // the register leaves _embedded out of an empty page
		doc["_embedded"] = map[string]any{"oppdaterteEnheter": out}
	}
	writeJSON(w, http.StatusOK, doc)
}

func (f *Feed) servePublish(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxPublishBytes))
	if err != nil {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		http.Error(w, "the body is not a JSON object of fields", http.StatusBadRequest)
		return
	}
	id, err := f.Publish(r.URL.Query().Get("organisasjonsnummer"), fields)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"oppdateringsid": id})
}

// sizeOf reads size: 1 to 10,000, default 20.
func sizeOf(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("size"))
	if err != nil || n < 1 {
		return 20
	}
	return min(n, 10000)
}

func page(size, n int) map[string]int {
	return map[string]int{"size": size, "totalElements": n, "totalPages": 1, "number": 0}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
