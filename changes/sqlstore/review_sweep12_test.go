package sqlstore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/companyregistry/registry/changes"
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
