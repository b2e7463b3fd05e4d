package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/companyregistry/registry/changes"
)

// Apply records what an ingester found, in one transaction: each change
// not recorded before (same Country, CompanyID, Kind and non-empty
// SourceEventID, in the store or earlier in the batch: skipped) gets the
// next feed position (Seq), an ID when it has none ("chg_" + a ULID) and
// a DetectedAt when it has none (the store's clock); it goes into the feed
// of every owner with a watch of the company whose kinds include its kind,
// and a pending delivery is queued for every such watch that is enabled
// (the outbox). The batch's snapshots replace the stored ones, its
// baselines are stored where a company has no snapshot (INSERT … ON
// CONFLICT DO NOTHING, after the snapshots), and its cursors are set. It
// returns the changes it recorded, in order.
//
// With b.Lease set, Apply first reads the lease's holder in the same
// transaction and writes nothing unless it is b.Lease.Holder
// ([changes.ErrLeaseLost]). On PostgreSQL it reads the lease row FOR
// SHARE: an AcquireLease or ReleaseLease of another replica waits for the
// Apply to commit, and an Apply that comes after one of them waits for it
// and reads the holder it wrote. On SQLite the write transaction is
// already serial.
//
// With b.Expect set, Apply then reads the stored snapshots of the
// companies named, in the same transaction (on PostgreSQL FOR UPDATE, in
// the order of their keys, as CreateWatch and UpdateWatch lock them), and
// writes nothing unless each is the one expected
// (a *[changes.SnapshotChangedError] otherwise). A company expected to
// have no snapshot has no row to lock: its snapshot is inserted only
// where there is none still (ON CONFLICT DO NOTHING, which waits for
// another transaction's uncommitted insert), and a row found there fails
// the Apply the same way.
//
// A change goes into an owner's feed, and a delivery is queued, only for
// a watch still stored when its row is locked (FOR KEY SHARE on
// PostgreSQL, after the feed insert): a DeleteWatch that committed after
// the watchers were read leaves its watch out (its owner's feed entry is
// deleted again unless another of the owner's watches that the Apply read
// as giving it is still stored, or one of the company and of a kind the
// change has was stored or widened since: an owner none of whose watches
// was deleted keeps entry and deliveries together), and one in flight waits for the Apply, whose deliveries
// it then deletes (a purging Apply locks every watch whose deliveries it
// deletes, and every watch of the purged companies, before it deletes
// them: lockForPurge). On SQLite the write transaction is serial: a
// DeleteWatch commits before the Apply begins or after it ends.
//
// On PostgreSQL, Apply holds the feed's counter row from numbering the
// first change to commit, so feed positions become visible in order and a
// reader never passes over one still being written.
func (s *Store) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	if err := checkBatch(b); err != nil {
		return nil, err
	}
	now := s.now()
	var out []changes.Change
	err := s.write(ctx, func(tx *sql.Tx) error {
		out = nil
		if err := s.checkFence(ctx, tx, b.Lease); err != nil {
			return err
		}
		absent, err := s.checkExpected(ctx, tx, b)
		if err != nil {
			return err
		}
		if err := s.purge(ctx, tx, b); err != nil {
			return err
		}
		if len(b.Changes) > 0 {
			var err error
			if out, err = s.recordChanges(ctx, tx, b.Changes, now); err != nil {
				return err
			}
		}
		if err := s.upsertSnapshots(ctx, tx, b.Snapshots, absent); err != nil {
			return err
		}
		if err := s.insertBaselines(ctx, tx, b.Baselines); err != nil {
			return err
		}
		return s.setCursors(ctx, tx, b.Cursors, now)
	})
	if err != nil {
		return nil, wrap("apply", err)
	}
	return out, nil
}

// checkFence returns [changes.ErrLeaseLost] unless f is nil or f.Holder
// holds the lease f.Name, locking the lease row on PostgreSQL until the
// transaction ends (FOR SHARE: Applies of one holder go on side by side,
// a change of the holder waits for them). Only the holder is compared:
// the expiry is a time of the callers' clocks.
func (s *Store) checkFence(ctx context.Context, tx *sql.Tx, f *changes.LeaseFence) error {
	if f == nil {
		return nil
	}
	query := "SELECT holder FROM leases WHERE name = ?"
	if s.d.pg {
		query += " FOR SHARE"
	}
	var holder string
	err := tx.QueryRowContext(ctx, s.d.q(query), f.Name).Scan(&holder)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return changes.ErrLeaseLost
	case err != nil:
		return err
	case holder != f.Holder:
		return changes.ErrLeaseLost
	}
	return nil
}

