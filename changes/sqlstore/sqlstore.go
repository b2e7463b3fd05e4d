package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/companyregistry/registry/internal/lockedio"
	"github.com/companyregistry/registry/internal/sqlitedb"
)

// DefaultRetention is how long changes are kept at least: [Store.Prune]
// never removes a change younger than the retention.
const DefaultRetention = 30 * 24 * time.Hour

// FileName is the name of the SQLite file a service keeps in its data
// folder (REGISTRY_DATA_DIR): filepath.Join(dir, FileName).
const FileName = "changes.db"

// Store is a [changes.Store] on SQLite or PostgreSQL. It is safe for
// concurrent use; on PostgreSQL several Stores (replicas) may share one
// database.
type Store struct {
	d         dialect
	w         *sql.DB // writes: one connection on SQLite, the pool on PostgreSQL
	r         *sql.DB // reads: a pool of connections (the same pool on PostgreSQL)
	now       func() time.Time
	retention time.Duration
	random    io.Reader // the ids' random bits; nil is crypto/rand

	// dueMu guards due, the readers' prepared statement of anyDue,
	// prepared at the first claim (see ClaimDeliveries).
	dueMu sync.Mutex
	due   *sql.Stmt
}

var _ changes.Store = (*Store)(nil)

// Option configures a Store.
type Option func(*config)

type config struct {
	now       func() time.Time
	random    io.Reader
	retention time.Duration
	maxConns  int
	migrate   bool
}

// WithClock sets the clock the store reads for the times it assigns (a
// change's DetectedAt when unset, a delivery's CreatedAt and the time of a
// redelivery, the limit of Prune). Default time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.now = now
		}
	}
}

// WithRandom sets the source of the random bits of the ids the store
// makes (of changes and deliveries; default crypto/rand), read under a
// lock. With a seeded source and [WithClock], a store makes the same ids
// on every run: the recorded examples of the service's documentation are
// made so. A nil source leaves the default.
func WithRandom(r io.Reader) Option {
	return func(c *config) {
		if r != nil {
			c.random = lockedio.NewReader(r)
		}
	}
}

// WithRetention sets how long changes are kept at least (default
// [DefaultRetention], 30 days): Prune(before) removes nothing recorded
// after now minus the retention, whatever before says. A retention of zero
// or less leaves the default.
func WithRetention(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.retention = d
		}
	}
}

// WithMaxConns bounds the store's database connections: on PostgreSQL the
// pool (default 10), on SQLite the readers beside the one writer (default
// 4). Zero or less leaves the default.
func WithMaxConns(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxConns = n
		}
	}
}

// WithoutMigrate opens the store without bringing the schema up to date,
// for deployments that run [Migrate] as a separate step with other
// database rights.
func WithoutMigrate() Option {
	return func(c *config) { c.migrate = false }
}

func newConfig(opts []Option) config {
	c := config{now: time.Now, retention: DefaultRetention, migrate: true}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// Open opens the store a data source name names: a postgres:// or
// postgresql:// URL (PostgreSQL, as [OpenPostgres]) or "sqlite:" followed
// by a file path (SQLite, as [OpenSQLite]).
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return OpenPostgres(ctx, dsn, opts...)
	case strings.HasPrefix(dsn, "sqlite:"):
		return OpenSQLite(ctx, strings.TrimPrefix(dsn, "sqlite:"), opts...)
	}
	return nil, errors.New(`changes/sqlstore: the database is neither a postgres:// URL nor "sqlite:" and a file path`)
}

// OpenSQLite opens (creating it and its folder if needed) the SQLite
// database file at path and brings its schema up to date. The file is
// opened through internal/sqlitedb, the module's one way of opening SQLite
// (WAL mode, synchronous NORMAL, foreign keys on). The store writes
// through one connection whose transactions begin IMMEDIATE, so its
// goroutines queue for writing instead of failing with SQLITE_BUSY, and
// reads through a pool of read-only connections beside it. Another process
// writing the same file is waited for (busy timeout 10 s).
func OpenSQLite(ctx context.Context, path string, opts ...Option) (*Store, error) {
	cfg := newConfig(opts)
	if path == "" {
		return nil, errors.New("changes/sqlstore: no SQLite file path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("changes/sqlstore: SQLite file path: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("changes/sqlstore: create the SQLite file's folder: %w", err)
	}
	readers := cfg.maxConns
	if readers <= 0 {
		readers = 4
	}
	// The writer's connection creates the file, sets WAL mode (which the
	// readers' connections then find) and migrates before any reader
	// opens.
	w, err := sqlitedb.Open(ctx, abs, sqlitedb.Options{BusyTimeout: sqliteBusyTimeout, MaxOpenConns: 1})
	if err != nil {
		return nil, fmt.Errorf("changes/sqlstore: open SQLite: %w", err)
	}
	s := &Store{d: sqliteDialect, w: w, now: cfg.now, retention: cfg.retention, random: cfg.random}
	if cfg.migrate {
		if err := s.migrate(ctx); err != nil {
			_ = w.Close()
			return nil, err
		}
	}
	r, err := sqlitedb.Open(ctx, abs, sqlitedb.Options{ReadOnly: true, BusyTimeout: sqliteBusyTimeout, MaxOpenConns: readers})
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("changes/sqlstore: open SQLite: %w", err)
	}
	s.r = r
	return s, nil
}

