package restserver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/restserver"
)

// TestEmptyIDRoutes: every operation under /v1/{country}/company/{id}/
// answers an empty identifier itself, as with any other identifier (HEAD
// as GET, another method the 405 envelope), an unknown operation there is
// the not_found envelope, and none is the mux's redirect, also mounted
// under a base path with http.StripPrefix.
func TestEmptyIDRoutes(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	rest, err := restserver.New(reg, restserver.WithClock(clock.Now), restserver.WithBasePath("/registry"))
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"", "/registry"} {
		var h http.Handler = rest
		if base != "" {
			h = http.StripPrefix(base, rest)
		}
		type answer struct {
			Status      int
			ContentType string
			Code        string
			Allow       string
		}
		for _, tc := range []struct {
			method, path string
			want         answer
		}{
			{"GET", "/v1/ZZ/company//deadlines", answer{400, "application/json", "invalid_id", ""}},
			{"HEAD", "/v1/ZZ/company//deadlines", answer{400, "application/json", "", ""}},
			{"GET", "/v1/ZZ/company//deadlines.ics", answer{400, "application/json", "invalid_id", ""}},
			{"GET", "/v1/ZZ/company//roles", answer{501, "application/json", "not_implemented", ""}},
			{"POST", "/v1/ZZ/company//deadlines", answer{405, "application/json", "bad_request", "GET, HEAD"}},
			{"GET", "/v1/ZZ/company//nope", answer{404, "application/json", "not_found", ""}},
		} {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(tc.method, base+tc.path, nil))
			got := answer{w.Code, w.Header().Get("Content-Type"), "", w.Header().Get("Allow")}
			if tc.method != http.MethodHead {
				got.Code = string(errorOf(t, w.Body.Bytes()).Code)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s %s%s (-want +got):\n%s", tc.method, base, tc.path, diff)
			}
		}
	}
}
