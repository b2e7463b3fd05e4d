package ratelimit_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/ratelimit"
)

const (
	msgDown = "redis unreachable, using the in-process fallback"
	msgUp   = "redis reachable again"
)

// decision is the outcome of an Allow, in a form cmp can print.
type decision struct {
	OK    bool
	Retry time.Duration
}

func allow(t *testing.T, l ratelimit.Limiter, key string, cost int) decision {
	t.Helper()
	ok, retry, err := l.Allow(t.Context(), key, cost)
	if err != nil {
		t.Fatalf("Allow(%q, %d): %v", key, cost, err)
	}
	return decision{ok, retry}
}

func newClock() *fakeclock.Clock {
	return fakeclock.New(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
}

func TestLocalPerMinute(t *testing.T) {
	t.Parallel()
	clock := newClock()
	l, err := ratelimit.NewLocal(ratelimit.PerMinute(60), ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		if d := allow(t, l, "a", 1); !d.OK {
			t.Fatalf("request %d refused: %+v", i+1, d)
		}
	}
	if diff := cmp.Diff(decision{false, time.Second}, allow(t, l, "a", 1)); diff != "" {
		t.Errorf("61st request mismatch (-want +got):\n%s", diff)
	}
	// Another key has its own allowance.
	if diff := cmp.Diff(decision{true, 0}, allow(t, l, "b", 1)); diff != "" {
		t.Errorf("other key mismatch (-want +got):\n%s", diff)
	}
	clock.Advance(400 * time.Millisecond)
	if diff := cmp.Diff(decision{false, 600 * time.Millisecond}, allow(t, l, "a", 1)); diff != "" {
		t.Errorf("after 0.4 s mismatch (-want +got):\n%s", diff)
	}
	clock.Advance(600 * time.Millisecond)
	if diff := cmp.Diff(decision{true, 0}, allow(t, l, "a", 1)); diff != "" {
		t.Errorf("after 1 s mismatch (-want +got):\n%s", diff)
	}
	// Idle for a minute: a full burst again.
	clock.Advance(time.Minute)
	for i := range 60 {
		if d := allow(t, l, "a", 1); !d.OK {
			t.Fatalf("after a minute, request %d refused: %+v", i+1, d)
		}
	}
}

func TestLocalCost(t *testing.T) {
	t.Parallel()
	clock := newClock()
	l, err := ratelimit.NewLocal(ratelimit.Rate{Limit: 10, Period: 10 * time.Second, Burst: 5}, ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(decision{true, 0}, allow(t, l, "k", 3)); diff != "" {
		t.Errorf("cost 3 mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(decision{false, time.Second}, allow(t, l, "k", 3)); diff != "" {
		t.Errorf("cost 3 again mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(decision{true, 0}, allow(t, l, "k", 0)); diff != "" { // counts as 1
		t.Errorf("cost 0 mismatch (-want +got):\n%s", diff)
	}
	// 5 - 3 - 1 = 1 left; a cost above the burst needs a full burst: 4
	// more, one per second.
	if diff := cmp.Diff(decision{false, 4 * time.Second}, allow(t, l, "k", 6)); diff != "" {
		t.Errorf("cost above the burst mismatch (-want +got):\n%s", diff)
	}
}

// TestCostAboveBurst: a cost above the burst is allowed with a full burst
// and leaves a debt that refills at the usual pace, on Local and on Redis
// alike (the REST batch of more identifiers than the per-minute limit).
func TestCostAboveBurst(t *testing.T) {
	t.Parallel()
	clock := newClock()
	local, err := ratelimit.NewLocal(ratelimit.PerMinute(10), ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	mr, rdb := redistest.Mini(t)
	mr.SetTime(clock.Now())
	shared := newRedis(t, rdb, ratelimit.PerMinute(10))
	advance := func(d time.Duration) {
		clock.Advance(d)
		mr.SetTime(clock.Now())
	}
	for name, l := range map[string]ratelimit.Limiter{"local": local, "redis": shared} {
		// 10 - 4 = 6 left; 7 is one short (6 s), 6 is not.
		steps := []struct {
			cost int
			want decision
		}{{4, decision{true, 0}}, {7, decision{false, 6 * time.Second}}, {6, decision{true, 0}}}
		for i, s := range steps {
			if diff := cmp.Diff(s.want, allow(t, l, name, s.cost)); diff != "" {
				t.Errorf("%s: step %d mismatch (-want +got):\n%s", name, i, diff)
			}
		}
		advance(time.Minute) // full again
		if diff := cmp.Diff(decision{true, 0}, allow(t, l, name, 25)); diff != "" {
			t.Errorf("%s: cost 25 with a full burst mismatch (-want +got):\n%s", name, diff)
		}
		advance(time.Minute) // 10 - 25 + 10 = -5: six events short of one
		if diff := cmp.Diff(decision{false, 36 * time.Second}, allow(t, l, name, 1)); diff != "" {
			t.Errorf("%s: after the debt mismatch (-want +got):\n%s", name, diff)
		}
	}
}

// TestLocalKeepsDebts: a key in debt survives the rotations that forget
// idle keys, so waiting past the refill time of a burst does not wipe a
// large cost.
func TestLocalKeepsDebts(t *testing.T) {
	t.Parallel()
	clock := newClock()
	l, err := ratelimit.NewLocal(ratelimit.PerMinute(10), ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	if d := allow(t, l, "k", 50); !d.OK { // 10 - 50 = -40
		t.Fatal("refused")
	}
	for range 3 { // three timed rotations of every shard
		clock.Advance(61 * time.Second)
		for i := range 2000 {
			allow(t, l, strconv.Itoa(i), 1)
		}
	}
	// -40 + 3*61/6 = -9.5: 63 s to one event.
	if diff := cmp.Diff(decision{false, 63 * time.Second}, allow(t, l, "k", 1)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if n := l.Size(); n > 3*ratelimit.DefaultMaxKeys {
		t.Errorf("%d keys held, want at most %d", n, 3*ratelimit.DefaultMaxKeys)
	}
}

// TestLocalMemoryBounded: a million distinct keys acting once leave at
// most twice the bound (a hundred thousand under the race detector), and
// the rotations of a quiet period forget them all; below 64 keys every
// shard keeps one key per generation.
func TestLocalMemoryBounded(t *testing.T) {
	t.Parallel()
	for _, maxKeys := range []int{10_000, 1} {
		clock := newClock()
		l, err := ratelimit.NewLocal(ratelimit.PerMinute(60), ratelimit.WithClock(clock.Now), ratelimit.WithMaxKeys(maxKeys))
		if err != nil {
			t.Fatal(err)
		}
		calls := 1_000_000
		if raceEnabled || maxKeys == 1 {
			calls = 100_000
		}
		for i := range calls {
			if d := allow(t, l, strconv.Itoa(i), 1); !d.OK {
				t.Fatalf("key %d refused on its first call", i)
			}
		}
		if n, bound := l.Size(), 2*max(maxKeys, 64); n > bound {
			t.Errorf("max %d: %d keys after %d, want at most %d", maxKeys, n, calls, bound)
		}
		for range 2 {
			clock.Advance(61 * time.Second)
			l.RotateAll()
		}
		if n := l.Size(); n != 0 {
			t.Errorf("max %d: %d keys after two quiet minutes, want 0", maxKeys, n)
		}
	}
}

// TestCeiling checks that a Ceiling rate never lets more than n events into
// any window, with a client that acts as soon as it may.
func TestCeiling(t *testing.T) {
	t.Parallel()
	const n, window = 600, 5 * time.Minute
	clock := newClock()
	l, err := ratelimit.NewLocal(ratelimit.Ceiling(n, window), ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Time
	end := clock.Now().Add(3 * window)
	for clock.Now().Before(end) {
		ok, retry, _ := l.Allow(t.Context(), "GB", 1)
		if ok {
			times = append(times, clock.Now())
			continue
		}
		clock.Advance(retry)
	}
	for i := range times {
		j := i
		for j < len(times) && times[j].Sub(times[i]) < window {
			j++
		}
		if j-i > n {
			t.Fatalf("%d events in the window from %v", j-i, times[i])
		}
	}
	if len(times) < 3*(n-n/10) {
		t.Errorf("only %d events in three windows", len(times))
	}
}

func TestLocalForgetsBoundedly(t *testing.T) {
	t.Parallel()
	clock := newClock()
	l, err := ratelimit.NewLocal(ratelimit.PerMinute(1), ratelimit.WithClock(clock.Now), ratelimit.WithMaxKeys(64))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10_000 {
		allow(t, l, strconv.Itoa(i), 1)
	}
	// A recent key is still limited unless a flood pushed it out; the
	// last key is certainly remembered.
	if d := allow(t, l, "9999", 1); d.OK {
		t.Errorf("the last key was forgotten")
	}
}

func TestLocalConcurrent(t *testing.T) {
	t.Parallel()
	l, err := ratelimit.NewLocal(ratelimit.Rate{Limit: 1, Period: time.Hour, Burst: 100})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	allowed := 0
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 50 {
				if ok, _, _ := l.Allow(t.Context(), "k", 1); ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if allowed != 100 {
		t.Errorf("%d allowed, want 100", allowed)
	}
}

func TestRateValidation(t *testing.T) {
	t.Parallel()
	for _, r := range []ratelimit.Rate{
		{}, {Limit: 1}, {Limit: -1, Period: time.Second}, {Limit: 1, Period: time.Second, Burst: -1},
		{Limit: 1 << 30, Period: time.Millisecond}, {Limit: 1, Period: 48 * time.Hour},
	} {
		if _, err := ratelimit.NewLocal(r); err == nil {
			t.Errorf("NewLocal(%+v) succeeded", r)
		}
	}
	for _, o := range []ratelimit.Option{nil, ratelimit.WithClock(nil), ratelimit.WithMaxKeys(0)} {
		if _, err := ratelimit.NewLocal(ratelimit.PerMinute(1), o); err == nil {
			t.Errorf("NewLocal with a bad option succeeded")
		}
	}
}

// TestRedisSharedAcrossReplicas: two limiters (two replicas) on one Redis
// draw from one allowance.
func TestRedisSharedAcrossReplicas(t *testing.T) {
	t.Parallel()
	mr, _ := redistest.Mini(t)
	a := newRedis(t, redistest.Client(mr.Addr()), ratelimit.PerMinute(60))
	b := newRedis(t, redistest.Client(mr.Addr()), ratelimit.PerMinute(60))
	for i := range 60 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if d := allow(t, l, "203.0.113.7", 1); !d.OK {
			t.Fatalf("request %d refused: %+v", i+1, d)
		}
	}
	for _, l := range []*ratelimit.Redis{a, b} {
		d := allow(t, l, "203.0.113.7", 1)
		if d.OK || d.Retry <= 0 || d.Retry > time.Second {
			t.Errorf("61st request = %+v, want a refusal within a second", d)
		}
	}
	if ttl := mr.TTL(ratelimit.DefaultKeyPrefix + "203.0.113.7"); ttl <= 0 || ttl > time.Minute+time.Second {
		t.Errorf("key TTL %v, want at most a minute", ttl)
	}
	if !a.Reachable() || !b.Reachable() {
		t.Error("Reachable() = false")
	}
}

func newRedis(t *testing.T, rdb redis.UniversalClient, rate ratelimit.Rate, opts ...ratelimit.Option) *ratelimit.Redis {
	t.Helper()
	l, err := ratelimit.NewRedis(rdb, rate, append([]ratelimit.Option{ratelimit.WithTimeout(5 * time.Second)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRedisDownFallsBack: with Redis gone the limiter answers from its
// in-process fallback at the single-replica rate, logs one warning, and
// shares again when Redis is back.
func TestRedisDownFallsBack(t *testing.T) {
	t.Parallel()
	mr, proxy, rdb := redistest.MiniBehindProxy(t)
	var logs redistest.Logs
	// Both clocks stand still: Redis's (redistest.MiniBehindProxy) and the
	// fallback's, so that no token refills however long the test takes.
	l := newRedis(t, rdb, ratelimit.PerMinute(5), ratelimit.WithLogger(logs.Logger()), ratelimit.WithRetry(50*time.Millisecond),
		ratelimit.WithClock(newClock().Now))
	for range 5 {
		allow(t, l, "k", 1)
	}
	proxy.Down()
	// The fallback has its own full allowance.
	for i := range 5 {
		if d := allow(t, l, "k", 1); !d.OK {
			t.Fatalf("fallback request %d refused: %+v", i+1, d)
		}
	}
	if d := allow(t, l, "k", 1); d.OK {
		t.Error("the fallback does not limit")
	}
	if n := logs.Count(msgDown); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
	proxy.Up(mr.Addr())
	testwait.Until(t, "Redis used again", func() bool {
		_, _, _ = l.Allow(t.Context(), "other", 1)
		return l.Reachable()
	})
	// Redis kept "k" exhausted.
	if d := allow(t, l, "k", 1); d.OK {
		t.Error("after recovery the shared state was not used")
	}
	if n := logs.Count(msgUp); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs.String())
	}
}

// TestRedisRealServer: the script on a real redis-server; the server is
// killed mid-test (answers go on without waiting on Redis, one warning)
// and started again. The rate is per hour so that the retry times the
// script computes from the server's clock stay exact to the interval (6
// minutes) however slowly a loaded machine runs the test.
func TestRedisRealServer(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	var logs redistest.Logs
	rate := ratelimit.Rate{Limit: 10, Period: time.Hour, Burst: 10}
	a := newRedis(t, redistest.Client(srv.Addr()), rate, ratelimit.WithLogger(logs.Logger()),
		ratelimit.WithRetry(50*time.Millisecond))
	b := newRedis(t, redistest.Client(srv.Addr()), rate)
	for i := range 10 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if d := allow(t, l, "k", 1); !d.OK {
			t.Fatalf("request %d refused: %+v", i+1, d)
		}
	}
	if d := allow(t, b, "k", 1); d.OK || d.Retry <= 0 || d.Retry > 6*time.Minute {
		t.Errorf("11th request = %+v, want a refusal within the 6 minutes of one event", d)
	}
	// A cost above the burst in the real script: 25 with a full burst,
	// then 15 owed: the next event is (25 + 1 - 10) * 6 min = 96 min away,
	// less the time since the batch (under a minute: not a whole interval).
	if d := allow(t, a, "batch", 25); !d.OK {
		t.Errorf("cost 25 with a full burst = %+v", d)
	}
	if d := allow(t, b, "batch", 1); d.OK || d.Retry <= 95*time.Minute || d.Retry > 96*time.Minute {
		t.Errorf("after the debt = %+v, want a refusal of about 96 minutes", d)
	}
	// The reservation scripts on the real server: the 11th event of "r"
	// waits about 6 minutes (one interval of the hourly rate); given
	// back, the next reservation waits as long.
	for i := range 10 {
		if ok, wait, _, err := a.Reserve(t.Context(), "r", 0); !ok || wait != 0 || err != nil {
			t.Fatalf("reservation %d: %v %v %v", i+1, ok, wait, err)
		}
	}
	ok, wait, release, err := b.Reserve(t.Context(), "r", 10*time.Minute)
	if !ok || wait <= 5*time.Minute || wait > 6*time.Minute || release == nil || err != nil {
		t.Fatalf("11th reservation = %v %v %v, want one of about 6 minutes", ok, wait, err)
	}
	release(t.Context())
	if ok, again, _, err := a.Reserve(t.Context(), "r", 10*time.Minute); !ok || again > wait || again <= 5*time.Minute || err != nil {
		t.Errorf("after the release = %v %v %v, want a reservation of at most %v", ok, again, err, wait)
	}
	srv.Stop()
	// The client has no timeout at all (redistest.Client): an Allow that
	// waited on Redis would never return, and the wait below would report
	// a hang. Each returns at once from the fallback.
	errs := make(chan error, 1)
	go func() {
		var err error
		for range 20 {
			_, _, aerr := a.Allow(context.Background(), "k", 1)
			err = errors.Join(err, aerr)
		}
		errs <- err
	}()
	if err := testwait.Recv(t, errs, "20 Allows with Redis killed (one waits on Redis)"); err != nil {
		t.Fatalf("Allow with Redis killed: %v", err)
	}
	if n := logs.Count(msgDown); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
	srv.Start()
	testwait.Until(t, "Redis used again", func() bool {
		_, _, _ = a.Allow(t.Context(), "other", 1)
		return a.Reachable()
	})
	if n := logs.Count(msgUp); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs.String())
	}
}

// TestRateShare: n replicas' shares add up to at most the rate.
func TestRateShare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    ratelimit.Rate
		n    int
		want ratelimit.Rate
	}{
		{ratelimit.Ceiling(600, 5*time.Minute), 3, ratelimit.Rate{Limit: 180, Period: 5 * time.Minute, Burst: 20}},
		{ratelimit.Ceiling(600, 5*time.Minute), 1, ratelimit.Ceiling(600, 5*time.Minute)},
		{ratelimit.Ceiling(600, 5*time.Minute), 0, ratelimit.Ceiling(600, 5*time.Minute)},
		{ratelimit.PerMinute(10), 4, ratelimit.Rate{Limit: 2, Period: time.Minute, Burst: 2}},
		{ratelimit.Rate{Limit: 5, Period: time.Minute}, 2, ratelimit.Rate{Limit: 2, Period: time.Minute, Burst: 2}},
		{ratelimit.PerMinute(2), 5, ratelimit.Rate{Limit: 1, Period: time.Minute, Burst: 1}},
	} {
		if diff := cmp.Diff(tc.want, tc.r.Share(tc.n)); diff != "" {
			t.Errorf("%+v.Share(%d) (-want +got):\n%s", tc.r, tc.n, diff)
		}
	}
	_, rdb := redistest.Mini(t)
	if _, err := ratelimit.NewRedis(rdb, ratelimit.PerMinute(1), ratelimit.WithReplicas(0)); err == nil {
		t.Error("WithReplicas(0) accepted")
	}
}
