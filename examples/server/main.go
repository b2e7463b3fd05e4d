// Command server is the runnable company registry server: the REST API at /,
// MCP over Streamable HTTP at /mcp (and /mcp/, neither redirecting), and MCP
// over stdio with -stdio.
//
// With no configuration it serves Norway, Finland and France from the live
// Brønnøysund, PRH and API Recherche d'entreprises registers on :8080:
//
//	go run ./examples/server
//
// Flags: -addr (or REGISTRY_ADDR, default :8080) and -stdio. Environment:
// BRREG_BASE_URL, COMPANIES_HOUSE_BASE_URL, COMPANIES_HOUSE_API_KEY,
// PRH_BASE_URL, CVR_BASE_URL, CVR_CREDENTIALS,
// RECHERCHE_ENTREPRISES_BASE_URL, BOLAGSVERKET_CREDENTIALS,
// BOLAGSVERKET_BASE_URL, BOLAGSVERKET_TOKEN_URL, BOLAGSVERKET_BULK_FILE,
// BOLAGSVERKET_BULK_URL, REGISTRY_CONTACT_EMAIL, REGISTRY_RATE_LIMIT,
// REGISTRY_TRUSTED_PROXIES, REGISTRY_CACHE_TTL, REGISTRY_LOG_LEVEL,
// REGISTRY_PUBLIC_URL, REGISTRY_BASE_PATH, REDIS_URL, REDIS_TIMEOUT,
// REGISTRY_UPSTREAM_BUDGETS, REGISTRY_UPSTREAM_WAIT, REGISTRY_REPLICAS,
// REGISTRY_METRICS_ADDR, REGISTRY_DATA_DIR (Sweden's index and change
// monitoring's database), change monitoring's REGISTRY_CHANGES,
// DATABASE_URL, REGISTRY_API_TOKENS(_FILE), COMPANIES_HOUSE_STREAM_KEY,
// REGISTRY_CHANGES_INTERVAL, REGISTRY_WATCH_POLL_INTERVAL and
// REGISTRY_WEBHOOK_ALLOW_PRIVATE (see -h).
// An invalid configuration exits with status 2 and a message naming the
// setting, with -stdio as well as over HTTP. SIGINT or SIGTERM stops
// accepting connections and lets requests in flight finish.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // deadlines need time zones on hosts without a tz database

	"github.com/redis/go-redis/v9"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/heapfloor"
	"github.com/companyregistry/registry/internal/httplog"
	"github.com/companyregistry/registry/internal/httpmw"
	"github.com/companyregistry/registry/internal/onewrite"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/metrics"
	"github.com/companyregistry/registry/ratelimit"
	"github.com/companyregistry/registry/restserver"
)

// version is the software version, stamped at build time with
// -ldflags "-X main.version=1.2.3"; empty means [registry.Version].
var version string

// Timeouts and limits of the HTTP server. The write timeout leaves room for
// the slowest answer: two upstream attempts of 10 s and the retry pause.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 45 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 16 << 10
	shutdownTimeout   = 30 * time.Second
	// maxReplicas bounds REGISTRY_REPLICAS: a share of a budget is at
	// least one call per window, so more replicas than calls make no sense.
	maxReplicas = 1000
)

// limits are the timeouts and the header limit of the HTTP server; tests
// shorten them.
type limits struct {
	readHeader, read, write, idle time.Duration
	maxHeaderBytes                int
}

func defaultLimits() limits {
	return limits{readHeader: readHeaderTimeout, read: readTimeout, write: writeTimeout, idle: idleTimeout,
		maxHeaderBytes: maxHeaderBytes}
}

// newHTTPServer returns the HTTP server of the program: a client that is
// slower than the limits is cut off, a request line and headers larger than
// maxHeaderBytes are refused with 431, and the server's own complaints go
// to the logger at warn level.
func newHTTPServer(handler http.Handler, logger *slog.Logger, l limits) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: l.readHeader,
		ReadTimeout:       l.read,
		WriteTimeout:      l.write,
		IdleTimeout:       l.idle,
		MaxHeaderBytes:    l.maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		// Each connection's peer address is parsed once, not per request.
		ConnContext: httpmw.ConnContext,
	}
}

