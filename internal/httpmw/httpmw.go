// Package httpmw is the HTTP middleware stack that restserver, mcpserver
// and the example server compose the same way: request ID and client
// address ([Stack.Begin]), one access-log record ([Stack.AccessLog]), panic
// recovery ([Stack.Recover]), security headers ([SecurityHeaders]), a header
// size limit ([MaxHeaderBytes]) and the client rate limit
// ([Request.Charge]). Each piece is a
// func(http.Handler) http.Handler; the trusted proxies, the logger, the
// clock and the limiter are given once, to [New]. [Stack.Handler] is the
// usual composition (security headers, Begin, AccessLog, Recover) in one
// handler.
//
// The rate limit is not a piece that refuses requests by itself: what a
// request costs depends on the surface (REST charges a batch by its
// identifiers, MCP charges per tools/call and answers a refusal with a tool
// result). Begin identifies the client; the surface charges the cost it
// knows through [Request.Charge] and writes its own refusal, built with
// [RateLimited].
//
// The per-request state, a [*Request], is the ResponseWriter that the
// pieces after Begin see, so that REST needs no request copy to reach it
// ([Of]); a surface whose handlers see only a context (MCP's tools) puts it
// there with [NewContext].
//
// A stack inside another (the example server wraps its whole mux, then
// mounts the REST and MCP handlers, which carry stacks of their own) does
// not start a second request: the inner Begin keeps the outer state (one
// request ID, one access-log record, one recovery), and each piece of
// configuration comes from the outermost stack that has it. The inner
// stack fills in what the outer one lacks: its trusted proxies when the
// outer stack has none, its logger when the outer one has none, its
// limiter when the outer one has none. The first AccessLog a request meets
// writes the record, with the message and route of the innermost one.
//
// [WriteAnswer] writes a complete answer whose Content-Length the handler
// set: on a connection of an onewrite.Listener (the example server's, kept
// by [ConnContext]) its headers and body leave in one write where net/http
// would take two; elsewhere it is the ResponseWriter's Write.
//
// # Panics
//
// [Stack.Recover] answers a panic with the internal_error envelope when
// nothing was sent yet. Once the response has started (a final status, a
// body byte or a flush; an informational 1xx such as 103 Early Hints does
// not start it), no clean answer is possible: Recover aborts the
// connection (it panics with http.ErrAbortHandler, which net/http turns
// into a closed connection or an HTTP/2 stream reset), so that the client
// sees an error instead of a truncated body passed off as complete, and
// the access-log record carries aborted=true at error level.
package httpmw

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/httplog"
	"github.com/companyregistry/registry/internal/onewrite"
	"github.com/companyregistry/registry/internal/ops"
)

// Config is what the pieces of a stack share.
type Config struct {
	// Trusted are the proxies whose X-Forwarded-For names the client (see
	// [httplog.ClientIP]).
	Trusted []netip.Prefix
	// Logger receives the access log, recovered panics and limiter
	// failures; nil discards.
	Logger *slog.Logger
	// Now is the clock of the access log's durations; nil is time.Now.
	Now func() time.Time
	// Limiter is the client rate limit that [Request.Charge] draws from,
	// keyed by [httplog.LimitKey] as text; nil means no limit.
	Limiter Limiter
}

// Limiter is the method of ratelimit.Limiter (and of restserver's and
// mcpserver's Limiter); this package does not import ratelimit, which links
// the Redis client.
type Limiter interface {
	Allow(ctx context.Context, key string, cost int) (ok bool, retryAfter time.Duration, err error)
}

// Stack builds the pieces of one configuration. Build it with [New]; it is
// safe for concurrent use.
type Stack struct {
	trusted []netip.Prefix
	log     *slog.Logger // never nil: discards when Config.Logger is nil
	hasLog  bool         // Config.Logger was set
	now     func() time.Time
	wall    bool // now is time.Now: its readings can be the records' times
	lim     Limiter
}

