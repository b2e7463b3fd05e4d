package ratelimit_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/gcra"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/ratelimit"
)

// TestReview_ReservationsKeepToTheRate (review of issue 29's budget
// reservations): whatever mix of Allow, Reserve and release two replicas
// make on one key, the calls that happen (allowed at once, or reserved and
// not given back, at their slot) conform to the rate: replayed through a
// fresh GCRA in time order, every one is allowed. On Local (one replica)
// and on Redis (two replicas sharing miniredis), with random steps of a
// fake clock; seeds are fixed, so the test is deterministic.
func TestReview_ReservationsKeepToTheRate(t *testing.T) {
	t.Parallel()
	rates := []ratelimit.Rate{
		{Limit: 1, Period: time.Second, Burst: 1},
		{Limit: 5, Period: time.Second, Burst: 3},
		ratelimit.Ceiling(300, time.Minute),
		{Limit: 7, Period: time.Second, Burst: 2}, // an interval that is not a whole number of microseconds
	}
	for ri, rate := range rates {
		for seed := range uint64(4) {
			for _, kind := range []string{"local", "redis"} {
				t.Run(kind, func(t *testing.T) {
					checkReservations(t, kind, rate, uint64(ri)*100+seed)
				})
			}
		}
	}
}

type event struct {
	at       time.Time
	released bool
}

func checkReservations(t *testing.T, kind string, rate ratelimit.Rate, seed uint64) {
	t.Helper()
	clock := newClock()
	var replicas []ratelimit.Reserver
	var sync func()
	switch kind {
	case "local":
		l, err := ratelimit.NewLocal(rate, ratelimit.WithClock(clock.Now), ratelimit.WithMaxKeys(1))
		if err != nil {
			t.Fatal(err)
		}
		replicas = []ratelimit.Reserver{l}
		sync = func() {}
	default:
		mr, rdb := redistest.Mini(t)
		mr.SetTime(clock.Now())
		replicas = []ratelimit.Reserver{newRedis(t, rdb, rate), newRedis(t, rdb, rate)}
		last := clock.Now()
		sync = func() {
			mr.FastForward(clock.Now().Sub(last)) // key expiry
			mr.SetTime(clock.Now())               // TIME
			last = clock.Now()
		}
	}
	rng := rand.New(rand.NewPCG(seed, 29))
	interval := rate.Period / time.Duration(rate.Limit)
	type pending struct {
		ev      *event
		release func(context.Context)
	}
	var events []*event
	var open []pending
	for range 300 {
		l := replicas[rng.IntN(len(replicas))]
		switch op := rng.IntN(10); {
		case op < 3:
			ok, _, err := l.Allow(t.Context(), "k", 1)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				events = append(events, &event{at: clock.Now()})
			}
		case op < 7:
			within := time.Duration(rng.Int64N(int64(4 * interval)))
			ok, wait, release, err := l.Reserve(t.Context(), "k", within)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				if wait > within {
					t.Fatalf("reserved a call %v away, beyond within %v", wait, within)
				}
				ev := &event{at: clock.Now().Add(wait)}
				events = append(events, ev)
				if release != nil {
					open = append(open, pending{ev, release})
				}
			}
		case op < 9 && len(open) > 0:
			i := rng.IntN(len(open))
			p := open[i]
			open = slices.Delete(open, i, i+1)
			if clock.Now().Before(p.ev.at) {
				// The caller gives up before its slot: its call is not made.
				p.release(t.Context())
				p.ev.released = true
			}
		default:
			// Whole microseconds: Redis's TIME has no finer resolution.
			clock.Advance(time.Duration(rng.Int64N(int64(2*interval))) / time.Microsecond * time.Microsecond)
			sync()
		}
	}
	var made []time.Time
	for _, e := range events {
		if !e.released {
			made = append(made, e.at)
		}
	}
	slices.SortFunc(made, func(a, b time.Time) int { return a.Compare(b) })
	p := gcra.NewParams(rate.Limit, rate.Period, rate.Burst)
	if kind == "redis" {
		// Redis keeps the interval and the tolerance in whole
		// microseconds, each rounded down (as its Allow script does).
		p.Interval = p.Interval / 1000 * 1000
		p.Tolerance = p.Tolerance / 1000 * 1000
	}
	var tat int64
	for i, at := range made {
		ok, next, wait := p.Decide(tat, at.UnixNano(), 1)
		if !ok {
			t.Fatalf("seed %d: call %d of %d at +%v breaks the rate %+v: it may happen %v later",
				seed, i+1, len(made), at.Sub(made[0]), rate, time.Duration(wait))
		}
		tat = next
	}
}

