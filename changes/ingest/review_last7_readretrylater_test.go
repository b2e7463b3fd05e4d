package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReview_ReadRetryStampsALaterChangeWithTheFailedPagesItem (rev-last7,
// review of aa1f73f): readAgain now gives every company a failed page
// read without a retry a retry of its item, even when the read found
// nothing new. The page is read again at the next sync, but the recheck
// runs first: a change the register made since (enheter/102, 12:01:30,
// on the page read again) is found by the recheck of the appended retry
// and recorded under enheter/101 and 12:00:30, a minute before the
// register published it: the outcome rev-fix7 fixed for a stale retry
// ("kept, its recheck would record the change the newer item announced
// under the older item's event and time", Norway.readAgain's doc). Before
// aa1f73f the page read again stamped it with 102 (the "stored page"
// case, the reference, gives the same).
func TestReview_ReadRetryStampsALaterChangeWithTheFailedPagesItem(t *testing.T) {
	t.Parallel()
	at102 := time.Date(2026, 9, 1, 12, 1, 30, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		failApply bool
	}{
		{name: "stored page"},
		{name: "failed page", failApply: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
			st := &unitsApplyFails{memStore: ms}
			watch(t, ms, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
			// enheter/101's read finds nothing new.
			f.set("NO", noA, ok(report("NO", noA, "A AS")))
			setCursors(t, ms, "NO/enheter", "101", "NO/underenheter", "1", "NO/roller", "1")
			srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:00:30.000Z"))
			n := newTestNorway(t, st, f, srv)
			st.failPage.Store(tc.failApply)
			if err := n.Sync(t.Context(), t0.Add(time.Minute)); (err != nil) != tc.failApply {
				t.Fatalf("sync with the page of 101: %v", err)
			}
			st.failPage.Store(false)
			// The register renames the company at 12:01:30 (enheter/102).
			f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
			srv.add(t, "enheter", unitItem(102, noA, "2026-09-01T12:01:30.000Z"))
			if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
				t.Fatal(err)
			}
			want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/102", at102)}
			if diff := cmp.Diff(want, notedOf(companyChanges(t, ms, "NO", noA))); diff != "" {
				t.Errorf("changes (-want +got): 102's rename stamped with 101, before the register published it\n%s", diff)
			}
		})
	}
}
