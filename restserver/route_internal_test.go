package restserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/catalog"
)

// TestLookupRouteAgreesWithTheMux: route serves a request without the mux
// only when the mux would give it to the lookup, with the same values and
// pattern, and answers every request exactly as the mux does: for hand-picked
// paths (dot segments, escapes, empty segments, literals where the pattern
// has wildcards) and for every pattern of the catalogue with its wildcards
// filled in, with each method.
func TestLookupRouteAgreesWithTheMux(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	if s.lookupPattern != "GET "+lookupPath {
		t.Fatalf("lookupPattern %q", s.lookupPattern)
	}
	paths := []string{
		"/v1/NO/company/923609016", "/v1/NO/company/923609016?x=1", "/v1/countries/company/x", "/v1/watches/company/x",
		"/v1/changes/company/x", "/v1/search/company/x", "/v1/NO/company/deadlines", "/v1/NO/company/...",
		"/v1/NO/company/", "/v1/NO/company", "/v1//company/x", "/v1/NO/company//", "/v1/./company/x", "/v1/../company/x",
		"/v1/NO/company/..", "/v1/NO/company/.", "/v1/N%4F/company/1", "/v1/NO/company/1%2F2", "/v1/NO/company/a%20b",
		"/v1/NO/company/1/roles", "/v1/NO/Company/1", "/v2/NO/company/1", "/v1/NO/company/deadlines.ics", "/v1/NO/company/1/",
		"/v1/NO/company/1/..", "/v1/NO/company/x%2e", "/v1/%2e/company/x", "/v1/NO/validate/1", "/v1/countries",
	}
	ops := append(catalog.Operations(), catalog.ChangeOperations()...)
	for _, op := range ops {
		for _, fill := range []string{"company", "countries", "NO", "1"} {
			p := op.Pattern
			for strings.Contains(p, "{") {
				i, j := strings.Index(p, "{"), strings.Index(p, "}")
				p = p[:i] + fill + p[j+1:]
			}
			paths = append(paths, p)
		}
	}
	type answer struct {
		Status  int
		Header  http.Header
		Body    string
		Pattern string
	}
	serve := func(h http.HandlerFunc, method, target string) (answer, *http.Request) {
		r := httptest.NewRequest(method, target, nil)
		w := httptest.NewRecorder()
		h(w, r)
		return answer{w.Code, w.Header(), w.Body.String(), r.Pattern}, r
	}
	direct := 0
	for _, method := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"} {
		for _, target := range paths {
			want, mr := serve(s.mux.ServeHTTP, method, target)
			got, _ := serve(s.route, method, target)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %s: route and the mux differ (-mux +route):\n%s", method, target, diff)
			}
			country, id, ok := s.lookupRoute(httptest.NewRequest(method, target, nil))
			if ok {
				direct++
				if mr.Pattern != s.lookupPattern || country != mr.PathValue("country") || id != mr.PathValue("id") {
					t.Errorf("%s %s: without the mux %q %q, the mux %q %q %q", method, target, country, id,
						mr.Pattern, mr.PathValue("country"), mr.PathValue("id"))
				}
			}
		}
	}
	if direct == 0 {
		t.Error("no request went without the mux")
	}
}
