package registry

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/companyregistry/registry/cache"
)

// Defaults of a [Registry] built without options.
const (
	// DefaultCacheTTL is how long a successful lookup or search is cached;
	// it is also the longest TTL [WithCacheTTL] accepts.
	DefaultCacheTTL = 24 * time.Hour
	// NotFoundTTL is how long a not_found answer is cached (shorter when the
	// success TTL is shorter).
	NotFoundTTL = time.Hour
	// DefaultUpstreamTimeout bounds one attempt at an upstream call.
	DefaultUpstreamTimeout = 10 * time.Second
	// DefaultRetryPause is the pause before the one retry.
	DefaultRetryPause = 250 * time.Millisecond
	// DefaultSearchLimit is the limit adapters apply when a caller gives none.
	DefaultSearchLimit = 10
	// MaxSearchLimit is the largest accepted search limit.
	MaxSearchLimit = 100
	// MaxQueryLength is the longest accepted search query, in bytes.
	MaxQueryLength = 256
	// Version is the software version of this library, reported by
	// [Registry.Health] unless [WithVersion] overrides it.
	Version = "0.2.0"
)

// Option configures a [Registry]. Options validate their input: [New]
// returns the first option error.
type Option func(*options) error

type options struct {
	cache        cache.Cache
	ttl          time.Duration
	now          func() time.Time
	logger       *slog.Logger
	timeout      time.Duration
	retryPause   time.Duration
	version      string
	includeStubs bool
	noCache      bool
	batch        int
	budgets      map[string]UpstreamBudget
	observer     FetchObserver
	budgetWait   time.Duration
	waiter       waiter
}

// WithCache sets the cache, which may be shared with other Registries and
// other programs (see [cache.Cache] for the keys). The default is an
// in-memory LRU of 64 MiB from [cache.NewMemory] that shares the Registry's
// clock and stores entries compressed until they are read
// ([cache.WithCompression]). [WithoutCache] turns caching off.
func WithCache(c cache.Cache) Option {
	return func(o *options) error {
		if c == nil {
			return errors.New("registry: WithCache: nil cache")
		}
		o.cache, o.noCache = c, false
		return nil
	}
}

// WithoutCache turns caching off: every lookup and search asks the
// register (identical concurrent calls are still collapsed into one). It
// suits a caller that caches the documents itself. The last of WithCache
// and WithoutCache wins.
func WithoutCache() Option {
	return func(o *options) error {
		o.cache, o.noCache = nil, true
		return nil
	}
}

// WithCacheTTL sets how long a successful lookup or search is cached: more
// than zero and at most 24 hours (the interface's limit). not_found answers
// are cached for the shorter of this and one hour.
func WithCacheTTL(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 || d > DefaultCacheTTL {
			return fmt.Errorf("registry: WithCacheTTL: %v is outside (0, 24h]", d)
		}
		o.ttl = d
		return nil
	}
}

// WithClock sets the clock used for today's date, fetched_at and, when the
// default cache is used, cache expiry. The default is [time.Now].
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("registry: WithClock: nil clock")
		}
		o.now = now
		return nil
	}
}

// WithLogger sets the structured logger for upstream failures and recovered
// panics. The default discards. Identifiers are never logged above debug
// level, and never for sole proprietorships.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("registry: WithLogger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// WithUpstreamTimeout bounds each attempt at an upstream call (default 10 s,
// at most 60 s). With the one retry, a hung register is answered with
// upstream_timeout after about twice this.
func WithUpstreamTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 || d > time.Minute {
			return fmt.Errorf("registry: WithUpstreamTimeout: %v is outside (0, 1m]", d)
		}
		o.timeout = d
		return nil
	}
}

// WithRetryPause sets the pause before the one retry of a retryable upstream
// failure (default 250 ms, at most 5 s; 0 retries at once).
func WithRetryPause(d time.Duration) Option {
	return func(o *options) error {
		if d < 0 || d > 5*time.Second {
			return fmt.Errorf("registry: WithRetryPause: %v is outside [0, 5s]", d)
		}
		o.retryPause = d
		return nil
	}
}

// WithVersion sets the software version reported by [Registry.Health] (for
// example one stamped into a binary at build time).
func WithVersion(v string) Option {
	return func(o *options) error {
		if v == "" {
			return errors.New("registry: WithVersion: empty version")
		}
		o.version = v
		return nil
	}
}

// WithStubs lists template (stub) modules in [Registry.Countries]; they are
// hidden by default.
func WithStubs(include bool) Option {
	return func(o *options) error {
		o.includeStubs = include
		return nil
	}
}

// WithBatchConcurrency bounds how many identifiers of a batch call are
// worked on at once (default [DefaultBatchConcurrency], 1 to 64). Keep it
// low enough for the registers' allowances: a cold batch makes about one
// upstream request per identifier.
func WithBatchConcurrency(n int) Option {
	return func(o *options) error {
		if n < 1 || n > 64 {
			return fmt.Errorf("registry: WithBatchConcurrency: %d is outside [1, 64]", n)
		}
		o.batch = n
		return nil
	}
}
