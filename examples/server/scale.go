package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/metrics"
	"github.com/companyregistry/registry/ratelimit"
	"github.com/companyregistry/registry/restserver"
)

// shared is what the replicas of a scaled-out deployment share through
// Redis (REDIS_URL), or its in-process twin without Redis: the client rate
// limit of REST and MCP, the upstream budgets and, with Redis, the cache.
type shared struct {
	rdb      *redis.Client     // nil without REDIS_URL
	limiter  ratelimit.Limiter // nil when the rate limit is off
	regOpts  []registry.Option // the cache, the budgets and the fetch observer
	describe []slog.Attr       // for the start-up log line, without secrets
	metrics  *metrics.Metrics  // nil without REGISTRY_METRICS_ADDR
	// budgets are the registers' upstream budgets by country, which the
	// change ingesters share with the lookups.
	budgets map[string]registry.UpstreamBudget
}

// close closes the Redis client, if any.
func (s *shared) close() {
	if s.rdb != nil {
		_ = s.rdb.Close()
	}
}

// defaultBudgets are the upstream budgets of the registers, by country:
// Companies House's documented allowance per API key, polite ceilings
// for Brønnøysund, PRH and the CVR distribution, a ceiling under the API
// Recherche d'entreprises' 7 requests a second per address, and
// Bolagsverket's per credential (two requests a lookup; searches from the
// bulk file take nothing).
func defaultBudgets() map[string]ratelimit.Rate {
	return map[string]ratelimit.Rate{"GB": budget.CompaniesHouse(), "NO": budget.Brreg(), "FI": budget.PRH(),
		"DK": budget.CVR(), "FR": budget.RechercheEntreprises(), "SE": budget.Bolagsverket()}
}

// buildShared builds the limiter, the budgets of the countries in codes
// and, with REDIS_URL, the Redis client and cache. An error names its
// environment variable; it never shows REDIS_URL, which may hold a password.
func buildShared(cfg config, codes []string, logger *slog.Logger, m *metrics.Metrics) (*shared, error) {
	s := &shared{metrics: m}
	if m != nil {
		s.regOpts = append(s.regOpts, registry.WithFetchObserver(m))
	}
	rates := defaultBudgets()
	if err := parseBudgets(cfg.budgets, rates); err != nil {
		return nil, fmt.Errorf("REGISTRY_UPSTREAM_BUDGETS: %w", err)
	}
	if cfg.upstreamWait != "" {
		wait, err := parseUpstreamWait(cfg.upstreamWait)
		if err != nil {
			return nil, err
		}
		s.regOpts = append(s.regOpts, wait)
	}
	if cfg.pace != nil {
		s.regOpts = append(s.regOpts, registry.WithWaiter(seal.Key{}, cfg.pace.now, cfg.pace.sleep))
	}
	timeout := rediscache.DefaultTimeout
	if cfg.redisTimeout != "" {
		d, err := time.ParseDuration(cfg.redisTimeout)
		if err != nil || d <= 0 || d > rediscache.MaxTimeout {
			return nil, fmt.Errorf("REDIS_TIMEOUT %q is not a duration in (0, %v] (for example 100ms)", cfg.redisTimeout, rediscache.MaxTimeout)
		}
		timeout = d
	}
	if cfg.redisURL != "" {
		rdb, err := rediscache.NewClient(cfg.redisURL)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		s.rdb = rdb
		c, err := rediscache.New(rdb, rediscache.WithLogger(logger), rediscache.WithTimeout(timeout))
		if err != nil {
			s.close()
			return nil, err
		}
		var cc cache.Cache = c
		if m != nil {
			cc = m.Cache(c)
			m.RedisUp("cache", c.Reachable)
		}
		s.regOpts = append(s.regOpts, registry.WithCache(cc))
	} else if m != nil {
		mem, err := cache.NewMemory(cache.WithCompression()) // as the Registry's default
		if err != nil {
			return nil, err
		}
		s.regOpts = append(s.regOpts, registry.WithCache(m.Cache(mem)))
	}
	s.describe = append(s.describe, slog.Bool("redis", s.rdb != nil), slog.Int("replicas", cfg.replicas))

	if cfg.rateLimit > 0 {
		var err error
		local := ratelimit.WithMaxKeys(restserver.DefaultMaxClients)
		if s.rdb != nil {
			s.limiter, err = ratelimit.NewRedis(s.rdb, ratelimit.PerMinute(cfg.rateLimit), local, ratelimit.WithLogger(logger),
				ratelimit.WithTimeout(timeout))
		} else {
			s.limiter, err = ratelimit.NewLocal(ratelimit.PerMinute(cfg.rateLimit), local)
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("REGISTRY_RATE_LIMIT: %w", err)
		}
		if r, ok := s.limiter.(*ratelimit.Redis); ok && m != nil {
			m.RedisUp("ratelimit", r.Reachable)
		}
		if m != nil {
			s.limiter = m.Limiter(s.limiter)
		}
	}

	for _, cc := range codes {
		rate, ok := rates[cc]
		if !ok {
			continue
		}
		var b *budget.Budget
		var err error
		// Each of REGISTRY_REPLICAS replicas keeps to its share while it
		// counts alone: Redis unreachable, or no Redis at all.
		switch {
		case s.rdb != nil:
			b, err = budget.Redis(s.rdb, budgetName(cc, cfg), rate, ratelimit.WithLogger(logger), ratelimit.WithTimeout(timeout),
				ratelimit.WithReplicas(max(cfg.replicas, 1)))
		case cfg.pace != nil:
			b, err = pacedBudget(rate.Share(cfg.replicas), cfg.pace.now)
		default:
			b, err = budget.Local(rate.Share(cfg.replicas))
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("REGISTRY_UPSTREAM_BUDGETS: %s: %w", cc, err)
		}
		var ub registry.UpstreamBudget = b
		if m != nil {
			ub = m.Budget(cc, b)
			if s.rdb != nil {
				m.RedisUp("budget_"+strings.ToLower(cc), b.Reachable)
			}
		}
		s.regOpts = append(s.regOpts, registry.WithUpstreamBudget(cc, ub))
		if s.budgets == nil {
			s.budgets = map[string]registry.UpstreamBudget{}
		}
		s.budgets[cc] = ub
		s.describe = append(s.describe, slog.String("budget_"+strings.ToLower(cc),
			fmt.Sprintf("%d/%v", rate.Limit+rate.Burst, rate.Period)))
	}
	return s, nil
}