// New returns the stack of c.
func New(c Config) *Stack {
	s := &Stack{trusted: c.Trusted, log: c.Logger, hasLog: c.Logger != nil, now: c.Now, wall: c.Now == nil, lim: c.Limiter}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// Request is the state of one request through a stack: the response
// writer of every piece after [Stack.Begin] (it records the status and
// size for the access log), the request ID, the client address and the
// client's charges. Reach it with [Of] or [FromContext].
type Request struct {
	httplog.Writer
	// ID is the request ID, also sent as X-Request-Id.
	ID string

	start      time.Time
	now        func() time.Time // the clock of the stack that began the request
	wall       bool             // now is time.Now
	log        *slog.Logger     // the outermost configured logger; nil: none
	lim        Limiter          // the outermost limiter; nil: none
	trusted    bool             // IP was resolved with a stack's trusted proxies
	logging    bool             // an AccessLog writes the record
	msg        string           // the access log's message; the innermost AccessLog's
	route      string           // the innermost route pattern
	attrs      []slog.Attr      // more fields of the access-log record
	retryAfter atomic.Int64
	idHeader   [1]string    // the X-Request-Id header's value, allocated with q
	attrBuf    [1]slog.Attr // attrs' first field (MCP's tool), allocated with q
}

// Of returns the state of the stack w was given by, or nil: w is the
// *Request or wraps it (through Unwrap methods).
func Of(w http.ResponseWriter) *Request {
	for w != nil {
		switch t := w.(type) {
		case *Request:
			return t
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

type contextKey struct{}

// NewContext returns ctx carrying q, for handlers that see only a context.
func NewContext(ctx context.Context, q *Request) context.Context {
	return context.WithValue(ctx, contextKey{}, q)
}

// FromContext returns the state [NewContext] put in ctx, or nil.
func FromContext(ctx context.Context) *Request {
	q, _ := ctx.Value(contextKey{}).(*Request)
	return q
}

// Begin starts a request: its ID (the caller's X-Request-Id when it is 1
// to 128 safe characters, else a fresh random one, sent back as
// X-Request-Id), the client address behind the trusted proxies, and the
// state the other pieces share, which becomes the ResponseWriter of next.
// Inside another stack it keeps that stack's state and adds the pieces of
// configuration the outer stacks lack (see the package documentation).
func (s *Stack) Begin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := Of(w); q != nil {
			s.fill(q, r)
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(s.begin(w, r), r)
	})
}

// begin starts the state of a request that no stack has begun.
func (s *Stack) begin(w http.ResponseWriter, r *http.Request) *Request {
	q := &Request{start: s.now(), now: s.now, wall: s.wall}
	q.attrs = q.attrBuf[:0] // an MCP call's tool is added without an allocation
	q.ResponseWriter = w
	s.setClientIP(q, r)
	q.trusted = len(s.trusted) > 0 // setClientIP resolved it behind s's proxies; fill must not again
	s.fill(q, r)
	q.ID = httplog.RequestID(r.Header.Get("X-Request-Id"))
	// The canonical key spares Get and Set an allocation each, and the
	// value's slice is q's (capacity 1: an Add makes a new one).
	q.idHeader[0] = q.ID
	w.Header()["X-Request-Id"] = q.idHeader[:]
	return q
}

// setClientIP sets q's client address: behind s's trusted proxies, from
// the socket peer that [ConnContext] parsed for the request's connection
// when it is the request's RemoteAddr, else from RemoteAddr.
func (s *Stack) setClientIP(q *Request, r *http.Request) {
	st, ok := r.Context().Value(connKey{}).(*connState)
	if !ok || !st.hasPeer || st.peer.Remote() != r.RemoteAddr {
		q.SetIP(httplog.ClientIP(r, s.trusted))
		return
	}
	if ip := httplog.ClientIPBehind(st.peer.Addr(), r, s.trusted); ip != st.peer.Addr() {
		q.SetIP(ip)
		return
	}
	q.SetPeer(st.peer)
}

// connState is what [ConnContext] keeps of a connection, in one
// allocation: its peer, and the connection itself when it can gather
// its writes ([WriteAnswer]).
type connState struct {
	peer    httplog.Peer
	hasPeer bool
	conn    *onewrite.Conn // nil: not a connection of an onewrite.Listener
}

type connKey struct{}

// ConnContext is for http.Server.ConnContext: it keeps c's remote address,
// parsed and as text, in the context of c's requests, so that a stack
// reads the client address of each request from it instead of parsing
// RemoteAddr and making its text again (for a request whose RemoteAddr is
// not c's, it does as before). The client address and its text are the
// same either way. When c is a connection of an onewrite.Listener, it
// keeps c too, so that [WriteAnswer] sends an answer in one write.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	oc, _ := c.(*onewrite.Conn)
	a := c.RemoteAddr()
	if a == nil && oc == nil {
		return ctx
	}
	st := &connState{conn: oc}
	if a != nil {
		st.peer, st.hasPeer = httplog.NewPeer(a.String()), true
	}
	return context.WithValue(ctx, connKey{}, st)
}

// gatherMin is the smallest body [WriteAnswer] gathers: a smaller one and
// its headers (well under 1 KiB here) fit in net/http's 4 KiB connection
// buffer and leave in one write anyway.
const gatherMin = 3 << 10

// WriteAnswer writes body, the whole body of an answer whose Content-Length
// header the caller set to len(body), and sends the answer: on a
// connection of an onewrite.Listener (kept by [ConnContext]) the headers
// and a body that together exceed net/http's 4 KiB connection buffer leave
// in one write instead of two. The bytes on the wire are the same. On any
// other connection, for a HEAD request, a body under 3 KiB, or without that
// Content-Length (a flush before the handler returns would make net/http
// send a body of unknown length chunked), it is w.Write(body). Never use it
// for a stream: it flushes. A gathered answer leaves whole before the
// handler returns, so before the access-log record and the metrics of the
// request are written.
func WriteAnswer(w http.ResponseWriter, r *http.Request, body []byte) {
	if len(body) < gatherMin || r.Method == http.MethodHead || !hasLength(w.Header(), len(body)) {
		_, _ = w.Write(body)
		return
	}
	c := gatherConn(r)
	if c == nil {
		_, _ = w.Write(body)
		return
	}
	c.Gather()
	defer c.End() // a panic, or a flush that does not reach net/http: nothing stays held
	if _, err := w.Write(body); err != nil {
		return
	}
	c.Release() // the flush's write carries the headers and the whole body
	_ = http.NewResponseController(w).Flush()
}

// gatherConn returns the gathering connection of r, or nil.
func gatherConn(r *http.Request) *onewrite.Conn {
	if st, ok := r.Context().Value(connKey{}).(*connState); ok {
		return st.conn
	}
	return nil
}

// hasLength reports whether h gives Content-Length as n.
func hasLength(h http.Header, n int) bool {
	v := h["Content-Length"]
	if len(v) != 1 {
		return false
	}
	got, err := strconv.Atoi(v[0])
	return err == nil && got == n
}

// fill gives q the pieces of s's configuration that the stacks around s
// lack: the logger, the limiter and, when no outer stack names trusted
// proxies, the client address behind s's.
func (s *Stack) fill(q *Request, r *http.Request) {
	if q.log == nil && s.hasLog {
		q.log = s.log
	}
	if q.lim == nil && s.lim != nil {
		q.lim = s.lim
	}
	if !q.trusted && len(s.trusted) > 0 {
		q.SetIP(httplog.ClientIP(r, s.trusted))
		q.trusted = true
	}
}

// AccessLog writes one record per request, with msg, once next has
// returned: method, route pattern (never the raw path, which may hold an
// identifier), status, bytes, duration, request ID and client address (see
// [httplog.Access]), then the fields added with [Request.AddAttr]. The
// record goes to the request's logger: the outermost stack's that has one.
// Inside another AccessLog it only names the route and msg for the outer
// one, which writes the record; the record is written when the handler
// panics too. It must come after Begin.
func (s *Stack) AccessLog(msg string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := Of(w)
			if q == nil {
				next.ServeHTTP(w, r)
				return
			}
			defer q.endLog(r, q.startLog(msg))
			next.ServeHTTP(w, r)
		})
	}
}

