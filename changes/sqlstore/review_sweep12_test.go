package sqlstore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/google/go-cmp/cmp"
)

// TestReview_Sweep12DeleteWatchFailsApplyOnDeliveryForeignKey proves the
// suspicion of rev-sweep12's brief on PostgreSQL: Apply reads a company's
// watchers (watchersOf, a plain SELECT under read committed) and inserts
// their deliveries later in the same transaction; a DeleteWatch that
// commits in between (it waits for nothing the Apply holds: the Apply
// locks snapshot rows and the feed counter, not the watch) leaves the
// Apply inserting a delivery whose watch_id no longer exists, and the
// whole Apply fails on deliveries' foreign key (23503, which write does
// not retry). The ingester's batch (every company of a page or a sweep,
// its cursor) is then not stored; it is read again later.
//
// The Apply is held between watchersOf and its deliveries by a test
// transaction holding alice's feed entry of position 1 (uncommitted, no
// foreign key), which the Apply's feed insert waits for.
func TestReview_Sweep12DeleteWatchFailsApplyOnDeliveryForeignKey(t *testing.T) {
	s, url := openPostgres(t)
	ctx := context.Background()
	w := changes.Watch{ID: "wch_gone", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/a", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	before := changes.Snapshot{Country: "NO", CompanyID: "1", Report: json.RawMessage(`{"name":"FIRST ASA"}`), TakenAt: t0}
	if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{before}}); err != nil {
		t.Fatal(err)
	}
	read, err := s.Snapshot(ctx, "NO", "1")
	if err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, url)
	tx, pid := begin(t, db, "INSERT INTO feed_entries (owner, seq) VALUES ('alice', 1)")
	after := before
	after.Report, after.TakenAt = json.RawMessage(`{"name":"SECOND ASA"}`), t0.Add(1e9)
	done := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{
			Changes:   []changes.Change{nameChange("1", t0.Add(1e9))},
			Snapshots: []changes.Snapshot{after},
			Expect:    []changes.ExpectedSnapshot{{Country: "NO", CompanyID: "1", Snapshot: &read}},
			Cursors:   map[string]string{"no/poll": "after"},
		})
		done <- err
	}()
	waitBlocked(t, db, "INSERT INTO feed_entries", pid, done)
	if err := s.DeleteWatch(ctx, "alice", w.ID); err != nil {
		t.Fatalf("DeleteWatch while an Apply waits: %v", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	applyErr := <-done
	cur, err := s.Cursor(ctx, "no/poll")
	if err != nil {
		t.Fatal(err)
	}
	sn, err := s.Snapshot(ctx, "NO", "1")
	if err != nil {
		t.Fatal(err)
	}
	errText := ""
	if applyErr != nil {
		errText = applyErr.Error()
	}
	got := map[string]string{"apply error": errText, "cursor": cur, "report": string(sn.Report)}
	want := map[string]string{"apply error": "", "cursor": "after", "report": `{"name":"SECOND ASA"}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("an ingester's Apply racing a DeleteWatch of a watcher (-want +got):\n%s", diff)
	}
}

// TestReview_Sweep12PruneDeadlocksWithExpectedApply: Apply now locks, FOR
// UPDATE in key order, the snapshot rows it expects or writes, and
// doc/decisions.md ("Apply locks snapshot rows in key order") says the
// other writers of snapshots queue at watch_companies' table lock before
// any row. Apply takes no table lock, though, and Prune's DELETE of the
// snapshots no watch holds locks its rows in the table's order, not in
// key order: an Apply that holds company 1's row and waits for 2, while
// Prune holds 2 and waits for 1, is a deadlock (PostgreSQL fails one of
// them after deadlock_timeout; write tries three times). The companies
// of an ingester's batch whose watch was deleted during the sweep are
// such rows.
//
// The test makes the deadlock timeout long for its database, so that
// the cycle stays to be seen: a transaction holds 1's row; the Apply of
// [1, 2] waits for it; Prune (2 stored first) deletes 2 and waits for 1;
// the transaction ends. The Apply must finish; on the code under review
// it and Prune wait for each other.
func TestReview_Sweep12PruneDeadlocksWithExpectedApply(t *testing.T) {
	s, db := openPostgresNoDeadlockTimeout(t)
	ctx := context.Background()
	// Two companies no watch holds, stored long ago, 2 first in the table.
	for _, id := range []string{"2", "1"} {
		if _, err := db.ExecContext(ctx, `INSERT INTO snapshots (country, company_id, report, roles, taken_at, misses, roles_misses)
    VALUES ('NO', $1, '{"name":"old"}', NULL, 0, 0, 0)`, id); err != nil {
			t.Fatal(err)
		}
	}
	var expect []changes.ExpectedSnapshot
	var snaps []changes.Snapshot
	for _, id := range []string{"1", "2"} {
		read, err := s.Snapshot(ctx, "NO", id)
		if err != nil {
			t.Fatal(err)
		}
		expect = append(expect, changes.ExpectedSnapshot{Country: "NO", CompanyID: id, Snapshot: &read})
		snaps = append(snaps, changes.Snapshot{Country: "NO", CompanyID: id, Report: json.RawMessage(`{"name":"new"}`), TakenAt: t0})
	}
	tx, pid := begin(t, db, "SELECT company_id FROM snapshots WHERE country = 'NO' AND company_id = '1' FOR UPDATE")
	applied := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{Expect: expect, Snapshots: snaps})
		applied <- err
	}()
	applyPid := waitBlocked(t, db, "SELECT company_id, report", pid, applied)
	pruned := make(chan error, 1)
	go func() { pruned <- s.Prune(ctx, t0) }()
	// Prune waits for 1's row: behind the transaction, or the Apply queued
	// first for it.
	testwait.Until(t, "Prune's DELETE waiting for a lock", func() bool {
		select {
		case err := <-pruned:
			t.Fatalf("Prune did not wait for company 1's row: %v", err)
		default:
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND starts_with(query, 'DELETE FROM snapshots') AND cardinality(pg_blocking_pids(pid)) > 0`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	})
	if err := tx.Commit(); err != nil {
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
		var prunePid int
		err := db.QueryRowContext(ctx, `SELECT p.pid FROM pg_stat_activity p
    WHERE p.datname = current_database() AND starts_with(p.query, 'DELETE FROM snapshots')
      AND p.pid = ANY(pg_blocking_pids($1)) AND $1 = ANY(pg_blocking_pids(p.pid))`, applyPid).Scan(&prunePid)
		if err == nil {
			cycle = true
			// Break it, so that both return.
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
		t.Errorf("an expected Apply and a Prune of the same unwatched companies (-want +got):\n%s\n(Prune: %v)", diff, pruneErr)
	}
}
