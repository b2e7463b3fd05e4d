package sqlstore

import "context"

// MigrateTo applies the dialect's migrations up to version (and no
// further) to a store opened WithoutMigrate, as migrate does: the schema
// an older program left, for the tests of a migration from it.
func MigrateTo(ctx context.Context, s *Store, version int) error {
	return s.migrateUpTo(ctx, version)
}
