package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/testwait"
)

// openPostgresNoDeadlockTimeout opens a store on a new PostgreSQL
// database whose deadlock_timeout is ten minutes, so that a wait cycle
// stays to be seen rather than being broken (and retried by the store)
// after a second, and a raw pool of the test's own on it.
func openPostgresNoDeadlockTimeout(t *testing.T) (*sqlstore.Store, *sql.DB) {
	t.Helper()
	url := pg.Database(t)
	ctx := context.Background()
	db := rawDB(t, url)
	if _, err := db.ExecContext(ctx, "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET deadlock_timeout = %L', current_database(), '10min'); END $$"); err != nil {
		t.Fatal(err)
	}
	s, err := sqlstore.OpenPostgres(ctx, url, sqlstore.WithMaxConns(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, db
}

// cycleOrDone waits until both calls reporting on a and b have returned
// (their errors returned), or until the backends pa and pb each wait for
// the other, which it then breaks by cancelling pb's statement (cycle
// true; both calls' errors are still returned).
func cycleOrDone(t *testing.T, db *sql.DB, pa, pb int, a, b <-chan error) (errA, errB error, cycle bool) {
	t.Helper()
	doneA, doneB := false, false
	testwait.Until(t, "both calls returned, or they wait for each other", func() bool {
		select {
		case errA = <-a:
			doneA = true
		default:
		}
		select {
		case errB = <-b:
			doneB = true
		default:
		}
		if doneA && doneB {
			return true
		}
		if doneA || doneB {
			return false
		}
		var n int
		if err := db.QueryRowContext(context.Background(), `SELECT count(*) FROM pg_stat_activity
    WHERE pid = $2 AND $1 = ANY(pg_blocking_pids(pid)) AND $2 = ANY(pg_blocking_pids($1))`, pa, pb).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			cycle = true
			if _, err := db.ExecContext(context.Background(), "SELECT pg_cancel_backend($1)", pb); err != nil {
				t.Fatal(err)
			}
		}
		return cycle
	})
	if !doneA {
		errA = <-a
	}
	if !doneB {
		errB = <-b
	}
	return errA, errB, cycle
}

// TestRecordAttemptDeleteWatchLockOrderPostgres: RecordAttempt and
// DeleteWatch of one watch must not each hold a row the other waits for.
// DeleteWatch locks the watch's row, then its cascade deletes the watch's
// companies and then its deliveries. A RecordAttempt that disables the
// watch (a failure for good with Disable, one transaction) updated the
// delivery's row first and the watch's row after: with a DeleteWatch
// holding the watch's row and waiting for the delivery's, PostgreSQL
// broke the wait cycle after deadlock_timeout and the store's write ran
// the loser again (a stall, and an error after three in a row).
// RecordAttempt now locks the watch's row before the delivery's, in
// DeleteWatch's order. An attempt that does not disable the watch writes
// the delivery and the watch in two transactions of one statement each,
// so it holds nothing while it waits: it must stay so.
//
// A test transaction holding one of the watch's company rows FOR KEY
// SHARE holds the DeleteWatch in its cascade, after it has locked the
// watch's row and before it reaches the deliveries; the RecordAttempt
// starts then and waits for the DeleteWatch; the test transaction ends.
// The deadlock timeout is ten minutes for the test's database, so that a
// cycle stays to be seen (the test breaks it).
func TestRecordAttemptDeleteWatchLockOrderPostgres(t *testing.T) {
	retry := t0.Add(time.Hour)
	for name, tc := range map[string]struct {
		attempt changes.Attempt
		want    error // RecordAttempt's
	}{
		// Waits for the DeleteWatch at the watch's row, then finds the
		// delivery gone with it.
		"disable": {changes.Attempt{At: t0, StatusCode: 410, Error: "gone", Disable: true, Reason: "410 Gone"}, changes.ErrNotFound},
		// The delivery's statement commits at once; the watch's waits for
		// the DeleteWatch and then finds no row.
		"retry": {changes.Attempt{At: t0, StatusCode: 500, Error: "500", RetryAt: &retry}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			s, db := openPostgresNoDeadlockTimeout(t)
			ctx := context.Background()
			w := changes.Watch{ID: "wch_a", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/a", CreatedAt: t0}
			if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}}); err != nil {
				t.Fatal(err)
			}
			ds, err := s.Deliveries(ctx, "alice", w.ID, 10)
			if err != nil || len(ds) != 1 {
				t.Fatalf("deliveries before: %v, %v", ds, err)
			}
			tx, pid := begin(t, db, "SELECT company_id FROM watch_companies WHERE watch_id = 'wch_a' FOR KEY SHARE")
			deleted := make(chan error, 1)
			go func() { deleted <- s.DeleteWatch(ctx, "alice", w.ID) }()
			deletePid := waitBlocked(t, db, "DELETE FROM watches", pid, deleted)
			recorded := make(chan error, 1)
			go func() { recorded <- s.RecordAttempt(ctx, ds[0].ID, tc.attempt) }()
			recordPid := waitBlocked(t, db, "", deletePid, recorded)
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
			deleteErr, recordErr, cycle := cycleOrDone(t, db, deletePid, recordPid, deleted, recorded)
			got := map[string]any{"wait cycle": cycle, "DeleteWatch": fmt.Sprint(deleteErr), "RecordAttempt is want": errors.Is(recordErr, tc.want)}
			want := map[string]any{"wait cycle": false, "DeleteWatch": "<nil>", "RecordAttempt is want": true}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("a RecordAttempt and a DeleteWatch of its watch (-want +got):\n%s\n(RecordAttempt: %v, want %v)", diff, recordErr, tc.want)
			}
			if _, err := s.Watch(ctx, "alice", w.ID); !errors.Is(err, changes.ErrNotFound) {
				t.Errorf("the watch after DeleteWatch: %v", err)
			}
		})
	}
}

