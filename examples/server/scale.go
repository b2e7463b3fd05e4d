package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/ratelimit"
	"github.com/companyregistry/registry/restserver"
)

// shared is what the replicas of a scaled-out deployment share through
// Redis (REDIS_URL), or its in-process twin without Redis: the client rate
// limit of REST and MCP, the upstream budgets and, with Redis, the cache.
type shared struct {
	rdb      *redis.Client     // nil without REDIS_URL
	limiter  ratelimit.Limiter // nil when the rate limit is off
	regOpts  []registry.Option // the cache and the budgets
	describe []slog.Attr       // for the start-up log line, without secrets
}

// close closes the Redis client, if any.
func (s *shared) close() {
	if s.rdb != nil {
		_ = s.rdb.Close()
	}
}

// defaultBudgets are the upstream budgets of the registers, by country:
// Companies House's documented allowance per API key, and polite ceilings
// for Brønnøysund and PRH.
func defaultBudgets() map[string]ratelimit.Rate {
	return map[string]ratelimit.Rate{"GB": budget.CompaniesHouse(), "NO": budget.Brreg(), "FI": budget.PRH()}
}

// buildShared builds the limiter, the budgets of the countries in codes
// and, with REDIS_URL, the Redis client and cache. An error names its
// environment variable; it never shows REDIS_URL, which may hold a password.
func buildShared(cfg config, codes []string, logger *slog.Logger) (*shared, error) {
	s := &shared{}
	rates := defaultBudgets()
	if err := parseBudgets(cfg.budgets, rates); err != nil {
		return nil, fmt.Errorf("REGISTRY_UPSTREAM_BUDGETS: %w", err)
	}
	if cfg.redisURL != "" {
		rdb, err := rediscache.NewClient(cfg.redisURL)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		s.rdb = rdb
		c, err := rediscache.New(rdb, rediscache.WithLogger(logger))
		if err != nil {
			s.close()
			return nil, err
		}
		s.regOpts = append(s.regOpts, registry.WithCache(c))
	}
	s.describe = append(s.describe, slog.Bool("redis", s.rdb != nil))

	if cfg.rateLimit > 0 {
		var err error
		local := ratelimit.WithMaxKeys(restserver.DefaultMaxClients)
		if s.rdb != nil {
			s.limiter, err = ratelimit.NewRedis(s.rdb, ratelimit.PerMinute(cfg.rateLimit), local, ratelimit.WithLogger(logger))
		} else {
			s.limiter, err = ratelimit.NewLocal(ratelimit.PerMinute(cfg.rateLimit), local)
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("REGISTRY_RATE_LIMIT: %w", err)
		}
	}

	for _, cc := range codes {
		rate, ok := rates[cc]
		if !ok {
			continue
		}
		var b *budget.Budget
		var err error
		if s.rdb != nil {
			b, err = budget.Redis(s.rdb, budgetName(cc, cfg), rate, ratelimit.WithLogger(logger))
		} else {
			b, err = budget.Local(rate)
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("REGISTRY_UPSTREAM_BUDGETS: %s: %w", cc, err)
		}
		s.regOpts = append(s.regOpts, registry.WithUpstreamBudget(cc, b))
		s.describe = append(s.describe, slog.String("budget_"+strings.ToLower(cc),
			fmt.Sprintf("%d/%v", rate.Limit+rate.Burst, rate.Period)))
	}
	return s, nil
}

// budgetName names a register's shared budget. Companies House counts per
// API key, so its budget is named after a digest of the key: two
// deployments with different keys have two budgets, and the key itself is
// never stored.
func budgetName(cc string, cfg config) string {
	if cc == "GB" && cfg.countries.CompaniesHouseAPIKey != "" {
		sum := sha256.Sum256([]byte(cfg.countries.CompaniesHouseAPIKey))
		return "GB/" + hex.EncodeToString(sum[:6])
	}
	return cc
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
