package sqlstore_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_Omega12PurgeOfUnwatchedDeliveriesDeadlocksWithDeleteWatch:
// lockForPurge locks the watches that watch_companies lists for a purged
// company now, but purge deletes every delivery of the company's changes,
// whichever watch it belongs to. A watch that had the company taken out
// (UpdateWatch RemoveIDs) keeps its pending deliveries of the company's
// older changes and is not locked. If the batch also records a change of
// another company that watch still watches, the old cycle is back: the
// Apply holds the purged delivery row, a DeleteWatch of that watch holds
// the watch's row and waits in its cascade for that delivery, and the
// Apply's stillStored waits for the watch's row. The package doc ("it
// waits for such a Prune or DeleteWatch, or they wait for it") and the
// CHANGELOG ("no longer waits in a cycle with ... a DeleteWatch") say
// more than holds. Suggested fix: lock the watches of the deliveries
// purge will delete (SELECT DISTINCT watch_id of those deliveries, then
// their watch rows FOR KEY SHARE in id order) rather than the watches of
// watch_companies.
//
// The deadlock timeout is made long for the test's database so the cycle
// stays to be seen; a test transaction holding alice's feed entry of
// position 2 holds the Apply after its purge.
func TestReview_Omega12PurgeOfUnwatchedDeliveriesDeadlocksWithDeleteWatch(t *testing.T) {
	s, db := openPostgresNoDeadlockTimeout(t)
	ctx := context.Background()
	w := changes.Watch{ID: "wch_a", Owner: "alice", Country: "NO", IDs: []string{"1", "2"}, URL: "https://hooks.example.com/a", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	// Change 1 of company 1, with alice's pending delivery; then alice
	// stops watching company 1 (the delivery stays pending).
	if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateWatch(ctx, "alice", w.ID, changes.WatchUpdate{RemoveIDs: []string{"1"}}, nil); err != nil {
		t.Fatal(err)
	}
	var pending int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM deliveries WHERE watch_id = 'wch_a' AND change_seq = 1 AND status = 'pending'").Scan(&pending); err != nil {
		t.Fatal(err)
	}
	if pending != 1 {
		t.Fatalf("alice's delivery of change 1: %d pending, want 1", pending)
	}
	tx, pid := begin(t, db, "INSERT INTO feed_entries (owner, seq) VALUES ('alice', 2)")
	applied := make(chan error, 1)
	go func() {
		// Company 1 purged (its delivery to wch_a deleted), company 2's
		// change recorded for wch_a.
		_, err := s.Apply(ctx, changes.Batch{
			Purge:   []changes.CompanyRef{{Country: "NO", CompanyID: "1"}},
			Changes: []changes.Change{nameChange("2", t0.Add(1e9))},
		})
		applied <- err
	}()
	applyPid := waitBlocked(t, db, "INSERT INTO feed_entries", pid, applied)
	deleted := make(chan error, 1)
	go func() { deleted <- s.DeleteWatch(ctx, "alice", w.ID) }()
	// The DeleteWatch waits for the Apply: in its cascade, for the
	// delivery row the Apply's purge deleted.
	deletePid := waitBlocked(t, db, "DELETE FROM watches", applyPid, deleted)
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	var applyErr error
	finished, cycle := false, false
	testwait.Until(t, "the Apply finished, or it and DeleteWatch wait for each other", func() bool {
		select {
		case applyErr = <-applied:
			finished = true
			return true
		default:
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
    WHERE pid = $2 AND $1 = ANY(pg_blocking_pids(pid)) AND $2 = ANY(pg_blocking_pids($1))`, applyPid, deletePid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			cycle = true
			// Break it, so that both return.
			if _, err := db.ExecContext(ctx, "SELECT pg_cancel_backend($1)", deletePid); err != nil {
				t.Fatal(err)
			}
		}
		return cycle
	})
	if !finished {
		applyErr = <-applied
	}
	deleteErr := <-deleted
	got := map[string]any{"wait cycle": cycle, "apply failed": applyErr != nil}
	if diff := cmp.Diff(map[string]any{"wait cycle": false, "apply failed": false}, got); diff != "" {
		t.Errorf("a purging Apply and a DeleteWatch of a watch that had the purged company taken out (-want +got):\n%s\n(Apply: %v; DeleteWatch: %v)", diff, applyErr, deleteErr)
	}
}

// TestReview_Omega12PurgeLocksWatchesNotInIDOrder: lockForPurge's doc and
// doc/decisions.md say it locks the purged companies' watch rows "FOR KEY
// SHARE in id order"; it runs one statement per company, in key order, so
// the order is by id only within a company. Here company 1's watch is
// wch_b and company 2's is wch_a: with wch_a held by another transaction,
// the Apply waits for wch_a already holding wch_b. (KEY SHARE locks do not
// conflict with each other and DeleteWatch takes one watch row, so no
// cycle is known to follow; the doc says more than the code does.)
// Suggested fix: one statement over all purged companies, ORDER BY w.id,
// or "in id order within each company" in the docs.
func TestReview_Omega12PurgeLocksWatchesNotInIDOrder(t *testing.T) {
	url := pg.Database(t)
	ctx := context.Background()
	db := rawDB(t, url)
	s, err := sqlstore.OpenPostgres(ctx, url, sqlstore.WithMaxConns(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	for _, w := range []changes.Watch{
		{ID: "wch_b", Owner: "bob", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/b", CreatedAt: t0},
		{ID: "wch_a", Owner: "alice", Country: "NO", IDs: []string{"2"}, URL: "https://hooks.example.com/a", CreatedAt: t0},
	} {
		if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
			t.Fatal(err)
		}
	}
	tx, pid := begin(t, db, "SELECT id FROM watches WHERE id = 'wch_a' FOR UPDATE")
	applied := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{Purge: []changes.CompanyRef{{Country: "NO", CompanyID: "1"}, {Country: "NO", CompanyID: "2"}}})
		applied <- err
	}()
	waitBlocked(t, db, "SELECT id FROM watches WHERE id IN", pid, applied)
	// Is wch_b (the lower id) already locked by the waiting Apply?
	probe, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, probeErr := probe.ExecContext(ctx, "SELECT id FROM watches WHERE id = 'wch_b' FOR UPDATE NOWAIT")
	_ = probe.Rollback()
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := <-applied; err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{"wch_b locked while the Apply waits for wch_a": probeErr != nil}
	if diff := cmp.Diff(map[string]bool{"wch_b locked while the Apply waits for wch_a": false}, got); diff != "" {
		t.Errorf("lockForPurge's order of watch rows (-want +got):\n%s\n(probe: %v)", diff, probeErr)
	}
}