func main() {
	// The Redis client's own log lines (a failed dial, with the address)
	// are dropped: the cache, the limiter and the budgets log each change
	// of Redis's state once, in JSON, on the program's logger.
	redis.SetLogger(quietRedis{})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The logs (one access-log record per request) are written by a
	// goroutine of their own, in batches under load; see logWriter.
	stderr := newLogWriter(os.Stderr)
	// The collector's heap floor is the process's, so it is set here, not
	// in run (which tests call in one process); run refuses a bad value.
	// It runs for the process's life (os.Exit below ends it).
	if floor, err := parseHeapFloor(os.Getenv); err == nil && floor > 0 {
		_, _ = heapfloor.Start(floor)
	}
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, stderr, nil)
	stop()
	_ = stderr.Close() // nowhere left to report a failure of stderr
	os.Exit(code)
}

// run is the whole program. It returns the exit status: 0 after a clean
// shutdown, 1 when serving fails, 2 for an invalid configuration.
// onListen, when set, receives the address the HTTP server listens on.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer,
	onListen func(addr string)) int {
	cfg, err := parseConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 2
	}
	logger := newLogger(stderr, cfg.logLevel)

	// Every option is built before a mode is chosen, so that -stdio refuses
	// a bad setting just as HTTP does.
	a, err := build(cfg, logger)
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 2
	}
	defer a.close()
	logger.LogAttrs(ctx, slog.LevelInfo, "shared state", a.shared.describe...)

	if cfg.stdio {
		// MCP over stdin/stdout until the client closes stdin or a signal;
		// logs go to stderr only.
		if err := mcpserver.ServeIO(ctx, a.reg, stdin, stdout, a.mcpOpts...); err != nil {
			fmt.Fprintf(stderr, "server: stdio: %v\n", err)
			return 1
		}
		return 0
	}
	if a.shared.metrics != nil {
		stopMetrics, err := serveMetrics(cfg.metricsAddr, a.shared.metrics, logger)
		if err != nil {
			return 1
		}
		defer stopMetrics()
	}
	if a.changes != nil {
		wctx, stopWorkers := context.WithCancel(ctx)
		wait := a.changes.start(wctx)
		defer wait()
		defer stopWorkers()
	}
	return serve(ctx, cfg, a.handler, logger, onListen)
}

// config is the parsed configuration of DESIGN §3.
type config struct {
	addr           string
	stdio          bool
	countries      countries.Config
	rateLimit      int
	trustedProxies []string
	cacheTTL       time.Duration
	logLevel       slog.Level
	publicURL      string
	basePath       string
	redisURL       string // REDIS_URL; never logged
	redisTimeout   string // REDIS_TIMEOUT, parsed by buildShared
	metricsAddr    string // REGISTRY_METRICS_ADDR; "" serves no metrics
	budgets        string // REGISTRY_UPSTREAM_BUDGETS, parsed by buildShared
	replicas       int    // REGISTRY_REPLICAS
	changes        changeConfig
	upstreamWait   string // REGISTRY_UPSTREAM_WAIT, parsed by buildShared
	// pace, set by tests only, is the clock and sleep of the in-process
	// budgets and of the Registry's waits for them.
	pace *pacing
}

// pacing is a clock and a sleep that agree (see registry.WithWaiter).
type pacing struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

