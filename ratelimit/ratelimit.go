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
// the in-process limiter with the same rate (each replica then allows its
// single-replica allowance), logs one warning, and recovers by itself.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"sync"
	"time"
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

// gcra holds a rate in the units of the algorithm.
type gcra struct {
	interval  int64 // nanoseconds between two events at the steady rate
	tolerance int64 // interval * burst: how far ahead of now a key may run
	burst     int
}

func newGCRA(r Rate) gcra {
	interval := int64(r.Period) / int64(r.Limit)
	return gcra{interval: interval, tolerance: interval * int64(r.burst()), burst: r.burst()}
}

// decide applies the algorithm to tat, the key's theoretical arrival time
// (0 for a new key), at now: it returns whether cost events may happen, the
// new tat to store and, when not, the nanoseconds until they may. A cost
// above the burst needs a full burst (the most that can ever be available)
// and moves tat by its whole cost, which leaves the key in debt.
func (g gcra) decide(tat, now int64, cost int) (ok bool, newTAT, wait int64) {
	tat = max(tat, now)
	need := min(cost, g.burst)
	if allowAt := tat + g.interval*int64(need) - g.tolerance; now < allowAt {
		return false, tat, allowAt - now
	}
	return true, tat + g.interval*int64(cost), 0
}

// maxCost bounds a cost, so that tat + interval*cost cannot overflow: no
// caller charges more than a million events at once.
const maxCost = 1 << 20

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
// starts no goroutine; its memory is bounded (see [WithMaxKeys]). Build it
// with [NewLocal].
type Local struct {
	g        gcra
	now      func() time.Time
	perShard int
	seed     maphash.Seed
	shards   [shards]shard
}

// shards is the number of independently locked parts of a Local.
const shards = 64

// shard keeps two generations of timestamps. It rotates (prev = cur, cur
// = empty) when the tolerance has passed since its last rotation, or early
// when cur holds its share of the keys. A key untouched since before the
// last rotation has a timestamp in the past by the next one, which is the
// same as no timestamp, so the timed rotation forgets nothing that matters;
// except a key in debt (after a cost above the burst), whose timestamp may
// lie further ahead: a rotation keeps those in prev (up to twice the
// shard's share), so that the debt is paid. A shard holds at most three
// times its share.
type shard struct {
	mu      sync.Mutex
	cur     map[string]int64
	prev    map[string]int64
	rotated int64
}

var _ Limiter = (*Local)(nil)

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
	l := &Local{g: newGCRA(rate), now: o.now, perShard: max(1, o.maxKeys/shards), seed: maphash.MakeSeed()}
	t := o.now().UnixNano()
	for i := range l.shards {
		l.shards[i].cur = make(map[string]int64)
		l.shards[i].rotated = t
	}
	return l
}

// Allow implements [Limiter]. It never returns an error.
func (l *Local) Allow(_ context.Context, key string, cost int) (bool, time.Duration, error) {
	cost = min(max(cost, 1), maxCost)
	now := l.now().UnixNano()
	sh := &l.shards[maphash.String(l.seed, key)%shards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now-sh.rotated >= l.g.tolerance {
		sh.rotate(now, now, 2*l.perShard)
	}
	tat, found := sh.cur[key]
	if !found {
		if tat, found = sh.prev[key]; found {
			delete(sh.prev, key)
		}
	}
	ok, tat, wait := l.g.decide(tat, now, cost)
	if !found && len(sh.cur) >= l.perShard {
		sh.rotate(now, now+l.g.tolerance, 2*l.perShard)
	}
	sh.cur[key] = tat
	return ok, time.Duration(wait), nil
}

// rotate starts a new generation: prev = cur, cur = empty. The keys of the
// generation it forgets whose timestamp is after debt move into prev, up to
// limit keys in prev. A timed rotation passes now: every key it forgets was
// last seen a tolerance ago, so a timestamp after now is a debt. An early
// rotation passes now + tolerance, beyond which only a debt can reach.
func (sh *shard) rotate(now, debt int64, limit int) {
	dropped := sh.prev
	sh.prev = sh.cur
	sh.cur = make(map[string]int64, len(sh.prev)/2)
	sh.rotated = now
	for k, tat := range dropped {
		if len(sh.prev) >= limit {
			return
		}
		if tat > debt {
			sh.prev[k] = tat
		}
	}
}
