package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// BenchmarkHandlerCachedLookup measures the program's whole HTTP handler
// as build composes it for .ci/perf-bench.sh (REST and MCP behind the outer
// middleware stack and its mux, change monitoring's routes on, the access
// log at info through a logWriter, the client rate limit on at 60,000,000
// a minute) answering the cached GET /v1/NO/company/923609016 in process,
// on a writer that discards the body: what the program adds to net/http's
// own work for a request (BENCHMARKS.md, "REST: the cached path against
// the bare server (second pass)"). Its allocations per request are the
// load-independent figure; the time moves with the machine.
func BenchmarkHandlerCachedLookup(b *testing.B) {
	body := testdata(b, "brreg_enhet_923609016.json")
	brreg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/enheter/923609016" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer brreg.Close()
	cfg, err := parseConfig(nil, env(map[string]string{
		"BRREG_BASE_URL":      brreg.URL,
		"REGISTRY_RATE_LIMIT": "60000000",
		"REGISTRY_DATA_DIR":   b.TempDir(),
	}), io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	lw := newLogWriter(io.Discard)
	defer func() { _ = lw.Close() }()
	a, err := build(cfg, newLogger(lw, cfg.logLevel))
	if err != nil {
		b.Fatal(err)
	}
	defer a.close()

	req := httptest.NewRequest(http.MethodGet, "/v1/NO/company/923609016", nil)
	// The context the program's HTTP server gives a request of a
	// connection from RemoteAddr (newHTTPServer's ConnContext).
	srv := newHTTPServer(a.handler, newLogger(lw, cfg.logLevel), defaultLimits())
	conn := peerConn{remote: net.TCPAddrFromAddrPort(netip.MustParseAddrPort(req.RemoteAddr))}
	req = req.WithContext(srv.ConnContext(req.Context(), conn))
	w := &discardWriter{h: make(http.Header)}
	for range 2 { // the first fills the cache
		w.reset()
		a.handler.ServeHTTP(w, req)
	}
	if w.status != http.StatusOK || !bytes.Contains(w.last, []byte(`"cached":true`)) {
		b.Fatalf("warm-up: %d %s", w.status, w.last)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		a.handler.ServeHTTP(w, req)
	}
	if w.status != http.StatusOK || w.n != len(w.last) || !strings.Contains(w.h.Get("Content-Type"), "json") {
		b.Fatalf("last answer: %d, %d bytes", w.status, w.n)
	}
}

// peerConn is a connection from remote, for a ConnContext.
type peerConn struct {
	net.Conn
	remote net.Addr
}

func (c peerConn) RemoteAddr() net.Addr { return c.remote }

// discardWriter is a ResponseWriter that keeps the status, the size and
// the last body slice written, and discards the bytes.
type discardWriter struct {
	h      http.Header
	status int
	n      int
	last   []byte
}

func (d *discardWriter) reset() {
	clear(d.h)
	d.status, d.n, d.last = 0, 0, nil
}

func (d *discardWriter) Header() http.Header { return d.h }

func (d *discardWriter) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}

func (d *discardWriter) Write(p []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	d.n += len(p)
	d.last = p
	return len(p), nil
}
