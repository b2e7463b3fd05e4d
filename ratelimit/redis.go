package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/companyregistry/registry/internal/gcra"
	"github.com/companyregistry/registry/internal/redisstate"
)

// DefaultKeyPrefix is put in front of every key a [Redis] limiter stores.
const DefaultKeyPrefix = "companyregistry/ratelimit/"

// WithKeyPrefix sets the prefix of a [Redis] limiter's keys (default
// [DefaultKeyPrefix]). Replicas that share an allowance use the same
// prefix and the same rate.
func WithKeyPrefix(prefix string) Option {
	return func(o *options) error {
		o.prefix = prefix
		return nil
	}
}

// WithTimeout bounds each Redis call of a [Redis] limiter (more than zero,
// at most 5 s; default 100 ms). Past it the call falls back to the
// in-process limiter.
func WithTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 || d > redisstate.MaxTimeout {
			return fmt.Errorf("ratelimit: WithTimeout: %v is outside (0, %v]", d, redisstate.MaxTimeout)
		}
		o.timeout = d
		return nil
	}
}

// WithLogger sets the logger of a [Redis] limiter's changes of state
// (default discard). Keys are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("ratelimit: WithLogger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// WithComponent sets the name a [Redis] limiter gives itself in its log
// lines (default "ratelimit"), such as "budget".
func WithComponent(name string) Option {
	return func(o *options) error {
		if name == "" {
			return errors.New("ratelimit: WithComponent: empty name")
		}
		o.component = name
		return nil
	}
}

// WithFallback sets the in-process limiter a [Redis] limiter uses while
// Redis is unreachable (default: a new [Local] of the same rate, or of its
// share [WithReplicas], with the same options). Pass the one other code already uses to keep one local
// allowance.
func WithFallback(l *Local) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("ratelimit: WithFallback: nil limiter")
		}
		o.fallback = l
		return nil
	}
}

// WithReplicas says that n replicas (at least 1; default 1) share the
// allowance of a [Redis] limiter: while Redis is unreachable, each falls
// back to its share of the rate ([Rate.Share]), so that together they
// still keep to it. Give the most replicas the deployment runs at once.
// It is meant for an allowance shared by the whole deployment, such as an
// upstream budget; a client's limit is usually better left whole, as the
// replicas rarely see the same client evenly. It has no effect with
// [WithFallback].
func WithReplicas(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("ratelimit: WithReplicas: %d is less than 1", n)
		}
		o.replicas = n
		return nil
	}
}

// scriptHead starts the three scripts below: now, the server's time in
// microseconds, and ARGV[1] and ARGV[2], the interval and the tolerance in
// microseconds. Writing after TIME needs effects replication (see
// gcraScript).
const scriptHead = `
redis.replicate_commands()
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])`

// gcraScript is the GCRA in one atomic step. It takes the time from the
// server (in microseconds), so that replicas with skewed clocks agree.
// Writing after TIME needs effects replication: redis.replicate_commands()
// turns it on in Redis 3.2 to 4.0, which refuse the write otherwise, and
// is a no-op from 5.0 on (the default there, the only mode from 7.0).
// Redis before 3.2 cannot run the script: every call then falls back.
// KEYS[1] is the key; ARGV is the interval and the tolerance in
// microseconds, the cost, and the part of it that must be available (the
// cost, at most the burst; see gcra.Params.Decide). It returns {1, 0} when allowed and {0, wait in
// microseconds} when not.
const gcraScript = scriptHead + `
local cost = tonumber(ARGV[3])
local need = tonumber(ARGV[4])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0) or 0
if tat < now then tat = now end
local allow_at = tat + interval * need - tolerance
if now < allow_at then
  return {0, allow_at - now}
end
local nxt = tat + interval * cost
redis.call('SET', KEYS[1], string.format('%d', nxt), 'PX', math.ceil((nxt - now) / 1000))
return {1, 0}
`

// reserveScript is [gcra.Params.Reserve] in one atomic step, on the
// server's time as gcraScript. ARGV is the interval, the tolerance and the
// longest wait, in microseconds. It returns {1, wait, slot} when the event
// is taken (slot: the server's time it may happen) and {0, wait, 0} when
// it may not happen within the longest wait.
const reserveScript = scriptHead + `
local within = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0) or 0
if tat < now then tat = now end
local wait = tat + interval - tolerance - now
if wait < 0 then wait = 0 end
if wait > within then
  return {0, wait, 0}
end
local nxt = tat + interval
redis.call('SET', KEYS[1], string.format('%d', nxt), 'PX', math.ceil((nxt - now) / 1000))
return {1, wait, now + wait}
`