// envHelp lists the environment variables for -h.
const envHelp = `
Environment:
  REGISTRY_ADDR             listen address (default :8080; -addr wins)
  BRREG_BASE_URL            Brønnøysund API base URL (default https://data.brreg.no/enhetsregisteret/api)
  COMPANIES_HOUSE_BASE_URL  Companies House API base URL (default https://api.company-information.service.gov.uk)
  COMPANIES_HOUSE_API_KEY   Companies House API key; unset: GB cannot answer
  PRH_BASE_URL              PRH YTJ open data API base URL (default https://avoindata.prh.fi/opendata-ytj-api/v3)
  RECHERCHE_ENTREPRISES_BASE_URL
                            API Recherche d'entreprises base URL (default https://recherche-entreprises.api.gouv.fr)
  CVR_BASE_URL              CVR distribution base URL (default http://distribution.virk.dk/cvr-permanent)
  CVR_CREDENTIALS           CVR distribution credential, username:password; unset: DK cannot answer
  BOLAGSVERKET_CREDENTIALS  Bolagsverket API client_id:client_secret; unset: SE lookups from the bulk file only
  BOLAGSVERKET_BASE_URL     Bolagsverket API base URL (default https://gw.api.bolagsverket.se/vardefulla-datamangder/v1)
  BOLAGSVERKET_TOKEN_URL    Bolagsverket token endpoint (default https://portal.api.bolagsverket.se/oauth2/token)
  BOLAGSVERKET_BULK_FILE    path of Bolagsverket's bulk file (zip or text): Swedish name searches
  BOLAGSVERKET_BULK_URL     or the URL to download it from weekly (both indexed in REGISTRY_DATA_DIR/se)
  REGISTRY_CONTACT_EMAIL    contact e-mail sent in the User-Agent to the registers
  REGISTRY_RATE_LIMIT       requests a minute per client IP, REST /v1 and MCP tools/call together (default 60; 0 disables)
  REGISTRY_TRUSTED_PROXIES  comma-separated CIDRs or IPs whose X-Forwarded-For is believed (default none)
  REGISTRY_CACHE_TTL        cache lifetime of successful lookups, at most 24h (default 24h)
  REGISTRY_LOG_LEVEL        debug, info, warn or error (default info; JSON on stderr)
  REGISTRY_PUBLIC_URL       base URL clients see, e.g. https://registry.example.com (default: from each request)
  REGISTRY_BASE_PATH        serve everything under this path, e.g. /registry (REST at /registry/v1, MCP at /registry/mcp; default /)
  REDIS_URL                 redis:// or rediss:// URL shared by replicas: cache, rate limit, upstream budgets
                            (default none: all in process)
  REDIS_TIMEOUT             bound of one Redis call, past which a replica uses its own state (default 100ms)
  REGISTRY_UPSTREAM_BUDGETS most calls to a register in any window, e.g. GB=600/5m,NO=300/1m,FI=off
                            (defaults GB=600/5m per API key, NO=300/1m, FI=300/1m, DK=120/1m, FR=6/1s,
                            SE=29/1m per credential)
  REGISTRY_UPSTREAM_WAIT    longest wait of a request for an empty upstream budget before rate_limited, at most 10s
                            (default 2s; 0 refuses at once); never past the request's own deadline
  REGISTRY_REPLICAS         most replicas that run at once (default 1): while Redis is unreachable (or
                            without REDIS_URL) each replica keeps to its share of every upstream budget, at
                            least one call at once and one per window (more than a budget under 2N a window)
  REGISTRY_METRICS_ADDR     listen address of Prometheus /metrics, apart from the API, e.g. 127.0.0.1:9090
                            (default none)
  REGISTRY_HEAP_FLOOR       the heap the garbage collector lets grow before collecting while the live heap is
                            small, e.g. 64MiB (default 24MiB; 0 leaves Go's own, 4 MiB at GOGC=100); meanwhile a
                            soft memory limit keeps the heap under twice it; GOGC and a lower GOMEMLIMIT still apply

Change monitoring (watches, the change feed, webhooks):
  REGISTRY_CHANGES          on or off (default on; off serves none of its routes, opens no database, reads no feed)
  REGISTRY_DATA_DIR         folder of the service's data on disk: the embedded database, and Sweden's index in se/
                            (default ./companyregistry-data; with -stdio change monitoring is on only when it or
                            DATABASE_URL is set)
  DATABASE_URL              postgres:// URL: PostgreSQL instead of the embedded database (for several replicas)
  REGISTRY_API_TOKENS       API tokens of the watch and feed routes, name=token,... (default none: those routes answer 403)
  REGISTRY_API_TOKENS_FILE  the same as a file of "name sha256-hex" lines (instead of REGISTRY_API_TOKENS)
  COMPANIES_HOUSE_STREAM_KEY  Companies House streaming API key (default none: GB is polled)
  REGISTRY_CHANGES_INTERVAL how often the registers' change feeds are read, 1s to 24h (default 1m)
  REGISTRY_WATCH_POLL_INTERVAL how often a watched company without a feed is fetched, 1m to 720h (default 24h)
  REGISTRY_WEBHOOK_ALLOW_PRIVATE true lets webhooks go to http and to loopback or private addresses
                            (never link-local or metadata ones; default false)
`

