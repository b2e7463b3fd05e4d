package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/httplog"
	"github.com/companyregistry/registry/internal/httpmw"
	"github.com/companyregistry/registry/internal/ops"
)

// ServerName is the name the server reports in its serverInfo, the same as
// in the /server.json of restserver.
const ServerName = ops.ServerName

// Instructions is the text the server sends to a client at initialisation,
// telling an agent how to use the tools and read the errors.
const Instructions = `Company data from national business registers (Norway's Brønnøysund register, the United Kingdom's Companies House) in one country-neutral JSON shape.

Countries: call list_countries to get the country codes that can answer now; do not hard-code them. Codes are ISO 3166-1 alpha-2 in any case: the United Kingdom is GB, never UK. country defaults to NO.

Typical flow: search_company by name, then lookup_company with the id of the right hit (a hit is thin; never act on it directly), then company_deadlines for the next statutory filings. validate_company_id checks an identifier's format and checksum offline. The rules behind identifiers, legal forms and deadlines are the resource registry://rules/{country}.

Errors: a failed call is a tool result with isError true whose text is a JSON envelope {"error":{"code","message","hint","country","registry","details"}}. Branch on error.code, never on the message, and follow error.hint. invalid_id or not_found: do not retry the same identifier; validate it or search by name. unsupported_country: pick a code from list_countries. bad_request: correct the parameter and retry once. upstream_error or upstream_timeout: the service already retried once; wait about 60 seconds and retry at most once more. rate_limited: wait details.retry_after seconds.`

// ChangesInstructions follows [Instructions] when the server has change
// monitoring ([WithChanges]): when to use company_changes.
const ChangesInstructions = `Changes: company_changes lists what this service recorded of one company (status such as bankruptcy or dissolution, name, address, legal form, VAT registration, roles, deletion), newest first, with old and new values and when the register recorded it. It reads no register: use it for "what happened to this company lately", and lookup_company for the company's state now. It covers every Norwegian company in the register's update feed and watched companies elsewhere, from when the service began following them; an empty list carries a note saying so.`

// instructions returns the instructions of a server with options o.
func instructions(o options) string {
	if o.changes != nil {
		return Instructions + "\n\n" + ChangesInstructions
	}
	return Instructions
}

// Option configures [New], [Handler], [ServeStdio] and [ServeIO]. Options validate
// their input; the constructors return the first option error.
type Option func(*options) error

type options struct {
	logger         *slog.Logger
	allowedHosts   []string
	trustedOrigins []string
	cop            *http.CrossOriginProtection // holds trustedOrigins; nil when none
	trusted        []netip.Prefix
	now            func() time.Time
	noFastPath     bool // WithoutFastPath
	limiter        Limiter
	changes        *changes.Service // WithChanges
}

// WithChanges adds the tool company_changes, a company's recorded changes
// from svc (the document of REST's GET /v1/{country}/company/{id}/changes,
// byte for byte). Without it the tool does not exist.
func WithChanges(svc *changes.Service) Option {
	return func(o *options) error {
		if svc == nil {
			return errors.New("mcpserver: WithChanges: nil Service")
		}
		o.changes = svc
		return nil
	}
}

// WithoutFastPath makes [Handler] and [ServeIO] send every request through
// the SDK: no HTTP fast path for tools/call and no list cache. The fast
// paths are on by default; they answer what they cover byte for byte as
// the SDK would (the package tests compare both on every request shape),
// and hand everything else to the SDK. Turn them off to rule them out when
// chasing a protocol problem, or when a middleware of yours must see every
// request go through the SDK.
//
// What a tool handler of this package may rely on, fast path or not: it is
// called at most once per request; its context is the request's; its
// arguments are the raw JSON the client sent; and its result is encoded as
// the SDK encodes a CallToolResult. A handler that fails on the fast path
// gets a JSON-RPC internal error, never a second run through the SDK.
func WithoutFastPath() Option {
	return func(o *options) error {
		o.noFastPath = true
		return nil
	}
}

