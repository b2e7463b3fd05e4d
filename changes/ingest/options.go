package ingest

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/upstream"
)

// Option configures an ingester or a [Leader]. One option type serves
// every constructor of this package; an option that means nothing to a
// constructor (a page size to the [Leader], say) is ignored by it.
// Options validate their input: the constructor returns the first error.
type Option func(*options) error

type options struct {
	log          *slog.Logger
	clock        Clock
	baseURL      string
	httpClient   *http.Client
	contactEmail string
	budget       registry.UpstreamBudget
	pageSize     int
	maxPages     int
	interval     time.Duration
	pollInterval time.Duration
	sweepOnly    bool
	sweeper      *Poller
	streams      []string
	flushEvery   time.Duration
	idleTimeout  time.Duration
	maxLine      int
	holder       string
	leaseTTL     time.Duration
	timeout      time.Duration
}

func buildOptions(opts []Option) (options, error) {
	o := options{
		log:          slog.New(slog.DiscardHandler),
		clock:        SystemClock(),
		pageSize:     DefaultPageSize,
		maxPages:     20,
		interval:     DefaultInterval,
		pollInterval: DefaultPollInterval,
		flushEvery:   DefaultFlushEvery,
		idleTimeout:  DefaultIdleTimeout,
		maxLine:      DefaultMaxLine,
		leaseTTL:     DefaultLeaseTTL,
		timeout:      time.Minute,
	}
	err := upstream.Apply("ingest", &o, opts)
	return o, err
}

// WithLogger sets the logger of warnings and progress (default: none).
// Company identifiers are logged at debug level only, secrets never.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("ingest: WithLogger: nil logger")
		}
		o.log = l
		return nil
	}
}

// WithClock sets the clock (default [SystemClock]).
func WithClock(c Clock) Option {
	return func(o *options) error {
		if c == nil {
			return errors.New("ingest: WithClock: nil clock")
		}
		o.clock = c
		return nil
	}
}

// WithBaseURL sets the base URL of the register's feed: Brønnøysund's
// API for [NewNorway] (default [NorwayBaseURL]) or the Companies House
// stream host for [NewCompaniesHouseStream] (default [StreamBaseURL]), for
// a mirror or a test server.
func WithBaseURL(u string) Option {
	return func(o *options) error {
		p, err := upstream.ParseBaseURL(u)
		if err != nil {
			return fmt.Errorf("ingest: WithBaseURL: %w", err)
		}
		o.baseURL = p.String()
		return nil
	}
}

// WithHTTPClient sets the HTTP client of the feed requests. A copy is
// kept that follows no redirect.
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) error {
		if c == nil {
			return errors.New("ingest: WithHTTPClient: nil client")
		}
		o.httpClient = c
		return nil
	}
}

// WithContactEmail sets the operator's e-mail address sent in the
// User-Agent of the feed requests.
func WithContactEmail(email string) Option {
	return func(o *options) error {
		if err := upstream.ValidateContactEmail(email); err != nil {
			return fmt.Errorf("ingest: WithContactEmail: %w", err)
		}
		o.contactEmail = email
		return nil
	}
}

// WithBudget makes each read of Brønnøysund's feeds take a call from b
// (the budget the Registry has for NO), so that the feeds and the lookups
// share the register's allowance. With b empty the feed is read at the
// next sync.
func WithBudget(b registry.UpstreamBudget) Option {
	return func(o *options) error {
		if b == nil {
			return errors.New("ingest: WithBudget: nil budget")
		}
		o.budget = b
		return nil
	}
}

// WithPageSize sets how many updates one read of a Norwegian feed asks
// for (default [DefaultPageSize], 1 to 10,000, the register's bound).
func WithPageSize(n int) Option {
	return func(o *options) error {
		if n < 1 || n > 10000 {
			return fmt.Errorf("ingest: WithPageSize: %d is outside [1, 10000]", n)
		}
		o.pageSize = n
		return nil
	}
}

// WithMaxPages bounds the pages of one feed read in one sync (default
// 20); the rest is read at the next sync.
func WithMaxPages(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("ingest: WithMaxPages: %d is less than 1", n)
		}
		o.maxPages = n
		return nil
	}
}

