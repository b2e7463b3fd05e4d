package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_Last12PurgingApplyDeadlocksWithDeleteWatch: the sqlstore
// package doc (and stillStored's) says a DeleteWatch in flight waits for
// an Apply that locks its watch's row FOR KEY SHARE. An Apply that purges
// a watched company (Norway's removal, refreshInto's register word)
// deletes the pending deliveries of its older changes first, in purge;
// a DeleteWatch that then deletes the watch's row waits, in its cascade,
// for those delivery rows; and the Apply's stillStored then waits for the
// watch's row: a wait cycle. PostgreSQL breaks it after deadlock_timeout
// (1 s by default) and write runs the loser again, so nothing fails, but
// each such pair stalls a second and one of them is rolled back and
// retried. Apply's SHARE on watch_companies, gone with Unwatched, never
// covered this batch (no unwatched company), and DeleteWatch's ROW
// EXCLUSIVE taken first orders nothing against Apply, which takes no
// table lock there. Suggested fix: stillStored's FOR KEY SHARE of the
// purged companies' watchers before purge deletes their deliveries (or
// purge's delete after the deliveries' watches are locked).
//
// The deadlock timeout is made long for the test's database so the cycle
// stays to be seen; a test transaction holding alice's feed entry of
// position 2 holds the Apply after its purge.
func TestReview_Last12PurgingApplyDeadlocksWithDeleteWatch(t *testing.T) {
	s, db := openPostgresNoDeadlockTimeout(t)
	ctx := context.Background()
	w := changes.Watch{ID: "wch_a", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/a", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	// Change 1, with alice's pending delivery.
	if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}}); err != nil {
		t.Fatal(err)
	}
	tx, pid := begin(t, db, "INSERT INTO feed_entries (owner, seq) VALUES ('alice', 2)")
	applied := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{
			Purge:   []changes.CompanyRef{{Country: "NO", CompanyID: "1"}},
			Changes: []changes.Change{{Country: "NO", CompanyID: "1", Kind: changes.KindDeleted, DetectedAt: t0.Add(1e9)}},
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
		t.Errorf("a purging Apply and a DeleteWatch of its company's watcher (-want +got):\n%s\n(Apply: %v; DeleteWatch: %v)", diff, applyErr, deleteErr)
	}
}

// TestReview_Last12PurgingApplyDeadlocksWithPrune: the sqlstore package
// doc (kept by 74f30bf) says Prune locks its snapshots in key order "so
// that it and an Apply never deadlock". Prune's first transaction takes
// the feed counter row (UPDATE feed_state) and then deletes the old
// deliveries; an Apply that purges a company deletes that company's
// deliveries first (purge) and takes the feed counter after
// (recordChanges). An Apply holding a purged delivery row while Prune
// holds the counter and waits for that row is a wait cycle; PostgreSQL
// breaks it after deadlock_timeout and write runs the loser again.
// Older than this sitting (purge and Prune's order predate it), but the
// doc's "never" is new. Suggested fix: Apply takes the counter row before
// purge (or Prune deletes deliveries before it takes the counter).
//
// A test transaction holding change 1's row FOR KEY SHARE holds the
// Apply inside purge, after its delivery delete and before its counter.
func TestReview_Last12PurgingApplyDeadlocksWithPrune(t *testing.T) {
	s, db := openPostgresNoDeadlockTimeout(t)
	ctx := context.Background()
	w := changes.Watch{ID: "wch_p", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/a", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	// Change 1, long before the retention, its delivery done with.
	old := t0.AddDate(-1, 0, 0)
	if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", old)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "UPDATE deliveries SET status = 'succeeded'"); err != nil {
		t.Fatal(err)
	}
	tx, pid := begin(t, db, "SELECT seq FROM changes WHERE seq = 1 FOR KEY SHARE")
	applied := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{
			Purge:   []changes.CompanyRef{{Country: "NO", CompanyID: "1"}},
			Changes: []changes.Change{{Country: "NO", CompanyID: "1", Kind: changes.KindDeleted, DetectedAt: t0}},
		})
		applied <- err
	}()
	applyPid := waitBlocked(t, db, "DELETE FROM changes", pid, applied)
	pruned := make(chan error, 1)
	go func() { pruned <- s.Prune(ctx, time.Now()) }()
	// Prune waits for the Apply: at its delivery delete (the Apply holds
	// a purged delivery row), or, once the Apply takes the feed's counter
	// before it purges (lockForPurge), at the counter.
	var prunePid int
	testwait.Until(t, "Prune blocked by the Apply", func() bool {
		err := db.QueryRowContext(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
    AND (starts_with(query, 'DELETE FROM deliveries') OR starts_with(query, 'UPDATE feed_state'))
    AND $1 = ANY(pg_blocking_pids(pid))`, applyPid).Scan(&prunePid)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		return err == nil
	})
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	var applyErr error
	finished, cycle := false, false
	testwait.Until(t, "the Apply finished, or it and Prune wait for each other", func() bool {
		select {
		case applyErr = <-applied:
			finished = true
			return true
		default:
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
    WHERE pid = $2 AND $1 = ANY(pg_blocking_pids(pid)) AND $2 = ANY(pg_blocking_pids($1))`, applyPid, prunePid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			cycle = true
			if _, err := db.ExecContext(ctx, "SELECT pg_cancel_backend($1)", prunePid); err != nil {
				t.Fatal(err)
			}
		}
		return cycle
	})
	if !finished {
		applyErr = <-applied
	}
	pruneErr := <-pruned
	got := map[string]any{"wait cycle": cycle, "apply failed": applyErr != nil}
	if diff := cmp.Diff(map[string]any{"wait cycle": false, "apply failed": false}, got); diff != "" {
		t.Errorf("a purging Apply and a Prune of its company's old delivery (-want +got):\n%s\n(Apply: %v; Prune: %v)", diff, applyErr, pruneErr)
	}
}