// WithLogger sets the logger: one record per HTTP request to [Handler]
// (never with the tool arguments), tool failures that are defects
// (internal_error), and the SDK's own warnings and errors (its info lines
// are dropped). The default discards logs. In stdio mode the logger must not
// write to stdout.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("mcpserver: WithLogger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// WithAllowedHosts restricts the Host header that [Handler] accepts to the
// given host names (without port) and loopback names. Without it any Host is
// accepted, which is what a server behind a reverse proxy with a public name
// needs. A request with another Host gets 403.
func WithAllowedHosts(hosts ...string) Option {
	return func(o *options) error {
		for _, h := range hosts {
			h = strings.ToLower(strings.TrimSpace(h))
			if h == "" || strings.ContainsAny(h, "/: ") {
				return fmt.Errorf("mcpserver: WithAllowedHosts: %q is not a host name", h)
			}
			o.allowedHosts = append(o.allowedHosts, h)
		}
		return nil
	}
}

// WithTrustedOrigins lets browser pages on the given origins (for example
// "https://app.example.com") call [Handler] cross-origin: their requests
// pass the cross-origin check, and their CORS preflight and responses carry
// the CORS headers a browser needs. Other cross-origin browser requests get
// 403.
func WithTrustedOrigins(origins ...string) Option {
	return func(o *options) error {
		if o.cop == nil {
			o.cop = http.NewCrossOriginProtection()
		}
		for _, origin := range origins {
			if err := o.cop.AddTrustedOrigin(origin); err != nil {
				return fmt.Errorf("mcpserver: WithTrustedOrigins: %w", err)
			}
			o.trustedOrigins = append(o.trustedOrigins, origin)
		}
		return nil
	}
}

// WithTrustedProxies names the reverse proxies (CIDRs or addresses) whose
// X-Forwarded-For the access log believes for the client IP, as
// restserver.WithTrustedProxies does for the REST handler; give both the
// same list. By default the socket peer is the client.
func WithTrustedProxies(cidrs ...string) Option {
	return func(o *options) error {
		for _, c := range cidrs {
			p, err := httplog.ParsePrefix(c)
			if err != nil {
				return fmt.Errorf("mcpserver: WithTrustedProxies: %q is not a CIDR or an IP address", c)
			}
			o.trusted = append(o.trusted, p)
		}
		return nil
	}
}

// WithClock sets the clock of the access log's durations (default
// time.Now).
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("mcpserver: WithClock: nil clock")
		}
		o.now = now
		return nil
	}
}

func buildOptions(opts []Option) (options, error) {
	o := options{now: time.Now}
	for _, opt := range opts {
		if opt == nil {
			return o, errors.New("mcpserver: nil option")
		}
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	return o, nil
}

// New returns an MCP server over reg with the five tools, the rules
// resources and the explain_company prompt. Its serverInfo version is the
// Registry's version (the one /health reports). The server may be connected
// to any number of transports.
func New(reg *registry.Registry, opts ...Option) (*mcp.Server, error) {
	if reg == nil {
		return nil, errors.New("mcpserver: New: nil registry")
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	srv, _, _ := newServer(reg, o, false)
	return srv, nil
}

// newServer builds the server. With private set, the server stays inside
// this package, so its lists are constant and answered from a cache, which
// it returns (else nil).
func newServer(reg *registry.Registry, o options, private bool) (*mcp.Server, *handlers, *listCache) {
	h := &handlers{reg: reg, ops: ops.New(reg), log: o.logger, tools: map[string]rawTool{}, changes: o.changes}
	srv := mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: ops.ServerTitle, Version: reg.Version()},
		&mcp.ServerOptions{
			Instructions: instructions(o),
			Logger:       quiet(o.logger),
			// Tools, resources and prompts are inferred; no logging capability.
			Capabilities:      &mcp.ServerCapabilities{},
			CompletionHandler: h.recoverComplete(h.complete),
		})
	h.addTools(srv)
	h.addResources(srv)
	h.addPrompts(srv)
	srv.AddReceivingMiddleware(quoteUnknownNames)
	if !private || o.noFastPath {
		return srv, h, nil
	}
	lists := newListCache()
	srv.AddReceivingMiddleware(lists.middleware)
	return srv, h, lists
}

// maxRequestBodyBytes bounds one HTTP request to the MCP endpoint; the
// largest message this server needs is far smaller.
const maxRequestBodyBytes = 1 << 20

