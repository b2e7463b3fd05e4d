package restserver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/restserver"
)

// TestReview_Doors12SlashSegmentOtherMethodIs405 (rev-doors12): doors12
// made a whole segment %2F "/" to the operation (slashValue), so that
// GET /v1/ZZ/company/%2F/roles is the operation's answer as
// /v1/ZZ/company/%2F%2F/roles and /v1/ZZ/company//roles are. Another
// method on those paths is the route's 405 envelope, as on any
// identifier; but slashValue reads the mux's pattern only when it has a
// method ("POST /…"), so the pattern without one, whose handler is that
// 405, makes it give up and the mux answers 404 not_found.
func TestReview_Doors12SlashSegmentOtherMethodIs405(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	rest, err := restserver.New(newRegistry(t, clock), restserver.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Status int
		Code   string
	}
	do := func(method, path string) answer {
		w := httptest.NewRecorder()
		rest.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		a := answer{Status: w.Code}
		if w.Header().Get("Content-Type") == "application/json" {
			a.Code = string(errorOf(t, w.Body.Bytes()).Code)
		}
		return a
	}
	for _, tc := range []struct{ method, path, same string }{
		{http.MethodPost, "/v1/ZZ/company/%2F/roles", "/v1/ZZ/company/%2F%2F/roles"},
		{http.MethodDelete, "/v1/ZZ/company/%2F/deadlines", "/v1/ZZ/company//deadlines"},
		{http.MethodPost, "/v1/ZZ/company/%2F", "/v1/ZZ/company/%2F%2F"},
		{http.MethodGet, "/v1/%2F/deadlines:batch", "/v1/%2F%2F/deadlines:batch"},
	} {
		want := do(tc.method, tc.same)
		if want.Status != http.StatusMethodNotAllowed {
			t.Fatalf("%s %s: %+v, want the 405 envelope", tc.method, tc.same, want)
		}
		if diff := cmp.Diff(want, do(tc.method, tc.path)); diff != "" {
			t.Errorf("%s %s (-as %s +got):\n%s", tc.method, tc.path, tc.same, diff)
		}
	}
}
