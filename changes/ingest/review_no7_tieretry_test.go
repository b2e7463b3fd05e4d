package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_RetryOfTheSameTimeStampsTheNewerItemsChangeAfterAFailedApply
// (rev-no7, review of 4b63b6e): Norway.readAgain moves a company's retry
// onto its item on a page whose Apply failed only when the item was
// published strictly after the retry (publishedAfter(r, h)). A stored page
// settles ties the other way: Norway.settle drops the retry of a company
// the page handled and keeps it over a requeued item only when the retry
// is strictly later (publishedAfter(h, r)), and recheck tells two items of
// one time apart by their order (the later read is the later item). So
// when enheter/101 carries the same dato as the retried enheter/100 (one
// register transaction, or no readable dato on either: parseTime gives
// nil), the failed Apply leaves the retry of 100, the next recheck fetches
// the company for it and records the rename 101 found under enheter/100:
// the rule the commit states ("the next recheck never stamps the newer
// item's change with the stale retry's older event", doc/decisions.md
// rev-fix7, and rev-ie's "a stale retry must not record a later item's
// change under its own older event") broken on the wire (source_event_id).
// The "stored page" case is the reference: the same feed with no failed
// Apply records the rename under enheter/101.
func TestReview_RetryOfTheSameTimeStampsTheNewerItemsChangeAfterAFailedApply(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 9, 1, 12, 0, 30, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		dato      string
		at        time.Time
		failApply bool
		fetched   bool // 101's own fetch fails with internal_error too
	}{
		{name: "stored page", dato: "2026-09-01T12:00:30.000Z", at: at},
		{name: "same dato", dato: "2026-09-01T12:00:30.000Z", at: at, failApply: true},
		{name: "same dato, 101's fetch fails", dato: "2026-09-01T12:00:30.000Z", at: at, failApply: true, fetched: true},
		{name: "no dato", dato: "", failApply: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
			st := &unitsApplyFails{memStore: ms}
			srv.add(t, "enheter", unitItem(100, noA, tc.dato))
			watch(t, ms, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
			ie, read := failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS"))
			// 100 fails; its recheck fails; 101's fetch works (or fails);
			// then every fetch works.
			script := []answer{ie, ie, read, read, read}
			if tc.fetched {
				script = []answer{ie, ie, ie, read, read}
			}
			f.set("NO", noA, script...)
			setCursors(t, ms, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
			n := newTestNorway(t, st, f, srv)
			if err := n.Sync(t.Context(), t0); err != nil { // 100 fails: a retry
				t.Fatal(err)
			}
			srv.add(t, "enheter", unitItem(101, noA, tc.dato))
			st.failPage.Store(tc.failApply)
			if err := n.Sync(t.Context(), t0.Add(time.Minute)); (err != nil) != tc.failApply {
				t.Fatalf("sync with the page of 101: %v", err)
			}
			st.failPage.Store(false)
			if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
				t.Fatal(err)
			}
			want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/101", tc.at)}
			if diff := cmp.Diff(want, notedOf(companyChanges(t, ms, "NO", noA))); diff != "" {
				t.Errorf("changes (-want +got): 101's rename stamped with the retry of 100, as a stored page never does\n%s", diff)
			}
		})
	}
}
