package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/webhook"
)

const (
	// defaultDataDir is REGISTRY_DATA_DIR's default: a folder of that
	// name in the working directory (relative, so that two deployments run
	// from two folders never share a database).
	defaultDataDir = "companyregistry-data"
	// baselineEvery is how often pending baselines are taken.
	baselineEvery = time.Minute
	// pruneEvery is how often changes older than the retention (30 days)
	// and unwatched companies' snapshots are removed.
	pruneEvery = time.Hour
)

// changeConfig is change monitoring's part of the configuration.
type changeConfig struct {
	off          bool            // REGISTRY_CHANGES=off: no change monitoring at all
	dataDir      string          // REGISTRY_DATA_DIR: the embedded database's folder
	dataDirSet   bool            // REGISTRY_DATA_DIR was given
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
	switch v := strings.ToLower(strings.TrimSpace(getenv("REGISTRY_CHANGES"))); v {
	case "", "on", "true":
	case "off", "false":
		c.off = true
	default:
		return c, fmt.Errorf("REGISTRY_CHANGES %q is not on or off", v)
	}
	if v := strings.TrimSpace(getenv("REGISTRY_DATA_DIR")); v != "" {
		c.dataDir, c.dataDirSet = v, true
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

// openChangeStore opens change monitoring's store, with its migrations
// run: PostgreSQL when DATABASE_URL is set (needed for several replicas),
// else the embedded SQLite file sqlstore.FileName in REGISTRY_DATA_DIR,
// whose folder is created with mode 0700 when missing (it holds the
// watches' signing secrets). It returns the store's kind, "postgres" or
// "sqlite", for the log. An error names the setting and never shows the
// database URL.
func openChangeStore(ctx context.Context, cfg changeConfig) (changes.Store, string, error) {
	if cfg.databaseURL != "" {
		s, err := sqlstore.OpenPostgres(ctx, cfg.databaseURL)
		if err != nil {
			return nil, "", fmt.Errorf("DATABASE_URL: %w", err)
		}
		return s, s.Dialect(), nil
	}
	if err := os.MkdirAll(cfg.dataDir, 0o700); err != nil {
		return nil, "", fmt.Errorf("REGISTRY_DATA_DIR: %w", err)
	}
	s, err := sqlstore.OpenSQLite(ctx, filepath.Join(cfg.dataDir, sqlstore.FileName))
	if err != nil {
		return nil, "", fmt.Errorf("REGISTRY_DATA_DIR: %w", err)
	}
	return s, s.Dialect(), nil
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
// that can answer now over store: Norway's feeds (read from BRREG_BASE_URL
// when it is set, sharing the Registry's budget for NO), Companies House's
// stream with the stream key, a poller for the others; run by a leader
// under the store's lease, which it holds as holder (the name of this
// process in every lease and delivery claim).
func newChangeParts(store changes.Store, kind string, cfg config, reg *registry.Registry, budgets map[string]registry.UpstreamBudget,
	holder string, logger *slog.Logger) (*changeParts, error) {
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
	norway := false
	for _, c := range reg.Countries().Countries {
		if c.Country == "NO" && cfg.countries.BrregBaseURL != "" {
			norway = true // its feeds are where the register's API is
			continue
		}
		codes = append(codes, c.Country)
	}
	ingesters, err := ingest.Standard(store, fetch, codes, cfg.changes.ingest, opts...)
	if err != nil {
		return nil, err
	}
	if norway {
		n, err := ingest.NewNorway(store, fetch, append(opts, ingest.WithBaseURL(cfg.countries.BrregBaseURL))...)
		if err != nil {
			return nil, fmt.Errorf("BRREG_BASE_URL: %w", err)
		}
		ingesters = append(ingesters, n)
	}
	leader, err := ingest.NewLeader(store, ingesters, ingest.WithLogger(logger), ingest.WithInterval(cfg.changes.ingest.Interval),
		ingest.WithHolder(holder))
	if err != nil {
		return nil, err
	}
	return &changeParts{store: store, fetcher: fetch, ingest: leader.Run, storeKind: kind}, nil
}

// changeRuntime is change monitoring in this process: the service behind
// the routes, and the workers every replica runs (the dispatcher, the
// baselines and the pruning under leases, the ingesters under the leader
// lease).
type changeRuntime struct {
	parts  *changeParts
	svc    *changes.Service
	disp   *dispatch.Dispatcher
	client *webhook.Client
	tokens *apitoken.Set
	holder string
	log    *slog.Logger
}

// newWebhookClient is the guarded client of the webhooks and test events.
func newWebhookClient(cfg changeConfig, reg *registry.Registry) *webhook.Client {
	return webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: cfg.allowPrivate},
		UserAgent: "companyregistry-webhooks/" + reg.Version()})
}

// newChangeRuntime builds the service over parts, with the dispatcher disp
// that sends through client.
func newChangeRuntime(cfg changeConfig, reg *registry.Registry, parts *changeParts, client *webhook.Client,
	disp *dispatch.Dispatcher, holder string, logger *slog.Logger) (*changeRuntime, error) {
	rt := &changeRuntime{parts: parts, client: client, disp: disp, tokens: cfg.tokens, holder: holder, log: logger}
	var err error
	rt.svc, err = changes.NewService(changes.ServiceConfig{Store: parts.store, Fetcher: parts.fetcher, Registry: reg,
		Policy: webhook.Policy{AllowPrivate: cfg.allowPrivate}, Client: client, Logger: logger, Queued: disp.Wake})
	if err != nil {
		return nil, err
	}
	return rt, nil
}

// storeChosen reports whether the operator chose where change monitoring
// keeps its data (DATABASE_URL or REGISTRY_DATA_DIR).
func (c changeConfig) storeChosen() bool { return c.databaseURL != "" || c.dataDirSet }

// buildChanges opens change monitoring's store and builds its parts and
// runtime. It returns nil with REGISTRY_CHANGES=off, and with -stdio
// unless the operator chose the store
// (an MCP client starts the server in a working directory of its own,
// often not writable, and a stdio server runs no workers: its
// company_changes reads what an HTTP server keeps in the same store). The dispatcher is woken when this process's ingesters record a
// change, so that a webhook leaves at once rather than at its next poll.
func buildChanges(cfg config, reg *registry.Registry, budgets map[string]registry.UpstreamBudget, logger *slog.Logger) (*changeRuntime, error) {
	if cfg.changes.off || cfg.stdio && !cfg.changes.storeChosen() {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store, kind, err := openChangeStore(ctx, cfg.changes)
	if err != nil {
		return nil, err
	}
	client := newWebhookClient(cfg.changes, reg)
	holder := dispatch.WorkerName()
	disp, err := dispatch.New(dispatch.Config{Store: store, Client: client, Worker: holder, Logger: logger})
	if err != nil {
		_ = store.Close()
		return nil, err
	}
	parts, err := newChangeParts(dispatch.WakeOnApply(store, disp.Wake), kind, cfg, reg, budgets, holder, logger)
	if err != nil {
		_ = store.Close()
		return nil, err
	}
	rt, err := newChangeRuntime(cfg.changes, reg, parts, client, disp, holder, logger)
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
	run("prune", func(ctx context.Context) error {
		return rt.svc.RunPrune(ctx, rt.holder, pruneEvery, sqlstore.DefaultRetention)
	})
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
	rt.svc.Close()
	rt.client.CloseIdleConnections()
	_ = rt.parts.store.Close()
}
