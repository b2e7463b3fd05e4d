package restserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/internal/httplog"
)

// Defaults of a [Server] built without options.
const (
	// DefaultRateLimit is the number of requests per minute one client
	// address may make to the /v1 routes.
	DefaultRateLimit = 60
	// DefaultMaxClients bounds the rate limiter's memory: it tracks about
	// this many client addresses (at most twice as many buckets exist).
	DefaultMaxClients = 100_000
	// DefaultMCPPath is where the MCP endpoint is advertised unless
	// [WithMCPPath] says otherwise.
	DefaultMCPPath = "/mcp"
)

// Option configures a [Server]. Options validate their input: [New] returns
// the first option error.
type Option func(*options) error

type options struct {
	rateLimit  int
	maxClients int
	limiter    Limiter // WithLimiter's; nil: the built-in limiter
	trusted    []netip.Prefix
	publicURL  string
	basePath   string // from WithBasePath
	publicPath string // the path of WithPublicURL
	mcpPath    string
	logger     *slog.Logger
	now        func() time.Time
	changes    *changes.Service // WithChanges; nil: no change monitoring
	tokens     *apitoken.Set
	maxHeader  int // WithMaxHeaderBytes; 0: no bound of the handler's own
}

// WithRateLimit sets the number of requests per minute that one client
// address may make to the /v1 routes (a [ratelimit.PerMinute] allowance,
// which behaves as a token bucket of that size that refills over a
// minute); a deadlines batch of n identifiers counts as n requests, and
// one larger than the allowance needs all of it and leaves a debt. 0 disables the limit, for embedded use behind a gateway that
// limits on its own. The default is [DefaultRateLimit]. /health,
// /llms.txt, /llms-full.txt, /server.json and /openapi.json are never
// limited.
func WithRateLimit(perMinute int) Option {
	return func(o *options) error {
		if perMinute < 0 {
			return fmt.Errorf("restserver: WithRateLimit: %d is negative", perMinute)
		}
		o.rateLimit = perMinute
		return nil
	}
}

// WithMaxClients bounds the rate limiter's memory to about n client
// addresses (default [DefaultMaxClients]; see [ratelimit.WithMaxKeys]).
// When more distinct addresses call within a minute, the least recent ones
// are forgotten and start again with a full bucket.
func WithMaxClients(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("restserver: WithMaxClients: %d is less than 1", n)
		}
		o.maxClients = n
		return nil
	}
}

// WithTrustedProxies lists the proxies whose X-Forwarded-* headers are
// believed, as CIDRs ("10.0.0.0/8") or single addresses. The client address
// is the socket peer unless the peer is one of these; then it is the
// right-most address in X-Forwarded-For that is not a trusted proxy. From a
// trusted peer, X-Forwarded-Proto and X-Forwarded-Host also name the scheme
// and host of the links, and X-Forwarded-Prefix the path the proxy
// stripped, put in front of the base path (unless [WithPublicURL] fixes
// the base URL). By default no proxy is trusted and these headers are
// ignored.
func WithTrustedProxies(cidrs ...string) Option {
	return func(o *options) error {
		for _, c := range cidrs {
			if strings.TrimSpace(c) == "" {
				continue
			}
			p, err := httplog.ParsePrefix(c)
			if err != nil {
				return fmt.Errorf("restserver: WithTrustedProxies: %q is not a CIDR or an IP address", c)
			}
			o.trusted = append(o.trusted, p)
		}
		return nil
	}
}

// WithMaxHeaderBytes refuses a request whose request line and headers
// (each counted as "Name: value\r\n") exceed n bytes with status 431 and
// the error envelope (code bad_request), and says so in /llms-full.txt and
// /openapi.json. Give it the bound of the server in front (the example
// server passes its 16 KiB): http.Server.MaxHeaderBytes reads 4 KiB past
// its bound, and a request even larger than that is refused by net/http
// itself, with its plain-text 431, before any handler runs. 0 (the
// default) leaves the size to the server.
func WithMaxHeaderBytes(n int) Option {
	return func(o *options) error {
		if n < 0 {
			return fmt.Errorf("restserver: WithMaxHeaderBytes: %d is negative", n)
		}
		o.maxHeader = n
		return nil
	}
}