// parseConfig reads the flags and the environment. A flag wins over its
// environment variable. Help (-h) returns flag.ErrHelp after printing usage.
// It only parses: whether a value is allowed is for the option it feeds to
// say, in [build].
func parseConfig(args []string, getenv func(string) string, output io.Writer) (config, error) {
	cfg := config{
		addr:      ":8080",
		countries: countries.ConfigFromEnv(getenv),
		rateLimit: restserver.DefaultRateLimit,
		cacheTTL:  registry.DefaultCacheTTL,
		logLevel:  slog.LevelInfo,
		publicURL: strings.TrimSpace(getenv("REGISTRY_PUBLIC_URL")),
		basePath:  strings.TrimRight(strings.TrimSpace(getenv("REGISTRY_BASE_PATH")), "/"),
		redisURL:  strings.TrimSpace(getenv("REDIS_URL")),

		redisTimeout: strings.TrimSpace(getenv("REDIS_TIMEOUT")),
		budgets:      strings.TrimSpace(getenv("REGISTRY_UPSTREAM_BUDGETS")),
		upstreamWait: strings.TrimSpace(getenv("REGISTRY_UPSTREAM_WAIT")),

		metricsAddr: strings.TrimSpace(getenv("REGISTRY_METRICS_ADDR")),
		replicas:    1,
	}
	if v := strings.TrimSpace(getenv("REGISTRY_ADDR")); v != "" {
		cfg.addr = v
	}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(output)
	fs.StringVar(&cfg.addr, "addr", cfg.addr, "listen address for HTTP (REST at /, MCP at /mcp)")
	fs.BoolVar(&cfg.stdio, "stdio", false, "serve MCP over stdin/stdout instead of HTTP")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: server [-addr host:port] [-stdio]\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), envHelp)
	}
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q (configuration is by flags -addr and -stdio and environment variables; see -h)", fs.Arg(0))
	}
	if cfg.addr == "" {
		return config{}, errors.New("-addr is empty")
	}
	if _, _, err := net.SplitHostPort(cfg.addr); err != nil {
		return config{}, fmt.Errorf("-addr / REGISTRY_ADDR %q is not host:port (for example :8080)", cfg.addr)
	}
	if v := strings.TrimSpace(getenv("REGISTRY_RATE_LIMIT")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return config{}, fmt.Errorf("REGISTRY_RATE_LIMIT %q is not a whole number of requests per minute", v)
		}
		cfg.rateLimit = n
	}
	if v := strings.TrimSpace(getenv("REGISTRY_REPLICAS")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxReplicas {
			return config{}, fmt.Errorf("REGISTRY_REPLICAS %q is not a whole number from 1 to %d", v, maxReplicas)
		}
		cfg.replicas = n
	}
	if v := strings.TrimSpace(getenv("REGISTRY_TRUSTED_PROXIES")); v != "" {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				cfg.trustedProxies = append(cfg.trustedProxies, p)
			}
		}
	}
	if v := strings.TrimSpace(getenv("REGISTRY_CACHE_TTL")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return config{}, fmt.Errorf("REGISTRY_CACHE_TTL %q is not a duration (for example 6h)", v)
		}
		cfg.cacheTTL = d
	}
	if v := strings.TrimSpace(getenv("REGISTRY_LOG_LEVEL")); v != "" {
		if err := cfg.logLevel.UnmarshalText([]byte(v)); err != nil {
			return config{}, fmt.Errorf("REGISTRY_LOG_LEVEL %q is not debug, info, warn or error", v)
		}
	}
	if _, err := parseHeapFloor(getenv); err != nil {
		return config{}, err
	}
	var err error
	if cfg.changes, err = parseChangeConfig(getenv); err != nil {
		return config{}, err
	}
	// One folder for the service's data on disk: Sweden's index goes
	// beside change monitoring's database, in REGISTRY_DATA_DIR or its
	// default.
	cfg.countries.DataDir = cfg.changes.dataDir
	return cfg, nil
}

