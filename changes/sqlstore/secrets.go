package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/companyregistry/registry/changes"
)

// The Store rotates secrets.
var _ changes.SecretRotator = (*Store)(nil)

// RotateSecret makes secret the current key of the owner's watch and the
// key it replaces the previous one until previousUntil, dropping an older
// previous key (changes.SecretRotator). It is one UPDATE, whose right-hand
// sides read the row as it was: a claim, which reads the keys in one
// statement too, sees them before or after it, never the new key without
// the replaced one. An unknown watch, or another owner's, is
// changes.ErrNotFound.
func (s *Store) RotateSecret(ctx context.Context, owner, id string, secret []byte, previousUntil time.Time) error {
	if len(secret) == 0 {
		return errors.New("changes/sqlstore: rotate secret: an empty secret")
	}
	if !isText(owner, id) {
		return changes.ErrNotFound
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		return found(tx.ExecContext(ctx, s.d.q(`UPDATE watches SET previous_secret = secret, previous_until = ?, secret = ?
    WHERE owner = ? AND id = ?`), micros(previousUntil), secret, owner, id))
	})
	return wrap("rotate secret", err)
}

// WatchKeys returns the keys of the owner's watch (changes.SecretRotator);
// an unknown watch, or another owner's, is changes.ErrNotFound.
func (s *Store) WatchKeys(ctx context.Context, owner, id string) (changes.WatchKeys, error) {
	if !isText(owner, id) {
		return changes.WatchKeys{}, changes.ErrNotFound
	}
	var k changes.WatchKeys
	var until sql.NullInt64
	err := s.r.QueryRowContext(ctx, s.d.q("SELECT secret, previous_secret, previous_until FROM watches WHERE owner = ? AND id = ?"),
		owner, id).Scan(&k.Current, &k.Previous, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return changes.WatchKeys{}, changes.ErrNotFound
	}
	if err != nil {
		return changes.WatchKeys{}, wrap("watch keys", err)
	}
	k.PreviousUntil = previousUntil(k.Previous, until)
	return k, nil
}

// previousUntil is the end of a previous key as stored: zero without one.
func previousUntil(previous []byte, until sql.NullInt64) time.Time {
	if previous == nil || !until.Valid {
		return time.Time{}
	}
	return fromMicros(until.Int64)
}
