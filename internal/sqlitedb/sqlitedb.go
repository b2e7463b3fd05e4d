// Package sqlitedb opens SQLite database files for the packages of this
// module that keep data on disk, through the pure-Go driver
// modernc.org/sqlite (no cgo), with one set of pragmas: a busy timeout,
// foreign keys on, and for a writable file write-ahead logging with
// synchronous NORMAL (a crash may lose the last transactions, never corrupt
// the file). A read-only file is opened with query_only, so that no
// statement can change it.
//
// It is the one place that knows the driver's name and its DSN syntax; a
// package that needs SQLite opens its file here and keeps its own schema.
package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DriverName is the database/sql driver name of modernc.org/sqlite.
const DriverName = "sqlite"

// Options configure [Open].
type Options struct {
	// ReadOnly opens an existing file that no statement may change
	// (mode=ro and query_only). The file must exist.
	ReadOnly bool
	// BusyTimeout is how long a statement waits for another connection's
	// lock before failing with SQLITE_BUSY; 0 means 5 seconds.
	BusyTimeout time.Duration
	// CacheKiB bounds the page cache of each connection in KiB; 0 means
	// SQLite's default (2 MiB).
	CacheKiB int
	// MaxOpenConns bounds the connections of the pool; 0 means 1 for a
	// writable file (SQLite has one writer) and 4 for a read-only one.
	MaxOpenConns int
	// BulkLoad is for a file written once by one process and then renamed
	// into place: no journal and no sync, which a crash may leave corrupt
	// (the caller discards such a file).
	BulkLoad bool
}

// Open opens (for a writable file, creating) the SQLite file at path with
// the package's pragmas and checks that it answers. path must be a file
// name, not a URI; ":memory:" is refused (each connection of a pool would
// get a database of its own).
func Open(ctx context.Context, path string, o Options) (*sql.DB, error) {
	if path == "" || path == ":memory:" {
		return nil, errors.New("sqlitedb: a file path is required")
	}
	db, err := sql.Open(DriverName, DSN(path, o))
	if err != nil {
		return nil, fmt.Errorf("sqlitedb: open: %w", err)
	}
	n := o.MaxOpenConns
	if n <= 0 {
		n = 1
		if o.ReadOnly {
			n = 4
		}
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlitedb: open: %w", err)
	}
	return db, nil
}

// DSN returns the data source name of modernc.org/sqlite for path with the
// package's pragmas: what [Open] passes to sql.Open.
func DSN(path string, o Options) string {
	busy := o.BusyTimeout
	if busy <= 0 {
		busy = 5 * time.Second
	}
	q := url.Values{}
	pragma := func(p string) { q.Add("_pragma", p) }
	pragma("busy_timeout(" + strconv.FormatInt(busy.Milliseconds(), 10) + ")")
	pragma("foreign_keys(1)")
	if o.CacheKiB > 0 {
		pragma("cache_size(-" + strconv.Itoa(o.CacheKiB) + ")")
	}
	if o.ReadOnly {
		q.Set("mode", "ro")
		pragma("query_only(1)")
	} else if o.BulkLoad {
		pragma("journal_mode(OFF)")
		pragma("synchronous(OFF)")
	} else {
		pragma("journal_mode(WAL)")
		pragma("synchronous(NORMAL)")
		q.Set("_txlock", "immediate")
	}
	u := url.URL{Scheme: "file", Opaque: url.PathEscape(path), RawQuery: q.Encode()}
	return u.String()
}
