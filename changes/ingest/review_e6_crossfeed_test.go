package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReview_EarlierFeedApplyErasesForeignRetry (e851644, norway.go
// syncFeed / norway_retry.go adoptForeign): a replica adopts another
// replica's late write only when it reaches that feed, but every Apply it
// makes before (here: the enheter page, read before roller) stores its own
// list as NO/retry first. The new leader n has read every feed; the old
// leader's late Apply of a roller page lands (NO/roller=5 and A's retry of
// roller/5, whose fetch failed there with internal_error). n's next sync
// stores an enheter page (an unwatched company's item) with its own list
// (none), erasing A's retry; when it reaches roller, adoptForeign sees the
// foreign cursor but reads the list n just wrote: nothing to adopt. n reads
// roller from 5 and never sees event 5: A's rename is never recorded, not
// after a restart either. rev-e5's loss, for any feed but the first.
func TestReview_EarlierFeedApplyErasesForeignRetry(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory() // n leads
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// The old leader's late Apply of its roller page: the cursor past
	// event 5 of A and A's retry.
	late, err := encodeRetries([]heldItem{{orgnr: noA, published: &noAt100, seen: t0, eventID: "roller/5", attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	setCursors(t, st, "NO/roller", "5", "NO/retry", late)
	// n's next sync stores an enheter page before it reaches roller.
	srv.add(t, "enheter", unitItem(100, noC, "2026-09-01T12:00:30.000Z"))
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	restarted := newTestNorway(t, st, f, srv)
	if err := restarted.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "roller/5", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("A's changes after the restart (-want +got):\n%s", diff)
	}
}
