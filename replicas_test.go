package registry_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/internal/testwait"
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
	var opts []rediscache.Option
	if logs != nil {
		opts = append(opts, rediscache.WithLogger(logs.Logger()))
	}
	c, err := rediscache.New(rdb, opts...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := budget.Redis(rdb, "GB", rate)
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
	c, err := rediscache.New(rdb, rediscache.WithLogger(logs.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := budget.Redis(rdb, "GB", rate, ratelimit.WithLogger(logs.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	return newRegistry(t, f, registry.WithCache(c), registry.WithUpstreamBudget("GB", b), registry.WithClock(now))
}

// TestReplicasRedisKilled runs two replicas on a real redis-server, kills
// it mid-test (every lookup still answers without waiting on Redis, one
// warning per replica's cache) and starts it again (sharing resumes).
//
// Why a lookup with Redis killed does not wait, without a stopwatch: the
// replicas' client has no timeout at all (redistest.Client drops the 100 ms
// each component puts on a Redis call), so a lookup that waited on Redis,
// for a timeout or an answer, would never end, and the wait for the
// lookups reports a hang. They end because each Redis call fails at once on
// the killed connection, and the cache and the budget then fall back,
// trying Redis again at most once per retry interval (1 s) each, not on
// every lookup: that bound is checked too.
func TestReplicasRedisKilled(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	f := &fakeCountry{code: "GB"}
	var logsA redistest.Logs
	rate := ratelimit.PerMinute(1000)
	rdbA := redistest.Client(srv.Addr())
	t.Cleanup(func() { _ = rdbA.Close() })
	callsA := &commandLog{}
	rdbA.AddHook(callsA)
	a := replicaOn(t, rdbA, f, rate, &logsA)
	b := replica(t, srv.Addr(), f, rate, nil)

	if _, err := a.Lookup(t.Context(), "GB", "123456"); err != nil {
		t.Fatal(err)
	}
	if rep, err := b.Lookup(t.Context(), "GB", "123456"); err != nil || !rep.Cached {
		t.Fatalf("B: %+v, %v; want a shared hit", rep, err)
	}
	srv.Stop()
	before := len(callsA.all())
	start := time.Now()
	errs := make(chan error, 1)
	go func() {
		for i := range 10 {
			if _, err := a.Lookup(context.Background(), "GB", fmt.Sprintf("3000%02d", i)); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	if err := testwait.Recv(t, errs, "10 lookups with Redis killed (a lookup waits on Redis)"); err != nil {
		t.Fatalf("lookup with Redis killed: %v", err)
	}
	elapsed := time.Since(start)
	killed := callsA.all()[before:]
	for _, c := range killed {
		if c.err == nil {
			t.Errorf("Redis call %s with Redis killed succeeded", c.name)
		}
	}
	// Two components (cache, budget), each one call when it finds Redis
	// gone and then at most one per second.
	if most := 2 * (int(elapsed/time.Second) + 1); len(killed) > most {
		t.Errorf("10 lookups with Redis killed made %d Redis calls in %v, want at most %d (a probe per second each of the cache and the budget): %v",
			len(killed), elapsed, most, killed)
	}
	if n := logsA.Count("redis unreachable, using the in-process fallback"); n != 1 {
		t.Errorf("%d warnings from A's cache, want 1:\n%s", n, logsA.String())
	}
	srv.Start()
	// Sharing resumes: a company only A looked up is a hit on B. Each try
	// takes an identifier neither replica has seen, so that B's hit can only
	// come from Redis.
	try := 0
	testwait.Until(t, "sharing resumes", func() bool {
		try++
		id := fmt.Sprintf("4%05d", try)
		if _, err := a.Lookup(t.Context(), "GB", id); err != nil {
			t.Fatalf("after recovery A: %v", err)
		}
		rb, err := b.Lookup(t.Context(), "GB", id)
		if err != nil {
			t.Fatalf("after recovery B: %v", err)
		}
		return rb.Cached
	})
}

// commandLog is a redis.Hook that records the commands a component sends
// (not those of a connection's handshake) and how each ended.
type commandLog struct {
	mu    sync.Mutex
	calls []command
}

type command struct {
	name string
	err  error
}

func (c command) String() string { return fmt.Sprintf("%s: %v", c.name, c.err) }

func (l *commandLog) all() []command {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

func (*commandLog) DialHook(next redis.DialHook) redis.DialHook { return next }

func (l *commandLog) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if name := cmd.Name(); name != "hello" && name != "client" && name != "auth" && name != "select" {
			l.mu.Lock()
			l.calls = append(l.calls, command{name, err})
			l.mu.Unlock()
		}
		return err
	}
}

func (*commandLog) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
