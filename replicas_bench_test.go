package registry_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/ratelimit"
	"github.com/companyregistry/registry/restserver"
)

// scaleSetups are the deployments the scale-out benchmarks compare: memory
// only (one replica), Redis with the in-process tier (the default of
// rediscache) and Redis on every Get. They need a real redis-server, and
// skip without one (see redistest.StartServer).
func scaleSetups(b *testing.B) map[string][]registry.Option {
	b.Helper()
	srv := redistest.StartServer(b)
	rdb, err := rediscache.NewClient("redis://" + srv.Addr())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = rdb.Close() })
	tier, err := rediscache.New(rdb)
	if err != nil {
		b.Fatal(err)
	}
	noTier, err := rediscache.New(rdb, rediscache.WithoutLocalTier())
	if err != nil {
		b.Fatal(err)
	}
	bud, err := budget.Redis(rdb, "NO", ratelimit.PerMinute(1<<30/60))
	if err != nil {
		b.Fatal(err)
	}
	return map[string][]registry.Option{
		"memory":       nil,
		"redis":        {registry.WithCache(tier), registry.WithUpstreamBudget("NO", bud)},
		"redis-notier": {registry.WithCache(noTier), registry.WithUpstreamBudget("NO", bud)},
	}
}

func scaleCountry() *fakeCountry {
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		rep := countrykit.NewReport("NO", "fake", id, "BENCHMARK ASA")
		rep.Status = registry.StatusActive
		rep.BusinessAddress = &registry.Address{Lines: []string{"Forusbeen 50"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER")}
		return rep, nil
	}
	return f
}

// BenchmarkScaleRESTCachedLookup is a cached GET /v1/NO/company/{id}
// through the REST handler (rate limit off), in parallel, for each setup.
func BenchmarkScaleRESTCachedLookup(b *testing.B) {
	for _, name := range []string{"memory", "redis", "redis-notier"} {
		opts := scaleSetups(b)[name]
		b.Run(name, func(b *testing.B) {
			r, err := registry.New([]registry.Country{scaleCountry()}, opts...)
			if err != nil {
				b.Fatal(err)
			}
			h, err := restserver.New(r, restserver.WithRateLimit(0))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Lookup(context.Background(), "NO", "123456"); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				req := httptest.NewRequest(http.MethodGet, "/v1/NO/company/123456", nil)
				for pb.Next() {
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					if w.Code != http.StatusOK {
						b.Errorf("status %d", w.Code)
						return
					}
				}
			})
		})
	}
}

// BenchmarkScaleColdLookup is a Registry.Lookup of an identifier never seen
// before, from an instant fake register: the difference between the setups
// is what Redis adds to a cold lookup (a GET miss, the budget's script and
// a SET).
func BenchmarkScaleColdLookup(b *testing.B) {
	for _, name := range []string{"memory", "redis", "redis-notier"} {
		opts := scaleSetups(b)[name]
		b.Run(name, func(b *testing.B) {
			r, err := registry.New([]registry.Country{scaleCountry()}, opts...)
			if err != nil {
				b.Fatal(err)
			}
			var n atomic.Int64
			n.Store(time.Now().UnixNano() % 1_000_000 * 1000)
			b.ReportAllocs()
			for b.Loop() {
				id := fmt.Sprintf("%06d", n.Add(1)%1_000_000)
				if _, err := r.Lookup(context.Background(), "NO", id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