// app is the configured program: the registry, the HTTP handler and the
// options of MCP over stdio, all built from one config.
type app struct {
	modules []registry.Country // closed when the program ends
	reg     *registry.Registry
	handler http.Handler // nil with -stdio
	mcpOpts []mcpserver.Option
	shared  *shared
	changes *changeRuntime // nil: change monitoring is off
}

// close releases change monitoring's store, the modules (Sweden's index
// and its goroutine) and the shared state.
func (a *app) close() {
	a.changes.close()
	_ = countries.Close(a.modules)
	a.shared.close()
}

// build builds and so validates every option of the registry, the REST
// handler and the MCP server, whichever mode runs. An option refused
// because of a setting comes back wrapped with the name of that flag or
// environment variable: each setting is first tried alone, so that the
// option's own check is the only check and the error still names its source.
// Once the modules are built, an error closes them (Sweden's index and its
// goroutine) before it is returned.
func build(cfg config, logger *slog.Logger) (_ *app, err error) {
	for _, s := range []struct {
		name string
		cc   countries.Config
	}{
		{"BRREG_BASE_URL", countries.Config{BrregBaseURL: cfg.countries.BrregBaseURL}},
		{"COMPANIES_HOUSE_BASE_URL", countries.Config{CompaniesHouseBaseURL: cfg.countries.CompaniesHouseBaseURL}},
		{"COMPANIES_HOUSE_API_KEY", countries.Config{CompaniesHouseAPIKey: cfg.countries.CompaniesHouseAPIKey}},
		{"PRH_BASE_URL", countries.Config{PRHBaseURL: cfg.countries.PRHBaseURL}},
		{"RECHERCHE_ENTREPRISES_BASE_URL", countries.Config{RechercheEntreprisesBaseURL: cfg.countries.RechercheEntreprisesBaseURL}},
		{"CVR_BASE_URL", countries.Config{CVRBaseURL: cfg.countries.CVRBaseURL}},
		{"CVR_CREDENTIALS", countries.Config{CVRCredentials: cfg.countries.CVRCredentials}},
		{"BOLAGSVERKET_BASE_URL", countries.Config{BolagsverketBaseURL: cfg.countries.BolagsverketBaseURL}},
		{"BOLAGSVERKET_TOKEN_URL", countries.Config{BolagsverketTokenURL: cfg.countries.BolagsverketTokenURL}},
		{"BOLAGSVERKET_CREDENTIALS", countries.Config{BolagsverketCredentials: cfg.countries.BolagsverketCredentials}},
		{"BOLAGSVERKET_BULK_URL", countries.Config{BolagsverketBulkURL: cfg.countries.BolagsverketBulkURL}},
		{"REGISTRY_CONTACT_EMAIL", countries.Config{ContactEmail: cfg.countries.ContactEmail}},
	} {
		if err := countries.Check(s.cc); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	var m *metrics.Metrics
	if cfg.metricsAddr != "" {
		m = metrics.New()
		// The modules' default is a zero client; this one counts too.
		cfg.countries.HTTPClient = &http.Client{Transport: m.Transport(nil)}
	}
	cfg.countries.Logger = logger
	cs, err := countries.All(cfg.countries)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = countries.Close(cs)
		}
	}()

	ttl := registry.WithCacheTTL(cfg.cacheTTL)
	if _, err := registry.New(nil, ttl); err != nil {
		return nil, fmt.Errorf("REGISTRY_CACHE_TTL: %w", err)
	}
	v := version
	if v == "" {
		v = registry.Version
	}
	codes := make([]string, 0, len(cs))
	for _, c := range cs {
		codes = append(codes, c.Info().Country)
	}
	sh, err := buildShared(cfg, codes, logger, m)
	if err != nil {
		return nil, err
	}
	reg, err := registry.New(cs, append([]registry.Option{registry.WithLogger(logger), ttl, registry.WithVersion(v)}, sh.regOpts...)...)
	if err != nil {
		sh.close()
		return nil, err
	}

	// Every setting is checked before the change store is opened (which
	// creates its folder).
	settings, err := restSettings(cfg, reg)
	if err != nil {
		sh.close()
		return nil, err
	}
	ch, err := buildChanges(cfg, reg, sh.budgets, logger)
	if err != nil {
		sh.close()
		return nil, err
	}
	if cfg.stdio {
		// MCP over stdio serves no HTTP handler: its settings are
		// checked above, and it needs only the MCP options.
		return &app{modules: cs, reg: reg, mcpOpts: mcpOptions(logger, ch), shared: sh, changes: ch}, nil
	}
	handler, mcpOpts, err := newHandlerWith(cfg, settings, reg, logger, sh.limiter, ch)
	if err != nil {
		sh.close()
		ch.close()
		return nil, err
	}
	if m != nil {
		handler = withMetrics(m, handler)
	}
	return &app{modules: cs, reg: reg, handler: handler, mcpOpts: mcpOpts, shared: sh, changes: ch}, nil
}