// startLog names msg as the access log's message and reports whether the
// caller owns the record (no AccessLog around it does).
func (q *Request) startLog(msg string) (owner bool) {
	q.msg = msg
	owner = !q.logging
	q.logging = true
	return owner
}

// endLog records r's route when no AccessLog inside named one and, when
// owner, writes the record.
func (q *Request) endLog(r *http.Request, owner bool) {
	if q.route == "" {
		q.route = r.Pattern
	}
	if !owner || q.log == nil {
		return
	}
	// The route the innermost handler matched, not this request's (a mux
	// outside this stack's handler).
	rr := r
	if q.route != r.Pattern {
		rr = &http.Request{Method: r.Method, Pattern: q.route}
	}
	end := q.now()
	at := time.Time{} // the record's time: time.Now's, read by Access
	if q.wall {
		at = end // one clock read for the duration and the record
	}
	httplog.Access(r.Context(), q.log, q.msg, rr, &q.Writer, q.ID, at, end.Sub(q.start), q.attrs...)
}

// AddAttr adds fields to the request's access-log record (MCP's tool).
func (q *Request) AddAttr(attrs ...slog.Attr) { q.attrs = append(q.attrs, attrs...) }

// Recover turns a panic of next into the internal_error envelope (status
// 500) when nothing was sent yet, without the headers the handler had set
// for its own answer (see clearHandlerHeaders), and logs it at error level with the
// request ID and the stack, on the request's logger (this stack's outside
// Begin). When the response has started (a final status, a body byte or
// a flush went out), it aborts the connection instead, by panicking with
// http.ErrAbortHandler: a client must see an error, not a cut-off body
// that looks complete, nor an error envelope appended to a 200. A panic
// with http.ErrAbortHandler itself passes through, as net/http expects.
// Either abort marks the access-log record. It must come after Begin.
func (s *Stack) Recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer s.recoverPanic(w, r)
		next.ServeHTTP(w, r)
	})
}