// Handler returns an http.Handler that serves the MCP server over
// Streamable HTTP, stateless and with JSON responses. Mount it at both /mcp
// and /mcp/ so that neither path redirects. See the package documentation
// for the Host and Origin checks.
func Handler(reg *registry.Registry, opts ...Option) (http.Handler, error) {
	if reg == nil {
		return nil, errors.New("mcpserver: Handler: nil registry")
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	srv, th, lists := newServer(reg, o, true)
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{
			Stateless:           true,
			JSONResponse:        true,
			Logger:              quiet(o.logger),
			MaxRequestBodyBytes: maxRequestBodyBytes,
			// Replaced by the Host allow-list below: the SDK's check rejects
			// every public Host arriving through a local reverse proxy.
			DisableLocalhostProtection: true,
		})
	// What the tools see of the request; the fast path gives its own.
	h = withRequestInfo(h)
	if !o.noFastPath {
		h = newFastPath(th.tools, lists, h)
	}
	cop := o.cop
	if cop == nil {
		cop = http.NewCrossOriginProtection()
	}
	h = cop.Handler(h)
	if len(o.trustedOrigins) > 0 {
		h = cors(o.trustedOrigins, h)
	}
	if len(o.allowedHosts) > 0 {
		h = hostCheck(o.allowedHosts, h)
	}
	// The middleware stack shared with restserver: security headers
	// (Cache-Control no-store unless the handler sets its own: answers of
	// tools carry "no-cache, no-transform", refusals such as 403 and 405
	// keep no-store), request ID and client address, one access-log
	// record, panic recovery.
	// Stack.Handler is that composition in one frame (the four pieces were
	// four calls deep on every request).
	stack := httpmw.New(httpmw.Config{Trusted: o.trusted, Logger: o.logger, Now: o.now, Limiter: o.limiter})
	return stack.Handler("no-store", "mcp request", h), nil
}

