// Package ratelimit limits how often a key (a client address, a register)
// may act: [Local] in process, and [Redis] across the replicas of a server
// that share one Redis, falling back to a [Local] while Redis is unreachable.
//
// Both implement the generic cell rate algorithm (GCRA), which behaves as a
// token bucket: a key that starts idle may act [Rate.Burst] times at once
// and then once per [Rate.Period]/[Rate.Limit]; over any window of one
// period a key acts at most Burst + Limit times. State is one timestamp per
// key (the theoretical arrival time), kept in Redis for at most the time a
// full burst takes to refill.
//
// A [Limiter] never needs a background goroutine, and the two
// implementations here never return an error: a Redis failure falls back to
// an in-process limiter (of the same rate, or of each replica's share of it
// with [WithReplicas]), logs one warning, and recovers by itself.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/companyregistry/registry/internal/gcra"
)

// Limiter decides whether key may act now. cost is the number of events
// the action counts for (1 for a request; less than 1 counts as 1). When it
// may not, ok is false and retryAfter is how long until it may (more than
// zero). A cost above the burst (a batch of more requests than the burst)
// is allowed once a full burst is available, and leaves the key in debt: it
// may act again once the excess has refilled at the usual pace. An error means the limiter could not decide; callers let the
// action through (fail open) and log it. Implementations must be safe for
// concurrent use.
type Limiter interface {
	Allow(ctx context.Context, key string, cost int) (ok bool, retryAfter time.Duration, err error)
}

// Reserver is a [Limiter] that can also promise a key one event ahead of
// time, so that callers who wait for it are served in the order they asked
// and a caller who cannot be served in time learns so at once.
//
// Reserve takes one event of key that may happen within within: ok, and
// wait, how long the caller must wait before it acts (0: at once). The
// event is the caller's: it acts after wait without asking again. When the
// caller will not act after all (it gave up while waiting), it calls
// release, which gives the event back while its moment has not come and no
// event was reserved after it (otherwise its place goes unused, so that
// two events never share one place); release is nil when wait is 0. When the event may not happen within
// within, nothing is taken: ok is false and wait is how long until it may
// happen at once. An error means the limiter could not decide, as for
// Allow. Implementations must be safe for concurrent use.
type Reserver interface {
	Limiter
	Reserve(ctx context.Context, key string, within time.Duration) (ok bool, wait time.Duration, release func(context.Context), err error)
}

// Rate is an allowance: Limit events per Period, with bursts of up to
// Burst events at once (0 means Limit).
type Rate struct {
	Limit  int
	Period time.Duration
	Burst  int
}

// PerMinute is n events per minute in bursts of up to n: the allowance of
// a token bucket of n tokens that refills over a minute.
func PerMinute(n int) Rate { return Rate{Limit: n, Period: time.Minute, Burst: n} }

// Ceiling is the allowance that never lets more than n events happen in
// any window of length window (n at least 2): n - n/10 events per window in
// bursts of up to n/10 (at least 1). It suits a register that counts calls
// in windows of its own, such as Companies House's 600 per five minutes.
func Ceiling(n int, window time.Duration) Rate {
	burst := max(1, n/10)
	return Rate{Limit: n - burst, Period: window, Burst: burst}
}

// Share returns the part of r that each of n replicas may use on its own
// so that together they stay within r: Limit and the burst divided by n,
// rounded down, at least 1 each (so with more replicas than the limit or
// the burst, the shares add up to more than r). A [Redis] limiter built
// [WithReplicas](n) falls back to it while Redis is unreachable. n below 2
// returns r.
func (r Rate) Share(n int) Rate {
	if n < 2 {
		return r
	}
	return Rate{Limit: max(1, r.Limit/n), Period: r.Period, Burst: max(1, r.burst()/n)}
}

// burst returns Burst, or Limit when Burst is 0.
func (r Rate) burst() int {
	if r.Burst == 0 {
		return r.Limit
	}
	return r.Burst
}

