package sqlstore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestReview_Sweep12bDeletedWatchStillGetsTheFeedEntry (PostgreSQL):
// fix-sweep12b's stillStored locks the watchers' rows after the feed
// entries are inserted and leaves out only the deliveries of a watch
// deleted since watchersOf read it. Its owner's feed entry, inserted
// from the same stale read, stays: a DeleteWatch that commits while the
// Apply waits at the feed insert (held there by a test transaction on
// alice's entry of position 1, as rev-sweep12's proof does) leaves alice,
// who watches nothing, with the change of company 1 recorded after her
// watch was gone, in her feed (Store.Changes: "changes of companies in
// the owner's watches, recorded while they were watched"; DeleteWatch's
// doc: the changes "already in the owner's feed stay").
func TestReview_Sweep12bDeletedWatchStillGetsTheFeedEntry(t *testing.T) {
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
	db := rawDB(t, url)
	tx, pid := begin(t, db, "INSERT INTO feed_entries (owner, seq) VALUES ('alice', 1)")
	done := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0.Add(1e9))}, Cursors: map[string]string{"no/poll": "after"}})
		done <- err
	}()
	waitBlocked(t, db, "INSERT INTO feed_entries", pid, done)
	if err := s.DeleteWatch(ctx, "alice", w.ID); err != nil {
		t.Fatalf("DeleteWatch while an Apply waits: %v", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	feed, _, err := s.Changes(ctx, "alice", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range feed {
		got = append(got, c.CompanyID+" "+string(c.Kind))
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("alice's feed after her watch was deleted before the change was recorded (-want +got):\n%s", diff)
	}
}
