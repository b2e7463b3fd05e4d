package restserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/restserver"
)

// TestReview_Doors12OddIDSpellings (doors12 item 2): the handler answers
// every spelling of an operation on one company with an empty identifier
// (several slashes, escaped segments) with the operation's own error for
// "", and an identifier or country written %2F (which http.ServeMux
// takes for a trailing slash, answering 404 where %2F%2F is answered)
// with the operation's own error for "/", as the Go API gives them;
// never a redirect. A trailing slash after the empty identifier is the
// not_found envelope, as after any identifier. At the root and under a
// base path (http.StripPrefix).
func TestReview_Doors12OddIDSpellings(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	rest, err := restserver.New(reg, restserver.WithClock(clock.Now), restserver.WithBasePath("/registry"))
	if err != nil {
		t.Fatal(err)
	}
	today := registry.DateOf(clock.Now())
	type answer struct {
		Status   int
		Location string
		Code     string
		Message  string
	}
	apiAnswer := func(err error) answer {
		_, e := ops.EnvelopeJSON(err)
		return answer{Status: e.HTTPStatus(), Code: string(e.Code), Message: e.Message}
	}
	deadlines := func(country, id string) answer {
		_, err := reg.Deadlines(context.Background(), country, id, today)
		return apiAnswer(err)
	}
	_, lookupErr := reg.Lookup(context.Background(), "ZZ", "/")
	validation, err := reg.Validate("ZZ", "/")
	if err != nil || validation.Valid {
		t.Fatalf("Validate(ZZ, /): %+v, %v", validation, err)
	}
	notFound := answer{http.StatusNotFound, "", "not_found", "There is no route at this path."}
	for _, base := range []string{"", "/registry"} {
		var h http.Handler = rest
		if base != "" {
			h = http.StripPrefix(base, rest)
		}
		for _, tc := range []struct {
			path string
			want answer
		}{
			{"/v1/ZZ/company//deadlines", deadlines("ZZ", "")},
			{"/v1/ZZ/company///deadlines", deadlines("ZZ", "")},
			{"/v1/ZZ/company//%64eadlines", deadlines("ZZ", "")},
			{"/v1/Z%5A/company//deadlines", deadlines("ZZ", "")},
			{"/v1/ZZ/%63ompany//deadlines", deadlines("ZZ", "")},
			{"/v1/ZZ/company//deadlines/", notFound},
			{"/v1/ZZ/company/%2F/deadlines", deadlines("ZZ", "/")},
			{"/v1/ZZ/company/%2f/deadlines", deadlines("ZZ", "/")},
			{"/v1/ZZ/company/%2F%2F/deadlines", deadlines("ZZ", "//")},
			{"/v1/%2F/company/%2F/deadlines", deadlines("/", "/")},
			{"/v1/ZZ/company/%2F", apiAnswer(lookupErr)},
			{"/v1/ZZ/company/%2F/nope", notFound},
		} {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, base+tc.path+"?today=2026-01-15", nil))
			got := answer{Status: w.Code, Location: w.Header().Get("Location")}
			if w.Header().Get("Content-Type") == "application/json" {
				e := errorOf(t, w.Body.Bytes())
				got.Code, got.Message = string(e.Code), e.Message
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("GET %s%s (-the operation's answer +got):\n%s", base, tc.path, diff)
			}
		}
		// validate answers 200 with the validation of "/".
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, base+"/v1/ZZ/validate/%2F", nil))
		want, err := json.Marshal(ops.SurfaceValidation(validation))
		if err != nil {
			t.Fatal(err)
		}
		type validated struct {
			Status int
			Body   string
		}
		if diff := cmp.Diff(validated{http.StatusOK, string(want)}, validated{w.Code, strings.TrimSpace(w.Body.String())}); diff != "" {
			t.Errorf("GET %s/v1/ZZ/validate/%%2F (-Validate(ZZ, /) +got):\n%s", base, diff)
		}
	}
}
