package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
)

// The Store rotates secrets.
var _ changes.SecretRotator = (*Store)(nil)

// The watches table holds two previous keys (migration 0006): this fails
// to compile when changes.MaxPreviousSecrets says otherwise.
var _ = [1]struct{}{}[changes.MaxPreviousSecrets-2]

// rotateQuery makes the current key the newest previous one and keeps the
// newest previous key still signing at the rotation as the older one,
// else the older one when it still signs, else none: the key beyond two
// is dropped, the oldest first. Its right-hand sides read the row as it
// was. Arguments: now four times, the new key's end, the new key, owner,
// id.
const rotateQuery = `UPDATE watches SET
      previous2_secret = CASE WHEN previous_until > ? THEN previous_secret WHEN previous2_until > ? THEN previous2_secret END,
      previous2_until = CASE WHEN previous_until > ? THEN previous_until WHEN previous2_until > ? THEN previous2_until END,
      previous_secret = secret, previous_until = ?, secret = ?
    WHERE owner = ? AND id = ?`

// keyColumns are the columns of a watch's keys, in keyDest's order, and
// watchKeyColumns the same of the watches table named w.
const (
	keyColumns      = "secret, previous_secret, previous_until, previous2_secret, previous2_until"
	watchKeyColumns = "w.secret, w.previous_secret, w.previous_until, w.previous2_secret, w.previous2_until"
)

// RotateSecret makes secret the current key of the owner's watch and the
// key it replaces the newest previous one until until, keeping the newest
// previous key that signs after now and dropping the rest
// (changes.SecretRotator). It is one UPDATE, whose right-hand sides read
// the row as it was: a claim, which reads the keys in one statement too,
// sees them before or after it, never the new key without the ones it
// kept. An unknown watch, or another owner's, is changes.ErrNotFound.
func (s *Store) RotateSecret(ctx context.Context, owner, id string, secret []byte, now, until time.Time) error {
	if len(secret) == 0 {
		return errors.New("changes/sqlstore: rotate secret: an empty secret")
	}
	if !isText(owner, id) {
		return changes.ErrNotFound
	}
	at := micros(now)
	err := s.write(ctx, func(tx *sql.Tx) error {
		return found(tx.ExecContext(ctx, s.d.q(rotateQuery), at, at, at, at, micros(until), secret, owner, id))
	})
	return wrap("rotate secret", err)
}

// WatchKeys returns the keys of the owner's watch (changes.SecretRotator);
// an unknown watch, or another owner's, is changes.ErrNotFound.
func (s *Store) WatchKeys(ctx context.Context, owner, id string) (changes.WatchKeys, error) {
	if !isText(owner, id) {
		return changes.WatchKeys{}, changes.ErrNotFound
	}
	var k keyDest
	err := s.r.QueryRowContext(ctx, s.d.q("SELECT "+keyColumns+" FROM watches WHERE owner = ? AND id = ?"),
		owner, id).Scan(k.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return changes.WatchKeys{}, changes.ErrNotFound
	}
	if err != nil {
		return changes.WatchKeys{}, wrap("watch keys", err)
	}
	return changes.WatchKeys{Current: k.current, Previous: k.previous()}, nil
}

// keyDest scans keyColumns.
type keyDest struct {
	current, p1, p2 []byte
	u1, u2          sql.NullInt64
}

func (k *keyDest) dest() []any { return []any{&k.current, &k.p1, &k.u1, &k.p2, &k.u2} }

// previous are the previous keys as stored, newest first: nil without
// one.
func (k *keyDest) previous() []webhook.PreviousKey {
	var out []webhook.PreviousKey
	for _, p := range []struct {
		key   []byte
		until sql.NullInt64
	}{{k.p1, k.u1}, {k.p2, k.u2}} {
		if p.key != nil && p.until.Valid {
			out = append(out, webhook.PreviousKey{Key: p.key, Until: fromMicros(p.until.Int64)})
		}
	}
	return out
}