// recoverPanic is Recover's deferred call: it must be deferred itself, so that
// its recover() stops the panic.
func (s *Stack) recoverPanic(w http.ResponseWriter, r *http.Request) {
	p := recover()
	if p == nil {
		return
	}
	q := Of(w)
	if p == http.ErrAbortHandler { //nolint:errorlint // sentinel compared as net/http does
		if q != nil {
			q.Aborted = true
		}
		panic(p)
	}
	log, id := s.log, ""
	if q != nil {
		id = q.ID
		if q.log != nil {
			log = q.log
		}
	}
	started := q != nil && q.Status != 0
	log.LogAttrs(r.Context(), slog.LevelError, "panic in handler",
		slog.String("request_id", id), slog.String("panic", fmt.Sprint(p)),
		slog.Bool("response_started", started), slog.String("stack", string(debug.Stack())))
	if started {
		q.Aborted = true
		panic(http.ErrAbortHandler)
	}
	clearHandlerHeaders(w.Header())
	WriteError(w, &registry.Error{Code: registry.CodeInternalError,
		Message: "An unexpected error occurred inside the service."})
}

// Handler is Chain(SecurityHeaders(cacheControl), s.Begin, s.AccessLog(msg),
// s.Recover)(next), the stack as restserver, mcpserver and the example
// server compose it, in one handler: one call and one frame for the four
// pieces. A request goes some twenty calls deep in a composed server before
// net/http writes its headers, past a goroutine's first stack, which the
// collector shrinks again while the connection waits; fewer and smaller
// frames spare the copy.
func (s *Stack) Handler(cacheControl, msg string, next http.Handler) http.Handler {
	sec := newSecurityValues(cacheControl)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sec.set(w.Header())
		q := Of(w)
		if q != nil {
			s.fill(q, r)
		} else {
			q = s.begin(w, r)
			w = q
		}
		// Deferred calls run last first: the recovery, then the record,
		// as when AccessLog is around Recover.
		defer q.endLog(r, q.startLog(msg))
		defer s.recoverPanic(w, r)
		next.ServeHTTP(w, r)
	})
}

// clearHandlerHeaders removes from h what the failed handler set for the
// answer it never sent (Content-Encoding, Content-Disposition, ETag, Link
// ...), before the internal_error envelope: it keeps the headers of the
// stack, which describe the request and not its answer: the request ID, the
// security headers, and CORS (Access-Control-*, Vary), so that a trusted
// page can read the error. WriteError sets the rest.
func clearHandlerHeaders(h http.Header) {
	for k := range h {
		switch {
		case k == "X-Request-Id", k == "X-Content-Type-Options", k == "Vary", strings.HasPrefix(k, "Access-Control-"):
			continue
		}
		delete(h, k)
	}
}

