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
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/webhook"
)

const (
	// defaultDataDir is REGISTRY_DATA_DIR's default, in the working
	// directory.
	defaultDataDir = "companyregistry-data"
	// baselineEvery is how often pending baselines are taken.
	baselineEvery = time.Minute
)

// changeConfig is change monitoring's part of the configuration.
type changeConfig struct {
	dataDir      string          // REGISTRY_DATA_DIR: the embedded database's folder
	databaseURL  string          // DATABASE_URL: PostgreSQL instead; never logged
	tokens       *apitoken.Set   // REGISTRY_API_TOKENS or REGISTRY_API_TOKENS_FILE; nil: none
	ingest       ingest.Settings // REGISTRY_CHANGES_INTERVAL, REGISTRY_WATCH_POLL_INTERVAL, COMPANIES_HOUSE_STREAM_KEY
	allowPrivate bool            // REGISTRY_WEBHOOK_ALLOW_PRIVATE
}

// parseChangeConfig reads change monitoring's settings; an error names
// the setting and never shows a token, a key or a database URL. The
// ingesters' settings are read by ingest.SettingsFromEnv, their owner.
func parseChangeConfig(getenv func(string) string) (changeConfig, error) {
	c := changeConfig{dataDir: defaultDataDir}
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
	s, err := ingest.SettingsFromEnv(getenv)
	if err != nil {
		// SettingsFromEnv's errors start "ingest: <VARIABLE>" or
		// "<VARIABLE>"; the program's start with the variable.
		return c, errors.New(strings.TrimPrefix(err.Error(), "ingest: "))
	}
	c.ingest = s
	if strings.ContainsAny(s.StreamKey, " \t\r\n:") {
		return c, errors.New(ingest.EnvStreamKey + " holds a space or a colon; give the stream key alone")
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

// openChangeStore opens change monitoring's store.
//
// WIRING (issue 28, for the lead at merge): the store is written at the
// same time as this server's wiring, in changes/sqlstore, and was not on
// main when this was written. Open it here — PostgreSQL when
// cfg.databaseURL is set, else the embedded database in cfg.dataDir
// (created with mode 0700) — with its migrations run, and return its kind
// ("postgres" or "sqlite") for the log. Until then it returns a nil store
// and change monitoring is off: none of its routes is served and no worker
// runs (tests of this package must then set REGISTRY_DATA_DIR to a
// temporary folder).
func openChangeStore(_ context.Context, _ changeConfig) (changes.Store, string, error) {
	return nil, "", nil
}

// changeParts are the parts of change monitoring over a store: the
// fetcher of fresh reports and the ingesters' leader.
type changeParts struct {
	store   changes.Store
	fetcher changes.Fetcher
	// ingest runs the ingesters while this replica holds the leader lease,
	// until ctx ends; nil runs none.
	ingest func(ctx context.Context) error
	// storeKind is "sqlite" or "postgres", for the log.
	storeKind string
}

// newChangeParts builds the fetcher and the ingesters of every country
// that can answer now over store: Norway's feeds (sharing the Registry's
// budget for NO), Companies House's stream with the stream key, a poller
// for the others; run by a leader under the store's lease.
func newChangeParts(store changes.Store, kind string, cfg config, reg *registry.Registry, budgets map[string]registry.UpstreamBudget,
	logger *slog.Logger) (*changeParts, error) {
	fetch, err := changes.NewRegistryFetcher(reg, nil)
	if err != nil {
		return nil, err
	}
	opts := []ingest.Option{ingest.WithLogger(logger)}
	if cfg.countries.ContactEmail != "" {
		opts = append(opts, ingest.WithContactEmail(cfg.countries.ContactEmail))
	}
	if b := budgets["NO"]; b != nil {
		opts = append(opts, ingest.WithBudget(b))
	}
	var codes []string
	for _, c := range reg.Countries().Countries {
		codes = append(codes, c.Country)
	}
	ingesters, err := ingest.Standard(store, fetch, codes, cfg.changes.ingest, opts...)
	if err != nil {
		return nil, err
	}
	leader, err := ingest.NewLeader(store, ingesters, ingest.WithLogger(logger), ingest.WithInterval(cfg.changes.ingest.Interval))
	if err != nil {
		return nil, err
	}
	return &changeParts{store: store, fetcher: fetch, ingest: leader.Run, storeKind: kind}, nil
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
	client := webhook.NewClient(webhook.ClientOptions{Policy: policy, UserAgent: "companyregistry-webhooks/" + reg.Version()})
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
func buildChanges(cfg config, reg *registry.Registry, budgets map[string]registry.UpstreamBudget, logger *slog.Logger) (*changeRuntime, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store, kind, err := openChangeStore(ctx, cfg.changes)
	if err != nil || store == nil {
		return nil, err
	}
	parts, err := newChangeParts(store, kind, cfg, reg, budgets, logger)
	if err != nil {
		_ = store.Close()
		return nil, err
	}
	rt, err := newChangeRuntime(cfg.changes, reg, parts, logger)
	if err != nil {
		_ = store.Close()
		return nil, err
	}
	logger.LogAttrs(ctx, slog.LevelInfo, "change monitoring", slog.String("store", kind),
		slog.Int("api_tokens", cfg.changes.tokens.Len()), slog.Bool("webhook_allow_private", cfg.changes.allowPrivate),
		slog.String("ingest", cfg.changes.ingest.String()))
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