// sqliteBusyTimeout is how long a statement waits for another process's
// lock on the SQLite file.
const sqliteBusyTimeout = 10 * time.Second

// OpenPostgres connects to the PostgreSQL database at url (a postgres://
// URL, as in DATABASE_URL) and brings its schema up to date; replicas that
// start at once migrate one after the other (an advisory lock). The store
// uses pgx through database/sql with a pool of connections.
func OpenPostgres(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	cfg := newConfig(opts)
	pcfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// The parser's message repeats the URL; say what is wrong without it.
		return nil, errors.New("changes/sqlstore: the PostgreSQL URL does not parse (expected postgres://user:password@host:port/database?sslmode=…)")
	}
	// Plan every statement for its values: a generic plan, fixed after five
	// runs while a table is young, kept a sequential scan of the changes
	// long after an index would serve (until autovacuum analysed them).
	if _, set := pcfg.RuntimeParams["plan_cache_mode"]; !set {
		pcfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	db := stdlib.OpenDB(*pcfg)
	n := cfg.maxConns
	if n <= 0 {
		n = 10
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{d: postgresDialect, w: db, r: db, now: cfg.now, retention: cfg.retention, random: cfg.random}
	if err := s.ping(ctx, db); err != nil {
		_ = db.Close()
		return nil, err
	}
	if cfg.migrate {
		if err := s.migrate(ctx); err != nil {
			_ = db.Close()
			return nil, err
		}
	}
	return s, nil
}

func (s *Store) ping(ctx context.Context, db *sql.DB) error {
	if err := db.PingContext(ctx); err != nil {
		return fmt.Errorf("changes/sqlstore: connect to %s: %w", s.d.name, err)
	}
	return nil
}

// Close closes the store's connections.
func (s *Store) Close() error {
	var err error
	s.dueMu.Lock()
	if s.due != nil {
		err = s.due.Close()
		s.due = nil
	}
	s.dueMu.Unlock()
	err = errors.Join(err, s.w.Close())
	if s.r != nil && s.r != s.w {
		err = errors.Join(err, s.r.Close())
	}
	return err
}

// Dialect names the database the store is on: "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.d.name }

// dialect is what differs between the two databases.
type dialect struct {
	name string
	pg   bool
}

var (
	sqliteDialect   = dialect{name: "sqlite"}
	postgresDialect = dialect{name: "postgres", pg: true}
)

// q rewrites the ? placeholders of a query for the dialect (PostgreSQL
// numbers them: $1, $2, …). Queries never hold a ? in a literal.
func (d dialect) q(query string) string {
	if !d.pg {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// readOptions is a read transaction's options: one snapshot for every
// statement (PostgreSQL's repeatable read; an SQLite read transaction is a
// snapshot already).
func (d dialect) readOptions() *sql.TxOptions {
	if d.pg {
		return &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	return &sql.TxOptions{ReadOnly: true}
}

// retryable reports a PostgreSQL transaction that lost a deadlock or a
// serialization race and may be run again.
func (d dialect) retryable(err error) bool {
	var pe *pgconn.PgError
	return d.pg && errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// write runs fn in a write transaction (SQLite: BEGIN IMMEDIATE on the one
// writer connection), committing when it returns nil; a PostgreSQL
// deadlock or serialization failure runs it again, up to three times.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	var err error
	for range 3 {
		err = s.tx(ctx, s.w, nil, fn)
		if !s.d.retryable(err) {
			return err
		}
	}
	return err
}

// read runs fn in a read-only transaction on one snapshot.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.tx(ctx, s.r, s.d.readOptions(), fn)
}

func (s *Store) tx(ctx context.Context, db *sql.DB, opts *sql.TxOptions, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
