package restserver

import (
	"context"
	"errors"
	"time"

	"github.com/companyregistry/registry/ratelimit"
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
// microsecond (the finest rate of a [ratelimit.Local]); a larger
// [WithRateLimit] is limited to it, which no client can reach anyway.
const maxPerMinute = 60_000_000

// rateLimiter returns the limiter of the options: WithLimiter's, else the
// built-in [ratelimit.Local] of WithRateLimit, WithMaxClients and
// WithClock, else (a rate limit of 0) none.
func (o *options) rateLimiter() (Limiter, error) {
	if o.limiter != nil {
		return o.limiter, nil
	}
	if o.rateLimit == 0 {
		return nil, nil
	}
	l, err := ratelimit.NewLocal(ratelimit.PerMinute(min(o.rateLimit, maxPerMinute)),
		ratelimit.WithMaxKeys(o.maxClients), ratelimit.WithClock(o.now))
	if err != nil {
		return nil, err
	}
	return l, nil
}