// purge deletes the changes of the batch's Purge companies, with their
// deliveries, but those the batch records again and the company's
// deletion itself (kind deleted, which must reach its watchers even when
// a later answer purges the company again); the changes it keeps lose
// the company's name. Their feed entries (a seq and an owner, no data)
// are left to Prune: the feed reads entries joined with their changes, so
// that they are never listed, and deleting them by seq would scan the
// feed table inside the write.
func (s *Store) purge(ctx context.Context, tx *sql.Tx, b changes.Batch) error {
	if err := s.lockForPurge(ctx, tx, b.Purge); err != nil {
		return err
	}
	for _, p := range b.Purge {
		cond := "country = ? AND company_id = ? AND kind <> ?"
		args := []any{p.Country, p.CompanyID, string(changes.KindDeleted)}
		var keep []any
		for _, c := range b.Changes {
			if c.Country == p.Country && c.CompanyID == p.CompanyID && c.SourceEventID != "" {
				keep = append(keep, c.SourceEventID)
			}
		}
		if len(keep) > 0 {
			cond += " AND (source_event_id IS NULL OR source_event_id NOT IN (" + placeholders(len(keep)) + "))"
			args = append(args, keep...)
		}
		rows, err := tx.QueryContext(ctx, s.d.q("SELECT seq FROM changes WHERE "+cond), args...)
		if err != nil {
			return err
		}
		var seqs []any
		for rows.Next() {
			var seq int64
			if err := rows.Scan(&seq); err != nil {
				rows.Close()
				return err
			}
			seqs = append(seqs, seq)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
		for chunk := range slices.Chunk(seqs, maxInList) {
			in := "(" + placeholders(len(chunk)) + ")"
			for _, stmt := range []string{
				"DELETE FROM deliveries WHERE change_seq IN " + in,
				"DELETE FROM changes WHERE seq IN " + in,
			} {
				if _, err := tx.ExecContext(ctx, s.d.q(stmt), chunk...); err != nil {
					return err
				}
			}
		}
		if _, err := tx.ExecContext(ctx, s.d.q("UPDATE changes SET company_name = NULL WHERE country = ? AND company_id = ? AND company_name IS NOT NULL"),
			p.Country, p.CompanyID); err != nil {
			return err
		}
	}
	return nil
}

// lockForPurge takes, on PostgreSQL and before a purge deletes any
// delivery, the locks the rest of the Apply would take after it: the
// feed's counter row (which Prune takes before it deletes deliveries) and,
// FOR KEY SHARE in id order, the rows of every watch that has a delivery
// of a purged company's change or holds such a company (a DeleteWatch
// locks its watch's row before its cascade deletes the watch's
// deliveries; a watch that no longer holds the company may still have
// some). So a purging Apply and such a Prune or DeleteWatch do not each
// hold a row the other waits for. The ids are read after the counter is
// held: only an Apply, which takes it too, queues new deliveries.
func (s *Store) lockForPurge(ctx context.Context, tx *sql.Tx, purge []changes.CompanyRef) error {
	if !s.d.pg || len(purge) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "SELECT last_seq FROM feed_state WHERE id = 1 FOR UPDATE"); err != nil {
		return err
	}
	var ids []string
	for _, p := range purge {
		got, err := queryStrings(ctx, tx, `SELECT d.watch_id FROM deliveries d JOIN changes c ON c.seq = d.change_seq
    WHERE c.country = $1 AND c.company_id = $2
    UNION SELECT wc.watch_id FROM watch_companies wc WHERE wc.country = $1 AND wc.company_id = $2`, p.Country, p.CompanyID)
		if err != nil {
			return err
		}
		ids = append(ids, got...)
	}
	_, err := s.lockWatches(ctx, tx, ids)
	return err
}

// watcher is a watch of a company, as fan-out needs it.
type watcher struct {
	id, owner string
	kinds     []changes.Kind
	enabled   bool
}

