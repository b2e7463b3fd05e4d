package sqlitedb_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/internal/sqlitedb"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

func TestOpenWritableThenReadOnly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a b;c.db") // a name that needs escaping
	db, err := sqlitedb.Open(t.Context(), path, sqlitedb.Options{CacheKiB: 1024})
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := db.QueryRowContext(t.Context(), "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk, cache, busy int
	if err := db.QueryRowContext(t.Context(), "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v", fk, err)
	}
	if err := db.QueryRowContext(t.Context(), "PRAGMA cache_size").Scan(&cache); err != nil || cache != -1024 {
		t.Errorf("cache_size = %d, %v", cache, err)
	}
	if err := db.QueryRowContext(t.Context(), "PRAGMA busy_timeout").Scan(&busy); err != nil || busy != 5000 {
		t.Errorf("busy_timeout = %d, %v", busy, err)
	}
	if _, err := db.ExecContext(t.Context(), "CREATE TABLE t(x TEXT); INSERT INTO t VALUES ('å')"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the database is not at its path: %v", err)
	}

	ro, err := sqlitedb.Open(t.Context(), path, sqlitedb.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	var x string
	if err := ro.QueryRowContext(t.Context(), "SELECT x FROM t").Scan(&x); err != nil || x != "å" {
		t.Errorf("read back %q, %v", x, err)
	}
	if _, err := ro.ExecContext(t.Context(), "INSERT INTO t VALUES ('b')"); err == nil {
		t.Error("a read-only database accepted an INSERT")
	}
}

func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"", ":memory:"} {
		if db, err := sqlitedb.Open(t.Context(), p, sqlitedb.Options{}); err == nil {
			_ = db.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	if db, err := sqlitedb.Open(t.Context(), missing, sqlitedb.Options{ReadOnly: true}); err == nil {
		_ = db.Close()
		t.Error("a read-only Open of a missing file succeeded")
	}
}

func TestDSN(t *testing.T) {
	t.Parallel()
	got := sqlitedb.DSN("/data/x.db", sqlitedb.Options{ReadOnly: true})
	for _, want := range []string{"file:", "mode=ro", "query_only", "busy_timeout"} {
		if !strings.Contains(got, want) {
			t.Errorf("DSN %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "journal_mode") {
		t.Errorf("a read-only DSN sets journal_mode: %q", got)
	}
}
