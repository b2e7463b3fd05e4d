package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/companyregistry/registry/changes"
)

// CreateWatch stores w with its signing secret and baselines in one
// transaction. A baseline is stored where its company has no snapshot or
// has one no watch holds (stale: it replaces it); a company another watch
// holds keeps its snapshot (see storeBaselines for how replicas agree).
// Repeated ids are kept once, in the order first given.
func (s *Store) CreateWatch(ctx context.Context, w changes.Watch, secret []byte, baselines []changes.Snapshot) error {
	if w.ID == "" || w.Owner == "" || w.Country == "" {
		return errors.New("changes/sqlstore: create watch: the watch needs an ID, an Owner and a Country")
	}
	if err := checkWatch(w); err != nil {
		return err
	}
	if err := checkSnapshots(baselines); err != nil {
		return err
	}
	kinds, err := encodeKinds(w.Kinds)
	if err != nil {
		return err
	}
	if secret == nil {
		secret = []byte{}
	}
	var disabledAt sql.NullInt64
	var reason sql.NullString
	if w.Disabled {
		at := w.CreatedAt
		if w.DisabledAt != nil {
			at = *w.DisabledAt
		}
		disabledAt = sql.NullInt64{Int64: micros(at), Valid: true}
		reason = nullString(w.DisabledReason)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO watches
    (id, owner, country, kinds, url, secret, created_at, disabled_at, disabled_reason)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			w.ID, w.Owner, w.Country, kinds, w.URL, secret, micros(w.CreatedAt), disabledAt, reason); err != nil {
			return err
		}
		if err := s.storeBaselines(ctx, tx, baselines); err != nil {
			return err
		}
		return s.addIDs(ctx, tx, w.ID, w.Country, 0, w.IDs)
	})
	return wrap("create watch", err)
}

// Watch returns the owner's watch, or changes.ErrNotFound.
func (s *Store) Watch(ctx context.Context, owner, id string) (changes.Watch, error) {
	if !isText(owner, id) {
		return changes.Watch{}, changes.ErrNotFound
	}
	var w changes.Watch
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		w, err = s.loadWatch(ctx, tx, owner, id)
		return err
	})
	return w, wrap("watch", err)
}

