package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/webhook"
)

// Defaults and bounds of change monitoring's settings.
const (
	defaultDataDir         = "companyregistry-data"
	defaultChangesInterval = time.Minute
	defaultPollInterval    = 24 * time.Hour
	minChangesInterval     = 10 * time.Second
	maxChangesInterval     = 24 * time.Hour
	minPollInterval        = time.Minute
	maxPollInterval        = 30 * 24 * time.Hour
	// baselineEvery is how often pending baselines are taken.
	baselineEvery = time.Minute
)

// changeConfig is change monitoring's part of the configuration.
type changeConfig struct {
	dataDir         string        // REGISTRY_DATA_DIR: the embedded database's folder
	databaseURL     string        // DATABASE_URL: PostgreSQL instead; never logged
	tokens          *apitoken.Set // REGISTRY_API_TOKENS or REGISTRY_API_TOKENS_FILE; nil: none
	streamKey       string        // COMPANIES_HOUSE_STREAM_KEY; never logged
	changesInterval time.Duration // REGISTRY_CHANGES_INTERVAL
	pollInterval    time.Duration // REGISTRY_WATCH_POLL_INTERVAL
	allowPrivate    bool          // REGISTRY_WEBHOOK_ALLOW_PRIVATE
}

// parseChangeConfig reads change monitoring's settings; an error names
// the setting and never shows a token, a key or a database URL.
func parseChangeConfig(getenv func(string) string) (changeConfig, error) {
	c := changeConfig{dataDir: defaultDataDir, changesInterval: defaultChangesInterval, pollInterval: defaultPollInterval}
	if v := strings.TrimSpace(getenv("REGISTRY_DATA_DIR")); v != "" {
		c.dataDir = v
	}
	if v := strings.TrimSpace(getenv("DATABASE_URL")); v != "" {
		if !strings.HasPrefix(v, "postgres://") && !strings.HasPrefix(v, "postgresql://") {
			return c, errors.New("DATABASE_URL is not a postgres:// or postgresql:// URL")
		}
		c.databaseURL = v
	}
	inline, file := getenv("REGISTRY_API_TOKENS"), strings.TrimSpace(getenv("REGISTRY_API_TOKENS_FILE"))
	switch {
	case strings.TrimSpace(inline) != "" && file != "":
		return c, errors.New("REGISTRY_API_TOKENS and REGISTRY_API_TOKENS_FILE are both set; set one")
	case strings.TrimSpace(inline) != "":
		set, err := apitoken.Parse(inline)
		if err != nil {
			return c, fmt.Errorf("REGISTRY_API_TOKENS: %w", err)
		}
		c.tokens = set
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return c, fmt.Errorf("REGISTRY_API_TOKENS_FILE: %w", err)
		}
		set, err := apitoken.ParseFile(f)
		_ = f.Close()
		if err != nil {
			return c, fmt.Errorf("REGISTRY_API_TOKENS_FILE: %w", err)
		}
		c.tokens = set
	}
	if v := strings.TrimSpace(getenv("COMPANIES_HOUSE_STREAM_KEY")); v != "" {
		if strings.ContainsAny(v, " \t\r\n:") {
			return c, errors.New("COMPANIES_HOUSE_STREAM_KEY holds a space or a colon; give the stream key alone")
		}
		c.streamKey = v
	}
	var err error
	if c.changesInterval, err = interval(getenv, "REGISTRY_CHANGES_INTERVAL", defaultChangesInterval, minChangesInterval, maxChangesInterval); err != nil {
		return c, err
	}
	if c.pollInterval, err = interval(getenv, "REGISTRY_WATCH_POLL_INTERVAL", defaultPollInterval, minPollInterval, maxPollInterval); err != nil {
		return c, err
	}
	if v := strings.TrimSpace(getenv("REGISTRY_WEBHOOK_ALLOW_PRIVATE")); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("REGISTRY_WEBHOOK_ALLOW_PRIVATE %q is not true or false", v)
		}
		c.allowPrivate = b
	}
	return c, nil
}

// interval reads a duration setting between lo and hi.
func interval(getenv func(string) string, name string, def, lo, hi time.Duration) (time.Duration, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s %q is not a duration (for example %s)", name, v, def)
	}
	if d < lo || d > hi {
		return 0, fmt.Errorf("%s %s is outside %s to %s", name, d, lo, hi)
	}
	return d, nil
}

