package sqlstore_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/google/go-cmp/cmp"
)

// TestPrunePostgresWaitsForWatchBeingStored: Prune's removal of the
// snapshots no watch holds is atomic with a watch being stored on another
// replica. A transaction stores a watch of a company whose snapshot is old
// and held by no watch, and is still open when Prune runs: Prune waits for
// it (its DELETE, one statement on one snapshot of the database taken at
// its start, would otherwise not see the watch and remove the snapshot
// once the watch is stored, leaving it without a baseline that the
// service, which looked after its commit, believed kept).
func TestPrunePostgresWaitsForWatchBeingStored(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	s, url := openPostgres(t, sqlstore.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	old := changes.Snapshot{Country: "NO", CompanyID: review11Company,
		Report: json.RawMessage(`{"name":"FIRST ASA"}`), TakenAt: now.Add(-40 * 24 * time.Hour)}
	if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{old}}); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, url)
	tx, pid := begin(t, db, `INSERT INTO watches (id, owner, country, kinds, url, secret, created_at)
    VALUES ('wch_1', 'alice', 'NO', '[]', 'https://hooks.example.com/a', ''::bytea, 0)`)
	if _, err := tx.ExecContext(ctx, `INSERT INTO watch_companies (watch_id, country, company_id, pos)
    VALUES ('wch_1', 'NO', $1, 0)`, review11Company); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Prune(ctx, now.Add(-30*24*time.Hour)) }()
	waitBlocked(t, db, "LOCK TABLE watch_companies", pid, done)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got, err := s.Snapshot(ctx, "NO", review11Company)
	if err != nil {
		t.Fatalf("the watched company's snapshot after Prune: %v", err)
	}
	if diff := cmp.Diff(old, got); diff != "" {
		t.Errorf("snapshot (-want +got)\n%s", diff)
	}
}
