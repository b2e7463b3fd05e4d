package sqlstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// feedOf lists the owner's feed as "company kind" lines.
func feedOf(t *testing.T, s *sqlstore.Store, owner string) []string {
	t.Helper()
	feed, _, err := s.Changes(context.Background(), owner, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range feed {
		got = append(got, c.CompanyID+" "+string(c.Kind))
	}
	return got
}

// holdApplyAtFeedInsert starts an Apply of a name change of company 1,
// held at its feed insert by a test transaction on alice's entry of
// position 1 (as TestReview_Sweep12bDeletedWatchStillGetsTheFeedEntry
// does), runs meanwhile (each call returning before the Apply goes on),
// then lets the Apply go on and waits for it.
func holdApplyAtFeedInsert(t *testing.T, s *sqlstore.Store, url string, meanwhile func()) {
	t.Helper()
	ctx := context.Background()
	before := changes.Snapshot{Country: "NO", CompanyID: "1", Report: json.RawMessage(`{"name":"FIRST ASA"}`), TakenAt: t0}
	if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{before}}); err != nil {
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
	meanwhile()
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestApplyDropsOnlyTheDeletedWatchesFeedEntriesPostgres: when watches
// are deleted while an Apply waits at its feed insert (held there by a
// test transaction on alice's entry of position 1, as
// TestReview_Sweep12bDeletedWatchStillGetsTheFeedEntry does), the Apply
// leaves out of the feed only the owners none of whose watches of the
// company, of a kind the change has, is still stored: dave, whose one
// watch went, gets no entry; alice, who keeps a second watch of the
// company, keeps hers; erin, whose other watch asks for address changes
// only, gets none; frank's disabled watch went, and his entry with it;
// bob is untouched. Deliveries go to the watches still stored only.
func TestApplyDropsOnlyTheDeletedWatchesFeedEntriesPostgres(t *testing.T) {
	s, url := openPostgres(t)
	ctx := context.Background()
	watches := []changes.Watch{
		{ID: "wch_a_gone", Owner: "alice"},
		{ID: "wch_a_kept", Owner: "alice"},
		{ID: "wch_b", Owner: "bob"},
		{ID: "wch_d_gone", Owner: "dave"},
		// erin's other watch of company 1 asks for address changes only:
		// it gives no name change (rev-feed13: the kinds in the check).
		{ID: "wch_e_gone", Owner: "erin"},
		{ID: "wch_e_addr", Owner: "erin", Kinds: []changes.Kind{changes.KindAddressChanged}},
		// frank's watch is disabled: it has feed entries but no
		// deliveries, and is locked and judged all the same.
		{ID: "wch_f_gone", Owner: "frank"},
	}
	for _, w := range watches {
		w.Country, w.IDs, w.URL, w.CreatedAt = "NO", []string{"1"}, "https://hooks.example.com/"+w.ID, t0
		if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rawDB(t, url).Exec("UPDATE watches SET disabled_at = 1, disabled_reason = 'test' WHERE id = 'wch_f_gone'"); err != nil {
		t.Fatal(err)
	}
	holdApplyAtFeedInsert(t, s, url, func() {
		for _, w := range []changes.Watch{watches[0], watches[3], watches[4], watches[6]} {
			if err := s.DeleteWatch(ctx, w.Owner, w.ID); err != nil {
				t.Fatalf("DeleteWatch(%s) while an Apply waits: %v", w.ID, err)
			}
		}
	})
	got := map[string]any{}
	for _, owner := range []string{"alice", "bob", "dave", "erin", "frank"} {
		got["feed of "+owner] = feedOf(t, s, owner)
	}
	for _, w := range watches {
		ds, err := s.Deliveries(ctx, w.Owner, w.ID, 10)
		switch {
		case errors.Is(err, changes.ErrNotFound):
			got["deliveries of "+w.ID] = "no watch"
		case err != nil:
			t.Fatal(err)
		default:
			got["deliveries of "+w.ID] = len(ds)
		}
	}
	want := map[string]any{
		"feed of alice": []string{"1 name_changed"},
		"feed of bob":   []string{"1 name_changed"},
		"feed of dave":  []string(nil),
		"feed of erin":  []string(nil),
		"feed of frank": []string(nil),

		"deliveries of wch_a_gone": "no watch",
		"deliveries of wch_a_kept": 1,
		"deliveries of wch_b":      1,
		"deliveries of wch_d_gone": "no watch",
		"deliveries of wch_e_gone": "no watch",
		"deliveries of wch_e_addr": 0,
		"deliveries of wch_f_gone": "no watch",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after four watches were deleted while the Apply waited at its feed insert (-want +got):\n%s", diff)
	}
}
