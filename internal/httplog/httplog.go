package httplog

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// RequestID returns the caller's X-Request-ID when it is 1 to 128 safe
// characters, and a fresh random one otherwise: 32 lowercase hexadecimal
// digits (128 bits) from math/rand/v2's runtime source, seeded by the
// operating system. The ID correlates a response with its log record; it
// is no secret and grants nothing, so it needs to be unique, not
// unpredictable to an attacker (doc/decisions.md, "The request ID from
// math/rand/v2").
func RequestID(in string) string {
	if n := len(in); n > 0 && n <= 128 {
		ok := true
		for i := 0; i < n && ok; i++ {
			c := in[i]
			ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
				strings.IndexByte("-_.:/+=@", c) >= 0
		}
		if ok {
			return in
		}
	}
	return newRequestID(rand.Uint64(), rand.Uint64())
}

// newRequestID writes hi and lo as 32 lowercase hexadecimal digits, hi
// first, as hex.EncodeToString writes their 16 big-endian bytes.
func newRequestID(hi, lo uint64) string {
	const digits = "0123456789abcdef"
	var b [32]byte
	for i := 15; i >= 0; i-- {
		b[i], b[i+16] = digits[hi&0xF], digits[lo&0xF]
		hi >>= 4
		lo >>= 4
	}
	return string(b[:])
}

// Writer records the status and size of a response for the access log, and
// the client address.
type Writer struct {
	http.ResponseWriter
	// Status is the status sent, or 0 before the first write.
	Status int
	// Bytes counts the body bytes the handler wrote and the server took.
	// It is not what the client received: when the client is gone,
	// net/http counts what its buffer took before the write failed, and an
	// answer gathered into one write (httpmw.WriteAnswer) the whole body.
	Bytes int
	// IP is the client address (see [ClientIP]).
	IP netip.Addr
	// Aborted reports that the connection was cut after the response had
	// started (a panic): the client saw an error, not Status.
	Aborted bool

	ipText   string     // ipTextOf as text, set by SetIP
	ipTextOf netip.Addr // the address ipText was made of
}

// SetIP sets IP and makes its text once, for [Writer.IPText]. Call it
// before the handler runs: the Writer is read, never written, by the
// concurrent parts of one request (the tool calls of an MCP batch each
// charge the client's rate limit with its address).
func (w *Writer) SetIP(ip netip.Addr) {
	w.IP = ip
	w.ipText, w.ipTextOf = "", ip
	if ip.IsValid() {
		w.ipText = ip.String()
	}
}

// SetPeer sets IP to p's address with the text [NewPeer] made of it: what
// SetIP(p.Addr()) does, without making the text again.
func (w *Writer) SetPeer(p Peer) {
	w.IP, w.ipText, w.ipTextOf = p.addr, p.text, p.addr
}

// IPText returns IP as text ("" for the zero Addr): the text SetIP made
// when IP is still the address it was given, else made now. It writes
// nothing, so concurrent calls are safe.
func (w *Writer) IPText() string {
	if w.ipTextOf == w.IP {
		return w.ipText
	}
	if !w.IP.IsValid() {
		return ""
	}
	return w.IP.String()
}

// WriteHeader records the first final status and passes every status on.
// An informational one (1xx but 101, such as 103 Early Hints) is interim:
// the final status follows it (RFC 9110, section 15.2), so it is not
// recorded, as net/http does not count it as the response's header.
func (w *Writer) WriteHeader(code int) {
	if w.Status == 0 && !Informational(code) {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Informational reports whether code is an interim status, one that
// net/http sends at once and that a final status follows: 1xx but 101
// Switching Protocols.
func Informational(code int) bool {
	return code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols
}

// Write records the status (200 when none was set) and the size.
func (w *Writer) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.Bytes += n
	return n, err
}

// Flush passes a flush on, for streamed responses. It sends the status
// (200 when none was set), so it records it.
func (w *Writer) Flush() {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Access writes the one access-log record of a request, at info (error for
// a 5xx or an aborted response): method, route (the mux pattern, never the
// raw path, which may hold an identifier), status, bytes, duration, request
// ID and client IP, aborted=true when the connection was cut mid-response,
// then extra. It builds nothing when log is not enabled at that level.
//
// The record goes straight to log's handler, as [slog.Logger.LogAttrs]
// would send it but without the caller's program counter (the source
// location of an access-log record would always name this function), which
// spares a stack walk per request. A handler that is an [AccessWriter]
// writes a record without extra fields itself.
//
// The record's time is at: a reading of time.Now that the caller has made
// anyway (the end of the request's duration), which spares the record a
// clock read of its own; for a zero at the record reads time.Now itself.
func Access(ctx context.Context, log *slog.Logger, msg string, r *http.Request, w *Writer, rid string, at time.Time, took time.Duration, extra ...slog.Attr) {
	status := w.Status
	if status == 0 {
		status = http.StatusOK
	}
	level := slog.LevelInfo
	if status >= 500 || w.Aborted {
		level = slog.LevelError
	}
	h := log.Handler()
	if !h.Enabled(ctx, level) {
		return
	}
	route := r.Pattern
	if route == "" {
		route = "(none)"
	}
	if at.IsZero() {
		at = time.Now()
	}
	if aw, ok := h.(AccessWriter); ok && len(extra) == 0 && aw.WriteAccess(ctx, AccessRecord{
		Time: at, Level: level, Msg: msg, Method: r.Method, Route: route, Status: status, Bytes: w.Bytes,
		Duration: took, ID: rid, ClientIP: w.IPText(), Aborted: w.Aborted,
	}) {
		return
	}
	rec := slog.NewRecord(at, level, msg, 0)
	rec.AddAttrs(
		slog.String("method", r.Method),
		slog.String("route", route),
		slog.Int("status", status),
		slog.Int("bytes", w.Bytes),
		slog.Duration("duration", took),
		slog.String("request_id", rid),
		slog.String("client_ip", w.IPText()),
	)
	if w.Aborted {
		rec.AddAttrs(slog.Bool("aborted", true))
	}
	rec.AddAttrs(extra...)
	_ = h.Handle(ctx, rec)
}
