package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/companyregistry/registry/changes"
)

// ClaimDeliveries takes at most n pending deliveries due at now (oldest
// due first, then in feed order) for worker until now+lease and returns them with their
// change, URL and secret. A delivery taken by another worker whose lease
// has not ended is not taken; one whose lease ended (the worker died) is,
// and is sent again with the same webhook-id. Deliveries of disabled
// watches wait. On PostgreSQL the rows are chosen with FOR UPDATE SKIP
// LOCKED, so concurrent claimers, in this process or another replica,
// never wait for each other nor take the same row; on SQLite one
// conditional UPDATE … RETURNING on the single writer does it.
func (s *Store) ClaimDeliveries(ctx context.Context, worker string, now time.Time, n int, lease time.Duration) ([]changes.Claim, error) {
	if worker == "" || n < 1 || lease <= 0 {
		return nil, errors.New("changes/sqlstore: claim deliveries: needs a worker name, n ≥ 1 and a positive lease")
	}
	if err := checkText("worker", worker); err != nil {
		return nil, err
	}
	at, until := micros(now), micros(now.Add(lease))
	var out []changes.Claim
	err := s.write(ctx, func(tx *sql.Tx) error {
		out = nil
		// The candidates are chosen once (a materialised CTE: with SKIP
		// LOCKED in a subquery, PostgreSQL may run it more than once and
		// exceed the limit), then taken by one UPDATE that checks again
		// that each is still free.
		rows, err := tx.QueryContext(ctx, s.d.q(`WITH due AS MATERIALIZED (
    SELECT d.id FROM deliveries d JOIN watches w ON w.id = d.watch_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ?
      AND (d.claimed_until IS NULL OR d.claimed_until <= ?) AND w.disabled_at IS NULL
    ORDER BY d.next_attempt_at, d.change_seq, d.id LIMIT ?`+s.d.skipLocked()+`
)
UPDATE deliveries SET claimed_by = ?, claimed_until = ?
    FROM due WHERE deliveries.id = due.id
      AND deliveries.status = 'pending' AND (deliveries.claimed_until IS NULL OR deliveries.claimed_until <= ?)
    RETURNING deliveries.id`), at, at, n, worker, until, at)
		if err != nil {
			return err
		}
		var ids []any
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		rows, err = tx.QueryContext(ctx, s.d.q(`SELECT `+changeColumns+`, `+deliveryColumns+`, w.url, w.secret
    FROM deliveries d JOIN changes c ON c.seq = d.change_seq JOIN watches w ON w.id = d.watch_id
    WHERE d.id IN (`+placeholders(len(ids))+`) ORDER BY d.next_attempt_at, d.change_seq, d.id`), ids...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var cl changes.Claim
			var secret []byte
			dd := deliveryDest{}
			c, err := scanChange(rows, dd.prepend(&cl.URL, &secret)...)
			if err != nil {
				return err
			}
			cl.Delivery, cl.Change, cl.Secret = dd.delivery(), c, secret
			out = append(out, cl)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap("claim deliveries", err)
	}
	return out, nil
}

// RecordAttempt records the outcome of one attempt of a delivery, on the
// delivery and as its watch's last attempt (rewritten at most once a
// second while the outcome stays the same), and ends its claim: succeeded; pending again at a.RetryAt; or failed for good,
// which with a.Disable disables the watch too (with a.Reason, at a.At;
// a watch disabled already keeps its first reason). a.At zero is the
// store's clock. An unknown delivery is changes.ErrNotFound.
func (s *Store) RecordAttempt(ctx context.Context, deliveryID string, a changes.Attempt) error {
	if err := checkText("error", a.Error, "reason", a.Reason); err != nil {
		return err
	}
	at := a.At
	if at.IsZero() {
		at = s.now()
	}
	status := changes.DeliveryFailed
	var next sql.NullInt64
	switch {
	case a.Succeeded:
		status = changes.DeliverySucceeded
	case a.RetryAt != nil:
		status = changes.DeliveryPending
		next = nullMicros(a.RetryAt)
	}
	code := sql.NullInt64{Int64: int64(a.StatusCode), Valid: a.StatusCode != 0}
	disable := status == changes.DeliveryFailed && a.Disable
	record := func(tx querier) error {
		var watchID string
		err := tx.QueryRowContext(ctx, s.d.q(`UPDATE deliveries SET status = ?, attempts = attempts + 1,
    next_attempt_at = ?, last_attempt_at = ?, last_status_code = ?, last_error = ?,
    claimed_by = NULL, claimed_until = NULL
    WHERE id = ? RETURNING watch_id`), string(status), next, micros(at), code, emptyNull(a.Error), deliveryID).Scan(&watchID)
		if errors.Is(err, sql.ErrNoRows) {
			return changes.ErrNotFound
		}
		if err != nil {
			return err
		}
		// The watch shows its endpoint's last answer (an attempt recorded
		// late, after a newer one, does not replace it). While the answer
		// stays the same the row is written at most once a second, so that
		// the deliveries of one busy watch do not queue on its row.
		if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE watches SET last_attempt_at = ?, last_status_code = ?, last_error = ?
    WHERE id = ? AND (last_attempt_at IS NULL OR last_attempt_at <= ? AND (last_attempt_at <= ?
      OR last_status_code IS DISTINCT FROM ? OR last_error IS DISTINCT FROM ?))`),
			micros(at), code, emptyNull(a.Error), watchID, micros(at), micros(at.Add(-time.Second)), code, emptyNull(a.Error)); err != nil {
			return err
		}
		if disable {
			_, err = tx.ExecContext(ctx, s.d.q(`UPDATE watches SET disabled_at = ?, disabled_reason = ?
    WHERE id = ? AND disabled_at IS NULL`), micros(at), emptyNull(a.Reason), watchID)
		}
		return err
	}
	// The delivery and its watch's last attempt are two statements; only
	// a failure that disables the watch needs them in one transaction (the
	// last attempt is a report, and the common case saves two round
	// trips).
	var err error
	if disable {
		err = s.write(ctx, func(tx *sql.Tx) error { return record(tx) })
	} else {
		err = record(s.w)
	}
	return wrap("record attempt", err)
}

// Deliveries lists the deliveries of the owner's watch, newest first, at
// most limit; another owner's watch is changes.ErrNotFound.
func (s *Store) Deliveries(ctx context.Context, owner, watchID string, limit int) ([]changes.Delivery, error) {
	if limit < 1 {
		return nil, errors.New("changes/sqlstore: deliveries: the limit must be at least 1")
	}
	var out []changes.Delivery
	err := s.read(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, s.d.q("SELECT 1 FROM watches WHERE id = ? AND owner = ?"), watchID, owner).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return changes.ErrNotFound
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT `+deliveryColumns+` FROM deliveries d
    JOIN changes c ON c.seq = d.change_seq WHERE d.watch_id = ? ORDER BY d.created_at DESC, d.change_seq DESC, d.id DESC LIMIT ?`), watchID, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			dd := deliveryDest{}
			if err := rows.Scan(dd.prepend()...); err != nil {
				return err
			}
			out = append(out, dd.delivery())
		}
		return rows.Err()
	})
	return out, wrap("deliveries", err)
}