// waitBlockedOther is waitBlocked for a backend other than those of
// others (which may run the same statement).
func waitBlockedOther(t *testing.T, db *sql.DB, prefix string, blocker int, done <-chan error, others ...int) int {
	t.Helper()
	var pid int
	finished := false
	testwait.Until(t, fmt.Sprintf("%s… blocked by backend %d", prefix, blocker), func() bool {
		select {
		case err := <-done:
			finished = true
			t.Errorf("%s… did not wait for backend %d: it returned %v", prefix, blocker, err)
			return true
		default:
		}
		err := db.QueryRowContext(context.Background(), `SELECT pid FROM pg_stat_activity
    WHERE datname = current_database() AND starts_with(query, $1) AND $2 = ANY(pg_blocking_pids(pid))
      AND NOT pid = ANY($3)`, prefix, blocker, others).Scan(&pid)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		return err == nil
	})
	if finished {
		t.FailNow()
	}
	return pid
}

// TestUpdateWatchDeleteWatchPruneLockOrderPostgres: UpdateWatch locked
// its watch's row before ROW EXCLUSIVE on watch_companies (taken by its
// baselines, or by the write of its companies), DeleteWatch takes that
// table lock before its watch's row, and Prune's snapshot step asks for
// SHARE on the table, which a ROW EXCLUSIVE held makes wait and which a
// later ROW EXCLUSIVE request queues behind. With a DeleteWatch holding
// the table lock and waiting for the watch's row, a Prune queued for
// SHARE behind it, and an UpdateWatch of the watch holding the row and
// asking for the table lock, each waited for the next: PostgreSQL found
// the cycle after deadlock_timeout and let the UpdateWatch pass the
// Prune in the queue (no error: a stall of deadlock_timeout, a second by
// default). UpdateWatch now takes the table lock first, as DeleteWatch
// does, when it writes the watch's companies or baselines.
//
// A test transaction holding ACCESS EXCLUSIVE on watch_companies lines
// the three up: the UpdateWatch (after its watch's row, on the code
// before the fix), then the DeleteWatch, then the Prune wait for it, in
// that order; it ends, and the three go on. The deadlock timeout is ten
// minutes for the test's database, so that a cycle stays to be seen.
func TestUpdateWatchDeleteWatchPruneLockOrderPostgres(t *testing.T) {
	s, db := openPostgresNoDeadlockTimeout(t)
	ctx := context.Background()
	w := changes.Watch{ID: "wch_a", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/a", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	tx, pid := begin(t, db, "LOCK TABLE watch_companies IN ACCESS EXCLUSIVE MODE")
	updated := make(chan error, 1)
	go func() {
		_, err := s.UpdateWatch(ctx, "alice", w.ID, changes.WatchUpdate{AddIDs: []string{"2"}}, nil)
		updated <- err
	}()
	updatePid := waitBlocked(t, db, "", pid, updated)
	deleted := make(chan error, 1)
	go func() { deleted <- s.DeleteWatch(ctx, "alice", w.ID) }()
	deletePid := waitBlockedOther(t, db, "LOCK TABLE watch_companies IN ROW EXCLUSIVE MODE", pid, deleted, updatePid)
	pruned := make(chan error, 1)
	go func() { pruned <- s.Prune(ctx, t0) }()
	prunePid := waitBlocked(t, db, "LOCK TABLE watch_companies IN SHARE MODE", pid, pruned)
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	var updateErr, deleteErr, pruneErr error
	done := map[string]bool{}
	cycle := false
	testwait.Until(t, "the three returned, or they wait for each other", func() bool {
		for name, ch := range map[string]<-chan error{"update": updated, "delete": deleted, "prune": pruned} {
			if done[name] {
				continue
			}
			select {
			case err := <-ch:
				done[name] = true
				switch name {
				case "update":
					updateErr = err
				case "delete":
					deleteErr = err
				default:
					pruneErr = err
				}
			default:
			}
		}
		if len(done) == 3 {
			return true
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity WHERE pid = $1
    AND $2 = ANY(pg_blocking_pids($1)) AND $3 = ANY(pg_blocking_pids($2)) AND $1 = ANY(pg_blocking_pids($3))`,
			updatePid, prunePid, deletePid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			cycle = true
			// Break it, so that the three return.
			if _, err := db.ExecContext(ctx, "SELECT pg_cancel_backend($1)", prunePid); err != nil {
				t.Fatal(err)
			}
		}
		return cycle
	})
	if !done["update"] {
		updateErr = <-updated
	}
	if !done["delete"] {
		deleteErr = <-deleted
	}
	if !done["prune"] {
		pruneErr = <-pruned
	}
	// The UpdateWatch and the DeleteWatch, both let through at once, race
	// for the watch's row: an update after the deletion finds no watch.
	if errors.Is(updateErr, changes.ErrNotFound) {
		updateErr = nil
	}
	got := map[string]any{"wait cycle": cycle, "UpdateWatch (or not found)": fmt.Sprint(updateErr), "DeleteWatch": fmt.Sprint(deleteErr), "Prune": fmt.Sprint(pruneErr)}
	want := map[string]any{"wait cycle": false, "UpdateWatch (or not found)": "<nil>", "DeleteWatch": "<nil>", "Prune": "<nil>"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("an UpdateWatch, a DeleteWatch of the same watch and a Prune (-want +got):\n%s", diff)
	}
}
