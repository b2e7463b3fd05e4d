package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/companyregistry/registry/changes"
)

// ClaimDeliveries takes at most n pending deliveries due at now (first
// each watch's fair share, changes.FairSharePerWatch in flight, then the
// oldest due of any watch; see chooseDue) for worker until now+lease and
// returns them with their change, URL and keys (the secret, and the
// previous ones of rotations with their ends). A delivery taken by another worker whose lease
// has not ended is not taken; one whose lease ended (the worker died) is,
// and is sent again with the same webhook-id: that attempt is also the
// redelivery asked for during the ended claim, if any (Redeliver), so
// recording it does not make the delivery pending again. Deliveries of disabled
// watches wait. On PostgreSQL the rows are chosen with FOR UPDATE SKIP
// LOCKED, so concurrent claimers, in this process or another replica,
// never wait for each other nor take the same row; on SQLite the single
// writer claims one batch at a time.
func (s *Store) ClaimDeliveries(ctx context.Context, worker string, now time.Time, n int, lease time.Duration) ([]changes.Claim, error) {
	if worker == "" || n < 1 || lease <= 0 {
		return nil, errors.New("changes/sqlstore: claim deliveries: needs a worker name, n ≥ 1 and a positive lease")
	}
	if err := checkText("worker", worker); err != nil {
		return nil, err
	}
	at, until := micros(now), micros(now.Add(lease))
	// A dispatcher polls several times a second; most polls find nothing.
	// One read on the readers' pool says so, without the write
	// transaction that a claim takes (SQLite's single writer, a
	// PostgreSQL UPDATE) and without its statements.
	if some, err := s.anyDue(ctx, at); err != nil {
		return nil, wrap("claim deliveries", err)
	} else if !some {
		return nil, nil
	}
	var out []changes.Claim
	err := s.write(ctx, func(tx *sql.Tx) error {
		out = nil
		var rows *sql.Rows
		if s.d.pg {
			// One statement: chosen, locked and taken.
			var err error
			if rows, err = tx.QueryContext(ctx, s.d.q(pgClaim), at, at, at, changes.FairSharePerWatch, changes.FairSharePerWatch, n,
				at, at, n, n, worker, until, at); err != nil {
				return err
			}
		} else {
			chosen, err := s.chooseDue(ctx, tx, at, n)
			if err != nil || len(chosen) == 0 {
				return err
			}
			// Taken by one UPDATE that checks again that each is still free.
			args := append([]any{worker, until}, chosen...)
			args = append(args, at)
			if rows, err = tx.QueryContext(ctx, s.d.q(`UPDATE deliveries SET claimed_by = ?, claimed_until = ?, redeliver_at = NULL
    WHERE id IN (`+placeholders(len(chosen))+`)
      AND status = 'pending' AND (claimed_until IS NULL OR claimed_until <= ?)
    RETURNING id`), args...); err != nil {
				return err
			}
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
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT `+changeColumns+`, `+deliveryColumns+`, w.url, `+watchKeyColumns+`
    FROM deliveries d JOIN changes c ON c.seq = d.change_seq JOIN watches w ON w.id = d.watch_id
    WHERE d.id IN (`+placeholders(len(ids))+`) ORDER BY d.next_attempt_at, d.change_seq, d.id`), ids...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var cl changes.Claim
			var k keyDest
			dd := deliveryDest{}
			c, err := scanChange(rows, dd.prepend(append([]any{&cl.URL}, k.dest()...)...)...)
			if err != nil {
				return err
			}
			cl.Delivery, cl.Change, cl.Secret, cl.Previous = dd.delivery(), c, k.current, k.previous()
			out = append(out, cl)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap("claim deliveries", err)
	}
	return out, nil
}

// anyDueQuery finds a delivery that a claim at ? could take: pending,
// due, not held by a lease that has not ended, of an enabled watch. Every
// delivery that chooseDue and pgClaim choose is one; none is taken
// without one.
const anyDueQuery = `SELECT 1 FROM deliveries d JOIN watches w ON w.id = d.watch_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
      AND w.disabled_at IS NULL LIMIT 1`

// anyDue reports whether a claim at at would find a delivery to take. It
// reads committed data on the readers' pool: a delivery committed before
// the call is seen; the claim's own transaction checks each row again.
func (s *Store) anyDue(ctx context.Context, at int64) (bool, error) {
	s.dueMu.Lock()
	st := s.due
	s.dueMu.Unlock()
	if st == nil {
		// Prepared outside the lock, so that Close never waits for a
		// connection this claim waits for; of two claims that prepare at
		// once, the first keeps its statement and the other closes its own.
		prepared, err := s.r.PrepareContext(ctx, s.d.q(anyDueQuery))
		if err != nil {
			return false, err
		}
		s.dueMu.Lock()
		if s.due == nil {
			s.due = prepared
		} else {
			_ = prepared.Close()
		}
		st = s.due
		s.dueMu.Unlock()
	}
	var one int
	switch err := st.QueryRowContext(ctx, at, at).Scan(&one); {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// postgresSkipLocked is the claim's row lock on PostgreSQL: a replica
// never waits for, nor takes, a row another is claiming. SQLite, whose
// single writer claims one batch at a time, needs none.
const postgresSkipLocked = " FOR UPDATE OF d SKIP LOCKED"

// pgClaim chooses, locks (SKIP LOCKED: a concurrent claimer, in this
// process or another replica, takes others) and takes the deliveries of
// a claim on PostgreSQL in one statement, as chooseDue does on SQLite:
// the watches with pending deliveries by a loose index scan (ws), each
// one's deliveries in flight (busy), the oldest due of each up to its
// fair share (fair, LATERAL), the oldest due of any watch (rest), the
// fair ones first. Parameters: at (busy), at, at, share, share, n
// (fair), at, at, n (rest), n (cand), worker, until, at.
const pgClaim = `WITH RECURSIVE ws(w) AS (
    SELECT MIN(watch_id) FROM deliveries WHERE status = 'pending'
    UNION ALL
    SELECT (SELECT MIN(watch_id) FROM deliveries WHERE status = 'pending' AND watch_id > ws.w) FROM ws WHERE ws.w IS NOT NULL
), busy AS (
    SELECT watch_id, COUNT(*) AS c FROM deliveries
    WHERE claimed_until IS NOT NULL AND claimed_until > ? AND status = 'pending' GROUP BY watch_id
), fair AS (
    SELECT x.id, x.next_attempt_at, x.change_seq FROM ws JOIN watches w ON w.id = ws.w AND w.disabled_at IS NULL
    LEFT JOIN busy b ON b.watch_id = ws.w
    CROSS JOIN LATERAL (SELECT y.id, y.next_attempt_at, y.change_seq,
            ROW_NUMBER() OVER (ORDER BY y.next_attempt_at, y.change_seq, y.id) AS r
        FROM (SELECT z.id, z.next_attempt_at, z.change_seq FROM deliveries z
            WHERE z.watch_id = ws.w AND z.status = 'pending' AND z.next_attempt_at <= ?
              AND (z.claimed_until IS NULL OR z.claimed_until <= ?)
            ORDER BY z.next_attempt_at, z.change_seq, z.id LIMIT ?) y) x
    WHERE x.r + COALESCE(b.c, 0) <= ?
    ORDER BY x.next_attempt_at, x.change_seq, x.id LIMIT ?
), rest AS (
    SELECT d.id, d.next_attempt_at, d.change_seq FROM deliveries d JOIN watches w ON w.id = d.watch_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
      AND w.disabled_at IS NULL AND d.id NOT IN (SELECT id FROM fair)
    ORDER BY d.next_attempt_at, d.change_seq, d.id LIMIT ?
), cand AS MATERIALIZED (
    SELECT id FROM (SELECT id, next_attempt_at, change_seq, 0 AS pass FROM fair
        UNION ALL SELECT id, next_attempt_at, change_seq, 1 FROM rest) u
    ORDER BY pass, next_attempt_at, change_seq, id LIMIT ?
), locked AS MATERIALIZED (
    SELECT d.id FROM deliveries d WHERE d.id IN (SELECT id FROM cand)` + postgresSkipLocked + `
)
UPDATE deliveries SET claimed_by = ?, claimed_until = ?, redeliver_at = NULL
    FROM locked WHERE deliveries.id = locked.id
      AND deliveries.status = 'pending' AND (deliveries.claimed_until IS NULL OR deliveries.claimed_until <= ?)
    RETURNING deliveries.id`

// chooseDue returns the ids of at most n deliveries due at at: first the
// fair shares, of each watch the oldest due up to changes.FairSharePerWatch
// in flight (claimed, lease not ended), oldest due first (then in feed
// order); then, with room left, the oldest due of any watch. For the fair
// shares it reads the watches with pending deliveries by a loose scan of
// deliveries_pending_watch (one index probe per watch), then the oldest
// due of each, so that one watch's backlog is never read whole. SQLite
// only (in process, with one small query per watch); PostgreSQL does the
// same in one statement, pgClaim.
func (s *Store) chooseDue(ctx context.Context, tx *sql.Tx, at int64, n int) ([]any, error) {
	room := map[string]int{}
	inFlight := map[string]int{}
	rows, err := tx.QueryContext(ctx, s.d.q(`SELECT watch_id, COUNT(*) FROM deliveries
    WHERE claimed_until IS NOT NULL AND claimed_until > ? AND status = 'pending' GROUP BY watch_id`), at)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var w string
		var c int
		if err := rows.Scan(&w, &c); err != nil {
			rows.Close()
			return nil, err
		}
		inFlight[w] = c
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	const watchesWithPending = `WITH RECURSIVE ws(w) AS (
    SELECT MIN(watch_id) FROM deliveries WHERE status = 'pending'
    UNION ALL
    SELECT (SELECT MIN(watch_id) FROM deliveries WHERE status = 'pending' AND watch_id > ws.w) FROM ws WHERE ws.w IS NOT NULL
)`
	const due = ` x.status = 'pending' AND x.next_attempt_at <= ? AND (x.claimed_until IS NULL OR x.claimed_until <= ?)
    ORDER BY x.next_attempt_at, x.change_seq, x.id LIMIT ?`
	type cand struct {
		id, watch string
		next, seq int64
	}
	var cands []cand
	scan := func(rows *sql.Rows) error {
		defer rows.Close()
		for rows.Next() {
			var c cand
			if err := rows.Scan(&c.id, &c.watch, &c.next, &c.seq); err != nil {
				return err
			}
			cands = append(cands, c)
		}
		return rows.Err()
	}
	rows, err = tx.QueryContext(ctx, watchesWithPending+`
SELECT ws.w FROM ws JOIN watches w ON w.id = ws.w AND w.disabled_at IS NULL`)
	if err != nil {
		return nil, err
	}
	var ws []string
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			rows.Close()
			return nil, err
		}
		ws = append(ws, w)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	for _, w := range ws {
		k := changes.FairSharePerWatch - inFlight[w]
		if k <= 0 {
			continue
		}
		rows, err := tx.QueryContext(ctx, `SELECT x.id, x.watch_id, x.next_attempt_at, x.change_seq FROM deliveries x
    WHERE x.watch_id = ? AND`+due, w, at, at, k)
		if err != nil {
			return nil, err
		}
		if err := scan(rows); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.next, b.next), cmp.Compare(a.seq, b.seq), strings.Compare(a.id, b.id))
	})
	var chosen []any
	for _, c := range cands {
		if len(chosen) == n {
			break
		}
		if _, ok := room[c.watch]; !ok {
			room[c.watch] = changes.FairSharePerWatch - inFlight[c.watch]
		}
		if room[c.watch] <= 0 {
			continue
		}
		room[c.watch]--
		chosen = append(chosen, c.id)
	}
	if len(chosen) < n {
		// The rest: the oldest due, whatever their watch.
		q := `SELECT d.id FROM deliveries d JOIN watches w ON w.id = d.watch_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ?
      AND (d.claimed_until IS NULL OR d.claimed_until <= ?) AND w.disabled_at IS NULL`
		args := []any{at, at}
		if len(chosen) > 0 {
			q += ` AND d.id NOT IN (` + placeholders(len(chosen)) + `)`
			args = append(args, chosen...)
		}
		args = append(args, n-len(chosen))
		rows, err := tx.QueryContext(ctx, s.d.q(q+` ORDER BY d.next_attempt_at, d.change_seq, d.id LIMIT ?`), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			chosen = append(chosen, id)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return chosen, nil
}

// RecordAttempt records the outcome of one attempt of a delivery, on the
// delivery and as its watch's last attempt (rewritten at most once a
// second while the outcome stays the same), and ends its claim: succeeded; pending again at a.RetryAt; or failed for good,
// which with a.Disable disables the watch too (with a.Reason, at a.At;
// a watch disabled already keeps its first reason). A redelivery asked
// for during the attempt leaves the delivery pending, due when it was
// asked for. a.At zero is the store's clock. An unknown delivery is
// changes.ErrNotFound; with a.Worker set, a delivery that worker no
// longer holds is changes.ErrClaimLost and nothing is recorded.
//
// An attempt that disables the watch is one transaction, which on
// PostgreSQL locks the watch's row before the delivery's, as DeleteWatch
// does (its cascade deletes the deliveries after the watch's row): a
// DeleteWatch in flight is waited for, and the delivery is then not
// found. Any other attempt writes the delivery and the watch in one
// statement each, holding no row while it waits for another.
func (s *Store) RecordAttempt(ctx context.Context, deliveryID string, a changes.Attempt) error {
	if !isText(deliveryID) {
		return changes.ErrNotFound
	}
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
		if disable && s.d.pg {
			// The watch's row before the delivery's, in DeleteWatch's
			// order (the watch's row, then its cascade's rows): holding
			// the delivery's row while waiting for the watch's, this
			// transaction and a DeleteWatch of the watch would each wait
			// for the other. No row (the delivery, or its watch, gone):
			// the update below finds none.
			var id string
			if err := tx.QueryRowContext(ctx, `SELECT w.id FROM deliveries d JOIN watches w ON w.id = d.watch_id
    WHERE d.id = $1 FOR NO KEY UPDATE OF w`, deliveryID).Scan(&id); err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		var watchID string
		// A redelivery asked for during the attempt (redeliver_at) wins
		// over the outcome: pending again, due when it was asked for.
		q := `UPDATE deliveries SET
    status = CASE WHEN redeliver_at IS NULL THEN ? ELSE 'pending' END,
    next_attempt_at = CASE WHEN redeliver_at IS NULL THEN ? ELSE redeliver_at END,
    attempts = attempts + 1, last_attempt_at = ?, last_status_code = ?, last_error = ?,
    claimed_by = NULL, claimed_until = NULL, redeliver_at = NULL
    WHERE id = ?`
		args := []any{string(status), next, micros(at), code, emptyNull(a.Error), deliveryID}
		if a.Worker != "" {
			q += ` AND claimed_by = ?`
			args = append(args, a.Worker)
		}
		err := tx.QueryRowContext(ctx, s.d.q(q+` RETURNING watch_id`), args...).Scan(&watchID)
		if errors.Is(err, sql.ErrNoRows) {
			var one int
			if a.Worker != "" && tx.QueryRowContext(ctx, s.d.q("SELECT 1 FROM deliveries WHERE id = ?"), deliveryID).Scan(&one) == nil {
				return changes.ErrClaimLost
			}
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
	if !isText(owner, watchID) {
		return nil, changes.ErrNotFound
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
// sending it is not doubled, and the redelivery is remembered
// (redeliver_at) so that recording that attempt leaves it pending. So is
// one whose claim ran out unrecorded (the worker may still record late,
// which must not overwrite the redelivery); the next claim takes it.
func (s *Store) Redeliver(ctx context.Context, owner, watchID, deliveryID string) (changes.Delivery, error) {
	if !isText(owner, watchID, deliveryID) {
		return changes.Delivery{}, changes.ErrNotFound
	}
	var out changes.Delivery
	err := s.write(ctx, func(tx *sql.Tx) error {
		now := micros(s.now())
		if err := found(tx.ExecContext(ctx, s.d.q(`UPDATE deliveries SET status = 'pending', next_attempt_at = ?,
    redeliver_at = CASE WHEN claimed_by IS NOT NULL THEN CAST(? AS BIGINT) ELSE NULL END
    WHERE id = ? AND watch_id = ? AND watch_id IN (SELECT id FROM watches WHERE owner = ?)`),
			now, now, deliveryID, watchID, owner)); err != nil {
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
	if err := checkLease("acquire lease", name, holder, ttl); err != nil {
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

// RenewLease extends the named lease to now+ttl while holder holds it,
// run out or not, and reports whether it did; it never takes a free
// lease or another holder's (see [changes.Store.RenewLease]).
func (s *Store) RenewLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if err := checkLease("renew lease", name, holder, ttl); err != nil {
		return false, err
	}
	var got bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.q("UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?"),
			micros(now.Add(ttl)), name, holder)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		got = n > 0
		return err
	})
	if err != nil {
		return false, wrap("renew lease", err)
	}
	return got, nil
}

// checkLease refuses the arguments of a lease call (op) that no lease
// can have: an empty name or holder, a ttl not above 0, text the store
// does not keep.
func checkLease(op, name, holder string, ttl time.Duration) error {
	if name == "" || holder == "" || ttl <= 0 {
		return errors.New("changes/sqlstore: " + op + ": needs a name, a holder and a positive ttl")
	}
	return checkText("lease name", name, "lease holder", holder)
}

// ReleaseLease gives the lease up if holder has it.
func (s *Store) ReleaseLease(ctx context.Context, name, holder string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q("DELETE FROM leases WHERE name = ? AND holder = ?"), name, holder)
		return err
	})
	return wrap("release lease", err)
}
