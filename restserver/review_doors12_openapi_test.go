package restserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/restserver"
)

// TestReview_Doors12DocumentGETsAnswerNo4XX (doors12 item 5): the five
// GETs of the service's own documents, whose missing 4XX response
// .redocly.lint-ignore.yaml lets pass, answer 200 and nothing else, with a
// malformed query, an odd Host and a spent rate limit; the document lists
// only 200 for them. When one of them gains an error answer, document it
// and take its line out of the ignore file.
func TestReview_Doors12DocumentGETsAnswerNo4XX(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	rest, err := restserver.New(newRegistry(t, clock), restserver.WithClock(clock.Now), restserver.WithRateLimit(1))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/health", "/llms-full.txt", "/llms.txt", "/openapi.json", "/server.json"}
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage
		}
	}
	rec := httptest.NewRecorder()
	rest.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want, got := map[string][]string{}, map[string][]string{}
	for _, p := range paths {
		want[p] = []string{"200"}
		var statuses []string
		for st := range doc.Paths[p]["get"].Responses {
			statuses = append(statuses, st)
		}
		slices.Sort(statuses)
		got[p] = statuses
		for _, target := range []string{p, p + "?x=%zz", p + "?%", p, p} {
			for _, host := range []string{"example.com", "[::1", ""} {
				r := httptest.NewRequest(http.MethodGet, target, nil)
				r.Host = host
				r.Header.Set("X-Forwarded-Host", "evil\x01")
				w := httptest.NewRecorder()
				rest.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					got[p] = append(got[p], target+" "+host+": "+http.StatusText(w.Code))
				}
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses documented and answered (-want +got):\n%s", diff)
	}
}
