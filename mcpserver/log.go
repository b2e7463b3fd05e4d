package mcpserver

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/companyregistry/registry/internal/httpmw"
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

// requestInfo is what the tools see of an HTTP request to [Handler]: the
// middleware stack's state, for the rate limit, and the tool the fast path
// answered, for the access log.
type requestInfo struct {
	tool string
	req  *httpmw.Request
}

type requestInfoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return ri
}

// withRequestInfo puts a requestInfo in the request's context and, once
// next has returned, adds the tool to the access-log record of the stack
// (which never logs arguments: they may identify a person, a sole
// proprietorship's number).
func withRequestInfo(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := &requestInfo{req: httpmw.Of(w)}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, ri)))
		if ri.tool != "" && ri.req != nil {
			ri.req.AddAttr(slog.String("tool", ri.tool))
		}
	})
}