// cors answers the CORS preflight of a trusted origin and lets a trusted
// origin's page read the responses; other origins get no CORS headers, so a
// browser does not let them read anything.
func cors(origins []string, next http.Handler) http.Handler {
	trusted := make(map[string]bool, len(origins))
	for _, o := range origins {
		trusted[strings.ToLower(strings.TrimSuffix(o, "/"))] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || !trusted[strings.ToLower(origin)] {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, Mcp-Protocol-Version")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "POST, GET, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers",
				"Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostCheck answers 403 to a request whose Host is neither a loopback name
// nor one of allowed.
func hostCheck(allowed []string, next http.Handler) http.Handler {
	set := make(map[string]bool, len(allowed))
	for _, h := range allowed {
		set[h] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := hostName(r.Host)
		if !set[host] && !isLoopback(host) {
			http.Error(w, "Forbidden: Host not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostName returns the lower-case host of a Host header, without port,
// brackets or a trailing dot.
func hostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.ToLower(strings.TrimSuffix(h, "."))
}

func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ServeStdio serves the MCP server over stdin and stdout until the client
// closes stdin or ctx is cancelled. Nothing else may write to stdout
// meanwhile; log to stderr.
func ServeStdio(ctx context.Context, reg *registry.Registry, opts ...Option) error {
	return ServeIO(ctx, reg, os.Stdin, os.Stdout, opts...)
}

// ServeIO serves the MCP server over the stdio framing (one JSON-RPC message
// per line) on r and w until r reaches its end or ctx is cancelled. When r
// is an [io.ReadCloser], it is closed when serving stops.
//
// At the end of r (io.EOF; the MCP stdio client ends a session by closing
// the server's stdin), ServeIO first writes the answer of every request it
// had read, as it would have written it had r gone on, then returns: a
// client may write its requests and close its end at once (echo … | server
// -stdio). It waits for those answers at most 65 seconds (longer than a
// call of one company takes with the Registry's default timeouts and
// budget waits); a call still running then is cancelled and its answer
// dropped. Every request the SDK answers is waited for, whatever its id (any
// string or number, compared as the SDK compares them), in a batch too, and
// after a response of the client's, a value of up to 16 MiB (the SDK's own
// bound on a value; its newline and CR are not part of it) or several
// values on one line (the SDK reads `{…}\r{…}`, and `{…} {…}` when its
// read happens to end between the two), and a request reusing the id of
// a duplicate the SDK refused. Not waited for: a subscriptions/listen, and
// the requests of a batch that holds a notification (the SDK never answers
// such a batch); and, once ServeIO has met one of them, every later
// request of the session (those before it, on its line too, are waited
// for): a JSON value over several lines (the MCP stdio transport forbids
// embedded newlines), a line that is not valid UTF-8 (the transport
// requires UTF-8), a value longer than 16 MiB and 64 KiB (the SDK ends the
// session on it), a batch reusing the id of a request sent alone whose
// answer is not written yet (not one the SDK refused as a duplicate), or
// of more than 4,096 requests, an error member whose code is not an
// integer of up to 15 digits or whose message is not a string, or more
// than 4,096 calls in flight. Nor is anything once ctx is cancelled, a
// read fails with another error, or a write fails. Nor, as the server
// cannot see them, a request reusing an id whose answer the SDK is about
// to write, before the client has that answer, or the id of a batch's
// request the SDK has answered before the batch's answer is written.
func ServeIO(ctx context.Context, reg *registry.Registry, r io.Reader, w io.Writer, opts ...Option) error {
	if r == nil || w == nil {
		return errors.New("mcpserver: ServeIO: nil reader or writer")
	}
	if reg == nil {
		return errors.New("mcpserver: ServeIO: nil registry")
	}
	o, err := buildOptions(opts)
	if err != nil {
		return err
	}
	srv, th, lists := newServer(reg, o, true)
	// stdioIn answers in front only with the in-process memory cache (its
	// Get neither blocks the stream nor fails); it always holds the end of
	// the input until the answers owed are written (stdioIn.drain).
	st := wireStdio(ctx, srv, th.tools, lists, th.ops.LocalCache(), r, w)
	// Also deferred, for a panic out of Run (a caller's logger): nothing
	// is written after ServeIO ends. Both may run twice.
	defer st.front.stop()
	defer st.front.cancel()
	err = srv.Run(st.front.runContext(), &mcp.IOTransport{Reader: st.in, Writer: nopWriteCloser{st.out}})
	st.front.cancel() // the run context ends with ServeIO
	// The answers queued are written before ServeIO returns, and a
	// failure of one of those writes is ServeIO's error, as the SDK's Run
	// returns a write of its handlers' that failed after the end of the
	// input (rev-fail4); not when the caller ended the session, where the
	// SDK's Run returns the caller's ctx.Err() (rev-last4). sessionFailure
	// says which, as it was when the write failed (stdioOut.fail), during
	// the session or while stop drained the queue.
	st.front.stop()
	if failed := st.front.out.sessionFailure(); failed != nil {
		// Mapped below as the SDK's Run error would be: a write that
		// failed with io.EOF or context.Canceled ends the SDK's session
		// without an error too (rev-sf5).
		err = failed
	}
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil // the client went away, or the caller stopped us
	}
	return err
}

// stdioWiring is what ServeIO gives the SDK's stdio transport: the input
// and output, and what stands between them and the SDK.
type stdioWiring struct {
	in    io.ReadCloser
	out   io.Writer
	front *stdioIn // the reader in front of the SDK (answering or not)
	ids   *sdkIDs  // the ids of the requests the SDK may run
}

// wireStdio puts the list cache and stdioIn between srv (built by
// newServer for stdio, with tools and lists) and r and w. The list cache
// (a middleware inside the SDK) serves the lists through a writer that puts
// the cached bytes in place of its markers, and cached tool results go
// around the SDK's encoder the same way. stdioIn reads the input in front
// of the SDK and counts the requests it passes on and the SDK's answers,
// so that the end of the input waits for the answers owed (stdioIn.drain).
// With front and lists, a call whose answer is cached is also answered
// there, before the next line is read: ServeIO asks for it when the cache
// is the in-process memory cache, whose Get neither blocks the stream nor
// fails (otherwise stdioIn only passes the input on); the SDK's session
// must run with the front's runContext.
func wireStdio(ctx context.Context, srv *mcp.Server, tools map[string]rawTool, lists *listCache, front bool, r io.Reader, w io.Writer) stdioWiring {
	var st stdioWiring
	out := w
	var memo *resultMemo
	if lists != nil {
		mw := lists.stdioWriter(w)
		memo = newResultMemo()
		srv.AddReceivingMiddleware(lists.toolCalls(tools, memo))
		out = mw
	}
	answers := front && lists != nil
	var room func(int) bool
	if answers {
		room = pipeRoom(w)
	}
	st.ids = newSDKIDs()
	st.out = st.ids.writer(out)
	st.front = newStdioIn(ctx, r, out, room, srv, tools, memo, st.ids)
	st.front.answers = answers
	st.in = st.front
	if answers {
		srv.AddReceivingMiddleware(st.front.endOnFail)
	}
	return st
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
