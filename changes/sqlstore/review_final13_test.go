package sqlstore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestReview_Final13ApplyDocOmitsTheKinds (PostgreSQL): Store.Apply's doc
// says that when a DeleteWatch commits while the Apply runs, "its owner's
// feed entry is deleted again unless another of the owner's watches of
// the company is still stored". dropFeedEntries (rightly, as Changes' doc
// and decisions.md say) also asks that other watch to include the
// change's kind: erin, whose other watch of company 1 (address changes
// only) is still stored, loses the name change's entry. The same promise,
// without the kinds, is in TestApplyDropsOnlyTheDeletedWatchesFeedEntriesPostgres's
// doc ("only the owners none of whose watches of the company is still
// stored"), whose own erin case contradicts it. This test asserts what
// Apply's doc says and fails; the fix is to the doc: "unless another of
// the owner's watches of the company, of a kind the change has, is still
// stored or was stored since".
func TestReview_Final13ApplyDocOmitsTheKinds(t *testing.T) {
	s, url := openPostgres(t)
	ctx := context.Background()
	for _, w := range []changes.Watch{
		{ID: "wch_a", Owner: "alice"}, // holds the Apply at its feed insert
		{ID: "wch_e_gone", Owner: "erin"},
		{ID: "wch_e_addr", Owner: "erin", Kinds: []changes.Kind{changes.KindAddressChanged}},
	} {
		w.Country, w.IDs, w.URL, w.CreatedAt = "NO", []string{"1"}, "https://hooks.example.com/"+w.ID, t0
		if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
			t.Fatal(err)
		}
	}
	first := changes.Snapshot{Country: "NO", CompanyID: "1", Report: json.RawMessage(`{"name":"FIRST ASA"}`), TakenAt: t0}
	if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{first}}); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, url)
	tx, pid := begin(t, db, "INSERT INTO feed_entries (owner, seq) VALUES ('alice', 1)")
	done := make(chan error, 1)
	go func() {
		_, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0.Add(1e9))}})
		done <- err
	}()
	waitBlocked(t, db, "INSERT INTO feed_entries", pid, done)
	if err := s.DeleteWatch(ctx, "erin", "wch_e_gone"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Apply's doc: erin's wch_e_addr, a watch of company 1, is still
	// stored, so her entry is not deleted.
	want := []string{"1 name_changed"}
	if diff := cmp.Diff(want, feedOf(t, s, "erin")); diff != "" {
		t.Errorf("erin's feed, her other watch of the company still stored, as Apply's doc says (-want +got):\n%s", diff)
	}
}