// releaseScript is [gcra.Params.Release]: ARGV is the interval, the
// tolerance and the slot of the reservation, in microseconds of the
// server's time. It returns 1 when the event was given back.
const releaseScript = scriptHead + `
local slot = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0) or 0
if now >= slot or tat ~= slot + tolerance then
  return 0
end
local nxt = tat - interval
if nxt <= now then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], string.format('%d', nxt), 'PX', math.ceil((nxt - now) / 1000))
end
return 1
`

// Redis is a [Limiter] shared by every replica that uses the same Redis,
// key prefix and rate. It is safe for concurrent use. Build it with
// [NewRedis].
type Redis struct {
	rdb       redis.UniversalClient
	prefix    string
	g         gcra.Params
	intervalU int64 // microseconds
	tolU      int64
	local     *Local
	state     *redisstate.State
	script    *redis.Script
	reserve   *redis.Script
	release   *redis.Script
}

var _ Reserver = (*Redis)(nil)

// NewRedis returns a limiter of rate on rdb, best made by
// rediscache.NewClient (a client of your own must set
// ContextTimeoutEnabled, or the timeout cannot interrupt a Redis that
// stopped answering). It does not contact Redis. The caller keeps
// ownership of rdb.
func NewRedis(rdb redis.UniversalClient, rate Rate, opts ...Option) (*Redis, error) {
	if rdb == nil {
		return nil, errors.New("ratelimit: NewRedis: nil client")
	}
	o, err := build(rate, append([]Option{WithKeyPrefix(DefaultKeyPrefix)}, opts...))
	if err != nil {
		return nil, err
	}
	g := newGCRA(rate)
	if g.Interval < int64(time.Microsecond) {
		return nil, errors.New("ratelimit: NewRedis: the rate is faster than one event per microsecond")
	}
	r := &Redis{rdb: rdb, prefix: o.prefix, g: g, intervalU: g.Interval / 1000, tolU: g.Tolerance / 1000, local: o.fallback,
		script: redis.NewScript(gcraScript), reserve: redis.NewScript(reserveScript), release: redis.NewScript(releaseScript)}
	if r.local == nil {
		r.local = newLocal(rate.Share(o.replicas), o)
	}
	component := o.component
	if component == "" {
		component = "ratelimit"
	}
	r.state = redisstate.New(component, o.logger, o.timeout, o.retry, nil)
	return r, nil
}

// Reachable reports whether the last Redis call succeeded (true before the
// first).
func (r *Redis) Reachable() bool { return r.state.Up() }

// Allow implements [Limiter] on Redis, or on the fallback while Redis is
// unreachable. It never returns an error.
func (r *Redis) Allow(ctx context.Context, key string, cost int) (bool, time.Duration, error) {
	cost = min(max(cost, 1), gcra.MaxCost)
	res, ok := r.run(ctx, r.script, key, 2, r.intervalU, r.tolU, cost, min(cost, r.g.Burst))
	if !ok {
		return r.local.Allow(ctx, key, cost)
	}
	if res[0] == 1 {
		return true, 0, nil
	}
	return false, max(time.Duration(res[1])*time.Microsecond, time.Microsecond), nil
}

// Reserve implements [Reserver] on Redis, or on the fallback while Redis
// is unreachable (an event reserved there is given back there). It never
// returns an error; a release that fails leaves the event's place unused.
func (r *Redis) Reserve(ctx context.Context, key string, within time.Duration) (bool, time.Duration, func(context.Context), error) {
	res, ok := r.run(ctx, r.reserve, key, 3, r.intervalU, r.tolU, max(within, 0).Microseconds())
	if !ok {
		return r.local.Reserve(ctx, key, within)
	}
	wait := time.Duration(res[1]) * time.Microsecond
	if res[0] != 1 {
		return false, max(wait, time.Microsecond), nil, nil
	}
	if wait <= 0 {
		return true, 0, nil, nil
	}
	slot := res[2]
	return true, wait, func(ctx context.Context) {
		rctx, cancel := r.state.Context(ctx)
		defer cancel()
		err := r.release.Run(rctx, r.rdb, []string{r.prefix + key}, r.intervalU, r.tolU, slot).Err()
		r.state.Report(ctx, err)
	}, nil
}

// run runs s on key with args and returns the n integers it answers. ok is
// false when Redis is not usable now or the call failed (which is
// reported): the caller then asks the fallback.
func (r *Redis) run(ctx context.Context, s *redis.Script, key string, n int, args ...any) (res []int64, ok bool) {
	if !r.state.Usable() {
		return nil, false
	}
	rctx, cancel := r.state.Context(ctx)
	res, err := s.Run(rctx, r.rdb, []string{r.prefix + key}, args...).Int64Slice()
	cancel()
	if err == nil && len(res) != n {
		err = errors.New("ratelimit: unexpected script result")
	}
	if !r.state.Report(ctx, err) {
		return nil, false
	}
	return res, true
}
