package restserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/companyregistry/registry/restserver"
)

// BenchmarkLookupCached measures a cached Norwegian lookup through the
// handler beside a bare handler that writes the same bytes: in process
// (ServeHTTP on a recorder) and over loopback HTTP with parallel clients.
func BenchmarkLookupCached(b *testing.B) {
	reg := newE2ERegistry(b, chKey, newUpstreams(b), newFakeClock())
	h, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		b.Fatal(err)
	}
	const path = "/v1/NO/company/923609016"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil)) // now cached
	if w.Code != 200 {
		b.Fatalf("warm-up: %d %s", w.Code, w.Body)
	}
	body := w.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	limited, err := restserver.New(reg, restserver.WithRateLimit(1<<30))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"handler", h}, {"handler-ratelimited", limited}, {"bare", bare}} {
		b.Run("inprocess/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					w := httptest.NewRecorder()
					c.h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
				}
			})
		})
		b.Run("loopback/"+c.name, func(b *testing.B) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			tr := srv.Client().Transport.(*http.Transport).Clone()
			tr.MaxIdleConnsPerHost = 256
			client := &http.Client{Transport: tr}
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					res, err := client.Get(srv.URL + path)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
			})
		})
	}
}
