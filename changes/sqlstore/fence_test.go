package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/google/go-cmp/cmp"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of the test's own connections
)

// The lease fence of Apply on PostgreSQL is ordered with the other
// replicas' lease writes by the lease row's lock (changes.Store.Apply,
// "serialized with AcquireLease and ReleaseLease"; doc.go). The test
// holds a transaction open on a connection of its own at the point it
// wants the others to stand, and waits (without sleeping) until
// PostgreSQL reports the next statement blocked by the expected backend.
func TestApplyFenceOrderedWithTakeoverPostgres(t *testing.T) {
	ctx := context.Background()
	fence := &changes.LeaseFence{Name: "ingest", Holder: "a"}

	// An Apply that passed the fence holds the lease row until it commits:
	// another replica's AcquireLease waits for it, then takes the lease
	// (run out by its clock); the Apply is recorded, ordered before the
	// takeover, and a's next Apply is refused.
	t.Run("ApplyFirst", func(t *testing.T) {
		s, url := openPostgres(t)
		other := openReplica(t, url)
		raw := rawDB(t, url)
		acquire(t, s, "a", t0)
		// Hold the feed's counter row, which Apply locks after the fence.
		blocker, blockerPID := begin(t, raw, "SELECT last_seq FROM feed_state WHERE id = 1 FOR UPDATE")
		applied := make(chan error, 1)
		go func() {
			_, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)},
				Cursors: map[string]string{"no/enheter": "a"}, Lease: fence})
			applied <- err
		}()
		applyPID := waitBlocked(t, raw, "UPDATE feed_state", blockerPID, applied)
		took := make(chan error, 1)
		var held bool
		go func() {
			var err error
			held, err = other.AcquireLease(ctx, "ingest", "b", t0.Add(time.Hour), 30*time.Second)
			took <- err
		}()
		waitBlocked(t, raw, "INSERT INTO leases", applyPID, took)
		if err := blocker.Rollback(); err != nil {
			t.Fatal(err)
		}
		if err := testwait.Recv(t, applied, "the Apply"); err != nil {
			t.Fatalf("Apply that passed the fence before the takeover: %v", err)
		}
		if err := testwait.Recv(t, took, "the takeover"); err != nil || !held {
			t.Fatalf("takeover after the Apply: held %v, %v", held, err)
		}
		if got, err := s.CompanyChanges(ctx, "NO", "1", 10); err != nil || len(got) != 1 {
			t.Errorf("changes recorded: %d, %v; want the Apply's one", len(got), err)
		}
		if _, err := s.Apply(ctx, changes.Batch{Cursors: map[string]string{"no/enheter": "late"}, Lease: fence}); !errors.Is(err, changes.ErrLeaseLost) {
			t.Errorf("Apply of the replaced holder: %v, want ErrLeaseLost", err)
		}
		cursorIs(t, s, "a")
	})

	// The reverse: another replica's change of the holder, not yet
	// committed, holds the lease row (a takeover, or the new holder's
	// release); an Apply of the replaced holder waits for it and reads the
	// row as it committed: refused, nothing written.
	for _, tc := range []struct{ name, stmt string }{
		{"TakeoverFirst", "UPDATE leases SET holder = 'b', expires_at = expires_at + 3600000000 WHERE name = 'ingest' RETURNING holder"},
		{"ReleaseFirst", "DELETE FROM leases WHERE name = 'ingest' RETURNING holder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, url := openPostgres(t)
			raw := rawDB(t, url)
			acquire(t, s, "a", t0)
			change, changePID := begin(t, raw, tc.stmt)
			applied := make(chan error, 1)
			go func() {
				_, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)},
					Cursors: map[string]string{"no/enheter": "a"}, Lease: fence})
				applied <- err
			}()
			waitBlocked(t, raw, "SELECT holder FROM leases", changePID, applied)
			if err := change.Commit(); err != nil {
				t.Fatal(err)
			}
			if err := testwait.Recv(t, applied, "the Apply"); !errors.Is(err, changes.ErrLeaseLost) {
				t.Fatalf("Apply of the holder replaced meanwhile: %v, want ErrLeaseLost", err)
			}
			if got, err := s.CompanyChanges(ctx, "NO", "1", 10); err != nil || len(got) != 0 {
				t.Errorf("changes recorded by a refused Apply: %d, %v", len(got), err)
			}
			cursorIs(t, s, "")
		})
	}
}

// openReplica opens a second store (its own pool) on the database at url.
func openReplica(t *testing.T, url string) *sqlstore.Store {
	t.Helper()
	s, err := sqlstore.OpenPostgres(context.Background(), url, sqlstore.WithMaxConns(2))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// rawDB is a pool of the test's own on the database at url.
func rawDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func acquire(t *testing.T, s *sqlstore.Store, holder string, at time.Time) {
	t.Helper()
	if held, err := s.AcquireLease(context.Background(), "ingest", holder, at, 30*time.Second); err != nil || !held {
		t.Fatalf("AcquireLease(%s): %v, %v", holder, held, err)
	}
}

func cursorIs(t *testing.T, s *sqlstore.Store, want string) {
	t.Helper()
	got, err := s.Cursor(context.Background(), "no/enheter")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cursor (-want +got):\n%s", diff)
	}
}

// begin opens a transaction on db, runs stmt in it (its rows, if any,
// read and dropped) and returns it open, with its backend's pid.
func begin(t *testing.T, db *sql.DB, stmt string) (*sql.Tx, int) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback() })
	var pid int
	if err := tx.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	rows, err := tx.QueryContext(ctx, stmt)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		t.Fatal(err)
	}
	return tx, pid
}

// waitBlocked waits until PostgreSQL reports a backend running a
// statement that starts with prefix blocked by the backend blocker, and
// returns its pid. The goroutine running the statement reports on done:
// a statement that finishes instead of waiting fails the test at once.
func waitBlocked(t *testing.T, db *sql.DB, prefix string, blocker int, done <-chan error) int {
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
    WHERE datname = current_database() AND starts_with(query, $1) AND $2 = ANY(pg_blocking_pids(pid))`, prefix, blocker).Scan(&pid)
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
