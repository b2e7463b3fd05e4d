//go:build perflayers

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"

	"github.com/companyregistry/registry/internal/httpmw"
)

// perfLayers, in a build with the perflayers tag (.ci/perf-bench.sh with
// LAYERS=1, never a release), replaces the program's handler by the
// answer of GET /v1/NO/company/923609016, captured from the real handler
// at the first request and written back with its headers as perfbench
// bare writes it, to measure what each layer of the cached REST lookup
// costs (BENCHMARKS.md, "REST against the bare server, taken apart by
// layers"). REGISTRY_PERF_LAYER=config serves it through the program's
// HTTP server alone; =mw inside the outer stack (request ID, security
// headers, access log), charging the client rate limit as restserver
// does. Anything else, or unset, is the program as built without the tag.
func perfLayers(full http.Handler, stack *httpmw.Stack) http.Handler {
	switch os.Getenv("REGISTRY_PERF_LAYER") {
	case "config":
		return &capturedAnswer{full: full}
	case "mw":
		return stack.Handler("", "request", &capturedAnswer{full: full, charge: true})
	}
	return full
}

// perfLayerRoute is the cached lookup's route pattern, as the access log
// of the program names it.
const perfLayerRoute = "GET /v1/{country}/company/{id}"

// capturedAnswer writes the answer full gives to the cached lookup.
type capturedAnswer struct {
	full   http.Handler
	charge bool // charge the rate limit and keep the stack's request ID
	once   sync.Once
	header http.Header
	status int
	body   []byte
}

func (c *capturedAnswer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.once.Do(func() {
		for range 2 { // the first fills the cache
			rec := httptest.NewRecorder()
			c.full.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/NO/company/923609016", nil))
			c.header, c.status, c.body = rec.Header().Clone(), rec.Code, bytes.Clone(rec.Body.Bytes())
		}
		c.header.Del("Date")
		if c.charge {
			c.header.Del("X-Request-Id") // the stack sets its own
		}
	})
	if c.charge {
		// The route the access-log record names, as restserver names the
		// lookup's (its route sets the request's Pattern).
		r.Pattern = perfLayerRoute
		if q := httpmw.Of(w); q.Limited() {
			if ok, _ := q.Charge(r.Context(), 1); !ok {
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
		}
	}
	h := w.Header()
	for k, v := range c.header {
		h[k] = v
	}
	w.WriteHeader(c.status)
	_, _ = w.Write(c.body)
}