// Watches lists the owner's watches, oldest first.
func (s *Store) Watches(ctx context.Context, owner string) ([]changes.Watch, error) {
	var out []changes.Watch
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT `+watchColumns+` FROM watches
    WHERE owner = ? ORDER BY created_at, id`), owner)
		if err != nil {
			return err
		}
		byID := map[string]int{}
		for rows.Next() {
			w, err := scanWatch(rows)
			if err != nil {
				rows.Close()
				return err
			}
			byID[w.ID] = len(out)
			out = append(out, w)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, s.d.q(`SELECT wc.watch_id, wc.company_id FROM watch_companies wc
    JOIN watches w ON w.id = wc.watch_id WHERE w.owner = ? ORDER BY wc.watch_id, wc.pos`), owner)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var wid, cid string
			if err := rows.Scan(&wid, &cid); err != nil {
				return err
			}
			if i, ok := byID[wid]; ok {
				out[i].IDs = append(out[i].IDs, cid)
			}
		}
		return rows.Err()
	})
	return out, wrap("watches", err)
}

// UpdateWatch applies u to the owner's watch in one transaction and
// returns the result. Removed ids go before added ones, so an id in both
// lists stays watched; an added id already watched keeps its place. The
// baselines are stored as CreateWatch stores them, judged before the
// watch's companies change (a company this watch held keeps its snapshot).
// On PostgreSQL an update that writes companies or baselines takes ROW
// EXCLUSIVE on watch_companies before the watch's row, as DeleteWatch
// does.
func (s *Store) UpdateWatch(ctx context.Context, owner, id string, u changes.WatchUpdate, baselines []changes.Snapshot) (changes.Watch, error) {
	if !isText(owner, id) {
		return changes.Watch{}, changes.ErrNotFound
	}
	if err := checkText("url", derefString(u.URL)); err != nil {
		return changes.Watch{}, err
	}
	for _, x := range u.AddIDs {
		if err := checkText("company id", x); err != nil {
			return changes.Watch{}, err
		}
	}
	if err := checkSnapshots(baselines); err != nil {
		return changes.Watch{}, err
	}
	set := "owner = owner"
	var args []any
	if u.Kinds != nil {
		kinds, err := encodeKinds(*u.Kinds)
		if err != nil {
			return changes.Watch{}, err
		}
		set += ", kinds = ?"
		args = append(args, kinds)
	}
	if u.URL != nil {
		set += ", url = ?"
		args = append(args, *u.URL)
	}
	if u.Enable || u.URL != nil {
		set += ", disabled_at = NULL, disabled_reason = NULL"
	}
	var w changes.Watch
	err := s.write(ctx, func(tx *sql.Tx) error {
		if s.d.pg && (len(u.AddIDs) > 0 || len(u.RemoveIDs) > 0 || len(baselines) > 0) {
			// The table lock the companies' or the baselines' writes take,
			// before the watch's row, as DeleteWatch takes it: holding the
			// row while queued for the table lock behind a Prune's SHARE,
			// which waits for a DeleteWatch's ROW EXCLUSIVE, would close a
			// wait cycle with that DeleteWatch, waiting for the row.
			if err := lockWatchCompanies(ctx, tx); err != nil {
				return err
			}
		}
		// The update takes the watch's row lock (PostgreSQL) before the
		// ids change, so concurrent updates of one watch queue.
		if err := found(tx.ExecContext(ctx, s.d.q("UPDATE watches SET "+set+" WHERE id = ? AND owner = ?"), append(args, id, owner)...)); err != nil {
			return err
		}
		var country string
		var next int
		if err := tx.QueryRowContext(ctx, s.d.q(`SELECT w.country, COALESCE(MAX(wc.pos) + 1, 0) FROM watches w
    LEFT JOIN watch_companies wc ON wc.watch_id = w.id WHERE w.id = ? GROUP BY w.country`), id).Scan(&country, &next); err != nil {
			return err
		}
		if err := s.storeBaselines(ctx, tx, baselines); err != nil {
			return err
		}
		for ids := u.RemoveIDs; len(ids) > 0; {
			n := min(len(ids), 500)
			args := []any{id}
			for _, x := range ids[:n] {
				args = append(args, x)
			}
			if _, err := tx.ExecContext(ctx, s.d.q("DELETE FROM watch_companies WHERE watch_id = ? AND company_id IN ("+placeholders(n)+")"), args...); err != nil {
				return err
			}
			ids = ids[n:]
		}
		if err := s.addIDs(ctx, tx, id, country, next, u.AddIDs); err != nil {
			return err
		}
		var err error
		w, err = s.loadWatch(ctx, tx, owner, id)
		return err
	})
	return w, wrap("update watch", err)
}

// DeleteWatch removes the owner's watch, its companies and its deliveries
// (the changes already in the owner's feed stay there until pruned).
func (s *Store) DeleteWatch(ctx context.Context, owner, id string) error {
	if !isText(owner, id) {
		return changes.ErrNotFound
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if s.d.pg {
			// The table lock its cascade takes, before the watch's
			// row, as CreateWatch takes it before any row.
			if err := lockWatchCompanies(ctx, tx); err != nil {
				return err
			}
		}
		return found(tx.ExecContext(ctx, s.d.q("DELETE FROM watches WHERE id = ? AND owner = ?"), id, owner))
	})
	return wrap("delete watch", err)
}

// CountWatches returns how many watches the owner has.
func (s *Store) CountWatches(ctx context.Context, owner string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, s.d.q("SELECT COUNT(*) FROM watches WHERE owner = ?"), owner).Scan(&n)
	return n, wrap("count watches", err)
}

// WatchSecret returns the signing key stored with the owner's watch; an
// unknown watch, or another owner's, is changes.ErrNotFound.
func (s *Store) WatchSecret(ctx context.Context, owner, id string) ([]byte, error) {
	if !isText(owner, id) {
		return nil, changes.ErrNotFound
	}
	var secret []byte
	err := s.r.QueryRowContext(ctx, s.d.q("SELECT secret FROM watches WHERE owner = ? AND id = ?"), owner, id).Scan(&secret)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, changes.ErrNotFound
	}
	return secret, wrap("watch secret", err)
}

// WatchedIDs returns the ids of the country's companies in any watch,
// enabled or not (an index scan).
func (s *Store) WatchedIDs(ctx context.Context, country string) (map[string]struct{}, error) {
	rows, err := s.r.QueryContext(ctx, s.d.q("SELECT DISTINCT company_id FROM watch_companies WHERE country = ?"), country)
	if err != nil {
		return nil, wrap("watched ids", err)
	}
	defer rows.Close()
	out := map[string]struct{}{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("watched ids", err)
		}
		out[id] = struct{}{}
	}
	return out, wrap("watched ids", rows.Err())
}

// maxInList bounds the values of one IN list (SQLite allows 32,766
// parameters, PostgreSQL 65,535).
const maxInList = 500

// WatchedAmong returns those of ids that any watch holds, enabled or not
// (index lookups, in chunks of 500 ids).
func (s *Store) WatchedAmong(ctx context.Context, country string, ids []string) (map[string]struct{}, error) {
	out := map[string]struct{}{}
	for chunk := range slices.Chunk(ids, maxInList) {
		args := make([]any, 0, len(chunk)+1)
		args = append(args, country)
		for _, id := range chunk {
			args = append(args, id)
		}
		marks := strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",")
		rows, err := s.r.QueryContext(ctx, s.d.q("SELECT DISTINCT company_id FROM watch_companies WHERE country = ? AND company_id IN ("+marks+")"), args...)
		if err != nil {
			return nil, wrap("watched among", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, wrap("watched among", err)
			}
			out[id] = struct{}{}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, wrap("watched among", err)
		}
	}
	return out, nil
}

// OldestSnapshot returns the earliest taken_at of the snapshots of the
// watched companies of country (ok false when there is none); a snapshot
// without a time (the zero time) does not count.
func (s *Store) OldestSnapshot(ctx context.Context, country string) (time.Time, bool, error) {
	var taken sql.NullInt64
	err := s.r.QueryRowContext(ctx, s.d.q(`SELECT MIN(s.taken_at) FROM snapshots s
    WHERE s.country = ? AND s.taken_at > ?
    AND EXISTS (SELECT 1 FROM watch_companies w WHERE w.country = s.country AND w.company_id = s.company_id)`),
		country, micros(time.Time{})).Scan(&taken)
	if err != nil {
		return time.Time{}, false, wrap("oldest snapshot", err)
	}
	if !taken.Valid {
		return time.Time{}, false, nil
	}
	return fromMicros(taken.Int64), true, nil
}

// Snapshot returns the stored snapshot of a company, or
// changes.ErrNotFound.
func (s *Store) Snapshot(ctx context.Context, country, companyID string) (changes.Snapshot, error) {
	snap := changes.Snapshot{Country: country, CompanyID: companyID}
	var report, roles []byte
	var taken int64
	err := s.r.QueryRowContext(ctx, s.d.q(`SELECT report, roles, taken_at, misses, roles_misses FROM snapshots
    WHERE country = ? AND company_id = ?`), country, companyID).Scan(&report, &roles, &taken, &snap.Misses, &snap.RolesMisses)
	if errors.Is(err, sql.ErrNoRows) {
		return changes.Snapshot{}, changes.ErrNotFound
	}
	if err != nil {
		return changes.Snapshot{}, wrap("snapshot", err)
	}
	snap.Report, snap.Roles, snap.TakenAt = report, roles, fromMicros(taken)
	return snap, nil
}

const watchColumns = "id, owner, country, kinds, url, created_at, disabled_at, disabled_reason, last_attempt_at, last_status_code, last_error"

func scanWatch(row interface{ Scan(...any) error }) (changes.Watch, error) {
	var w changes.Watch
	var kinds string
	var created int64
	var disabledAt, lastAt, lastCode sql.NullInt64
	var reason, lastErr sql.NullString
	if err := row.Scan(&w.ID, &w.Owner, &w.Country, &kinds, &w.URL, &created, &disabledAt, &reason, &lastAt, &lastCode, &lastErr); err != nil {
		return w, err
	}
	w.LastAttemptAt, w.LastError = timePtr(lastAt), stringPtr(lastErr)
	if lastCode.Valid {
		code := int(lastCode.Int64)
		w.LastStatusCode = &code
	}
	if err := json.Unmarshal([]byte(kinds), &w.Kinds); err != nil {
		return w, fmt.Errorf("watch %s: stored kinds: %w", w.ID, err)
	}
	if w.Kinds == nil {
		w.Kinds = []changes.Kind{}
	}
	w.IDs = []string{}
	w.CreatedAt = fromMicros(created)
	w.Disabled = disabledAt.Valid
	w.DisabledAt = timePtr(disabledAt)
	w.DisabledReason = stringPtr(reason)
	return w, nil
}

// loadWatch reads the owner's watch with its ids.
func (s *Store) loadWatch(ctx context.Context, q querier, owner, id string) (changes.Watch, error) {
	w, err := scanWatch(q.QueryRowContext(ctx, s.d.q("SELECT "+watchColumns+" FROM watches WHERE id = ? AND owner = ?"), id, owner))
	if errors.Is(err, sql.ErrNoRows) {
		return w, changes.ErrNotFound
	}
	if err != nil {
		return w, err
	}
	rows, err := q.QueryContext(ctx, s.d.q("SELECT company_id FROM watch_companies WHERE watch_id = ? ORDER BY pos"), id)
	if err != nil {
		return w, err
	}
	defer rows.Close()
	for rows.Next() {
		var cid string
		if err := rows.Scan(&cid); err != nil {
			return w, err
		}
		w.IDs = append(w.IDs, cid)
	}
	return w, rows.Err()
}

// addIDs adds companies to a watch from position next on; ids already in
// it (or repeated) are skipped.
func (s *Store) addIDs(ctx context.Context, q querier, watchID, country string, next int, ids []string) error {
	seen := make(map[string]bool, len(ids))
	rows := make([][]any, 0, len(ids))
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		rows = append(rows, []any{watchID, country, id, next})
		next++
	}
	return s.insertRows(ctx, q, "INSERT INTO watch_companies (watch_id, country, company_id, pos)",
		"ON CONFLICT (watch_id, company_id) DO NOTHING", 4, rows)
}

// storeBaselines stores, inside a watch's CreateWatch or UpdateWatch
// transaction and before the watch's companies are written, each baseline
// (the first of a company) whose company has no snapshot, or has one that
// no watch holds: a stale snapshot, which no ingester keeps up to date,
// and which the baseline replaces. A company a watch holds keeps its
// snapshot.
//
// Two such transactions of one company on two replicas must not both judge
// its snapshot stale: the second would replace the first's baseline, kept
// up to date since the first committed, with a fetch that may be older or
// newer than a change recorded in between. On PostgreSQL (read committed)
// the snapshot rows of the baselines' companies are locked FOR UPDATE, in
// key order, before the holders are read by a later statement, which sees
// every transaction that held the lock before: a transaction that replaced
// or inserted a company's snapshot has committed its watch of it by then. A
// company with no snapshot has no row to lock; its INSERT … ON CONFLICT DO
// NOTHING waits for another transaction's uncommitted insert and then
// keeps it. The table lock ROW EXCLUSIVE on watch_companies (which the
// watch's own rows would take later) is taken first, so that Prune, which
// takes SHARE on it before it deletes snapshots, queues in the same order.
// On SQLite the write transaction is serial.
func (s *Store) storeBaselines(ctx context.Context, tx *sql.Tx, baselines []changes.Snapshot) error {
	if len(baselines) == 0 {
		return nil
	}
	first := make(map[[2]string]changes.Snapshot, len(baselines))
	var keys [][2]string
	for _, sn := range baselines {
		k := [2]string{sn.Country, sn.CompanyID}
		if _, ok := first[k]; !ok {
			first[k] = sn
			keys = append(keys, k)
		}
	}
	sortKeys(keys)
	lock := ""
	if s.d.pg {
		if err := lockWatchCompanies(ctx, tx); err != nil {
			return err
		}
		lock = " FOR UPDATE"
	}
	existing, err := s.companiesIn(ctx, tx, "SELECT company_id FROM snapshots WHERE country = ? AND company_id IN (%s) ORDER BY company_id"+lock, keys)
	if err != nil {
		return err
	}
	held, err := s.companiesIn(ctx, tx, "SELECT DISTINCT company_id FROM watch_companies WHERE country = ? AND company_id IN (%s)", keys)
	if err != nil {
		return err
	}
	var insert, replace [][]any
	for _, k := range keys {
		sn := first[k]
		row := []any{sn.Country, sn.CompanyID, blob(sn.Report), blob(sn.Roles), micros(sn.TakenAt), sn.Misses, sn.RolesMisses}
		switch {
		case !existing[k]:
			insert = append(insert, row)
		case !held[k]:
			replace = append(replace, row)
		}
	}
	const head = "INSERT INTO snapshots (country, company_id, report, roles, taken_at, misses, roles_misses)"
	if err := s.insertRows(ctx, tx, head, "ON CONFLICT (country, company_id) DO NOTHING", 7, insert); err != nil {
		return err
	}
	return s.insertRows(ctx, tx, head, `ON CONFLICT (country, company_id) DO UPDATE SET report = excluded.report, roles = excluded.roles,
    taken_at = excluded.taken_at, misses = excluded.misses, roles_misses = excluded.roles_misses`, 7, replace)
}

// companiesIn runs query (a country, then an IN list at %s) over keys
// (sorted by country), in chunks, and returns the companies it lists.
func (s *Store) companiesIn(ctx context.Context, tx *sql.Tx, query string, keys [][2]string) (map[[2]string]bool, error) {
	out := map[[2]string]bool{}
	for len(keys) > 0 {
		country := keys[0][0]
		n := 1
		for n < len(keys) && n < maxInList && keys[n][0] == country {
			n++
		}
		args := []any{country}
		for _, k := range keys[:n] {
			args = append(args, k[1])
		}
		ids, err := queryStrings(ctx, tx, s.d.q(fmt.Sprintf(query, placeholders(n))), args...)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			out[[2]string{country, id}] = true
		}
		keys = keys[n:]
	}
	return out, nil
}

// insertBaselines stores the snapshots of companies that have none (the
// first of a company in the list).
func (s *Store) insertBaselines(ctx context.Context, q querier, snaps []changes.Snapshot) error {
	first := make(map[[2]string]changes.Snapshot, len(snaps))
	var keys [][2]string
	for _, sn := range snaps {
		k := [2]string{sn.Country, sn.CompanyID}
		if _, ok := first[k]; !ok {
			first[k] = sn
			keys = append(keys, k)
		}
	}
	sortKeys(keys) // the order of every write's row locks
	rows := make([][]any, 0, len(keys))
	for _, k := range keys {
		sn := first[k]
		rows = append(rows, []any{sn.Country, sn.CompanyID, blob(sn.Report), blob(sn.Roles), micros(sn.TakenAt), sn.Misses, sn.RolesMisses})
	}
	return s.insertRows(ctx, q, "INSERT INTO snapshots (country, company_id, report, roles, taken_at, misses, roles_misses)",
		"ON CONFLICT (country, company_id) DO NOTHING", 7, rows)
}

func encodeKinds(kinds []changes.Kind) (string, error) {
	if kinds == nil {
		kinds = []changes.Kind{}
	}
	for _, k := range kinds {
		if err := checkText("kind", string(k)); err != nil {
			return "", err
		}
	}
	b, err := json.Marshal(kinds)
	return string(b), err
}

// includes reports whether a watch's stored kinds include k (an empty
// list is every kind).
func includes(kinds []changes.Kind, k changes.Kind) bool {
	if len(kinds) == 0 {
		return true
	}
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

func checkWatch(w changes.Watch) error {
	if err := checkText("watch id", w.ID, "owner", w.Owner, "country", w.Country, "url", w.URL); err != nil {
		return err
	}
	for _, id := range w.IDs {
		if err := checkText("company id", id); err != nil {
			return err
		}
	}
	return nil
}

func checkSnapshots(snaps []changes.Snapshot) error {
	for _, sn := range snaps {
		if sn.Country == "" || sn.CompanyID == "" {
			return errors.New("changes/sqlstore: a snapshot needs a Country and a CompanyID")
		}
		if err := checkText("snapshot country", sn.Country, "snapshot company id", sn.CompanyID); err != nil {
			return err
		}
	}
	return nil
}

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// lockWatchCompanies takes ROW EXCLUSIVE on watch_companies (PostgreSQL):
// the table lock that CreateWatch, UpdateWatch and DeleteWatch (its
// cascade) need, taken before any row of theirs, so that none of them
// holds a row while queued for it behind a Prune's SHARE (a wait cycle
// with a DeleteWatch holding the table lock and waiting for that row).
func lockWatchCompanies(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, "LOCK TABLE watch_companies IN ROW EXCLUSIVE MODE")
	return err
}
