package perf

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/seal"
)

// BenchmarkCachedLookup compares three handlers answering a cached
// Norwegian lookup (the Equinor recording, through the real module) in one
// run: bare, a plain net/http handler writing the REST body it was given
// (the ceiling); rest, GET /v1/NO/company/{id} through restserver with its
// default options; and mcp, a tools/call of lookup_company through
// mcpserver.Handler. The inprocess variants call ServeHTTP on a writer that
// discards the body; the loopback variants are real HTTP/1.1 requests from
// parallel keep-alive clients to an httptest server.
//
// Throughput ratios (rest ÷ bare, mcp ÷ rest) are the figures to quote;
// see BENCHMARKS.md.
func BenchmarkCachedLookup(b *testing.B) {
	reg := newNorway(b, fakeBase, &http.Client{Transport: newBrreg(b)}, nil)
	rest := newREST(b, reg)
	mcp := newMCP(b, reg)
	const path = "/v1/NO/company/" + equinorID
	call := lookupCall(equinorID)

	// Warm the cache and take the body the bare handler writes.
	for range 2 {
		w := httptest.NewRecorder()
		rest.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusOK {
			b.Fatalf("warm-up: %d %s", w.Code, w.Body)
		}
	}
	w := httptest.NewRecorder()
	rest.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	body := slices.Clone(w.Body.Bytes())
	if !strings.Contains(string(body), `"cached":true`) {
		b.Fatalf("not a cached answer: %s", body)
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	w = httptest.NewRecorder()
	mcp.ServeHTTP(w, mcpRequest(context.Background(), "http://localhost/mcp", call))
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `\"cached\":true`) {
		b.Fatalf("mcp warm-up: %d %s", w.Code, w.Body)
	}

	handlers := []struct {
		name string
		h    http.Handler
		req  func(ctx context.Context, base string) *http.Request
	}{
		{"bare", bare, func(ctx context.Context, base string) *http.Request {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
			return req
		}},
		{"rest", rest, func(ctx context.Context, base string) *http.Request {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
			return req
		}},
		{"mcp", mcp, func(ctx context.Context, base string) *http.Request {
			return mcpRequest(ctx, base+"/mcp", call)
		}},
	}
	for _, c := range handlers {
		b.Run("inprocess/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				d := &discard{h: make(http.Header)}
				for pb.Next() {
					d.reset()
					req := c.req(context.Background(), "http://localhost")
					req.RemoteAddr = "192.0.2.1:1234"
					c.h.ServeHTTP(d, req)
					if d.status != http.StatusOK {
						b.Errorf("status %d", d.status)
						return
					}
				}
			})
		})
	}
	for _, c := range handlers {
		b.Run("loopback/"+c.name, func(b *testing.B) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			tr := srv.Client().Transport.(*http.Transport).Clone()
			tr.MaxIdleConnsPerHost = 64
			client := &http.Client{Transport: tr}
			defer tr.CloseIdleConnections()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					res, err := client.Do(c.req(context.Background(), srv.URL))
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusOK {
						b.Errorf("status %d", res.StatusCode)
						return
					}
				}
			})
		})
	}
}

