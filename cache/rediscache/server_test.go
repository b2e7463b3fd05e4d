package rediscache_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/internal/redistest"
)

// TestCacheRealServerKilledAndBack runs against a real redis-server: the
// server is killed mid-test (every call still answers, one warning) and
// started again (sharing resumes by itself).
func TestCacheRealServerKilledAndBack(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	var logs redistest.Logs
	c := newCache(t, redistest.Client(srv.Addr()), rediscache.WithoutLocalTier(),
		rediscache.WithLogger(logs.Logger()), rediscache.WithRetry(50*time.Millisecond))
	other := newCache(t, redistest.Client(srv.Addr()), rediscache.WithoutLocalTier())

	set(t, c, "k", "v", time.Minute)
	if diff := cmp.Diff(lookup{"v", true}, get(t, other, "k")); diff != "" {
		t.Fatalf("shared Get mismatch (-want +got):\n%s", diff)
	}
	srv.Stop()
	for range 20 {
		start := time.Now()
		get(t, c, "k")
		set(t, c, "k2", "v2", time.Minute)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("a Get and a Set with Redis killed took %v", d)
		}
	}
	if n := logs.Count(msgDown); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
	srv.Start() // empty: the server keeps no data
	set(t, other, "k", "again", time.Minute)
	redistest.Eventually(t, 5*time.Second, "sharing resumes", func() bool {
		v, ok, _ := c.Get(t.Context(), "k")
		return ok && string(v) == "again"
	})
	if n := logs.Count(msgUp); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs.String())
	}
}
