package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/httplog"
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

// limited wraps a tool handler with the rate limit of [WithLimiter].
func (h *handlers) limited(th mcp.ToolHandler) mcp.ToolHandler {
	if h.lim == nil {
		return th
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ri := infoFrom(ctx)
		if ri == nil || !ri.ip.IsValid() {
			return th(ctx, req)
		}
		ok, wait, err := h.lim.Allow(ctx, httplog.LimitKey(ri.ip).String(), 1)
		if err != nil {
			h.log.LogAttrs(ctx, slog.LevelWarn, "rate limiter failed, tool call let through", slog.String("error", err.Error()))
			return th(ctx, req)
		}
		if ok {
			return th(ctx, req)
		}
		secs := max(1, int(math.Ceil(wait.Seconds())))
		ri.retryAfter.Store(int64(secs))
		return h.failure(&registry.Error{
			Code:    registry.CodeRateLimited,
			Message: "Too many requests from this address.",
			Hint:    fmt.Sprintf("Back off for details.retry_after (%d) seconds, then retry.", secs),
			Details: map[string]any{"retry_after": secs},
		}), nil
	}
}

// retryAfterWriter sets the Retry-After header before the response's
// header is sent when a tool call of the request was rate limited.
type retryAfterWriter struct {
	http.ResponseWriter
	ri          *requestInfo
	wroteHeader bool
}

func (w *retryAfterWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.wroteHeader = true
		if s := w.ri.retryAfter.Load(); s > 0 {
			w.Header().Set("Retry-After", strconv.FormatInt(s, 10))
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *retryAfterWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher for the SDK's event streams.
func (w *retryAfterWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *retryAfterWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
