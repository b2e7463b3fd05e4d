// Package rediscache is a [cache.Cache] on Redis, so that several replicas
// of a server share one cache: an answer fetched by one replica is a hit on
// every other, and a purge (a register's 410) on one replica deletes the
// shared entry.
//
// It stores the bytes it is given under the key it is given, with the TTL it
// is given (SET key value PX ttl), exactly as [cache.Memory] does in
// process. The keys a registry.Registry writes are already namespaced and
// versioned ("companyregistry/2/NO/company/923609016", see [cache.Cache]);
// [WithKeyPrefix] adds a prefix of your own in front of them, for example to
// keep two deployments apart in one Redis database.
//
// # The in-process tier
//
// By default a small [cache.Memory] sits in front of Redis so that a hot
// entry is served without a round trip. An entry stays in it for at most
// [DefaultLocalTTL] (2 s; see [WithLocalTier]) after it was read from or
// written to Redis, so a purge or an expiry on one replica reaches the
// others within that lifetime. [WithoutLocalTier] turns it off.
//
// # When Redis is unreachable
//
// A Cache never returns an error. Every Redis call is bounded by a short
// timeout ([WithTimeout], default 100 ms). When a call fails, the Cache
// logs one warning and serves from the in-process tier alone, which then
// keeps entries for their full TTL (it is the replica's own cache, as
// without Redis); it tries Redis again once a second and, when Redis
// answers, logs one info line, empties the in-process tier (entries kept
// meanwhile may have been purged elsewhere) and shares again. A Delete made
// while Redis was unreachable does not reach the shared entry.
// [Cache.Describe] reports whether Redis answers, for a health report.
package rediscache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/redisstate"
)

// Defaults of a [Cache] built without options.
const (
	// DefaultLocalTTL is the longest time an entry stays in the in-process
	// tier while Redis is reachable.
	DefaultLocalTTL = 2 * time.Second
	// DefaultLocalMaxBytes bounds the in-process tier (see
	// [cache.WithMaxBytes]).
	DefaultLocalMaxBytes = 16 << 20
	// DefaultTimeout bounds one Redis operation.
	DefaultTimeout = redisstate.DefaultTimeout
	// MaxTimeout is the longest bound of one Redis operation that
	// [WithTimeout] accepts.
	MaxTimeout = redisstate.MaxTimeout
	// MaxLocalTTL is the longest lifetime [WithLocalTier] accepts.
	MaxLocalTTL = time.Minute
)

// Option configures a [Cache]. Options validate their input: [New] returns
// the first option error.
type Option func(*options) error

type options struct {
	prefix        string
	local         bool
	localTTL      time.Duration
	localMaxBytes int64
	timeout       time.Duration
	retry         time.Duration // 0: redisstate.DefaultRetry; set by tests
	logger        *slog.Logger
}

// WithKeyPrefix puts prefix in front of every key in Redis (default none).
func WithKeyPrefix(prefix string) Option {
	return func(o *options) error {
		o.prefix = prefix
		return nil
	}
}

// WithLocalTier sets the lifetime (more than zero, at most [MaxLocalTTL])
// and the size bound in bytes (more than zero) of the in-process tier. The
// default is [DefaultLocalTTL] and [DefaultLocalMaxBytes].
func WithLocalTier(ttl time.Duration, maxBytes int64) Option {
	return func(o *options) error {
		if ttl <= 0 || ttl > MaxLocalTTL {
			return fmt.Errorf("rediscache: WithLocalTier: lifetime %v is outside (0, %v]", ttl, MaxLocalTTL)
		}
		if maxBytes <= 0 {
			return fmt.Errorf("rediscache: WithLocalTier: size bound %d is not positive", maxBytes)
		}
		o.local, o.localTTL, o.localMaxBytes = true, ttl, maxBytes
		return nil
	}
}

// WithoutLocalTier turns the in-process tier off while Redis is reachable:
// every Get is a Redis round trip. While Redis is unreachable a tier of
// [DefaultLocalMaxBytes] is still used, so that the replica keeps a cache.
func WithoutLocalTier() Option {
	return func(o *options) error {
		o.local = false
		return nil
	}
}

// WithTimeout bounds each Redis operation (more than zero, at most
// [MaxTimeout]; default [DefaultTimeout]).
func WithTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 || d > MaxTimeout {
			return fmt.Errorf("rediscache: WithTimeout: %v is outside (0, %v]", d, MaxTimeout)
		}
		o.timeout = d
		return nil
	}
}

// WithLogger sets the logger of the changes of Redis's state (default
// discard). Keys, values and error texts are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("rediscache: WithLogger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// Cache is a [cache.Cache] on Redis with an in-process tier. It is safe for
// concurrent use. Build it with [New].
type Cache struct {
	rdb      redis.UniversalClient
	prefix   string
	local    bool
	localTTL time.Duration
	maxBytes int64
	state    *redisstate.State
	tier     atomic.Pointer[cache.Memory]
	// nextPing is when the next ping of Describe may run (unix
	// nanoseconds): one per retry interval of state.
	nextPing atomic.Int64
}

var _ cache.Cache = (*Cache)(nil)