// Redeliver queues the owner's delivery again, due now (the store's
// clock), whatever its status; its change and so its webhook-id stay the
// same. A delivery claimed at the moment keeps its claim, so the worker
// sending it is not doubled.
func (s *Store) Redeliver(ctx context.Context, owner, watchID, deliveryID string) (changes.Delivery, error) {
	var out changes.Delivery
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := found(tx.ExecContext(ctx, s.d.q(`UPDATE deliveries SET status = 'pending', next_attempt_at = ?
    WHERE id = ? AND watch_id = ? AND watch_id IN (SELECT id FROM watches WHERE owner = ?)`),
			micros(s.now()), deliveryID, watchID, owner)); err != nil {
			return err
		}
		dd := deliveryDest{}
		if err := tx.QueryRowContext(ctx, s.d.q(`SELECT `+deliveryColumns+` FROM deliveries d
    JOIN changes c ON c.seq = d.change_seq WHERE d.id = ?`), deliveryID).Scan(dd.prepend()...); err != nil {
			return err
		}
		out = dd.delivery()
		return nil
	})
	return out, wrap("redeliver", err)
}

const deliveryColumns = `d.id, d.watch_id, c.id, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at,
    d.last_status_code, d.last_error, d.created_at`

// deliveryDest holds the scan targets of deliveryColumns.
type deliveryDest struct {
	d                changes.Delivery
	status           string
	next, last, code sql.NullInt64
	lastErr          sql.NullString
	created          int64
}

// prepend returns the targets of deliveryColumns followed by more.
func (x *deliveryDest) prepend(more ...any) []any {
	return append([]any{&x.d.ID, &x.d.WatchID, &x.d.ChangeID, &x.status, &x.d.Attempts, &x.next, &x.last,
		&x.code, &x.lastErr, &x.created}, more...)
}

func (x *deliveryDest) delivery() changes.Delivery {
	d := x.d
	d.Status = changes.DeliveryStatus(x.status)
	d.NextAttemptAt, d.LastAttemptAt = timePtr(x.next), timePtr(x.last)
	if x.code.Valid {
		c := int(x.code.Int64)
		d.LastStatusCode = &c
	}
	d.LastError = stringPtr(x.lastErr)
	d.CreatedAt = fromMicros(x.created)
	return d
}

// AcquireLease takes the named lease for holder until now+ttl when it is
// free, expired or already holder's (a renewal), in one atomic statement,
// and reports whether holder has it.
func (s *Store) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if name == "" || holder == "" || ttl <= 0 {
		return false, errors.New("changes/sqlstore: acquire lease: needs a name, a holder and a positive ttl")
	}
	if err := checkText("lease name", name, "lease holder", holder); err != nil {
		return false, err
	}
	var got bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
    WHERE leases.holder = excluded.holder OR leases.expires_at <= ?
    RETURNING holder`), name, holder, micros(now.Add(ttl)), micros(now))
		if err != nil {
			return err
		}
		got = rows.Next()
		return rows.Close()
	})
	if err != nil {
		return false, wrap("acquire lease", err)
	}
	return got, nil
}

// ReleaseLease gives the lease up if holder has it.
func (s *Store) ReleaseLease(ctx context.Context, name, holder string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q("DELETE FROM leases WHERE name = ? AND holder = ?"), name, holder)
		return err
	})
	return wrap("release lease", err)
}
