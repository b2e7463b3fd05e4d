package registry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/companyregistry/registry/internal/seal"
)

// DefaultBudgetWait is how long a caller waits, at most, for an upstream
// budget ([WithUpstreamBudget]) to allow its call before it is answered
// rate_limited, unless [WithBudgetWait] says otherwise. With the example
// server's default budgets a register's allowance refills a call every
// fraction of a second, so a caller past the burst waits that long instead
// of failing.
const DefaultBudgetWait = 2 * time.Second

// MaxBudgetWait is the longest wait [WithBudgetWait] accepts.
const MaxBudgetWait = 10 * time.Second

// WithBudgetWait sets how long a caller waits, at most, for an empty
// upstream budget to allow its call (default [DefaultBudgetWait], at most
// [MaxBudgetWait]; 0 never waits). A caller whose call the budget allows
// within that bound, and before the caller's own deadline, waits and then
// calls the register; one that would have to wait longer is answered
// rate_limited with details.retry_after at once, as without waiting. The
// bound counts every wait of one fetch together, the retry's included: a
// retry that would wait past it is not made. With a budget that reserves
// ([UpstreamReserver], as the budget package's do) the callers are served
// in the order they came, and a call reserved by a wait that ends early
// (every caller of the fetch gave up) is given back.
func WithBudgetWait(d time.Duration) Option {
	return func(o *options) error {
		if d < 0 || d > MaxBudgetWait {
			return fmt.Errorf("registry: WithBudgetWait: %v is outside [0, %v]", d, MaxBudgetWait)
		}
		o.budgetWait = d
		return nil
	}
}

// WithWaiter replaces the clock and the sleep the Registry paces itself
// with: the waits for an upstream budget and the pauses of a batch. now and
// sleep must agree: after sleep(ctx, d) returns nil, now has moved on by d.
// sleep returns ctx's error when ctx ends first. Tests pass a fake clock
// and a sleep that moves it, so that no test waits in real time; only
// packages of this module can call it.
func WithWaiter(_ seal.Key, now func() time.Time, sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(o *options) error {
		if now == nil || sleep == nil {
			return errors.New("registry: WithWaiter: nil clock or sleep")
		}
		o.waiter = waiter{now: now, sleep: sleep}
		return nil
	}
}

// waiter is the clock and sleep of the Registry's pacing.
type waiter struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

// realWaiter paces in real time.
func realWaiter() waiter { return waiter{now: time.Now, sleep: sleepCtx} }

// sleepCtx waits d, or until ctx ends (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// budgetRoom is how much longer a fetch that has waited waited already
// for the budget may wait: what is left of the Registry's bound, and less
// than what is left before the caller's deadline (zero: none); 0 when it
// may not wait.
func (r *Registry) budgetRoom(deadline time.Time, waited time.Duration) time.Duration {
	room := r.budgetWait - waited
	if !deadline.IsZero() {
		room = min(room, time.Until(deadline)-time.Nanosecond)
	}
	return max(room, 0)
}
