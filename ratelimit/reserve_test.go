package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/ratelimit"
)

// reservation is what one Reserve answered.
type reservation struct {
	OK      bool
	Wait    time.Duration
	Release bool // a release func was given
}

// TestReserve (issue 29, the budget wait): Reserve takes an event that may
// happen within the bound and says when, so that waiting callers keep
// their order and one beyond the bound is refused at once without taking
// anything; a release gives the last reservation back while its moment
// has not come, and leaves an earlier one's place unused (two events never
// share a place). On Local and on Redis (its scripts) alike, one event a
// second and a burst of one.
func TestReserve(t *testing.T) {
	t.Parallel()
	clock := newClock()
	rate := ratelimit.Rate{Limit: 1, Period: time.Second, Burst: 1}
	local, err := ratelimit.NewLocal(rate, ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	mr, rdb := redistest.Mini(t)
	mr.SetTime(clock.Now())
	shared := newRedis(t, rdb, rate)
	for name, l := range map[string]ratelimit.Reserver{"local": local, "redis": shared} {
		t.Run(name, func(t *testing.T) {
			var releases []func(context.Context)
			reserve := func(within time.Duration) reservation {
				t.Helper()
				ok, wait, release, err := l.Reserve(t.Context(), name, within)
				if err != nil {
					t.Fatal(err)
				}
				releases = append(releases, release)
				return reservation{ok, wait, release != nil}
			}
			got := []reservation{
				reserve(0),                      // the burst, at once
				reserve(500 * time.Millisecond), // the next is 1 s away: refused, nothing taken
				reserve(2 * time.Second),        // +1 s
				reserve(2 * time.Second),        // +2 s
				reserve(2 * time.Second),        // +3 s is beyond the bound
			}
			want := []reservation{{true, 0, false}, {false, time.Second, false}, {true, time.Second, true},
				{true, 2 * time.Second, true}, {false, 3 * time.Second, false}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("reservations (-want +got):\n%s", diff)
			}
			releases[2](t.Context()) // not the last: its place stays taken
			if diff := cmp.Diff(reservation{false, 3 * time.Second, false}, reserve(2*time.Second)); diff != "" {
				t.Errorf("after releasing an earlier reservation (-want +got):\n%s", diff)
			}
			releases[3](t.Context()) // the last: given back
			if diff := cmp.Diff(reservation{true, 2 * time.Second, true}, reserve(2*time.Second)); diff != "" {
				t.Errorf("after releasing the last reservation (-want +got):\n%s", diff)
			}
			// Allow sees the reservations: the next event is 3 s away.
			if diff := cmp.Diff(decision{false, 3 * time.Second}, allow(t, l, name, 1)); diff != "" {
				t.Errorf("Allow after the reservations (-want +got):\n%s", diff)
			}
			// Once its moment has come, a reservation is spent.
			clock.Advance(2 * time.Second)
			mr.SetTime(clock.Now())
			releases[len(releases)-1](t.Context())
			if diff := cmp.Diff(reservation{true, time.Second, true}, reserve(time.Second)); diff != "" {
				t.Errorf("after releasing a reservation whose moment came (-want +got):\n%s", diff)
			}
		})
	}
}
