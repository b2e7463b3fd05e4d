package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_StaleInternalRetryStampsALaterChange (doc/decisions.md,
// "internal_error of a watched company is tried again a few times":
// recheck "records its change with the item's source event and time"):
// item 100 of a unit fails with internal_error and waits in the retry
// list; its retry fails again, and the unit's newer item 101, in the same
// sync, is fetched and recorded. The retry of 100 is not dropped: it
// stands for nothing now (101's fetch covered it), yet it is fetched again
// at the next sync, before the feed is read, and takes the change that
// item 102 announces: the change goes out with source event enheter/100
// and 100's registered time, older than the change of 101 recorded
// before it, and item 102's own fetch finds nothing.
func TestReview_StaleInternalRetryStampsALaterChange(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	ie := failing(registry.CodeInternalError)
	f.set("NO", noA, ie, ie, ok(report("NO", noA, "A TO AS")), ok(report("NO", noA, "A TRE AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil { // 100 fails: retry
		t.Fatal(err)
	}
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:00:30.000Z"))
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil { // 100's retry fails; 101 recorded
		t.Fatal(err)
	}
	srv.add(t, "enheter", unitItem(102, noA, "2026-09-01T12:01:30.000Z"))
	if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{
		renamed(noA, "A AS", "A TO AS", "enheter/101", time.Date(2026, 9, 1, 12, 0, 30, 0, time.UTC)),
		renamed(noA, "A TO AS", "A TRE AS", "enheter/102", time.Date(2026, 9, 1, 12, 1, 30, 0, time.UTC)),
	}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	// 100, its retry, 101, 102: the retry of 100 after 101 was recorded
	// stands for nothing.
	if got := f.count("NO", noA); got != 4 {
		t.Errorf("%d fetches, want 4", got)
	}
}
