package rediscache_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/internal/testwait"
)

// TestCacheRealServerKilledAndBack runs against a real redis-server: the
// server is killed mid-test (every call still answers without waiting on
// Redis, one warning) and started again (sharing resumes by itself).
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
	// The client has no timeout at all (redistest.Client): a call that
	// waited on Redis, for the cache's timeout or for an answer, would
	// never return, and the wait below would report a hang. Each returns
	// at once because the cache falls back when its call fails on the
	// killed connection (or tries no call between two retries).
	errs := make(chan error, 1)
	go func() {
		var err error
		for range 20 {
			_, _, gerr := c.Get(context.Background(), "k")
			serr := c.Set(context.Background(), "k2", []byte("v2"), time.Minute)
			err = errors.Join(err, gerr, serr)
		}
		errs <- err
	}()
	if err := testwait.Recv(t, errs, "20 Gets and Sets with Redis killed (one waits on Redis)"); err != nil {
		t.Fatalf("with Redis killed: %v", err)
	}
	if n := logs.Count(msgDown); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
	srv.Start() // empty: the server keeps no data
	set(t, other, "k", "again", time.Minute)
	testwait.Until(t, "sharing resumes", func() bool {
		v, ok, _ := c.Get(t.Context(), "k")
		return ok && string(v) == "again"
	})
	if n := logs.Count(msgUp); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs.String())
	}
}

// TestDescribeRealServer: Describe reports Redis reachable, then (killed)
// unreachable within the ping interval, without any other traffic, then
// reachable again; the cache shares again after Describe found Redis back.
func TestDescribeRealServer(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	var logs redistest.Logs
	const every = 50 * time.Millisecond
	c := newCache(t, redistest.Client(srv.Addr()), rediscache.WithoutLocalTier(),
		rediscache.WithLogger(logs.Logger()), rediscache.WithRetry(every))
	other := newCache(t, redistest.Client(srv.Addr()), rediscache.WithoutLocalTier())
	up := cache.Description{Backend: "redis", Reachable: true}
	down := cache.Description{Backend: "redis", Reachable: false}
	if diff := cmp.Diff(up, c.Describe(t.Context())); diff != "" {
		t.Fatalf("Describe with Redis up (-want +got):\n%s", diff)
	}

	srv.Stop()
	testwait.Until(t, "Describe reports Redis down", func() bool {
		return c.Describe(t.Context()) == down
	})
	if n := logs.Count(msgDown); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}

	srv.Start()
	testwait.Until(t, "Describe reports Redis back", func() bool {
		return c.Describe(t.Context()) == up
	})
	set(t, other, "k", "shared", time.Minute)
	if diff := cmp.Diff(lookup{"shared", true}, get(t, c, "k")); diff != "" {
		t.Errorf("Get after Redis is back (-want +got):\n%s", diff)
	}
}

// TestDescribePingsAtMostOncePerSecond: a thousand Describe calls within a
// second cost Redis one PING.
func TestDescribePingsAtMostOncePerSecond(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	rdb := redistest.Client(srv.Addr())
	t.Cleanup(func() { _ = rdb.Close() })
	pings := func() int {
		t.Helper()
		info, err := rdb.Info(t.Context(), "commandstats").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(info, "\n") {
			if rest, ok := strings.CutPrefix(line, "cmdstat_ping:calls="); ok {
				n, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
				return n
			}
		}
		return 0
	}
	c := newCache(t, redistest.Client(srv.Addr()))
	before := pings() // redistest pings the server it starts
	start := time.Now()
	for range 1000 {
		if !c.Describe(t.Context()).Reachable {
			t.Fatal("Describe: Redis unreachable")
		}
	}
	elapsed := time.Since(start)
	if n, want := pings()-before, int(elapsed/time.Second)+1; n < 1 || n > want {
		t.Errorf("%d PINGs for 1000 Describe calls in %v, want 1 to %d", n, elapsed, want)
	}
}