// mcpOptions are the options of the MCP server, over HTTP and stdio alike.
func mcpOptions(logger *slog.Logger, ch *changeRuntime) []mcpserver.Option {
	opts := []mcpserver.Option{mcpserver.WithLogger(logger)}
	if ch != nil {
		opts = append(opts, mcpserver.WithChanges(ch.svc))
	}
	return opts
}

// newHandler builds the mux, REST at / and MCP (Streamable HTTP, stateless)
// at /mcp and /mcp/, inside one middleware stack, and returns it with the
// MCP options, which stdio uses too. An error from a REST option names its
// environment variable.
//
// The stack (security headers, request ID and client address, one
// access-log record, panic recovery, the exact header limit, the client
// rate limit) is given the
// trusted proxies, the logger and the limiter once; the REST and MCP
// handlers' own stacks find it and use it, so they need none of these for
// HTTP. REST still needs the trusted proxies for its links and the rate for
// its texts.
//
// With change monitoring (ch not nil), REST serves its routes with the
// API tokens and MCP its tool.
func newHandler(cfg config, reg *registry.Registry, logger *slog.Logger, lim ratelimit.Limiter, ch *changeRuntime) (http.Handler, []mcpserver.Option, error) {
	settings, err := restSettings(cfg, reg)
	if err != nil {
		return nil, nil, err
	}
	return newHandlerWith(cfg, settings, reg, logger, lim, ch)
}

