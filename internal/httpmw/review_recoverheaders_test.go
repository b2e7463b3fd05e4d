package httpmw_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestReview_RecoverKeepsHandlerHeaders: Recover's internal_error envelope
// is sent with whatever headers the handler had set before it panicked
// (WriteError sets only Content-Type, Cache-Control and Content-Length): a
// Content-Encoding makes the JSON envelope undecodable for the client, a
// Content-Disposition offers it as a download named after the calendar
// file, an ETag or Last-Modified describes a representation that was never
// sent. Latent today: restserver's ICS handler sets Content-Disposition
// only just before it writes, with nothing between that can panic.
func TestReview_RecoverKeepsHandlerHeaders(t *testing.T) {
	t.Parallel()
	s := httpmw.New(httpmw.Config{})
	h := httpmw.Chain(s.Begin, s.Recover)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
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
}