// TestReview_ReservationScriptsRunOnRedis4: the reservation scripts write
// after TIME, like the limiter's first script, so they too must switch to
// effects replication to run on Redis 3.2 to 4.0 (see redis4).
func TestReview_ReservationScriptsRunOnRedis4(t *testing.T) {
	t.Parallel()
	mr, rdb := redistest.Mini(t)
	clock := newClock()
	mr.SetTime(clock.Now())
	// One event a second, burst one: the first reservation is at once,
	// the second 1 s away; it is given back.
	for i, want := range []int64{0, 1_000_000} {
		res, err := rdb.Eval(t.Context(), redis4+ratelimit.ReserveScript, []string{"k"}, 1_000_000, 1_000_000, 2_000_000).Int64Slice()
		if err != nil {
			t.Fatalf("reservation %d: %v", i+1, err)
		}
		if res[0] != 1 || res[1] != want {
			t.Fatalf("reservation %d: %v, want a wait of %d µs", i+1, res, want)
		}
		if i == 1 {
			got, err := rdb.Eval(t.Context(), redis4+ratelimit.ReleaseScript, []string{"k"}, 1_000_000, 1_000_000, res[2]).Int64()
			if err != nil || got != 1 {
				t.Fatalf("release: %v %v, want 1", got, err)
			}
		}
	}
	for name, s := range map[string]string{"reserve": ratelimit.ReserveScript, "release": ratelimit.ReleaseScript} {
		if !strings.HasPrefix(strings.TrimSpace(s), "redis.replicate_commands()") {
			t.Errorf("the %s script does not start with redis.replicate_commands()", name)
		}
	}
}

// TestReview_ReserveWhileRedisGoesDown: a call reserved on Redis, then
// Redis goes away: giving it back fails without a panic and within the
// limiter's timeout, and the next reservations come from the replica's
// share (two replicas: one event a second, burst one), within their bound.
func TestReview_ReserveWhileRedisGoesDown(t *testing.T) {
	t.Parallel()
	_, proxy, rdb := redistest.MiniBehindProxy(t)
	clock := newClock()
	rate := ratelimit.Rate{Limit: 2, Period: time.Second, Burst: 2}
	l := newRedis(t, rdb, rate, ratelimit.WithReplicas(2), ratelimit.WithClock(clock.Now), ratelimit.WithRetry(time.Hour))
	for range 2 {
		if ok, wait, _, err := l.Reserve(t.Context(), "k", 0); !ok || wait != 0 || err != nil {
			t.Fatalf("burst: %v %v %v", ok, wait, err)
		}
	}
	ok, wait, release, err := l.Reserve(t.Context(), "k", 2*time.Second)
	if !ok || wait <= 0 || wait > 500*time.Millisecond || release == nil || err != nil {
		t.Fatalf("third reservation on Redis: %v %v %v", ok, wait, err)
	}
	proxy.Down()
	release(t.Context()) // fails: Redis is gone
	if l.Reachable() {
		t.Error("the failed release did not mark Redis down")
	}
	// The share: burst one, then one a second.
	got := []reservation{}
	for _, within := range []time.Duration{0, 500 * time.Millisecond, 2 * time.Second, 2 * time.Second} {
		ok, wait, release, err := l.Reserve(t.Context(), "k", within)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, reservation{ok, wait, release != nil})
	}
	want := []reservation{{true, 0, false}, {false, time.Second, false}, {true, time.Second, true}, {true, 2 * time.Second, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reservations on the share while Redis is down (-want +got):\n%s", diff)
	}
}
