package restserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"strings"
	"time"

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
	mcpPath    string
	logger     *slog.Logger
	now        func() time.Time
}

// WithRateLimit sets the number of requests per minute that one client
// address may make to the /v1 routes (a token bucket of that size that
// refills over a minute). 0 disables the limit, for embedded use behind a
// gateway that limits on its own. The default is [DefaultRateLimit]. /health,
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
// addresses (default [DefaultMaxClients]). When more distinct addresses call
// within a minute, the least recent ones are forgotten and start again with
// a full bucket.
func WithMaxClients(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("restserver: WithMaxClients: %d is less than 1", n)
		}
		o.maxClients = n
		return nil
	}
}

// WithTrustedProxies lists the proxies whose X-Forwarded-For header is
// believed, as CIDRs ("10.0.0.0/8") or single addresses. The client address
// is the socket peer unless the peer is one of these; then it is the
// right-most address in X-Forwarded-For that is not a trusted proxy. By
// default no proxy is trusted and X-Forwarded-For is ignored.
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

// WithPublicURL sets the base URL clients see (for example
// "https://registry.example.com"), used in /server.json, /llms.txt,
// /llms-full.txt and /openapi.json. It must be an absolute http or https URL
// without query or fragment; a trailing slash is dropped. Without it the
// base URL is derived from each request (its Host, and X-Forwarded-Host and
// X-Forwarded-Proto from a trusted proxy), and /openapi.json names the
// server relative to itself.
func WithPublicURL(u string) Option {
	return func(o *options) error {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" ||
			p.RawQuery != "" || p.Fragment != "" || p.User != nil {
			return fmt.Errorf("restserver: WithPublicURL: %q is not an absolute http(s) URL without query, fragment or credentials", u)
		}
		o.publicURL = strings.TrimRight(p.String(), "/")
		return nil
	}
}

// WithMCPPath sets the path where an MCP endpoint is mounted beside this
// handler (default [DefaultMCPPath]); /llms.txt, /llms-full.txt and
// /server.json advertise it. The handler does not serve it: mount the MCP
// handler on the same mux or server yourself. An empty path means there is
// no MCP endpoint and nothing advertises one.
func WithMCPPath(p string) Option {
	return func(o *options) error {
		if p != "" && (!strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?# ")) {
			return fmt.Errorf("restserver: WithMCPPath: %q is not an absolute path", p)
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
