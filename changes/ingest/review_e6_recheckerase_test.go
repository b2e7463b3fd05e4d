package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_RecheckApplyErasesForeignRetry (e851644, norway.go Sync:
// recheck runs before the feeds, and adoptForeign runs in syncFeed):
// recheck Applies this replica's list as NO/retry before any feed's
// adoptForeign has looked at the stored cursors. The new leader n holds a
// retry of B (its fetch for enheter/99 failed with internal_error). The
// old leader's late Apply lands: NO/enheter=101 and A's retry of
// enheter/100, an item n never read. n's next sync rechecks B (it
// succeeds) and stores the list without B, "" , erasing A's retry; its
// enheter adoptForeign then sees the foreign cursor 101 but reads "":
// nothing to adopt. n reads on from 101 and never sees item 100: A's
// rename is never recorded, not after a restart either. The same holds
// for a late Apply that lands after loadRetries and before the first
// recheck of a lead.
func TestReview_RecheckApplyErasesForeignRetry(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, st, "NO", []string{noA, noB}, snapshot(report("NO", noA, "A AS"), nil), snapshot(report("NO", noB, "B AS"), nil))
	setCursors(t, st, "NO/enheter", "99", "NO/underenheter", "1", "NO/roller", "1")
	srv.add(t, "enheter", unitItem(99, noB, "2026-09-01T11:59:39.000Z"))
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
	f.set("NO", noB, failing(registry.CodeInternalError), ok(report("NO", noB, "B NY AS")))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory() // n leads
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if got := cursor(t, st, "NO/enheter"); got != "100" {
		t.Fatalf("enheter cursor after the first sync %q, want 100", got)
	}
	// The register publishes item 100 of A; the old leader read it, its
	// fetch failed with internal_error, and its late Apply lands.
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	late, err := encodeRetries([]heldItem{{orgnr: noA, published: &noAt100, seen: t0, eventID: "enheter/100", attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	setCursors(t, st, "NO/enheter", "101", "NO/retry", late)
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	restarted := newTestNorway(t, st, f, srv)
	if err := restarted.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("A's changes after the restart (-want +got):\n%s", diff)
	}
}