// BenchmarkRegistryCacheHit measures the Registry's cached lookup as the
// adapters use it (LookupJSON: the stored bytes, nothing decoded) over the
// real Norwegian module, once sequentially and once under parallel load on
// the default cache.
func BenchmarkRegistryCacheHit(b *testing.B) {
	reg := newNorway(b, fakeBase, &http.Client{Transport: newBrreg(b)}, nil)
	ctx := context.Background()
	if _, err := reg.Internal(seal.Key{}).LookupJSON(ctx, "NO", equinorID); err != nil {
		b.Fatal(err)
	}
	b.Run("sequential", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := reg.Internal(seal.Key{}).LookupJSON(ctx, "NO", equinorID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := reg.Internal(seal.Key{}).LookupJSON(ctx, "NO", equinorID); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("parallel-1000-keys", func(b *testing.B) {
		ids := orgNrs(1000)
		for _, id := range ids {
			if _, err := reg.Internal(seal.Key{}).LookupJSON(ctx, "NO", id); err != nil {
				b.Fatal(err)
			}
		}
		var next atomic.Uint64
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := next.Add(7919)
			for pb.Next() {
				i++
				if _, err := reg.Internal(seal.Key{}).LookupJSON(ctx, "NO", ids[i%uint64(len(ids))]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkValidateNorway measures offline validation of a Norwegian
// organisation number, written as users write it ("NO 923 609 016 MVA"),
// at each layer: the Registry (which returns a *ValidationResult) and the
// REST route in process (GET /v1/NO/validate/{id}, JSON written).
func BenchmarkValidateNorway(b *testing.B) {
	reg := newNorway(b, fakeBase, &http.Client{Transport: newBrreg(b)}, nil)
	const input = "NO 923 609 016 MVA"
	b.Run("registry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := reg.Validate("NO", input)
			if err != nil || !v.Valid {
				b.Fatal(v, err)
			}
		}
	})
	b.Run("rest-inprocess", func(b *testing.B) {
		rest := newREST(b, reg)
		req := httptest.NewRequest(http.MethodGet, "/v1/NO/validate/NO%20923%20609%20016%20MVA", nil)
		d := &discard{h: make(http.Header)}
		b.ReportAllocs()
		for b.Loop() {
			d.reset()
			rest.ServeHTTP(d, req)
			if d.status != http.StatusOK {
				b.Fatalf("status %d", d.status)
			}
		}
	})
}

// BenchmarkColdLookup measures what a cold lookup (no cache hit: every
// iteration asks for another organisation number) adds to the register's
// own latency. The fake register answers after a fixed delay (20 ms) over
// real HTTP; the REST handler is behind a second httptest server and a
// client asks it over real HTTP.
//
// Reported metrics:
//
//	added-p50-µs, added-p99-µs  the REST request's duration minus the
//	                            duration of the upstream request made inside
//	                            it (timed by a wrapping RoundTripper): what
//	                            the service adds, upstream jitter excluded
//	upstream-p50-ms/-p99-ms     the register asked directly, same client
//	rest-p50-ms/-p99-ms         the whole cold lookup through the service
//
// Run it with a fixed count, e.g. -benchtime=400x, so that p99 has enough
// samples; it is a measurement, not a test.
func BenchmarkColdLookup(b *testing.B) {
	up := newBrreg(b)
	up.delay = 20 * time.Millisecond
	upSrv := httptest.NewServer(up)
	defer upSrv.Close()
	inner := &timedTransport{next: upSrv.Client().Transport}
	reg := newNorway(b, upSrv.URL+"/enhetsregisteret/api", &http.Client{Transport: inner}, nil)
	restSrv := httptest.NewServer(newREST(b, reg))
	defer restSrv.Close()
	client := restSrv.Client()
	upClient := upSrv.Client()

	ids := orgNrs(2 * (b.N + 1))
	get := func(c *http.Client, url string) time.Duration {
		start := time.Now()
		res, err := c.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		body := readAll(b, res)
		d := time.Since(start)
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d %s", url, res.StatusCode, body)
		}
		return d
	}
	// Open the connections.
	get(upClient, upSrv.URL+"/enhetsregisteret/api/enheter/"+ids[0])
	get(client, restSrv.URL+"/v1/NO/company/"+ids[1])

	added := make([]time.Duration, 0, b.N)
	upstream := make([]time.Duration, 0, b.N)
	total := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		upstream = append(upstream, get(upClient, upSrv.URL+"/enhetsregisteret/api/enheter/"+ids[2*i+2]))
		d := get(client, restSrv.URL+"/v1/NO/company/"+ids[2*i+3])
		total = append(total, d)
		added = append(added, d-inner.last.Load().(time.Duration))
	}
	b.StopTimer()
	if got, want := up.requests.Load(), int64(2*(b.N+1)); got != want {
		b.Fatalf("the register got %d requests, want %d (a cold lookup is one request)", got, want)
	}
	b.ReportMetric(float64(percentile(added, 50).Microseconds()), "added-p50-µs")
	b.ReportMetric(float64(percentile(added, 99).Microseconds()), "added-p99-µs")
	b.ReportMetric(ms(percentile(upstream, 50)), "upstream-p50-ms")
	b.ReportMetric(ms(percentile(upstream, 99)), "upstream-p99-ms")
	b.ReportMetric(ms(percentile(total, 50)), "rest-p50-ms")
	b.ReportMetric(ms(percentile(total, 99)), "rest-p99-ms")
}

// timedTransport records the duration of the last round trip, body read
// included.
type timedTransport struct {
	next http.RoundTripper
	last atomic.Value // time.Duration
}

func (t *timedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	res, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body = &timedBody{ReadCloser: res.Body, done: func() { t.last.Store(time.Since(start)) }}
	return res, nil
}

type timedBody struct {
	io.ReadCloser
	done func()
}

func (b *timedBody) Close() error {
	b.done()
	return b.ReadCloser.Close()
}

// percentile returns the p-th percentile (nearest rank) of ds.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkColdLookupCPU measures the CPU work of a cold lookup (every
// iteration asks for another organisation number) without sockets or
// waiting: the REST handler on a discarding writer, the register answered
// in process (brreg as the RoundTripper). What a cold lookup adds over the
// register's time is this work plus the waits (wake-ups, the loopback round
// trips) that BenchmarkColdLookup and .ci/perf-bench.sh measure.
//
//	registry  Registry.LookupJSON: the fetch, decoding and mapping of the
//	          register's answer, its two encodings and the cache's Set
//	rest      GET /v1/NO/company/{id} through restserver
func BenchmarkColdLookupCPU(b *testing.B) {
	for _, name := range []string{"registry", "rest"} {
		b.Run(name, func(b *testing.B) {
			up := newBrreg(b)
			reg := newNorway(b, fakeBase, &http.Client{Transport: up}, nil)
			rest := newREST(b, reg)
			ids := orgNrs(b.N + 1)
			in := reg.Internal(seal.Key{})
			ctx := context.Background()
			d := &discard{h: make(http.Header)}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				id := ids[i+1]
				if name == "registry" {
					if _, err := in.LookupJSON(ctx, "NO", id); err != nil {
						b.Fatal(err)
					}
					continue
				}
				d.reset()
				req := httptest.NewRequest(http.MethodGet, "/v1/NO/company/"+id, nil)
				req.RemoteAddr = "192.0.2.1:1234"
				rest.ServeHTTP(d, req)
				if d.status != http.StatusOK {
					b.Fatalf("status %d", d.status)
				}
			}
			b.StopTimer()
			if got := up.requests.Load(); got != int64(b.N) {
				b.Fatalf("the register got %d requests, want %d", got, b.N)
			}
		})
	}
}
