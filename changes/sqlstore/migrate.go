package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"
)

// The schema, one folder per dialect, one file per version
// (NNNN_name.sql), applied in order.
//
//go:embed migrations
var migrations embed.FS

// migrationLock is the PostgreSQL advisory lock key that makes replicas
// starting at once migrate one after the other ("chgstore" in ASCII).
const migrationLock int64 = 0x6368_6773_746f_7265

// migration is one schema version.
type migration struct {
	version int
	name    string
	sql     string
}

// Migrate brings the schema of the database dsn names (as [Open] reads it)
// up to date and closes it: the step a deployment runs alone before
// starting the servers (Open does it too, unless [WithoutMigrate]). Run it
// with `go run ./internal/cmd/migrate -database "$DATABASE_URL"` or
// `-database sqlite:/path/to/changes.db`.
func Migrate(ctx context.Context, dsn string) error {
	s, err := Open(ctx, dsn, WithoutMigrate())
	if err != nil {
		return err
	}
	return errors.Join(s.migrate(ctx), s.Close())
}

// SchemaVersion returns the newest schema version applied to the store's
// database (0 when none).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := s.r.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("changes/sqlstore: schema version: %w", err)
	}
	return int(v.Int64), nil
}

// migrate applies the migrations the database lacks, all in one
// transaction (DDL is transactional on both databases), which on
// PostgreSQL first takes an advisory lock so that concurrent migrations
// run one after the other and the second finds nothing left to do. A
// database with versions this program does not know (a newer program
// migrated it) is left as it is.
func (s *Store) migrate(ctx context.Context) error {
	return s.migrateUpTo(ctx, math.MaxInt)
}

// migrateUpTo is migrate, applying no migration past version (for the
// tests of a migration from an older schema).
func (s *Store) migrateUpTo(ctx context.Context, version int) error {
	list, err := s.d.migrations()
	if err != nil {
		return err
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if s.d.pg {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLock); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at BIGINT NOT NULL
)`); err != nil {
			return err
		}
		applied := map[int]bool{}
		rows, err := tx.QueryContext(ctx, "SELECT version FROM schema_migrations")
		if err != nil {
			return err
		}
		for rows.Next() {
			var v int
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return err
			}
			applied[v] = true
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, m := range list {
			if m.version > version {
				break
			}
			if applied[m.version] {
				continue
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %04d_%s: %w", m.version, m.name, err)
			}
			if _, err := tx.ExecContext(ctx, s.d.q("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"),
				m.version, m.name, s.now().UnixMicro()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("changes/sqlstore: migrate the %s schema: %w", s.d.name, err)
	}
	return nil
}

// migrations lists the dialect's migrations in version order.
func (d dialect) migrations() ([]migration, error) {
	dir := path.Join("migrations", d.name)
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return nil, err
	}
	var list []migration
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".sql")
		if !ok {
			continue
		}
		num, label, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("changes/sqlstore: migration file %s is not named NNNN_name.sql", e.Name())
		}
		b, err := migrations.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		list = append(list, migration{version: v, name: label, sql: string(b)})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].version < list[j].version })
	for i := 1; i < len(list); i++ {
		if list[i].version == list[i-1].version {
			return nil, fmt.Errorf("changes/sqlstore: two migrations have version %d", list[i].version)
		}
	}
	return list, nil
}
