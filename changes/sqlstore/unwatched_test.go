package sqlstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/testwait"
)

// TestApplyUnwatchedWaitsForWatchBeingStoredPostgres: an Apply whose
// Batch.Unwatched names company 9 while a CreateWatch of 9 is in flight
// (held here on 9's stale snapshot row, after it took ROW EXCLUSIVE on
// watch_companies) waits for it, at its SHARE lock on watch_companies,
// and then sees the watch: it is refused, naming 9, and writes nothing.
// Without the lock, its check (read committed) missed the uncommitted
// watch and recorded 9's change, which the watch then held.
func TestApplyUnwatchedWaitsForWatchBeingStoredPostgres(t *testing.T) {
	s, url := openPostgres(t)
	ctx := context.Background()
	stale := changes.Snapshot{Country: "NO", CompanyID: "9", Report: json.RawMessage(`{"name":"OLD AS"}`), TakenAt: t0}
	if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{stale}}); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, url)
	tx, pid := begin(t, db, "SELECT 1 FROM snapshots WHERE country = 'NO' AND company_id = '9' FOR UPDATE")
	created := make(chan error, 1)
	go func() {
		fresh := stale
		fresh.Report, fresh.TakenAt = json.RawMessage(`{"name":"NEW AS"}`), t0.Add(1e9)
		created <- s.CreateWatch(ctx, changes.Watch{ID: "wch_9", Owner: "alice", Country: "NO", IDs: []string{"9"},
			URL: "https://hooks.example.com/9", CreatedAt: t0}, []byte("secret"), []changes.Snapshot{fresh})
	}()
	createPid := waitBlocked(t, db, "SELECT company_id FROM snapshots", pid, created)
	applied := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{
			Changes:   []changes.Change{nameChange("9", t0.Add(2e9))},
			Unwatched: []changes.CompanyRef{{Country: "NO", CompanyID: "9"}},
			Cursors:   map[string]string{"no/enheter": "after"},
		})
		applied <- err
	}()
	waitBlocked(t, db, "LOCK TABLE watch_companies", createPid, applied)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-created; err != nil {
		t.Fatal(err)
	}
	applyErr := <-applied
	var sc *changes.SnapshotChangedError
	var named []changes.CompanyRef
	if errors.As(applyErr, &sc) {
		named = sc.Companies
	}
	cs, err := s.CompanyChanges(ctx, "NO", "9", 10)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := s.Cursor(ctx, "no/enheter")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{"refused": named, "changes of 9": len(cs), "cursor": cur}
	want := map[string]any{"refused": []changes.CompanyRef{{Country: "NO", CompanyID: "9"}}, "changes of 9": 0, "cursor": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("an Apply of 9 as unwatched while a watch of 9 is stored (-want +got):\n%s\n(Apply: %v)", diff, applyErr)
	}
}

// TestDeleteWatchQueuesBehindUnwatchedApplyPostgres: an Apply that holds
// SHARE on watch_companies (its Batch.Unwatched) and records a change of
// a watched company locks the watch's row (FOR KEY SHARE) before it
// queues the delivery. DeleteWatch takes ROW EXCLUSIVE on
// watch_companies before it deletes the watch's row, so it waits for the
// Apply without holding that row: both finish, the delivery deleted with
// its watch. Deleting the row first, its cascade on watch_companies
// waited for the Apply's SHARE while the Apply waited for the row: a
// deadlock (the test makes deadlock_timeout long to see the cycle).
//
// The Apply is held after its check by a transaction holding alice's
// feed entry of position 1, which its feed insert waits for.
func TestDeleteWatchQueuesBehindUnwatchedApplyPostgres(t *testing.T) {
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
	w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/1", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	tx, pid := begin(t, db, "INSERT INTO feed_entries (owner, seq) VALUES ('alice', 1)")
	applied := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{
			Changes:   []changes.Change{nameChange("1", t0.Add(1e9)), nameChange("9", t0.Add(1e9))},
			Unwatched: []changes.CompanyRef{{Country: "NO", CompanyID: "9"}},
			Cursors:   map[string]string{"no/enheter": "after"},
		})
		applied <- err
	}()
	applyPid := waitBlocked(t, db, "INSERT INTO feed_entries", pid, applied)
	deleted := make(chan error, 1)
	go func() { deleted <- s.DeleteWatch(ctx, "alice", w.ID) }()
	testwait.Until(t, "DeleteWatch waiting for the Apply", func() bool {
		select {
		case err := <-deleted:
			t.Fatalf("DeleteWatch did not wait for the Apply: %v", err)
		default:
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND (starts_with(query, 'LOCK TABLE watch_companies') OR starts_with(query, 'DELETE FROM watches'))
      AND $1 = ANY(pg_blocking_pids(pid))`, applyPid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	})
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
		var other int
		err := db.QueryRowContext(ctx, `SELECT p.pid FROM pg_stat_activity p
    WHERE p.datname = current_database() AND starts_with(p.query, 'DELETE FROM watches')
      AND p.pid = ANY(pg_blocking_pids($1)) AND $1 = ANY(pg_blocking_pids(p.pid))`, applyPid).Scan(&other)
		if err == nil {
			cycle = true
			if _, err := db.ExecContext(ctx, "SELECT pg_cancel_backend($1)", other); err != nil {
				t.Fatal(err)
			}
		}
		return cycle
	})
	if !finished {
		applyErr = <-applied
	}
	deleteErr := <-deleted
	got := map[string]any{"wait cycle": cycle, "apply failed": applyErr != nil, "delete failed": deleteErr != nil}
	if diff := cmp.Diff(map[string]any{"wait cycle": false, "apply failed": false, "delete failed": false}, got); diff != "" {
		t.Errorf("an Apply with unwatched companies and a DeleteWatch of a watcher (-want +got):\n%s\n(Apply: %v; DeleteWatch: %v)", diff, applyErr, deleteErr)
	}
}
