package sqlstore_test

import (
	"context"
	"encoding/json"
	"strings"
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

// TestCreateWatchPostgresSecondSeesFirstWatch: two replicas store watches
// of one company at once, each with a fresh baseline. The first's
// transaction (held open here: it replaced the company's stale snapshot,
// or stored its first one, and added its watch) has not committed when the
// second's CreateWatch runs: the second waits for it and then keeps the
// first's baseline, which the first's watch holds, instead of replacing
// it with its own (read committed: without the snapshot row's lock taken
// before the holders are read, the second sees no holder and replaces it).
func TestCreateWatchPostgresSecondSeesFirstWatch(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		first string // the first transaction's write of the snapshot
	}{
		{"stale", `UPDATE snapshots SET report = '{"name":"FIRST ASA"}'::bytea, taken_at = 1 WHERE company_id = '923609016'`},
		{"none", `INSERT INTO snapshots (country, company_id, report, taken_at, misses) VALUES ('NO', '923609016', '{"name":"FIRST ASA"}'::bytea, 1, 0)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, url := openPostgres(t, sqlstore.WithClock(func() time.Time { return now }))
			ctx := context.Background()
			if tc.name == "stale" {
				stale := changes.Snapshot{Country: "NO", CompanyID: review11Company, Report: json.RawMessage(`{"name":"STALE ASA"}`), TakenAt: now.Add(-time.Hour)}
				if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{stale}}); err != nil {
					t.Fatal(err)
				}
			}
			db := rawDB(t, url)
			tx, pid := begin(t, db, tc.first)
			for _, stmt := range []string{
				`INSERT INTO watches (id, owner, country, kinds, url, secret, created_at) VALUES ('wch_a', 'alice', 'NO', '[]', 'https://hooks.example.com/a', ''::bytea, 0)`,
				`INSERT INTO watch_companies (watch_id, country, company_id, pos) VALUES ('wch_a', 'NO', '923609016', 0)`,
			} {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan error, 1)
			go func() {
				w := changes.Watch{ID: "wch_b", Owner: "bob", Country: "NO", IDs: []string{review11Company}, URL: "https://hooks.example.com/b", CreatedAt: now}
				done <- s.CreateWatch(ctx, w, []byte("s"), []changes.Snapshot{{Country: "NO", CompanyID: review11Company,
					Report: json.RawMessage(`{"name":"SECOND ASA"}`), TakenAt: now}})
			}()
			waitBlocked(t, db, "", pid, done)
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			got, err := s.Snapshot(ctx, "NO", review11Company)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(`{"name":"FIRST ASA"}`, string(got.Report)); diff != "" {
				t.Errorf("the snapshot (-want +got): the first watch's baseline\n%s", diff)
			}
		})
	}
}

// TestClaimAfterClose: a claim after Close, with nothing prepared yet or
// with the look's statement prepared, is an error (the look is prepared
// outside its lock, so that Close never waits for it), and Close may run
// again.
func TestClaimAfterClose(t *testing.T) {
	ctx := context.Background()
	for _, warm := range []bool{false, true} {
		s, _ := openSQLite(t)
		if warm {
			if _, err := s.ClaimDeliveries(ctx, "w", time.Now(), 1, time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if c, err := s.ClaimDeliveries(ctx, "w", time.Now(), 1, time.Minute); err == nil {
			t.Errorf("warm %v: claim after Close: %v, no error", warm, c)
		}
		if err := s.Close(); err != nil && !strings.Contains(err.Error(), "closed") {
			t.Errorf("warm %v: second Close: %v", warm, err)
		}
	}
}