func (s *Store) recordChanges(ctx context.Context, tx *sql.Tx, list []changes.Change, now time.Time) ([]changes.Change, error) {
	var last int64
	// Taking the counter row's lock first serialises Apply on PostgreSQL.
	if err := tx.QueryRowContext(ctx, "UPDATE feed_state SET last_seq = last_seq WHERE id = 1 RETURNING last_seq").Scan(&last); err != nil {
		return nil, err
	}
	seen, err := s.recordedEvents(ctx, tx, list)
	if err != nil {
		return nil, err
	}
	var out []changes.Change
	for _, c := range list {
		if c.SourceEventID != "" {
			k := eventKey{c.Country, c.CompanyID, string(c.Kind), c.SourceEventID}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		last++
		c.Seq = last
		if c.ID == "" {
			id, err := s.newID(changes.PrefixChange, now)
			if err != nil {
				return nil, err
			}
			c.ID = id
		}
		if c.DetectedAt.IsZero() {
			c.DetectedAt = now
		}
		// Answer what is stored: times to the microsecond, in UTC.
		c.DetectedAt = fromMicros(micros(c.DetectedAt))
		if c.RegisteredAt != nil {
			c.RegisteredAt = timePtr(nullMicros(c.RegisteredAt))
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, nil
	}
	rows := make([][]any, len(out))
	for i, c := range out {
		rows[i] = []any{c.Seq, c.ID, c.Country, c.CompanyID, nullString(c.CompanyName), string(c.Kind),
			blob(c.Old), blob(c.New), nullMicros(c.RegisteredAt), micros(c.DetectedAt), nullString(c.SourceURL),
			emptyNull(c.SourceEventID)}
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO changes (seq, id, country, company_id, company_name, kind,
    old_value, new_value, registered_at, detected_at, source_url, source_event_id)`, "", 12, rows); err != nil {
		return nil, err
	}
	watchers, err := s.watchersOf(ctx, tx, out)
	if err != nil {
		return nil, err
	}
	var feed, deliveries [][]any
	var reached []string // every watch the changes reach (PostgreSQL: for stillStored)
	for _, c := range out {
		owners := map[string]bool{}
		for _, w := range watchers[[2]string{c.Country, c.CompanyID}] {
			if !includes(w.kinds, c.Kind) {
				continue // neither in this watch's share of the feed nor sent
			}
			if s.d.pg {
				reached = append(reached, w.id)
			}
			if !owners[w.owner] {
				owners[w.owner] = true
				feed = append(feed, []any{w.owner, c.Seq})
			}
			if w.enabled {
				id, err := s.newID(changes.PrefixDelivery, now)
				if err != nil {
					return nil, err
				}
				deliveries = append(deliveries, []any{id, w.id, c.Seq, string(changes.DeliveryPending), 0, micros(now), micros(now)})
			}
		}
	}
	if err := s.insertRows(ctx, tx, "INSERT INTO feed_entries (owner, seq)", "", 2, feed); err != nil {
		return nil, err
	}
	gone, err := s.stillStored(ctx, tx, reached)
	if err != nil {
		return nil, err
	}
	if len(gone) > 0 {
		// A watch the owner stored or widened since watchersOf's read (a
		// replacement of the one deleted) gives the entry too: read
		// again, after the lock (rev-feed13).
		after, err := s.watchersOf(ctx, tx, out)
		if err != nil {
			return nil, err
		}
		if err := s.dropFeedEntries(ctx, tx, feed, out, watchers, after, gone); err != nil {
			return nil, err
		}
		deliveries = slices.DeleteFunc(deliveries, func(d []any) bool { return gone[d[1].(string)] })
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO deliveries
    (id, watch_id, change_seq, status, attempts, next_attempt_at, created_at)`, "", 7, deliveries); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, s.d.q("UPDATE feed_state SET last_seq = ? WHERE id = 1"), last); err != nil {
		return nil, err
	}
	return out, nil
}

// stillStored locks, on PostgreSQL, the rows of the watches (ids, in any
// order, repeated or not) still stored FOR KEY SHARE, in the order of
// their ids, until the transaction ends, and returns the others (nil when
// every one is still stored): a watch that a DeleteWatch removed since
// watchersOf read it (its own statement, read committed) is left out, of
// its owner's feed (dropFeedEntries) and of the deliveries, rather than
// failing the Apply on the deliveries' foreign key or listing a change
// recorded after the watch was gone; a DeleteWatch that has not yet
// committed waits for the Apply (if it holds the watch's row, the lock
// waits for it and then finds the row gone). On SQLite the write
// transaction is serial: every watch read is still stored, and nothing is
// asked.
func (s *Store) stillStored(ctx context.Context, tx *sql.Tx, ids []string) (map[string]bool, error) {
	if !s.d.pg || len(ids) == 0 {
		return nil, nil
	}
	kept, err := s.lockWatches(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	var gone map[string]bool
	for _, id := range ids {
		if !kept[id] {
			if gone == nil {
				gone = map[string]bool{}
			}
			gone[id] = true
		}
	}
	return gone, nil
}

// dropFeedEntries deletes the entries of feed (rows of the feed insert:
// owner, seq) that no watch of the owner gives, neither one of before
// (watchersOf's read the entries came from) outside gone nor one of after
// (read after stillStored's lock): an owner whose every watch of the
// change's company, of a kind it asks for, was deleted while the Apply
// ran, and who stored no other since. An owner with no watch in gone
// keeps its entries as its deliveries are kept (rev-lead13).
func (s *Store) dropFeedEntries(ctx context.Context, tx *sql.Tx, feed [][]any, list []changes.Change, before, after map[[2]string][]watcher, gone map[string]bool) error {
	stay := map[[2]any]bool{}
	for _, c := range list {
		k := [2]string{c.Country, c.CompanyID}
		for _, w := range before[k] {
			if includes(w.kinds, c.Kind) && !gone[w.id] {
				stay[[2]any{w.owner, c.Seq}] = true
			}
		}
		for _, w := range after[k] {
			if includes(w.kinds, c.Kind) {
				stay[[2]any{w.owner, c.Seq}] = true
			}
		}
	}
	var drop []any
	for _, row := range feed {
		if !stay[[2]any{row[0], row[1]}] {
			drop = append(drop, row...)
		}
	}
	for chunk := range slices.Chunk(drop, 2*maxInList) {
		pairs := strings.TrimSuffix(strings.Repeat("(?, ?), ", len(chunk)/2), ", ")
		if _, err := tx.ExecContext(ctx, s.d.q("DELETE FROM feed_entries WHERE (owner, seq) IN ("+pairs+")"), chunk...); err != nil {
			return err
		}
	}
	return nil
}

// lockWatches returns those of ids that name a watch still stored, and on
// PostgreSQL locks their rows FOR KEY SHARE, in the order of their ids,
// until the transaction ends (SQLite's write transaction is serial: no
// lock is taken there).
func (s *Store) lockWatches(ctx context.Context, tx *sql.Tx, ids []string) (map[string]bool, error) {
	lock := ""
	if s.d.pg {
		lock = " FOR KEY SHARE"
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	kept := make(map[string]bool, len(ids))
	for chunk := range slices.Chunk(ids, maxInList) {
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		got, err := queryStrings(ctx, tx, s.d.q("SELECT id FROM watches WHERE id IN ("+placeholders(len(chunk))+") ORDER BY id"+lock), args...)
		if err != nil {
			return nil, err
		}
		for _, id := range got {
			kept[id] = true
		}
	}
	return kept, nil
}

// queryStrings runs a query of one text column and returns its values.
func queryStrings(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// eventKey is what makes a change from a register's event unique.
type eventKey struct{ country, company, kind, event string }

// recordedEvents returns the source events of list already recorded, in
// one query per 500 event ids. The query repeats the partial index's
// condition so that a generic plan uses the index.
func (s *Store) recordedEvents(ctx context.Context, tx *sql.Tx, list []changes.Change) (map[eventKey]bool, error) {
	out := map[eventKey]bool{}
	var events []any
	dup := map[string]bool{}
	for _, c := range list {
		if c.SourceEventID != "" && !dup[c.SourceEventID] {
			dup[c.SourceEventID] = true
			events = append(events, c.SourceEventID)
		}
	}
	for len(events) > 0 {
		n := min(len(events), 500)
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT country, company_id, kind, source_event_id FROM changes
    WHERE source_event_id IS NOT NULL AND source_event_id IN (`+placeholders(n)+`)`), events[:n]...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k eventKey
			if err := rows.Scan(&k.country, &k.company, &k.kind, &k.event); err != nil {
				rows.Close()
				return nil, err
			}
			out[k] = true
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		events = events[n:]
	}
	return out, nil
}

// watchersOf returns the watches of the changes' companies, by country and
// company id.
func (s *Store) watchersOf(ctx context.Context, tx *sql.Tx, list []changes.Change) (map[[2]string][]watcher, error) {
	byCountry := map[string][]string{}
	seen := map[[2]string]bool{}
	for _, c := range list {
		k := [2]string{c.Country, c.CompanyID}
		if !seen[k] {
			seen[k] = true
			byCountry[c.Country] = append(byCountry[c.Country], c.CompanyID)
		}
	}
	out := map[[2]string][]watcher{}
	for country, ids := range byCountry {
		for len(ids) > 0 {
			n := min(len(ids), 500)
			args := []any{country}
			for _, id := range ids[:n] {
				args = append(args, id)
			}
			rows, err := tx.QueryContext(ctx, s.d.q(`SELECT wc.company_id, w.id, w.owner, w.kinds, w.disabled_at
    FROM watch_companies wc JOIN watches w ON w.id = wc.watch_id
    WHERE wc.country = ? AND wc.company_id IN (`+placeholders(n)+`) ORDER BY w.created_at, w.id`), args...)
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				var cid, kinds string
				var disabled sql.NullInt64
				var w watcher
				if err := rows.Scan(&cid, &w.id, &w.owner, &kinds, &disabled); err != nil {
					rows.Close()
					return nil, err
				}
				if err := json.Unmarshal([]byte(kinds), &w.kinds); err != nil {
					rows.Close()
					return nil, fmt.Errorf("watch %s: stored kinds: %w", w.id, err)
				}
				w.enabled = !disabled.Valid
				k := [2]string{country, cid}
				out[k] = append(out[k], w)
			}
			if err := rows.Close(); err != nil {
				return nil, err
			}
			ids = ids[n:]
		}
	}
	return out, nil
}

// upsertSnapshots replaces the stored snapshots (the last of a company
// in the batch wins). The snapshot of a company of absent (expected to
// have none) is inserted only where there is none: a row that another
// transaction stored since the check fails the Apply with a
// *[changes.SnapshotChangedError].
func (s *Store) upsertSnapshots(ctx context.Context, q querier, snaps []changes.Snapshot, absent map[[2]string]bool) error {
	last := map[[2]string]int{}
	var keys [][2]string
	for i, sn := range snaps {
		k := [2]string{sn.Country, sn.CompanyID}
		if _, ok := last[k]; !ok {
			keys = append(keys, k)
		}
		last[k] = i
	}
	// In key order: a new company's row is locked by its insert.
	sortKeys(keys)
	rows := make([][]any, 0, len(last))
	var conflicts []changes.CompanyRef
	for _, k := range keys {
		sn := snaps[last[k]]
		row := []any{sn.Country, sn.CompanyID, blob(sn.Report), blob(sn.Roles), micros(sn.TakenAt), sn.Misses, sn.RolesMisses}
		if !absent[k] {
			rows = append(rows, row)
			continue
		}
		// Rare (a company's first snapshot, taken by an ingester): one
		// statement each, after the rows before it in key order.
		if err := s.insertRows(ctx, q, snapshotHead, snapshotUpsert, 7, rows); err != nil {
			return err
		}
		rows = rows[:0]
		res, err := q.ExecContext(ctx, s.d.q(snapshotHead+" VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (country, company_id) DO NOTHING"), row...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			conflicts = append(conflicts, changes.CompanyRef{Country: sn.Country, CompanyID: sn.CompanyID})
		}
	}
	if len(conflicts) > 0 {
		return &changes.SnapshotChangedError{Companies: conflicts}
	}
	return s.insertRows(ctx, q, snapshotHead, snapshotUpsert, 7, rows)
}

const (
	snapshotHead   = "INSERT INTO snapshots (country, company_id, report, roles, taken_at, misses, roles_misses)"
	snapshotUpsert = `ON CONFLICT (country, company_id) DO UPDATE SET report = excluded.report, roles = excluded.roles,
    taken_at = excluded.taken_at, misses = excluded.misses, roles_misses = excluded.roles_misses`
)

// checkExpected reads the stored snapshots of the companies of b.Expect
// and returns a *[changes.SnapshotChangedError] unless each is the one
// expected; it returns the companies expected, and found, to have no
// snapshot, whose insert must find none either (upsertSnapshots). On
// PostgreSQL it locks, FOR UPDATE and in key order, the rows of every
// company whose snapshot the batch writes (Snapshots, Baselines) or
// expects, before the batch writes anything: no other transaction
// replaces them before this one ends, and, as CreateWatch and
// UpdateWatch lock the rows of their baselines in key order too, an
// Apply and a watch's write never each hold a row the other waits for
// (PostgreSQL would fail one of them: a deadlock).
func (s *Store) checkExpected(ctx context.Context, tx *sql.Tx, b changes.Batch) (map[[2]string]bool, error) {
	var keys [][2]string
	seen := map[[2]string]bool{}
	add := func(country, id string) {
		k := [2]string{country, id}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, e := range b.Expect {
		add(e.Country, e.CompanyID)
	}
	lock := ""
	if s.d.pg {
		lock = " FOR UPDATE"
		for _, sn := range b.Snapshots {
			add(sn.Country, sn.CompanyID)
		}
		for _, sn := range b.Baselines {
			add(sn.Country, sn.CompanyID)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	sortKeys(keys)
	stored := map[[2]string]*changes.Snapshot{}
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
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT company_id, report, roles, taken_at, misses, roles_misses FROM snapshots
    WHERE country = ? AND company_id IN (`+placeholders(n)+`) ORDER BY company_id`+lock), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			sn := changes.Snapshot{Country: country}
			var report, roles []byte
			var taken int64
			if err := rows.Scan(&sn.CompanyID, &report, &roles, &taken, &sn.Misses, &sn.RolesMisses); err != nil {
				rows.Close()
				return nil, err
			}
			sn.Report, sn.Roles, sn.TakenAt = report, roles, fromMicros(taken)
			stored[[2]string{country, sn.CompanyID}] = &sn
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
		keys = keys[n:]
	}
	// The expected times as the store keeps them (to the microsecond).
	norm := make([]changes.ExpectedSnapshot, len(b.Expect))
	absent := map[[2]string]bool{}
	for i, e := range b.Expect {
		if e.Snapshot != nil {
			x := *e.Snapshot
			x.TakenAt = fromMicros(micros(x.TakenAt))
			e.Snapshot = &x
		} else {
			absent[[2]string{e.Country, e.CompanyID}] = true
		}
		norm[i] = e
	}
	err := changes.CheckExpected(norm, func(country, id string) *changes.Snapshot { return stored[[2]string{country, id}] })
	return absent, err
}

// sortKeys sorts companies by country, then id: the order in which every
// write locks snapshot rows.
func sortKeys(keys [][2]string) {
	slices.SortFunc(keys, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
}

func (s *Store) setCursors(ctx context.Context, q querier, cursors map[string]string, now time.Time) error {
	names := make([]string, 0, len(cursors))
	for n := range cursors {
		names = append(names, n)
	}
	sort.Strings(names)
	rows := make([][]any, len(names))
	for i, n := range names {
		rows[i] = []any{n, cursors[n], micros(now)}
	}
	return s.insertRows(ctx, q, "INSERT INTO ingest_cursors (name, value, updated_at)",
		"ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at", 3, rows)
}

func checkBatch(b changes.Batch) error {
	for i, c := range b.Changes {
		if c.Country == "" || c.CompanyID == "" || c.Kind == "" {
			return fmt.Errorf("changes/sqlstore: apply: change %d needs a Country, a CompanyID and a Kind", i)
		}
		if err := checkText("change id", c.ID, "change country", c.Country, "change company id", c.CompanyID,
			"change kind", string(c.Kind), "change company name", derefString(c.CompanyName),
			"change source url", derefString(c.SourceURL), "change source event id", c.SourceEventID); err != nil {
			return err
		}
	}
	if err := checkSnapshots(b.Snapshots); err != nil {
		return err
	}
	if err := checkSnapshots(b.Baselines); err != nil {
		return err
	}
	for _, e := range b.Expect {
		if e.Country == "" || e.CompanyID == "" {
			return errors.New("changes/sqlstore: apply: an expected snapshot needs a Country and a CompanyID")
		}
		if err := checkText("expected snapshot country", e.Country, "expected snapshot company id", e.CompanyID); err != nil {
			return err
		}
	}
	if f := b.Lease; f != nil {
		if f.Name == "" || f.Holder == "" {
			return errors.New("changes/sqlstore: apply: a lease fence needs a name and a holder")
		}
		if err := checkText("lease name", f.Name, "lease holder", f.Holder); err != nil {
			return err
		}
	}
	for name, v := range b.Cursors {
		if name == "" {
			return errors.New("changes/sqlstore: apply: a cursor without a name")
		}
		if err := checkText("cursor name", name, "cursor value", v); err != nil {
			return err
		}
	}
	return nil
}

// Cursor returns an ingester's stored cursor ("" when none).
func (s *Store) Cursor(ctx context.Context, name string) (string, error) {
	var v string
	err := s.r.QueryRowContext(ctx, s.d.q("SELECT value FROM ingest_cursors WHERE name = ?"), name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, wrap("cursor", err)
}

const changeColumns = `c.seq, c.id, c.country, c.company_id, c.company_name, c.kind, c.old_value, c.new_value,
    c.registered_at, c.detected_at, c.source_url, c.source_event_id`

func scanChange(row interface{ Scan(...any) error }, extra ...any) (changes.Change, error) {
	var c changes.Change
	var name, url, event sql.NullString
	var kind string
	var oldV, newV []byte
	var registered sql.NullInt64
	var detected int64
	dest := append([]any{&c.Seq, &c.ID, &c.Country, &c.CompanyID, &name, &kind, &oldV, &newV,
		&registered, &detected, &url, &event}, extra...)
	if err := row.Scan(dest...); err != nil {
		return c, err
	}
	c.CompanyName, c.Kind, c.Old, c.New = stringPtr(name), changes.Kind(kind), oldV, newV
	c.RegisteredAt, c.DetectedAt, c.SourceURL, c.SourceEventID = timePtr(registered), fromMicros(detected), stringPtr(url), event.String
	return c, nil
}

// Changes lists the owner's feed after the cursor ("" = from the oldest
// change kept), oldest first, at most limit, with the cursor to pass next.
// The feed holds the changes of the companies that were in one of the
// owner's watches when the change was recorded, of a kind that watch asks
// for (whether or not its endpoint is disabled). With nothing to
// list, the cursor returned is the feed's head, so a quiet owner's cursor
// keeps up with the feed and never expires. A cursor older than the
// oldest kept is a *changes.CursorExpiredError naming the oldest; one the
// store did not give out is changes.ErrInvalidCursor, and so is a
// well-formed cursor ahead of the feed's newest change (one of another
// database, or of this one before it was restored from a backup), which
// would otherwise hide every change recorded until the feed passed it.
func (s *Store) Changes(ctx context.Context, owner, cursor string, limit int) ([]changes.Change, string, error) {
	if limit < 1 {
		return nil, "", errors.New("changes/sqlstore: changes: the limit must be at least 1")
	}
	var after int64
	if cursor != "" {
		var err error
		if after, err = decodeCursor(cursor); err != nil {
			return nil, "", err
		}
	}
	var out []changes.Change
	next := cursor
	err := s.read(ctx, func(tx *sql.Tx) error {
		var head, pruned int64
		if err := tx.QueryRowContext(ctx, "SELECT last_seq, pruned_through FROM feed_state WHERE id = 1").Scan(&head, &pruned); err != nil {
			return err
		}
		if cursor != "" && after < pruned {
			return &changes.CursorExpiredError{Oldest: encodeCursor(pruned)}
		}
		if after > head {
			// Never given out by this store: listed from, it would hide
			// every change until the feed passed it.
			return errCursorAhead
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT `+changeColumns+` FROM feed_entries f
    JOIN changes c ON c.seq = f.seq WHERE f.owner = ? AND f.seq > ? ORDER BY f.seq LIMIT ?`), owner, after, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanChange(rows)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(out) > 0 {
			next = encodeCursor(out[len(out)-1].Seq)
		} else {
			next = encodeCursor(max(after, head))
		}
		return nil
	})
	if err != nil {
		return nil, "", wrap("changes", err)
	}
	return out, next, nil
}

// CompanyChanges lists the changes recorded for one company, newest
// first, at most limit.
func (s *Store) CompanyChanges(ctx context.Context, country, companyID string, limit int) ([]changes.Change, error) {
	if limit < 1 {
		return nil, errors.New("changes/sqlstore: company changes: the limit must be at least 1")
	}
	rows, err := s.r.QueryContext(ctx, s.d.q(`SELECT `+changeColumns+` FROM changes c
    WHERE c.country = ? AND c.company_id = ? ORDER BY c.seq DESC LIMIT ?`), country, companyID, limit)
	if err != nil {
		return nil, wrap("company changes", err)
	}
	defer rows.Close()
	var out []changes.Change
	for rows.Next() {
		c, err := scanChange(rows)
		if err != nil {
			return nil, wrap("company changes", err)
		}
		out = append(out, c)
	}
	return out, wrap("company changes", rows.Err())
}

// Prune removes the changes detected before before (but never one younger
// than the retention, see [WithRetention]) with their deliveries and feed
// entries, the finished deliveries created before it, and the snapshots
// taken before it of companies that no watch holds. It removes a
// prefix of the feed: it stops at the first change detected on or after
// the limit and at the first change that still has a pending delivery to
// an enabled watch (never lose a delivery), and moves the oldest cursor
// kept to the last change removed.
//
// The snapshots go in a transaction of their own, which on PostgreSQL
// first takes the lock SHARE on watch_companies: it waits for every
// transaction that writes a watch's companies to commit, and makes those
// that start wait for it, so its DELETE (read committed: one statement,
// one snapshot of the database taken after the lock) never removes the
// snapshot of a company a committed watch holds, and a watch committed
// after it finds the snapshot gone. A caller that stored a watch and then
// finds a snapshot of its company can rely on it staying (the service's
// check after CreateWatch does). On SQLite the write transaction is serial.
func (s *Store) Prune(ctx context.Context, before time.Time) error {
	if limit := s.now().Add(-s.retention); before.After(limit) {
		before = limit
	}
	cut := micros(before)
	err := s.write(ctx, func(tx *sql.Tx) error {
		var last, pruned int64
		if err := tx.QueryRowContext(ctx, "UPDATE feed_state SET last_seq = last_seq WHERE id = 1 RETURNING last_seq, pruned_through").Scan(&last, &pruned); err != nil {
			return err
		}
		through := last
		var young, pending sql.NullInt64
		if err := tx.QueryRowContext(ctx, s.d.q("SELECT MIN(seq) FROM changes WHERE detected_at >= ?"), cut).Scan(&young); err != nil {
			return err
		}
		if young.Valid {
			through = min(through, young.Int64-1)
		}
		if err := tx.QueryRowContext(ctx, `SELECT MIN(d.change_seq) FROM deliveries d JOIN watches w ON w.id = d.watch_id
    WHERE d.status = 'pending' AND w.disabled_at IS NULL`).Scan(&pending); err != nil {
			return err
		}
		if pending.Valid {
			through = min(through, pending.Int64-1)
		}
		if through > pruned {
			for _, stmt := range []string{
				"DELETE FROM deliveries WHERE change_seq <= ?",
				"DELETE FROM feed_entries WHERE seq <= ?",
				"DELETE FROM changes WHERE seq <= ?",
				"UPDATE feed_state SET pruned_through = ? WHERE id = 1",
			} {
				if _, err := tx.ExecContext(ctx, s.d.q(stmt), through); err != nil {
					return err
				}
			}
		}
		_, err := tx.ExecContext(ctx, s.d.q("DELETE FROM deliveries WHERE status <> 'pending' AND created_at < ?"), cut)
		return err
	})
	if err != nil {
		return wrap("prune", err)
	}
	// Snapshots of companies no watch holds any more: nothing compares
	// with them. A company watched again gets a new baseline.
	err = s.write(ctx, func(tx *sql.Tx) error {
		if s.d.pg {
			if _, err := tx.ExecContext(ctx, "LOCK TABLE watch_companies IN SHARE MODE"); err != nil {
				return err
			}
		}
		if !s.d.pg {
			_, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM snapshots WHERE taken_at < ? AND NOT EXISTS (
    SELECT 1 FROM watch_companies wc WHERE wc.country = snapshots.country AND wc.company_id = snapshots.company_id)`), cut)
			return err
		}
		// The rows are locked in key order, as Apply, CreateWatch and
		// UpdateWatch lock theirs, before any is deleted: an Apply of
		// such companies (a batch whose watch was deleted meanwhile)
		// and the Prune never each hold a row the other waits for.
		_, err := tx.ExecContext(ctx, `DELETE FROM snapshots WHERE (country, company_id) IN (
    SELECT country, company_id FROM snapshots s WHERE s.taken_at < $1 AND NOT EXISTS (
        SELECT 1 FROM watch_companies wc WHERE wc.country = s.country AND wc.company_id = s.company_id)
    ORDER BY country, company_id FOR UPDATE)`, cut)
		return err
	})
	return wrap("prune", err)
}
