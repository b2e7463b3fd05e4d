package mcpserver

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"sync/atomic"

	"github.com/companyregistry/registry/internal/httplog"
)

// quiet returns l raised to warning level: the SDK logs three info lines for
// every stateless request (connecting, connected, disconnected), which say
// nothing an access log does not.
func quiet(l *slog.Logger) *slog.Logger {
	return slog.New(minLevel{l.Handler(), slog.LevelWarn})
}

type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}

// requestInfo collects what the access log says about an MCP request beyond
// HTTP: the tool the fast path answered.
type requestInfo struct {
	tool       string
	ip         netip.Addr   // the client, for the rate limit
	retryAfter atomic.Int64 // seconds, when a tool call was rate limited
}

type requestInfoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return ri
}

// accessLog writes one record per HTTP request to the MCP endpoint, the
// same record as the REST handler's (see internal/httplog: the route
// pattern, status, bytes, duration, request ID and client IP behind trusted
// proxies) and, when known, the tool. It sets X-Request-Id on the response.
// It never logs arguments, which may identify a person (a sole
// proprietorship's number).
func accessLog(o options, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := o.now()
		rid := httplog.RequestID(r.Header.Get("X-Request-Id"))
		w.Header()["X-Request-Id"] = []string{rid}
		ctx := r.Context()
		sw := &httplog.Writer{ResponseWriter: w, IP: httplog.ClientIP(r, o.trusted)}
		ri := &requestInfo{ip: sw.IP}
		var out http.ResponseWriter = sw
		if o.limiter != nil {
			out = &retryAfterWriter{ResponseWriter: sw, ri: ri}
		}
		next.ServeHTTP(out, r.WithContext(context.WithValue(ctx, requestInfoKey{}, ri)))
		var extra []slog.Attr
		if ri.tool != "" {
			extra = append(extra, slog.String("tool", ri.tool))
		}
		httplog.Access(ctx, o.logger, "mcp request", r, sw, rid, o.now().Sub(start), extra...)
	})
}