// SecurityHeaders sets X-Content-Type-Options: nosniff on every response
// and, when cacheControl is not empty, that Cache-Control unless the
// handler sets its own.
func SecurityHeaders(cacheControl string) func(http.Handler) http.Handler {
	sec := newSecurityValues(cacheControl)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sec.set(w.Header())
			next.ServeHTTP(w, r)
		})
	}
}

// securityValues are the values SecurityHeaders sets, made once and shared
// by every response, as slices of capacity 1, so that an Add to one header
// makes a new slice; nothing writes into a header value in place.
type securityValues struct {
	nosniff, cacheControl []string // cacheControl nil: none
}

func newSecurityValues(cacheControl string) securityValues {
	values := []string{"nosniff", cacheControl}
	v := securityValues{nosniff: values[0:1:1]}
	if cacheControl != "" {
		v.cacheControl = values[1:2:2]
	}
	return v
}

func (v securityValues) set(h http.Header) {
	h["X-Content-Type-Options"] = v.nosniff
	if v.cacheControl != nil {
		h["Cache-Control"] = v.cacheControl
	}
}

// MaxHeaderBytes answers 431 Request Header Fields Too Large, as net/http
// does, to a request whose request line and headers (each counted as
// "Name: value\r\n") exceed n bytes, but with the error envelope (code
// bad_request, the message naming the bound: [HeadersTooLarge]), as every
// other error. http.Server.MaxHeaderBytes bounds what the server reads,
// loosely (it allows 4 KiB more); this piece holds a handler to an exact
// bound wherever it is mounted, for a request whose target is a path, as a
// client sends it to a server. For an absolute target
// ("GET http://host/x", a proxy's form) net/http drops the Host line and
// takes the host from the target, so the host is counted as a Host line
// of the target's host, sent or not; the server's own bound still limits
// what such a request reads. Mounted after [Stack.Begin], the refusal
// carries the request's X-Request-Id and its access-log record.
func MaxHeaderBytes(n int) func(http.Handler) http.Handler {
	return MaxHeaderBytesDoors(n, nil)
}

