package mcpserver

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"time"
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
	tool string
}

type requestInfoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return ri
}

// accessLog writes one record per HTTP request to the MCP endpoint, at info
// (error for a 5xx): method, path, status, bytes, duration, the socket peer
// and, when known, the tool. It never logs arguments, which may identify a
// person (a sole proprietorship's number).
func accessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if !log.Enabled(ctx, slog.LevelError) {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		ri := &requestInfo{}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(ctx, requestInfoKey{}, ri)))
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		ip, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			ip = r.RemoteAddr
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("route", r.URL.Path),
			slog.Int("status", sw.status),
			slog.Int("bytes", sw.bytes),
			slog.Duration("duration", time.Since(start)),
			slog.String("client_ip", ip),
		}
		if ri.tool != "" {
			attrs = append(attrs, slog.String("tool", ri.tool))
		}
		log.LogAttrs(ctx, level, "mcp request", attrs...)
	})
}

// statusWriter records the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Flush passes a flush on, for streamed responses.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
