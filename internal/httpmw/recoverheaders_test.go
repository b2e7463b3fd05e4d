package httpmw_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestRecoverDropsHandlerHeaders: Recover's internal_error envelope is
// sent without the headers the handler had set for the answer it never
// sent (before, it kept them): a Content-Encoding would make the JSON
// envelope undecodable for the client, a Content-Disposition would offer
// it as a download named after the calendar file, an ETag would describe a
// representation that was never sent. The stack's own headers, the request
// ID and the security headers, stay.
func TestRecoverDropsHandlerHeaders(t *testing.T) {
	t.Parallel()
	s := httpmw.New(httpmw.Config{})
	h := httpmw.Chain(httpmw.SecurityHeaders(""), s.Begin, s.Recover)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Encoding", "gzip")
		h.Set("Content-Disposition", `attachment; filename="923609016.ics"`)
		h.Set("ETag", `"v1"`)
		panic("while encoding")
	}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, request("192.0.2.1:1", "rid-h"))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", w.Code)
	}
	stale := map[string]string{}
	for _, k := range []string{"Content-Encoding", "Content-Disposition", "ETag"} {
		if v := w.Header().Get(k); v != "" {
			stale[k] = v
		}
	}
	if len(stale) > 0 {
		t.Errorf("the internal_error envelope went out with the failed handler's headers %v", stale)
	}
	if got := w.Header().Get("X-Request-Id"); got != "rid-h" {
		t.Errorf("X-Request-Id %q, want the request's ID", got)
	}
	if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options %q, want nosniff", got)
	}
	if got := w.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q, want the envelope's", got)
	}
}
