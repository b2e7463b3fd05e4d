package sqlstore

import (
	"context"
	"database/sql"
)

// MigrateTo applies the dialect's migrations up to version (and no
// further) to a store opened WithoutMigrate, as migrate does: the schema
// an older program left, for the tests of a migration from it.
func MigrateTo(ctx context.Context, s *Store, version int) error {
	list, err := s.d.migrations()
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at BIGINT NOT NULL
)`); err != nil {
			return err
		}
		for _, m := range list {
			if m.version > version {
				break
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.d.q("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"),
				m.version, m.name, s.now().UnixMicro()); err != nil {
				return err
			}
		}
		return nil
	})
}
