package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/companyregistry/registry/internal/httpmw"
)

// Limiter is a rate limiter shared with the REST handler and, through
// Redis, with other replicas: the ratelimit package's Local and Redis
// implement it, as restserver.Limiter has the same method. Allow decides
// whether key may make a call now; when not, retryAfter says how long
// until it may. An error lets the call through and is logged.
type Limiter interface {
	Allow(ctx context.Context, key string, cost int) (ok bool, retryAfter time.Duration, err error)
}

// WithLimiter charges every tools/call that arrives over HTTP ([Handler])
// to l, one per call, under the client's limit key (its IPv4 address or
// the /64 of its IPv6 address, after trusted proxies, as the REST handler
// keys it), so that REST /v1 requests and MCP tool calls draw from one
// allowance. A refused call is a tool result with isError and the
// rate_limited envelope, whose details.retry_after is also sent as the
// Retry-After header of the HTTP response; never a protocol error. Other
// MCP methods, and stdio, are not limited.
func WithLimiter(l Limiter) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("mcpserver: WithLimiter: nil limiter")
		}
		o.limiter = l
		return nil
	}
}

// limited wraps a tool handler with the rate limit of the HTTP request's
// middleware stack ([WithLimiter], or the stack of a server that wraps
// [Handler]): one charge of the client per call. Over stdio there is none.
func (h *handlers) limited(rt rawTool) rawTool {
	return func(ctx context.Context, args json.RawMessage) toolOutput {
		ri := infoFrom(ctx)
		if ri == nil || !ri.req.Limited() {
			return rt(ctx, args)
		}
		// A refusal also sets Retry-After on the HTTP response.
		if ok, secs := ri.req.Charge(ctx, 1); !ok {
			return h.failure(httpmw.RateLimited(secs))
		}
		return rt(ctx, args)
	}
}