// check returns an error for an unusable rate.
func (r Rate) check() error {
	switch {
	case r.Limit < 1:
		return fmt.Errorf("ratelimit: rate limit %d is less than 1", r.Limit)
	case r.Period < time.Millisecond || r.Period > 24*time.Hour:
		return fmt.Errorf("ratelimit: rate period %v is outside [1ms, 24h]", r.Period)
	case r.Burst < 0:
		return fmt.Errorf("ratelimit: rate burst %d is negative", r.Burst)
	case r.Period/time.Duration(r.Limit) < time.Microsecond:
		return fmt.Errorf("ratelimit: rate of %d per %v is faster than one per microsecond", r.Limit, r.Period)
	}
	return nil
}

func newGCRA(r Rate) gcra.Params { return gcra.NewParams(r.Limit, r.Period, r.burst()) }

// Option configures a limiter built by [NewLocal] or [NewRedis]. Options
// validate their input.
type Option func(*options) error

type options struct {
	now       func() time.Time
	maxKeys   int
	prefix    string
	timeout   time.Duration
	retry     time.Duration // 0: the default; set by tests
	logger    *slog.Logger
	fallback  *Local
	replicas  int // WithReplicas; 0 is 1
	component string
}

// DefaultMaxKeys bounds the memory of a [Local]: it tracks about this many
// keys (see [WithMaxKeys]).
const DefaultMaxKeys = 100_000

// WithClock sets the clock of a [Local] (default [time.Now]). A [Redis]
// takes the time from the Redis server, so that replicas agree; its
// fallback uses this clock.
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("ratelimit: WithClock: nil clock")
		}
		o.now = now
		return nil
	}
}

// WithMaxKeys bounds the memory of a [Local] to about n keys (default
// [DefaultMaxKeys]; at most twice as many timestamps exist). When more
// distinct keys act within the time a burst takes to refill, the least
// recent ones are forgotten and start again with a full allowance.
func WithMaxKeys(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("ratelimit: WithMaxKeys: %d is less than 1", n)
		}
		o.maxKeys = n
		return nil
	}
}

// Local is an in-process [Limiter]. It is safe for concurrent use and
// starts no goroutine; its memory is bounded (see [WithMaxKeys]): it keeps
// one timestamp per key in two generations, and forgets a key once its
// timestamp is in the past (a full allowance), except a key in debt. Build
// it with [NewLocal].
type Local struct {
	l *gcra.Limiter
}

var _ Reserver = (*Local)(nil)

// NewLocal returns an in-process limiter of rate, or an error for an
// unusable rate or option.
func NewLocal(rate Rate, opts ...Option) (*Local, error) {
	o, err := build(rate, opts)
	if err != nil {
		return nil, err
	}
	return newLocal(rate, o), nil
}

func build(rate Rate, opts []Option) (options, error) {
	o := options{now: time.Now, maxKeys: DefaultMaxKeys}
	if err := rate.check(); err != nil {
		return o, err
	}
	for _, opt := range opts {
		if opt == nil {
			return o, errors.New("ratelimit: nil option")
		}
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}

func newLocal(rate Rate, o options) *Local {
	return &Local{l: gcra.New(newGCRA(rate), o.maxKeys, o.now)}
}

// Allow implements [Limiter]. It never returns an error.
func (l *Local) Allow(_ context.Context, key string, cost int) (bool, time.Duration, error) {
	ok, wait := l.l.Allow(key, cost)
	return ok, wait, nil
}

// Reserve implements [Reserver]. It never returns an error.
func (l *Local) Reserve(_ context.Context, key string, within time.Duration) (bool, time.Duration, func(context.Context), error) {
	ok, wait, slot := l.l.Reserve(key, within)
	if !ok || wait <= 0 {
		return ok, wait, nil, nil
	}
	return true, wait, func(context.Context) { l.l.Release(key, slot) }, nil
}
