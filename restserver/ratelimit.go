package restserver

import (
	"context"
	"errors"
	"time"

	"github.com/companyregistry/registry/internal/gcra"
)

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
// cost of 1 per request (n for a batch of n identifiers), instead of the
// built-in limiter; give the MCP handler the same l so that both surfaces
// share one allowance. Pass [WithRateLimit] the same per-minute number too:
// the text resources quote it. [WithMaxClients] does not apply to l.
func WithLimiter(l Limiter) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("restserver: WithLimiter: nil limiter")
		}
		o.limiter = l
		return nil
	}
}

// maxPerMinute is the fastest rate of the built-in limiter, one request per
// microsecond (the finest rate of a ratelimit.Local); a larger
// [WithRateLimit] is limited to it, which no client can reach anyway.
const maxPerMinute = 60_000_000

// local is the built-in limiter: the in-process limiter that the ratelimit
// package publishes as Local, used directly so that this package does not
// link the Redis client.
type local struct{ l *gcra.Limiter }

func (l local) Allow(_ context.Context, key string, cost int) (bool, time.Duration, error) {
	ok, wait := l.l.Allow(key, cost)
	return ok, wait, nil
}

// rateLimiter returns the limiter of the options: WithLimiter's, else the
// built-in one (a ratelimit.Local of ratelimit.PerMinute(WithRateLimit),
// WithMaxClients keys and WithClock), else (a rate limit of 0) none.
func (o *options) rateLimiter() Limiter {
	if o.limiter != nil {
		return o.limiter
	}
	if o.rateLimit == 0 {
		return nil
	}
	n := min(o.rateLimit, maxPerMinute)
	return local{gcra.New(gcra.NewParams(n, time.Minute, n), o.maxClients, o.now)}
}
