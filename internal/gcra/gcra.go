// Package gcra is the generic cell rate algorithm and the in-process
// limiter built on it, with bounded memory and no goroutine. Package
// ratelimit publishes it as ratelimit.Local (and runs the same algorithm
// in Redis); restserver's built-in limiter uses it directly, so that the
// REST handler does not link the Redis client.
package gcra

import (
	"hash/maphash"
	"sync"
	"time"
)

// Params is a rate in the units of the algorithm.
type Params struct {
	// Interval is the nanoseconds between two events at the steady rate.
	Interval int64
	// Tolerance is Interval * Burst: how far ahead of now a key may run.
	Tolerance int64
	// Burst is the most events a key may make at once.
	Burst int
}

// NewParams returns the parameters of limit events per period in bursts of
// up to burst. The caller has checked that limit and burst are at least 1
// and that the period is at least limit nanoseconds.
func NewParams(limit int, period time.Duration, burst int) Params {
	interval := int64(period) / int64(limit)
	return Params{Interval: interval, Tolerance: interval * int64(burst), Burst: burst}
}

// MaxCost bounds a cost, so that tat + Interval*cost cannot overflow: no
// caller charges more than a million events at once.
const MaxCost = 1 << 20

// Decide applies the algorithm to tat, a key's theoretical arrival time
// (0 for a new key), at now: it returns whether cost events may happen, the
// new tat to store and, when not, the nanoseconds until they may. A cost
// above the burst needs a full burst (the most that can ever be available)
// and moves tat by its whole cost, which leaves the key in debt.
func (p Params) Decide(tat, now int64, cost int) (ok bool, newTAT, wait int64) {
	tat = max(tat, now)
	need := min(cost, p.Burst)
	if allowAt := tat + p.Interval*int64(need) - p.Tolerance; now < allowAt {
		return false, tat, allowAt - now
	}
	return true, tat + p.Interval*int64(cost), 0
}

// Reserve applies the algorithm to one event that may wait: the event is
// taken when it may happen within the next within nanoseconds, and wait is
// how long until it may (0: at once). When it may not, nothing is taken
// (newTAT is tat) and wait is how long until it may happen at once. The
// event counts from the moment it may happen (now + wait), as if the
// caller had asked then: a reserved event never lets the key act sooner
// than [Params.Decide] would.
func (p Params) Reserve(tat, now, within int64) (ok bool, newTAT, wait int64) {
	tat = max(tat, now)
	wait = max(0, tat+p.Interval-p.Tolerance-now)
	if wait > within {
		return false, tat, wait
	}
	return true, tat + p.Interval, wait
}

// Release gives back one event reserved to happen at slot (now + wait of
// [Params.Reserve]) that will not happen, when slot is still ahead and no
// event was taken after it (tat is still the one its reservation left):
// then moving tat back one interval is exactly the state without that
// event. Otherwise tat stays, and the event's place goes unused: giving it
// to a later caller would put two events in one place.
func (p Params) Release(tat, now, slot int64) int64 {
	if now >= slot || tat != slot+p.Tolerance {
		return tat
	}
	return tat - p.Interval
}

// Limiter is the in-process limiter: one timestamp per key, in shards. It
// is safe for concurrent use. Build it with [New].
type Limiter struct {
	p        Params
	now      func() time.Time
	perShard int
	seed     maphash.Seed
	shards   [shards]shard
}

// shards is the number of independently locked parts of a Limiter.
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

// New returns a limiter of p that tracks about maxKeys keys (at least 1)
// on the clock now.
func New(p Params, maxKeys int, now func() time.Time) *Limiter {
	l := &Limiter{p: p, now: now, perShard: max(1, maxKeys/shards), seed: maphash.MakeSeed()}
	t := now().UnixNano()
	for i := range l.shards {
		l.shards[i].cur = make(map[string]int64)
		l.shards[i].rotated = t
	}
	return l
}

// Allow charges cost events (less than 1 counts as 1) to key. When they
// may not happen now it returns false and how long until they may.
func (l *Limiter) Allow(key string, cost int) (bool, time.Duration) {
	cost = min(max(cost, 1), MaxCost)
	var ok bool
	var wait int64
	l.update(key, func(tat, now int64) int64 {
		ok, tat, wait = l.p.Decide(tat, now, cost)
		return tat
	})
	return ok, time.Duration(wait)
}

// Reserve takes one event of key that may happen within within (see
// [Params.Reserve]): ok, how long until it may happen, and its slot (the
// time it may happen, in nanoseconds of the clock) for [Limiter.Release].
// When it may not happen within within nothing is taken and wait is how
// long until it may happen at once.
func (l *Limiter) Reserve(key string, within time.Duration) (ok bool, wait time.Duration, slot int64) {
	l.update(key, func(tat, now int64) int64 {
		var w int64
		ok, tat, w = l.p.Reserve(tat, now, int64(max(within, 0)))
		wait, slot = time.Duration(w), now+w
		return tat
	})
	return ok, wait, slot
}

// Release gives back the event of key reserved for slot by
// [Limiter.Reserve], when slot has not come yet (see [Params.Release]).
func (l *Limiter) Release(key string, slot int64) {
	l.update(key, func(tat, now int64) int64 { return l.p.Release(tat, now, slot) })
}

// update replaces key's timestamp (0 when unknown) with what f makes of it
// at now.
func (l *Limiter) update(key string, f func(tat, now int64) int64) {
	now := l.now().UnixNano()
	sh := &l.shards[maphash.String(l.seed, key)%shards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now-sh.rotated >= l.p.Tolerance {
		sh.rotate(now, now, 2*l.perShard)
	}
	tat, found := sh.cur[key]
	if !found {
		if tat, found = sh.prev[key]; found {
			delete(sh.prev, key)
		}
	}
	tat = f(tat, now)
	if !found && len(sh.cur) >= l.perShard {
		sh.rotate(now, now+l.p.Tolerance, 2*l.perShard)
	}
	sh.cur[key] = tat
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

// Size returns the number of timestamps held, for tests of the bound.
func (l *Limiter) Size() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.cur) + len(sh.prev)
		sh.mu.Unlock()
	}
	return n
}

// RotateAll makes every shard's timed rotation happen now, for tests.
func (l *Limiter) RotateAll() {
	now := l.now().UnixNano()
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		sh.rotate(now, now, 2*l.perShard)
		sh.mu.Unlock()
	}
}
