package restserver

import (
	"hash/maphash"
	"math"
	"net/netip"
	"sync"
	"time"
)

// limiterShards is the number of independently locked parts of the limiter.
const limiterShards = 64

// limiter is a per-client token bucket: a bucket holds at most perMinute
// tokens and refills at perMinute tokens per minute, so a client that starts
// idle may send perMinute requests at once and then one every 60/perMinute
// seconds.
//
// Memory is bounded without a background goroutine. Each shard keeps two
// generations of buckets: cur, and prev, the generation before it. A shard
// rotates (prev = cur, cur = empty) when a minute has passed since its last
// rotation, or early when cur holds its share of maxClients. A bucket
// untouched for a full minute has refilled completely and is the same as no
// bucket, so the timed rotation forgets nothing that matters; an early
// rotation (a flood of distinct addresses) may forget a recent client, who
// then starts again with a full bucket. A batch call (allowN) may leave a
// bucket in debt, below zero, which a minute does not refill: the timed
// rotation keeps such buckets in prev (up to twice the shard's share), so
// that the debt is paid. Each shard holds at most three times
// max(1, maxClients/64) buckets, so at most 3*max(maxClients, 64) exist.
type limiter struct {
	perMinute int
	perShard  int
	now       func() time.Time
	seed      maphash.Seed
	shards    [limiterShards]limiterShard
}

type limiterShard struct {
	mu      sync.Mutex
	cur     map[netip.Addr]bucket
	prev    map[netip.Addr]bucket
	rotated int64 // unix nanoseconds of the last rotation
}

type bucket struct {
	tokens float64
	last   int64 // unix nanoseconds of the last update
}

func newLimiter(perMinute, maxClients int, now func() time.Time) *limiter {
	l := &limiter{
		perMinute: perMinute,
		perShard:  max(1, maxClients/limiterShards),
		now:       now,
		seed:      maphash.MakeSeed(),
	}
	t := now().UnixNano()
	for i := range l.shards {
		l.shards[i].cur = make(map[netip.Addr]bucket)
		l.shards[i].rotated = t
	}
	return l
}

// allow takes a token from key's bucket. When none is left it returns false
// and the whole seconds after which the next token is available (at least 1).
func (l *limiter) allow(key netip.Addr) (ok bool, retryAfter int) {
	return l.allowN(key, 1)
}

// allowN charges n tokens (n >= 1) to key's bucket, for a call that does the
// work of n requests (a batch of n identifiers). It is allowed when the
// bucket holds min(n, perMinute) tokens; then n are taken, so a call larger
// than the bucket empties it and leaves a debt that refills at the usual
// pace before the next call. Otherwise it returns false and the whole seconds
// until the bucket holds enough (at least 1).
func (l *limiter) allowN(key netip.Addr, n int) (ok bool, retryAfter int) {
	const minute = int64(time.Minute)
	n = max(n, 1)
	now := l.now().UnixNano()
	sh := &l.shards[maphash.Comparable(l.seed, key)%limiterShards]

	sh.mu.Lock()
	defer sh.mu.Unlock()
	full := float64(l.perMinute)
	if now-sh.rotated >= minute {
		dropped := sh.prev
		sh.rotate(now)
		sh.keepDebts(dropped, now, full, l.perShard)
	}
	b, found := sh.cur[key]
	if !found {
		if b, found = sh.prev[key]; found {
			delete(sh.prev, key)
		}
	}
	if !found {
		b = bucket{tokens: full, last: now}
	} else if elapsed := now - b.last; elapsed > 0 {
		b.tokens = min(full, b.tokens+float64(elapsed)*full/float64(minute))
		b.last = now
	}
	need := min(float64(n), full)
	if b.tokens >= need {
		b.tokens -= float64(n)
		ok = true
	} else {
		wait := (need - b.tokens) * float64(minute) / full // nanoseconds to enough tokens
		retryAfter = max(1, int(math.Ceil(wait/float64(time.Second))))
	}
	if !found && len(sh.cur) >= l.perShard {
		sh.rotate(now)
	}
	sh.cur[key] = b
	return ok, retryAfter
}

// keepDebts runs after a timed rotation: it moves into prev the buckets of
// dropped, the generation that rotation forgot, which are still below full
// (in debt after a batch), up to 2*perShard buckets in prev.
func (sh *limiterShard) keepDebts(dropped map[netip.Addr]bucket, now int64, full float64, perShard int) {
	for k, b := range dropped {
		if len(sh.prev) >= 2*perShard {
			break
		}
		if b.tokens+float64(now-b.last)*full/float64(time.Minute) < full {
			sh.prev[k] = b
		}
	}
}

func (sh *limiterShard) rotate(now int64) {
	sh.prev = sh.cur
	sh.cur = make(map[netip.Addr]bucket, len(sh.prev)/2)
	sh.rotated = now
}

// limiterKey is the address a client is limited by: an IPv4 address, or the
// /64 network of an IPv6 address (one subscriber usually holds a whole /64).
func limiterKey(ip netip.Addr) netip.Addr {
	ip = ip.Unmap()
	if ip.Is6() {
		p, err := ip.Prefix(64)
		if err == nil {
			return p.Addr()
		}
	}
	return ip
}
