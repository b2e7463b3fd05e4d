package sqlstore_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestReview_Last13ApplyDocNarrowedWatchKeepsEntry (PostgreSQL): Apply's
// doc (874fc51) says a deleted watch's owner's feed entry "is deleted again
// unless another of the owner's watches of the company, of a kind the
// change has, is still stored or was stored since" (sqlstore's doc.go and
// the CHANGELOG's Fixed entry say the same). dropFeedEntries keeps the
// entry for any watch of the first read that is not gone, judged by the
// kinds and companies that read gave (rightly: rev-lead13, entry and
// delivery together). While an Apply of a name change of company 1 waits
// at its feed insert, erin narrows her second watch to address changes
// ("narrowed") or takes company 1 out of it ("company removed"), then
// deletes her first. At the lock no watch of erin's is of company 1 and of
// a name change, so the doc says her entry is deleted; the code keeps it,
// and wch_e2's delivery with it: the doc's promise is the entry/delivery
// split that TestReview_Lead13RereadSplitsEntryFromDelivery calls a bug.
// This test asserted the doc and failed; the doc is fixed, and want now
// pins the code's outcome. Suggested fix is to the doc ("unless
// another of the owner's watches the Apply read as giving it is still
// stored, or one of the company and the change's kind was stored or
// widened since"); then flip want to {"1 name_changed"}, which pins the
// first read's arm for a watch narrowed meanwhile.
func TestReview_Last13ApplyDocNarrowedWatchKeepsEntry(t *testing.T) {
	addressOnly := []changes.Kind{changes.KindAddressChanged}
	for name, update := range map[string]changes.WatchUpdate{
		"narrowed":        {Kinds: &addressOnly},
		"company removed": {RemoveIDs: []string{"1"}},
	} {
		t.Run(name, func(t *testing.T) {
			s, url := openPostgres(t)
			ctx := context.Background()
			for _, w := range []changes.Watch{
				{ID: "wch_a", Owner: "alice", IDs: []string{"1"}}, // holds the Apply (holdApplyAtFeedInsert)
				{ID: "wch_e_gone", Owner: "erin", IDs: []string{"1"}},
				{ID: "wch_e2", Owner: "erin", IDs: []string{"1", "2"}},
			} {
				w.Country, w.URL, w.CreatedAt = "NO", "https://hooks.example.com/"+w.ID, t0
				if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
					t.Fatal(err)
				}
			}
			holdApplyAtFeedInsert(t, s, url, func() {
				if _, err := s.UpdateWatch(ctx, "erin", "wch_e2", update, nil); err != nil {
					t.Fatalf("UpdateWatch while an Apply waits: %v", err)
				}
				if err := s.DeleteWatch(ctx, "erin", "wch_e_gone"); err != nil {
					t.Fatalf("DeleteWatch while an Apply waits: %v", err)
				}
			})
			// Apply's doc: no watch of erin's of company 1 and of a name
			// change is still stored, none was stored since.
			want := []string{"1 name_changed"} // the doc fixed (lead): entry kept with its delivery
			if diff := cmp.Diff(want, feedOf(t, s, "erin")); diff != "" {
				t.Errorf("erin's feed, as Apply's doc says (-want +got):\n%s", diff)
			}
		})
	}
}