// newHandlerWith is newHandler with the REST settings of cfg already
// checked by restSettings.
func newHandlerWith(cfg config, settings []restserver.Option, reg *registry.Registry, logger *slog.Logger, lim ratelimit.Limiter,
	ch *changeRuntime) (http.Handler, []mcpserver.Option, error) {
	// The REST handler holds its own routes to the stack's bound too, and
	// its texts say so.
	restOpts := append([]restserver.Option{restserver.WithLogger(logger), restserver.WithMaxHeaderBytes(maxHeaderBytes)}, settings...)
	trusted := make([]netip.Prefix, 0, len(cfg.trustedProxies))
	for _, c := range cfg.trustedProxies {
		p, err := httplog.ParsePrefix(c) // restserver.WithTrustedProxies accepted it
		if err != nil {
			return nil, nil, fmt.Errorf("REGISTRY_TRUSTED_PROXIES: %w", err)
		}
		trusted = append(trusted, p)
	}
	mcpOpts := mcpOptions(logger, ch)
	if ch != nil {
		restOpts = append(restOpts, restserver.WithChanges(ch.svc, ch.tokens))
	}
	rest, err := restserver.New(reg, restOpts...)
	if err != nil {
		return nil, nil, err
	}

	mcp, err := mcpserver.Handler(reg, mcpOpts...)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	restHandler := http.Handler(rest)
	if cfg.basePath != "" {
		// Under a base path the REST handler sees paths without it;
		// nothing is served outside it.
		restHandler = http.StripPrefix(cfg.basePath, rest)
	}
	mux.Handle(cfg.basePath+"/", restHandler)
	// Both paths, so that neither redirects (clients do not follow a
	// redirected POST). Any Host is accepted, for deployments behind a
	// reverse proxy; see the mcpserver package documentation.
	mux.Handle(cfg.basePath+"/mcp", mcp)
	mux.Handle(cfg.basePath+"/mcp/", mcp)
	// One allowance per client for REST /v1 and MCP tools/call.
	stack := httpmw.New(httpmw.Config{Trusted: trusted, Logger: logger, Limiter: lim})
	router := apiRouter{prefix: cfg.basePath + "/v1/", rest: restHandler, mux: mux, mcpPath: cfg.basePath + "/mcp", mcp: mcp}
	// The header limit's refusal speaks to the door that would have served
	// the request (doors12): an MCP client's arguments are in the body.
	return perfLayers(stack.Handler("", "request",
		httpmw.MaxHeaderBytesDoors(maxHeaderBytes, mcpDoor(mux, router.mcpPath))(router)), stack), mcpOpts, nil
}

// mcpDoor returns whether mux would hand a request to the MCP endpoint,
// which it serves at mcpPath and under mcpPath/, or redirect it there.
func mcpDoor(mux *http.ServeMux, mcpPath string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		_, pattern := mux.Handler(r)
		return pattern == mcpPath || pattern == mcpPath+"/"
	}
}

// apiRouter hands a request for the REST API (a clean path under prefix,
// the base path's /v1/) straight to the REST handler, as mux would, and
// every other request to mux: the mux's match of such a path always ends
// at the REST handler, after two walks of its tree (the path, then the path
// with a slash added) and a string built for the second. Any path the mux
// could redirect (one it would clean, or ending in a slash) or give to
// another handler goes to the mux, as does CONNECT, whose path the mux does
// not clean. One unclean path goes to the REST handler on purpose, where
// the mux would redirect: an operation on one company with an empty
// identifier (see emptyIDPath), with or without a trailing slash.
//
// The MCP endpoint's exact path (mcpPath, when set) goes straight to the
// MCP handler in the same way, with the mux's pattern, which is that path:
// every MCP request saves the mux's walk of its tree.
type apiRouter struct {
	prefix    string       // the base path and "/v1/"
	rest, mux http.Handler // mux serves rest at prefix's parent, the base path and "/"
	mcpPath   string       // the base path and "/mcp", which mux serves with mcp; "": none
	mcp       http.Handler
}

func (a apiRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		p := r.URL.EscapedPath()
		if p == a.mcpPath && a.mcpPath != "" {
			r.Pattern = a.mcpPath
			a.mcp.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(p, a.prefix) && (p[len(p)-1] != '/' && path.Clean(p) == p || emptyIDPath(p[len(a.prefix):])) {
			// The pattern the mux would have matched: the REST
			// handler's, the base path and "/".
			r.Pattern = a.prefix[:len(a.prefix)-len("v1/")]
			a.rest.ServeHTTP(w, r)
			return
		}
	}
	a.mux.ServeHTTP(w, r)
}

// emptyIDPath reports whether p, a path after the base path's /v1/, is
// {country}/company//{op}: an operation on one company with an empty
// identifier, which the REST handler answers itself (the operation's
// invalid_id, or not_found for an unknown op) where the mux would redirect
// to the cleaned path, the lookup of the identifier op. It is the REST
// handler's own rule ([catalog.EmptyIDPath]: several slashes in place of
// the identifier, escaped segments; no dot segment). A path under
// watches/ is change monitoring's, not a company's: it stays with the mux,
// whose redirect keeps the base path (rev-fix11b).
func emptyIDPath(p string) bool {
	country, _, ok := catalog.EmptyIDPath(p)
	return ok && country != "watches"
}

