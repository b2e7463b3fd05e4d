package restserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/companyregistry/registry/restserver"
)

// FuzzServeHTTP sends arbitrary paths and query strings through the handler:
// every answer is JSON or text, never 422, and every failure is an error
// envelope with a hint.
func FuzzServeHTTP(f *testing.F) {
	for _, s := range [][2]string{
		{"/v1/ZZ/search", "q=fake&limit=5"},
		{"/v1/ZZ/search", "q=%zz&limit=1e3"},
		{"/v1/zz/company/123 456/deadlines", "today=2026-02-29"},
		{"/v1/ZZ/validate/../../x", ""},
		{"/v1/UK/company/1", ""},
		{"//v1//countries", ""},
		{"/llms.txt", ""},
		{"/v1/ZZ/company/123456/deadlines.ics", "today=2026-01-15"},
	} {
		f.Add(s[0], s[1])
	}
	clock := newFakeClock()
	h, err := restserver.New(newRegistry(f, clock), restserver.WithRateLimit(0), restserver.WithClock(clock.Now))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		// Identifiers that script slow or failing fakes are not of interest.
		if strings.Contains(path, "504504") {
			return
		}
		r := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/" + strings.TrimPrefix(path, "/"), RawQuery: query},
			Header: http.Header{}, RemoteAddr: "192.0.2.1:1234", Host: "example.org"}
		r = r.WithContext(t.Context())
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code == 422 {
			t.Fatalf("422 for %q?%q", path, query)
		}
		ct := w.Header().Get("Content-Type")
		switch {
		case w.Code >= 300 && w.Code < 400: // the mux cleaning a path
		case strings.HasPrefix(ct, "text/plain"), strings.HasPrefix(ct, "text/calendar"):
		case ct == "application/json":
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("invalid JSON for %q?%q: %s", path, query, w.Body.Bytes())
			}
			if w.Code >= 400 {
				var env struct{ Error struct{ Code, Hint string } }
				if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Error.Code == "" || env.Error.Hint == "" {
					t.Fatalf("status %d without an envelope for %q?%q: %s", w.Code, path, query, w.Body.Bytes())
				}
			}
		default:
			t.Fatalf("Content-Type %q (status %d) for %q?%q", ct, w.Code, path, query)
		}
	})
}
