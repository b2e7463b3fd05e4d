package registry_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/ratelimit"
)

// replica is one Registry of a scaled-out deployment: its own client, cache
// and budget on the shared Redis.
func replica(t *testing.T, addr string, f *fakeCountry, rate ratelimit.Rate, logs *redistest.Logs) *registry.Registry {
	t.Helper()
	rdb := redistest.Client(addr)
	t.Cleanup(func() { _ = rdb.Close() })
	return replicaOn(t, rdb, f, rate, logs)
}

func replicaOn(t *testing.T, rdb redis.UniversalClient, f *fakeCountry, rate ratelimit.Rate, logs *redistest.Logs) *registry.Registry {
	t.Helper()
	opts := []rediscache.Option{rediscache.WithTimeout(3 * time.Second)}
	if logs != nil {
		opts = append(opts, rediscache.WithLogger(logs.Logger()))
	}
	c, err := rediscache.New(rdb, opts...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := budget.Redis(rdb, "GB", rate, ratelimit.WithTimeout(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return newRegistry(t, f, registry.WithCache(c), registry.WithUpstreamBudget("GB", b))
}

// TestReplicasShareCacheAndBudget: a lookup through replica A, then B: B
// answers cached with A's fetched_at, and the register saw one request; a
// burst of cold lookups spread over both replicas reaches the register at
// most the budget's burst times.
func TestReplicasShareCacheAndBudget(t *testing.T) {
	t.Parallel()
	mr, _ := redistest.Mini(t)
	clockA, clockB := newFakeClock(), newFakeClock()
	clockB.Advance(time.Hour)
	f := &fakeCountry{code: "GB"}
	rate := ratelimit.Rate{Limit: 1, Period: time.Hour, Burst: 4}
	a := replicaOnClock(t, mr.Addr(), f, rate, clockA.Now)
	b := replicaOnClock(t, mr.Addr(), f, rate, clockB.Now)

	ra, err := a.Lookup(t.Context(), "GB", "123456")
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Lookup(t.Context(), "GB", "123456")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{false, true, ra.FetchedAt.String()}, []any{ra.Cached, rb.Cached, rb.FetchedAt.String()}); diff != "" {
		t.Errorf("cached and fetched_at mismatch (-want +got):\n%s", diff)
	}
	if n := f.lookups.Load(); n != 1 {
		t.Errorf("the register saw %d requests, want 1", n)
	}

	limited := 0
	for i := range 10 {
		r := a
		if i%2 == 1 {
			r = b
		}
		id := "2000" + string(rune('0'+i/10)) + string(rune('0'+i%10))
		if _, err := r.Lookup(t.Context(), "GB", id); codeOf(err) == registry.CodeRateLimited {
			limited++
		}
	}
	if n := f.lookups.Load(); n != 4 || limited != 7 {
		t.Errorf("%d requests reached the register and %d were rate_limited, want 4 (the budget) and 7", n, limited)
	}
}

func replicaOnClock(t *testing.T, addr string, f *fakeCountry, rate ratelimit.Rate, now func() time.Time) *registry.Registry {
	t.Helper()
	rdb := redistest.Client(addr)
	t.Cleanup(func() { _ = rdb.Close() })
	var logs redistest.Logs
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	})
	c, err := rediscache.New(rdb, rediscache.WithTimeout(3*time.Second), rediscache.WithLogger(logs.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := budget.Redis(rdb, "GB", rate, ratelimit.WithLogger(logs.Logger()), ratelimit.WithTimeout(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return newRegistry(t, f, registry.WithCache(c), registry.WithUpstreamBudget("GB", b), registry.WithClock(now))
}

// TestReplicasRedisKilled runs two replicas on a real redis-server, kills
// it mid-test (every lookup still answers, one warning per replica's
// cache) and starts it again (sharing resumes).
func TestReplicasRedisKilled(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	f := &fakeCountry{code: "GB"}
	var logsA redistest.Logs
	rate := ratelimit.PerMinute(1000)
	a := replica(t, srv.Addr(), f, rate, &logsA)
	b := replica(t, srv.Addr(), f, rate, nil)

	if _, err := a.Lookup(t.Context(), "GB", "123456"); err != nil {
		t.Fatal(err)
	}
	if rep, err := b.Lookup(t.Context(), "GB", "123456"); err != nil || !rep.Cached {
		t.Fatalf("B: %+v, %v; want a shared hit", rep, err)
	}
	srv.Stop()
	for i := range 10 {
		start := time.Now()
		if _, err := a.Lookup(t.Context(), "GB", "3000"+string(rune('0'+i/10))+string(rune('0'+i%10))); err != nil {
			t.Fatalf("lookup with Redis killed: %v", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("a lookup with Redis killed took %v", d)
		}
	}
	if n := logsA.Count("redis unreachable, using the in-process fallback"); n != 1 {
		t.Errorf("%d warnings from A's cache, want 1:\n%s", n, logsA.String())
	}
	srv.Start()
	before := f.lookups.Load()
	redistest.Eventually(t, 10*time.Second, "sharing resumes", func() bool {
		rep, err := a.Lookup(t.Context(), "GB", "400000")
		if err != nil {
			return false
		}
		rb, err := b.Lookup(t.Context(), "GB", "400000")
		return err == nil && !rep.Cached || err == nil && rb.Cached
	})
	_ = before
	rb, err := b.Lookup(t.Context(), "GB", "400000")
	if err != nil || !rb.Cached {
		t.Errorf("after recovery B: %+v, %v; want a shared hit", rb, err)
	}
}
