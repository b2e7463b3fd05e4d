package restserver

import (
	"context"
	"errors"
	"hash/maphash"
	"log/slog"
	"math"
	"net/netip"
	"sync"
	"time"

	"github.com/companyregistry/registry/internal/httplog"
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

// limiterKey is the address a client is limited by (see
// [httplog.LimitKey]).
func limiterKey(ip netip.Addr) netip.Addr { return httplog.LimitKey(ip) }

// Limiter is a rate limiter shared beyond this handler, for instance with
// the MCP endpoint or, through Redis, with other replicas: the
// ratelimit package's Local and Redis implement it. Allow decides whether
// key may make a request now; when not, retryAfter says how long until it
// may. An error lets the request through and is logged.
type Limiter interface {
	Allow(ctx context.Context, key string, cost int) (ok bool, retryAfter time.Duration, err error)
}

// WithLimiter makes the /v1 routes draw from l, with the client's limit
// key (its IPv4 address, or the /64 of its IPv6 address, as text) and a
// cost of 1 per request, instead of the built-in limiter; give the MCP
// handler the same l so that both surfaces share one allowance. Pass
// [WithRateLimit] the same per-minute number too: the text resources quote
// it. [WithMaxClients] does not apply to l.
func WithLimiter(l Limiter) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("restserver: WithLimiter: nil limiter")
		}
		o.limiter = l
		return nil
	}
}

// allow charges cost requests of the client at ip to the shared limiter
// when there is one, or to the built-in one. It returns false and the whole
// seconds to wait (at least 1) when the client is over its limit.
func (s *Server) allow(ctx context.Context, ip netip.Addr, cost int) (ok bool, retryAfter int) {
	if s.ext == nil {
		return s.lim.allowN(limiterKey(ip), cost)
	}
	ok, wait, err := s.ext.Allow(ctx, limiterKey(ip).String(), cost)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelWarn, "rate limiter failed, request let through", slog.String("error", err.Error()))
		return true, 0
	}
	if ok {
		return true, 0
	}
	return false, max(1, int(math.Ceil(wait.Seconds())))
}