// parseUpstreamWait reads REGISTRY_UPSTREAM_WAIT into the Registry's option.
func parseUpstreamWait(v string) (registry.Option, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		return nil, fmt.Errorf("REGISTRY_UPSTREAM_WAIT %q is not a duration (for example 2s, or 0 to refuse at once)", v)
	}
	opt := registry.WithBudgetWait(d)
	if _, err := registry.New(nil, opt); err != nil {
		return nil, fmt.Errorf("REGISTRY_UPSTREAM_WAIT: %w", err)
	}
	return opt, nil
}

// pacedBudget is an in-process budget of rate on the clock now.
func pacedBudget(rate ratelimit.Rate, now func() time.Time) (*budget.Budget, error) {
	l, err := ratelimit.NewLocal(rate, ratelimit.WithMaxKeys(1), ratelimit.WithClock(now))
	if err != nil {
		return nil, err
	}
	return budget.New(l, "local")
}

// budgetName names a register's shared budget. Companies House counts per
// API key and Bolagsverket per user, so their budgets are named after a
// digest of the key or the credential: two deployments with different keys
// have two budgets, and the key itself is never stored.
func budgetName(cc string, cfg config) string {
	secret := ""
	switch cc {
	case "GB":
		secret = cfg.countries.CompaniesHouseAPIKey
	case "SE":
		secret = cfg.countries.BolagsverketCredentials
	}
	if secret == "" {
		return cc
	}
	sum := sha256.Sum256([]byte(secret))
	return cc + "/" + hex.EncodeToString(sum[:6])
}

// parseBudgets reads "GB=600/5m,NO=off" into rates: a country code, and
// either "off" or at most N calls in any window of the given duration.
func parseBudgets(v string, rates map[string]ratelimit.Rate) error {
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		cc, spec, ok := strings.Cut(item, "=")
		cc = strings.ToUpper(strings.TrimSpace(cc))
		spec = strings.TrimSpace(spec)
		if !ok || len(cc) != 2 || cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
			return fmt.Errorf("%q is not CC=N/window or CC=off (for example GB=600/5m)", item)
		}
		if spec == "off" {
			delete(rates, cc)
			continue
		}
		ns, ws, ok := strings.Cut(spec, "/")
		n, nerr := strconv.Atoi(ns)
		w, werr := time.ParseDuration(ws)
		if !ok || nerr != nil || werr != nil || n < 2 || w <= 0 {
			return fmt.Errorf("%q is not CC=N/window with N at least 2 and a duration (for example GB=600/5m)", item)
		}
		rate := ratelimit.Ceiling(n, w)
		if _, err := ratelimit.NewLocal(rate); err != nil {
			return fmt.Errorf("%s: %w", cc, err)
		}
		rates[cc] = rate
	}
	return nil
}

// quietRedis drops the Redis client's log lines.
type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

// apiRoutes are the route patterns of the REST handler and the MCP
// endpoint, for the requests metric: a request is counted under its
// pattern, never its path (which may hold an identifier).
func apiRoutes() []string {
	return []string{"GET /health", "GET /v1/countries", "GET /v1/{country}/company/{id}", "GET /v1/{country}/search",
		"GET /v1/{country}/company/{id}/deadlines", "GET /v1/{country}/validate/{id}", "GET /v1/{country}/company/{id}/roles",
		"GET /llms.txt", "GET /llms-full.txt", "GET /server.json", "GET /openapi.json", "/mcp", "/mcp/",
	}
}

// withMetrics counts the requests of h by surface, route pattern and status.
func withMetrics(m *metrics.Metrics, h http.Handler) http.Handler {
	patterns := http.NewServeMux()
	for _, p := range apiRoutes() {
		patterns.Handle(p, http.NotFoundHandler())
	}
	route := func(r *http.Request) string {
		_, p := patterns.Handler(r)
		return p
	}
	rest := m.Middleware("rest", route, h)
	mcp := m.Middleware("mcp", route, h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" || strings.HasPrefix(r.URL.Path, "/mcp/") {
			mcp.ServeHTTP(w, r)
			return
		}
		rest.ServeHTTP(w, r)
	})
}

// serveMetrics serves m at /metrics on addr, apart from the API listener:
// never rate limited, and reachable only where the operator binds it. The
// returned function stops it.
func serveMetrics(addr string, m *metrics.Metrics, logger *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logger.Error("metrics listen failed", slog.String("addr", addr), slog.String("error", err.Error()))
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := newHTTPServer(mux, logger, defaultLimits())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	logger.Info("metrics listening", slog.String("addr", ln.Addr().String()))
	return func() {
		_ = srv.Close()
		<-done
	}, nil
}