// New returns a Cache on rdb, best made by [NewClient] (a client of your
// own must set ContextTimeoutEnabled, or the timeout of each operation cannot
// interrupt a Redis that stopped answering). It does not contact Redis: a Redis that is
// down at start is found out, and logged, at the first call. The caller
// keeps ownership of rdb and closes it after the last use of the Cache.
func New(rdb redis.UniversalClient, opts ...Option) (*Cache, error) {
	if rdb == nil {
		return nil, errors.New("rediscache: New: nil client")
	}
	o := options{local: true, localTTL: DefaultLocalTTL, localMaxBytes: DefaultLocalMaxBytes, timeout: DefaultTimeout}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("rediscache: New: nil option")
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	c := &Cache{rdb: rdb, prefix: o.prefix, local: o.local, localTTL: o.localTTL, maxBytes: o.localMaxBytes}
	c.state = redisstate.New("cache", o.logger, o.timeout, o.retry, c.resetTier)
	c.resetTier()
	return c, nil
}

// resetTier replaces the in-process tier by an empty one.
func (c *Cache) resetTier() {
	m, err := cache.NewMemory(cache.WithMaxBytes(c.maxBytes))
	if err != nil {
		panic(err) // unreachable: maxBytes was validated
	}
	c.tier.Store(m)
}

// Reachable reports whether the last Redis operation succeeded (true before
// the first), for a health report.
func (c *Cache) Reachable() bool { return c.state.Up() }

// Describe reports [cache.BackendRedis] and whether Redis answers, for a
// health report. When the last ping is older than a second (the interval
// at which an unreachable Redis is tried again) the caller pings Redis,
// bounded by the operation timeout ([WithTimeout]) and by ctx; concurrent
// callers and callers within the second get the known state without a
// round trip. The ping counts as a Redis operation: a failure sends the
// cache to its in-process fallback, an answer after a failure makes it
// share again. A ping cut short because ctx ended says nothing about
// Redis: it is not counted, and the next caller pings again.
func (c *Cache) Describe(ctx context.Context) cache.Description {
	now := time.Now().UnixNano()
	next := c.nextPing.Load()
	if ctx.Err() == nil && now >= next && c.nextPing.CompareAndSwap(next, now+int64(c.state.Retry())) {
		rctx, cancelTimeout := c.state.Context(ctx)
		defer cancelTimeout()
		// The client bounds its reads by the context's deadline (not by
		// its cancellation): the caller's deadline too, when sooner.
		cancel := cancelTimeout
		if dl, ok := ctx.Deadline(); ok {
			rctx, cancel = context.WithDeadline(rctx, dl)
		}
		stop := context.AfterFunc(ctx, cancel)
		err := c.rdb.Ping(rctx).Err()
		stop()
		cancel()
		if err != nil && callerDone(ctx) {
			c.nextPing.CompareAndSwap(now+int64(c.state.Retry()), next)
		} else {
			c.state.Report(ctx, err)
		}
	}
	return cache.Description{Backend: cache.BackendRedis, Reachable: c.state.Up()}
}

// callerDone reports whether ctx has ended or its deadline has passed (a
// read that timed out at the deadline may return a moment before ctx says
// so).
func callerDone(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	dl, ok := ctx.Deadline()
	return ok && !time.Now().Before(dl)
}

// Get returns the entry under key from the in-process tier or from Redis.
// The error is always nil: a Redis failure is a miss.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	tier := c.tier.Load()
	useTier := c.local || !c.state.Up()
	if useTier {
		if v, ok, _ := tier.Get(ctx, key); ok {
			return v, true, nil
		}
	}
	if !c.state.Usable() {
		return nil, false, nil
	}
	rctx, cancel := c.state.Context(ctx)
	v, err := c.rdb.Get(rctx, c.prefix+key).Bytes()
	cancel()
	if !c.state.Report(ctx, err) || errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if c.local {
		_ = tier.Set(ctx, key, v, c.localTTL)
	}
	return v, true, nil
}

// Set stores value under key in Redis for ttl, and in the in-process tier
// for the shorter of ttl and its lifetime (for ttl while Redis is
// unreachable). A ttl <= 0 deletes the entry. The error is always nil.
func (c *Cache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if ttl <= 0 {
		return c.Delete(ctx, key)
	}
	tier := c.tier.Load()
	if !c.state.Usable() {
		_ = tier.Set(ctx, key, value, ttl)
		return nil
	}
	rctx, cancel := c.state.Context(ctx)
	err := c.rdb.Set(rctx, c.prefix+key, value, ttl).Err()
	cancel()
	switch {
	case !c.state.Report(ctx, err):
		_ = tier.Set(ctx, key, value, ttl)
	case c.local:
		_ = tier.Set(ctx, key, value, min(ttl, c.localTTL))
	}
	return nil
}

// Delete removes the entry under key from the in-process tier and from
// Redis, so that every replica misses it within the tier's lifetime. The
// error is always nil.
func (c *Cache) Delete(ctx context.Context, key string) error {
	_ = c.tier.Load().Delete(ctx, key)
	if !c.state.Usable() {
		return nil
	}
	rctx, cancel := c.state.Context(ctx)
	err := c.rdb.Del(rctx, c.prefix+key).Err()
	cancel()
	c.state.Report(ctx, err)
	return nil
}
