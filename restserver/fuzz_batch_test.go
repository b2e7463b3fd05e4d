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

// FuzzDeadlinesBatch posts arbitrary bodies to the batch route: the answer
// is 200 with one item per identifier, or an error envelope with a hint;
// never 422, never a panic.
func FuzzDeadlinesBatch(f *testing.F) {
	for _, s := range []string{
		`{"ids":["123456","12345","000000"],"today":"2026-01-15"}`,
		`{"ids":[]}`, `{"ids":[null]}`, `{"ids":"x"}`, `{"IDS":["1"]}`, `{"ids":["1"],"today":""}`,
		`[]`, `null`, ``, `{"ids":["1"]}x`, `{"ids":["123456"],"today":null,"ids":["654321"]}`,
	} {
		f.Add(s)
	}
	clock := newFakeClock()
	h, err := restserver.New(newRegistry(f, clock), restserver.WithRateLimit(0), restserver.WithClock(clock.Now))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		// Identifiers that script slow or failing fakes are not of interest.
		if strings.Contains(body, "504504") || strings.Contains(body, "666666") || strings.Contains(body, "429429") {
			return
		}
		r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/v1/ZZ/deadlines:batch", strings.NewReader(body))
		r.URL = &url.URL{Path: "/v1/ZZ/deadlines:batch"}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if ct := w.Header().Get("Content-Type"); ct != "application/json" || !json.Valid(w.Body.Bytes()) {
			t.Fatalf("status %d, %q, not JSON for %q: %s", w.Code, ct, body, w.Body.Bytes())
		}
		switch w.Code {
		case http.StatusOK:
			var res struct {
				Count int
				Items []struct{ ID string }
			}
			if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || res.Count != len(res.Items) || res.Count < 1 || res.Count > restserver.MaxBatchIDs {
				t.Fatalf("200 with %d items (%v) for %q", len(res.Items), err, body)
			}
		case http.StatusBadRequest:
			var env struct{ Error struct{ Code, Hint string } }
			if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Error.Code != "bad_request" || env.Error.Hint == "" {
				t.Fatalf("400 without a bad_request envelope for %q: %s", body, w.Body.Bytes())
			}
		default:
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body.Bytes())
		}
	})
}
