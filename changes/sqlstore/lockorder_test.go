package sqlstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/companyregistry/registry/changes"
	"github.com/google/go-cmp/cmp"
)

// TestApplyLocksSnapshotsInKeyOrderPostgres: Apply locks the snapshot
// rows it writes in key order before it writes, as CreateWatch and
// UpdateWatch do, so that an Apply and a watch's write of two companies
// never wait for each other, each holding a row the other waits for.
// PostgreSQL breaks such a deadlock by failing one of them, and the
// store's write tries a transaction three times: on a busy server a
// CreateWatch could fail. Apply wrote its snapshots in the batch's order
// (a Norway page's, a poller's schedule), and this test found the
// deadlock.
//
// A transaction (as CreateWatch) locks company 1's row; an Apply whose
// batch lists 2 before 1 then waits for 1; the transaction locks 2 next,
// with a short deadlock timeout, so that it is the one PostgreSQL fails
// should the Apply hold 2: it must get 2 at once, and the Apply must
// then store both.
func TestApplyLocksSnapshotsInKeyOrderPostgres(t *testing.T) {
	s, url := openPostgres(t)
	ctx := context.Background()
	snap := func(id, name string) changes.Snapshot {
		return changes.Snapshot{Country: "NO", CompanyID: id, Report: json.RawMessage(`{"name":"` + name + `"}`), TakenAt: t0}
	}
	if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{snap("1", "one"), snap("2", "two")}}); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, url)
	tx, pid := begin(t, db, "SELECT company_id FROM snapshots WHERE country = 'NO' AND company_id = '1' FOR UPDATE")
	if _, err := tx.ExecContext(ctx, "SET LOCAL deadlock_timeout = '10ms'"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{snap("2", "two b"), snap("1", "one b")}})
		done <- err
	}()
	waitBlocked(t, db, "", pid, done)
	if _, err := tx.ExecContext(ctx, "SELECT company_id FROM snapshots WHERE country = 'NO' AND company_id = '2' FOR UPDATE"); err != nil {
		t.Fatalf("the second row, locked in key order while an Apply waits for the first: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, id := range []string{"1", "2"} {
		sn, err := s.Snapshot(ctx, "NO", id)
		if err != nil {
			t.Fatal(err)
		}
		got[id] = string(sn.Report)
	}
	if diff := cmp.Diff(map[string]string{"1": `{"name":"one b"}`, "2": `{"name":"two b"}`}, got); diff != "" {
		t.Errorf("snapshots after the Apply (-want +got):\n%s", diff)
	}
}

// TestApplyExpectedAbsentRacesBaselinePostgres: an Apply that expects a
// company to have no snapshot finds none (another transaction's insert,
// a watch's baseline, is not committed yet) and has no row to lock; its
// insert then waits for the other's and, once that commits, stores
// nothing: the Apply fails with the company named, and the baseline
// stays.
func TestApplyExpectedAbsentRacesBaselinePostgres(t *testing.T) {
	s, url := openPostgres(t)
	ctx := context.Background()
	db := rawDB(t, url)
	tx, pid := begin(t, db, `INSERT INTO snapshots (country, company_id, report, roles, taken_at, misses, roles_misses)
    VALUES ('NO', '3', '{"name":"baseline"}', NULL, 0, 0, 0)`)
	done := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{
			Expect:    []changes.ExpectedSnapshot{{Country: "NO", CompanyID: "3"}},
			Snapshots: []changes.Snapshot{{Country: "NO", CompanyID: "3", Report: json.RawMessage(`{"name":"first read"}`), TakenAt: t0}},
			Cursors:   map[string]string{"no/poll": "after"},
		})
		done <- err
	}()
	waitBlocked(t, db, "INSERT INTO snapshots", pid, done)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var sc *changes.SnapshotChangedError
	if err := <-done; !errors.As(err, &sc) {
		t.Fatalf("Apply: %v, want a *changes.SnapshotChangedError", err)
	}
	sn, err := s.Snapshot(ctx, "NO", "3")
	if err != nil {
		t.Fatal(err)
	}
	cur, err := s.Cursor(ctx, "no/poll")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{"companies": sc.Companies, "report": string(sn.Report), "cursor": cur}
	want := map[string]any{"companies": []changes.CompanyRef{{Country: "NO", CompanyID: "3"}}, "report": `{"name":"baseline"}`, "cursor": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after the Apply (-want +got):\n%s", diff)
	}
}
