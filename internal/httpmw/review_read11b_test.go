package httpmw_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestReview_NestedMaxHeaderBytesSkipsARequestItNeverCounted: the inner
// MaxHeaderBytes skips its count because the stack's Request says an outer
// one passed a bound as large, but the outer counted another *http.Request:
// a piece between them (a handler that adds a header, or serves a request
// of its own with the same writer) hands the inner one a request over the
// inner's own bound, which it used to refuse and now lets through.
func TestReview_NestedMaxHeaderBytesSkipsARequestItNeverCounted(t *testing.T) {
	t.Parallel()
	const bound = 200
	reached := false
	inner := httpmw.MaxHeaderBytes(bound)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
	between := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.Header.Set("X-Big", strings.Repeat("a", 2*bound))
		inner.ServeHTTP(w, r2)
	})
	h := httpmw.New(httpmw.Config{}).Handler("", "request", httpmw.MaxHeaderBytes(bound)(between))
	r := httptest.NewRequest(http.MethodGet, "/health", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	type result struct {
		Code    int
		Reached bool
	}
	if diff := cmp.Diff(result{http.StatusRequestHeaderFieldsTooLarge, false}, result{w.Code, reached}); diff != "" {
		t.Errorf("inner MaxHeaderBytes(%d) on a request of over %d bytes (-want +got):\n%s", bound, 2*bound, diff)
	}
}