// MaxHeaderBytesDoors is [MaxHeaderBytes] in front of a handler that serves
// the MCP endpoint too: a refused request for which mcp reports true (the
// MCP endpoint would have served it) gets [MCPHeadersTooLarge]'s envelope,
// whose hint is true for an MCP client; any other, [HeadersTooLarge]'s.
// mcp runs only for a refused request; nil is never the MCP endpoint.
func MaxHeaderBytesDoors(n int, mcp func(*http.Request) bool) func(http.Handler) http.Handler {
	restBody, _ := ops.EnvelopeJSON(HeadersTooLarge(n))
	mcpBody, _ := ops.EnvelopeJSON(MCPHeadersTooLarge(n))
	restLength, mcpLength := strconv.Itoa(len(restBody)), strconv.Itoa(len(mcpBody))
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// net/http takes the Host line and Transfer-Encoding out of
			// r.Header. For an absolute target it drops the Host line and
			// sets r.Host from the target: counted as a line of that host
			// (rev-final11; see the doc).
			size := len(r.Method) + 1 + len(r.RequestURI) + 1 + len(r.Proto) + 2
			if r.Host != "" {
				size += len("Host: ") + len(r.Host) + 2
			}
			if len(r.TransferEncoding) > 0 {
				size += len("Transfer-Encoding: ") + len(strings.Join(r.TransferEncoding, ", ")) + 2
			}
			for k, vs := range r.Header {
				for _, v := range vs {
					size += len(k) + 2 + len(v) + 2
				}
			}
			if size > n {
				body, length := restBody, restLength
				if mcp != nil && mcp(r) {
					body, length = mcpBody, mcpLength
				}
				h := w.Header()
				h["Content-Type"] = []string{"application/json"}
				h["Cache-Control"] = []string{"no-store"}
				h["Content-Length"] = []string{length}
				h["Connection"] = []string{"close"}
				w.WriteHeader(http.StatusRequestHeaderFieldsTooLarge)
				_, _ = w.Write(body)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// HeadersTooLarge is the error of a request whose request line and headers
// exceed n bytes: bad_request, which [MaxHeaderBytes] answers with status
// 431 rather than 400.
func HeadersTooLarge(n int) *registry.Error {
	return &registry.Error{
		Code:    registry.CodeBadRequest,
		Message: fmt.Sprintf("The request line and headers are larger than %s.", byteSize(n)),
		Hint:    fmt.Sprintf("Shorten the query or the headers: a search name is at most %d bytes, an identifier far shorter.", registry.MaxQueryLength),
	}
}

// MCPHeadersTooLarge is [HeadersTooLarge] as the MCP endpoint answers it:
// an MCP request's tool arguments travel in its body, which the bound does
// not count, so its hint speaks of the headers only.
func MCPHeadersTooLarge(n int) *registry.Error {
	e := HeadersTooLarge(n)
	e.Hint = "Shorten the headers: the arguments of a tool call travel in the request body, which this bound does not count."
	return e
}

// byteSize writes n bytes as people read a bound: "16 KiB" for a whole
// number of KiB, else "1000 bytes".
func byteSize(n int) string {
	if n > 0 && n%1024 == 0 {
		return strconv.Itoa(n/1024) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}

// Chain composes pieces: Chain(a, b, c)(h) is a(b(c(h))), so a request
// goes through a first.
func Chain(pieces ...func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		for i := len(pieces) - 1; i >= 0; i-- {
			h = pieces[i](h)
		}
		return h
	}
}

// Limited reports whether charges of the request can be refused: its
// stack has a limiter.
func (q *Request) Limited() bool { return q != nil && q.lim != nil }

// Charge takes cost requests from the client's allowance (the limiter of
// the outermost stack that has one, under the client's limit key). When
// the client is over its limit it returns false and the whole seconds to
// wait (at least 1), which are also sent as the Retry-After header if the response has not started.
// Without a limiter, and when the limiter fails (logged), it returns true.
func (q *Request) Charge(ctx context.Context, cost int) (ok bool, retryAfter int) {
	if !q.Limited() {
		return true, 0
	}
	key := httplog.LimitKey(q.IP)
	text := q.IPText() // an IPv4 address is its own key
	if key != q.IP || !key.IsValid() {
		text = key.String()
	}
	allowed, wait, err := q.lim.Allow(ctx, text, cost)
	if err != nil {
		if q.log != nil {
			q.log.LogAttrs(ctx, slog.LevelWarn, "rate limiter failed, request let through", slog.String("error", err.Error()))
		}
		return true, 0
	}
	if allowed {
		return true, 0
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	q.retryAfter.Store(int64(secs))
	return false, secs
}

// RateLimited is the envelope of a refused charge.
func RateLimited(retryAfter int) *registry.Error {
	return &registry.Error{
		Code:    registry.CodeRateLimited,
		Message: "Too many requests from this address.",
		Hint:    fmt.Sprintf("Back off for details.retry_after (%d) seconds, then retry.", retryAfter),
		Details: map[string]any{"retry_after": retryAfter},
	}
}

// WriteHeader sends the status, with Retry-After when a charge of the
// request was refused and the handler set none (on the final status, not
// on an informational one).
func (q *Request) WriteHeader(code int) {
	if q.Status == 0 && !httplog.Informational(code) {
		q.retryHeader()
	}
	q.Writer.WriteHeader(code)
}

// Write sends body bytes (a 200 status first when none was sent).
func (q *Request) Write(b []byte) (int, error) {
	if q.Status == 0 {
		q.retryHeader()
	}
	return q.Writer.Write(b)
}

// Flush sends what was written so far (the status first, 200 when none
// was set), which starts the response.
func (q *Request) Flush() {
	if q.Status == 0 {
		q.retryHeader()
	}
	q.Writer.Flush()
}

func (q *Request) retryHeader() {
	if s := q.retryAfter.Load(); s > 0 {
		if h := q.Header(); h.Get("Retry-After") == "" {
			h.Set("Retry-After", strconv.FormatInt(s, 10))
		}
	}
}

// WriteError writes the error envelope of err with its status, Cache-Control
// no-store and, for rate_limited, Retry-After.
func WriteError(w http.ResponseWriter, err error) {
	b, e := ops.EnvelopeJSON(err)
	h := w.Header()
	if e.Code == registry.CodeRateLimited {
		if ra := e.RetryAfter(); ra > 0 {
			h.Set("Retry-After", strconv.Itoa(ra))
		}
	}
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(e.HTTPStatus())
	_, _ = w.Write(b)
}