// restSettings returns the REST options of the settings, tried together
// (a REST handler is built for the check: its texts and OpenAPI document
// are most of the program's start-up, so once); when they are refused,
// each is tried alone, so that a refused one comes back wrapped with the
// name of its environment variable.
func restSettings(cfg config, reg *registry.Registry) ([]restserver.Option, error) {
	type setting struct {
		name string
		opt  restserver.Option
	}
	settings := []setting{
		{"REGISTRY_RATE_LIMIT", restserver.WithRateLimit(cfg.rateLimit)},
		{"REGISTRY_TRUSTED_PROXIES", restserver.WithTrustedProxies(cfg.trustedProxies...)},
	}
	if cfg.publicURL != "" {
		settings = append(settings, setting{"REGISTRY_PUBLIC_URL", restserver.WithPublicURL(cfg.publicURL)})
	}
	if cfg.basePath != "" {
		settings = append(settings, setting{"REGISTRY_BASE_PATH", restserver.WithBasePath(cfg.basePath)})
	}
	out := make([]restserver.Option, 0, len(settings))
	for _, s := range settings {
		out = append(out, s.opt)
	}
	_, err := restserver.New(reg, out...)
	if err == nil {
		return out, nil
	}
	for _, s := range settings {
		if _, err := restserver.New(reg, s.opt); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return nil, err // refused together only (WithBasePath and WithPublicURL disagree)
}

// serve runs the HTTP server until ctx is done, then shuts down gracefully:
// the listener closes at once (new connections are refused) and requests in
// flight get up to shutdownTimeout to finish.
func serve(ctx context.Context, cfg config, handler http.Handler, logger *slog.Logger, onListen func(string)) int {
	srv := newHTTPServer(handler, logger, defaultLimits())
	ln, err := listen(cfg.addr)
	if err != nil {
		logger.Error("listen failed", slog.String("addr", cfg.addr), slog.String("error", err.Error()))
		return 1
	}
	addr := ln.Addr().String()
	logger.Info("listening", slog.String("addr", addr), slog.Int("rate_limit", cfg.rateLimit),
		slog.Bool("public_url_set", cfg.publicURL != ""), slog.Bool("companies_house_key_set", cfg.countries.CompaniesHouseAPIKey != ""),
		slog.Bool("cvr_credentials_set", cfg.countries.CVRCredentials != ""))
	if onListen != nil {
		onListen(addr)
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		logger.Error("server failed", slog.String("error", err.Error()))
		return 1
	case <-ctx.Done():
	}
	logger.Info("shutting down", slog.Duration("grace", shutdownTimeout))
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Error("shutdown incomplete", slog.String("error", err.Error()))
		return 1
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error("server stopped with an error", slog.String("error", err.Error()))
		return 1
	}
	logger.Info("stopped")
	return 0
}

// listen returns the API's listener on addr. Its connections gather: a
// complete answer larger than net/http's 4 KiB buffer (an MCP lookup, a
// report with many officers) leaves in one write instead of two, the same
// bytes (httpmw.WriteAnswer, which finds the connection through
// httpmw.ConnContext).
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return onewrite.NewListener(ln, onewrite.DefaultMax), nil
}

// defaultHeapFloor is REGISTRY_HEAP_FLOOR's default.
const defaultHeapFloor = 24 << 20

// parseHeapFloor reads REGISTRY_HEAP_FLOOR: a number of bytes, or of KiB,
// MiB or GiB with that suffix; unset is defaultHeapFloor, 0 is none.
func parseHeapFloor(getenv func(string) string) (uint64, error) {
	v := strings.TrimSpace(getenv("REGISTRY_HEAP_FLOOR"))
	if v == "" {
		return defaultHeapFloor, nil
	}
	num, unit := v, uint64(1)
	for _, u := range []struct {
		suffix string
		size   uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			num, unit = strings.TrimSpace(n), u.size
			break
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n > 64<<30/unit {
		return 0, fmt.Errorf("REGISTRY_HEAP_FLOOR %q is not a size up to 64GiB (for example 24MiB, or 0)", v)
	}
	return n * unit, nil
}