// changeParts are the parts of change monitoring built by other packages:
// the store (changes/sqlstore), the fetcher of fresh reports (changes) and
// the ingesters' leader loop (changes/ingest).
type changeParts struct {
	store   changes.Store
	fetcher changes.Fetcher
	// ingest runs the ingesters while this replica holds the leader lease,
	// until ctx ends; nil runs none.
	ingest func(ctx context.Context) error
	// storeKind is "sqlite" or "postgres", for the log.
	storeKind string
}

// openChangeParts opens the store and builds the fetcher and the
// ingesters.
//
// WIRING (issue 28, for the lead at merge): the store and the ingesters
// are written at the same time as this server's wiring, in
// changes/sqlstore and changes/ingest, and were not on main when this was
// written. Open the store here — PostgreSQL when cfg.databaseURL is set,
// else the embedded database in cfg.dataDir (created with mode 0700) —
// with its migrations run; the fetcher is the Registry's fresh fetcher;
// ingest is the leader loop with cfg.changesInterval, cfg.pollInterval and
// cfg.streamKey. Until then it returns nil parts and change monitoring is
// off: none of its routes is served (tests of this package must then set
// REGISTRY_DATA_DIR to a temporary folder).
func openChangeParts(_ context.Context, _ changeConfig, _ *registry.Registry, _ *slog.Logger) (*changeParts, error) {
	return nil, nil
}

// changeRuntime is change monitoring in this process: the service behind
// the routes, and the workers every replica runs (the dispatcher, the
// baselines under a lease, the ingesters under the leader lease).
type changeRuntime struct {
	parts  *changeParts
	svc    *changes.Service
	disp   *dispatch.Dispatcher
	client *webhook.Client
	tokens *apitoken.Set
	holder string
	log    *slog.Logger
}

// newChangeRuntime builds the service and the dispatcher over parts.
func newChangeRuntime(cfg changeConfig, reg *registry.Registry, parts *changeParts, logger *slog.Logger) (*changeRuntime, error) {
	policy := webhook.Policy{AllowPrivate: cfg.allowPrivate}
	client := webhook.NewClient(webhook.ClientOptions{Policy: policy, UserAgent: "companyregistry-webhooks/" + reg.Health().Version})
	holder := dispatch.WorkerName()
	rt := &changeRuntime{parts: parts, client: client, tokens: cfg.tokens, holder: holder, log: logger}
	var err error
	rt.disp, err = dispatch.New(dispatch.Config{Store: parts.store, Client: client, Worker: holder, Logger: logger})
	if err != nil {
		return nil, err
	}
	rt.svc, err = changes.NewService(changes.ServiceConfig{Store: parts.store, Fetcher: parts.fetcher, Registry: reg,
		Policy: policy, Client: client, Logger: logger, Queued: rt.disp.Wake})
	if err != nil {
		return nil, err
	}
	return rt, nil
}

// buildChanges opens change monitoring, or returns nil when it is off.
func buildChanges(cfg changeConfig, reg *registry.Registry, logger *slog.Logger) (*changeRuntime, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	parts, err := openChangeParts(ctx, cfg, reg, logger)
	if err != nil {
		return nil, err
	}
	if parts == nil {
		return nil, nil
	}
	rt, err := newChangeRuntime(cfg, reg, parts, logger)
	if err != nil {
		_ = parts.store.Close()
		return nil, err
	}
	logger.LogAttrs(ctx, slog.LevelInfo, "change monitoring", slog.String("store", parts.storeKind),
		slog.Int("api_tokens", cfg.tokens.Len()), slog.Bool("webhook_allow_private", cfg.allowPrivate),
		slog.Bool("companies_house_stream_key_set", cfg.streamKey != ""))
	return rt, nil
}

// start runs the workers until ctx ends; the returned function waits for
// them to finish (the dispatcher records the attempts in flight).
func (rt *changeRuntime) start(ctx context.Context) (wait func()) {
	var wg sync.WaitGroup
	run := func(name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(ctx); err != nil && ctx.Err() == nil {
				rt.log.LogAttrs(ctx, slog.LevelError, name+" stopped", slog.String("error", err.Error()))
			}
		}()
	}
	run("dispatcher", rt.disp.Run)
	run("baselines", func(ctx context.Context) error { return rt.svc.RunBaselines(ctx, rt.holder, baselineEvery) })
	if rt.parts.ingest != nil {
		run("ingesters", rt.parts.ingest)
	}
	return wg.Wait
}

// close releases the store and the client's connections.
func (rt *changeRuntime) close() {
	if rt == nil {
		return
	}
	rt.client.CloseIdleConnections()
	_ = rt.parts.store.Close()
}