// WithBasePath sets the path under which clients reach this handler, for
// example "/registry" when an application mounts it with
// http.StripPrefix("/registry", server) next to routes of its own. Every
// link of /llms.txt, /llms-full.txt, /server.json and /openapi.json, the
// advertised MCP endpoint and every hint start with it. "" or "/" is the
// host root (the default). It must be an absolute path of letters, digits
// and -._~/; a trailing slash is dropped. A trusted proxy's
// X-Forwarded-Prefix (see [WithTrustedProxies]) is put in front of it.
func WithBasePath(p string) Option {
	return func(o *options) error {
		c, ok := cleanBasePath(p)
		if !ok {
			return fmt.Errorf("restserver: WithBasePath: %q is not an absolute path of letters, digits and -._~/", p)
		}
		o.basePath = c
		return nil
	}
}

// WithPublicURL sets the base URL clients see, scheme, host and base path
// (for example "https://example.com/registry"), used for every link, the
// advertised MCP endpoint and every hint, whatever the request says. It
// must be an absolute http or https URL without query, fragment or
// credentials; a trailing slash is dropped. Its path is the base path, so
// [WithBasePath] is not needed beside it (if both are given, they must
// agree). Without it the base URL is derived from each request: see
// [WithBasePath] and [WithTrustedProxies].
func WithPublicURL(u string) Option {
	return func(o *options) error {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" ||
			p.RawQuery != "" || p.Fragment != "" || p.User != nil || p.Opaque != "" {
			return fmt.Errorf("restserver: WithPublicURL: %q is not an absolute http(s) URL without query, fragment or credentials", u)
		}
		if !validHost(p.Host) {
			return fmt.Errorf("restserver: WithPublicURL: the host of %q is not a plain host[:port]", u)
		}
		path, ok := cleanBasePath(p.EscapedPath())
		if !ok {
			return fmt.Errorf("restserver: WithPublicURL: the path of %q is not a plain absolute path", u)
		}
		o.publicURL = p.Scheme + "://" + p.Host + path
		o.publicPath = path
		return nil
	}
}

// WithMCPPath sets where an MCP endpoint is mounted beside this handler,
// which /llms.txt, /llms-full.txt and /server.json advertise (default
// [DefaultMCPPath]). A path is relative to the base (see [WithBasePath] and
// [WithPublicURL]): with base path "/registry", "/mcp" advertises
// /registry/mcp. An absolute http or https URL is advertised as it is, for
// an endpoint elsewhere. The handler does not serve it: mount the MCP
// handler on the same mux or server yourself. An empty path means there is
// no MCP endpoint and nothing advertises one.
func WithMCPPath(p string) Option {
	return func(o *options) error {
		if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
			u, err := url.Parse(p)
			if err != nil {
				return fmt.Errorf("restserver: WithMCPPath: %q is not an absolute http(s) URL", p)
			}
			if _, pathOK := cleanBasePath(u.EscapedPath()); !validHost(u.Host) || !pathOK ||
				u.RawQuery != "" || u.Fragment != "" || u.User != nil {
				return fmt.Errorf("restserver: WithMCPPath: %q is not an absolute http(s) URL without query, fragment or credentials", p)
			}
			o.mcpPath = p
			return nil
		}
		if c, ok := cleanBasePath(p); p != "" && (!ok || c == "") {
			return fmt.Errorf("restserver: WithMCPPath: %q is neither an absolute path of letters, digits and -._~/ nor an http(s) URL", p)
		}
		o.mcpPath = p
		return nil
	}
}

// WithLogger sets the logger of the access log (one record per request at
// info level, error level for 5xx answers) and of recovered panics. The
// default discards. Records hold the method, the route pattern (never the
// raw path, so no identifier is logged), the status, the duration, the
// request ID and the client address; never a query string or a header
// value.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("restserver: WithLogger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// WithClock sets the clock of the rate limiter and the access log's
// durations. The default is [time.Now].
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("restserver: WithClock: nil clock")
		}
		o.now = now
		return nil
	}
}
