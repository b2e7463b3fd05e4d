package restserver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/companyregistry/registry/restserver"
)

// BenchmarkOverhead measures what the handler adds around an operation:
// GET /v1/countries (no upstream, a small document) through the handler,
// with and without the rate limiter, beside a bare handler writing the same
// bytes.
func BenchmarkOverhead(b *testing.B) {
	reg := newRegistry(b, newFakeClock())
	const path = "/v1/countries"
	plain, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		b.Fatal(err)
	}
	limited, err := restserver.New(reg, restserver.WithRateLimit(1<<30))
	if err != nil {
		b.Fatal(err)
	}
	w := httptest.NewRecorder()
	plain.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	body := w.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"handler", plain}, {"handler-ratelimited", limited}, {"bare", bare}} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", path, nil)
			b.ReportAllocs()
			for b.Loop() {
				c.h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}