// WithInterval sets how often the [Leader] reads the registers' feeds
// and runs the pollers (REGISTRY_CHANGES_INTERVAL; default
// [DefaultInterval], 1 second to 24 hours).
func WithInterval(d time.Duration) Option {
	return func(o *options) error {
		if d < time.Second || d > 24*time.Hour {
			return fmt.Errorf("ingest: WithInterval: %v is outside [1s, 24h]", d)
		}
		o.interval = d
		return nil
	}
}

// WithPollInterval sets how often a [Poller] fetches each watched company
// (REGISTRY_WATCH_POLL_INTERVAL; default [DefaultPollInterval], 1 minute
// to 30 days).
func WithPollInterval(d time.Duration) Option {
	return func(o *options) error {
		if d < time.Minute || d > 30*24*time.Hour {
			return fmt.Errorf("ingest: WithPollInterval: %v is outside [1m, 720h]", d)
		}
		o.pollInterval = d
		return nil
	}
}

// WithSweepOnly makes a [Poller] poll only when a sweep is asked for
// ([Poller.RequestSweep]): the fallback of a register whose feed lost
// events, such as Companies House's stream answering 416.
func WithSweepOnly() Option {
	return func(o *options) error {
		o.sweepOnly = true
		return nil
	}
}

// WithSweeper gives [NewCompaniesHouseStream] the poller of the watched
// British companies, asked for a sweep when a stream's timepoint is too
// old (416) and events may have been missed, and when a stream starts
// without a stored timepoint. The stream and the poller then refresh a
// company one at a time, so that a change is recorded once.
func WithSweeper(p *Poller) Option {
	return func(o *options) error {
		if p == nil {
			return errors.New("ingest: WithSweeper: nil poller")
		}
		o.sweeper = p
		return nil
	}
}

// WithStreams sets the Companies House streams to read (default
// [DefaultStreams]), by path without the slash.
func WithStreams(names ...string) Option {
	return func(o *options) error {
		if len(names) == 0 {
			return errors.New("ingest: WithStreams: no stream")
		}
		for _, n := range names {
			if !streamName.MatchString(n) {
				return fmt.Errorf("ingest: WithStreams: %q is not a stream path", n)
			}
		}
		o.streams = append([]string(nil), names...)
		return nil
	}
}

// WithFlushEvery sets how often the stream's progress is stored
// (default [DefaultFlushEvery], 100 ms to 1 minute).
func WithFlushEvery(d time.Duration) Option {
	return func(o *options) error {
		if d < 100*time.Millisecond || d > time.Minute {
			return fmt.Errorf("ingest: WithFlushEvery: %v is outside [100ms, 1m]", d)
		}
		o.flushEvery = d
		return nil
	}
}

// WithIdleTimeout sets how long a stream may send nothing, not even a
// heartbeat, before it is reconnected, and how long the answer's headers
// are waited for (default [DefaultIdleTimeout], at least 1 second).
func WithIdleTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d < time.Second {
			return fmt.Errorf("ingest: WithIdleTimeout: %v is less than 1s", d)
		}
		o.idleTimeout = d
		return nil
	}
}

// WithMaxLine bounds one line of a stream (default [DefaultMaxLine], at
// least 4 KiB); a longer line is skipped.
func WithMaxLine(n int) Option {
	return func(o *options) error {
		if n < 4<<10 {
			return fmt.Errorf("ingest: WithMaxLine: %d is less than 4096", n)
		}
		o.maxLine = n
		return nil
	}
}

// WithHolder names this replica in the lease (default: the host name and
// a random suffix).
func WithHolder(name string) Option {
	return func(o *options) error {
		if name == "" {
			return errors.New("ingest: WithHolder: empty name")
		}
		o.holder = name
		return nil
	}
}

// WithLeaseTTL sets how long the lease holds without a renewal (default
// [DefaultLeaseTTL], 3 seconds to 1 minute); it is renewed every third of
// it, and a dead leader's lease is taken over within about 4/3 of it.
func WithLeaseTTL(d time.Duration) Option {
	return func(o *options) error {
		if d < 3*time.Second || d > time.Minute {
			return fmt.Errorf("ingest: WithLeaseTTL: %v is outside [3s, 1m]", d)
		}
		o.leaseTTL = d
		return nil
	}
}

// WithRequestTimeout bounds one read of a Norwegian feed (default 1
// minute).
func WithRequestTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 {
			return fmt.Errorf("ingest: WithRequestTimeout: %v is not positive", d)
		}
		o.timeout = d
		return nil
	}
}
