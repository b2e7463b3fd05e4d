package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReview_StaleRetryOverwriteKeptWhileTheListIsEmpty (5d7e130,
// norway_retry.go retryValue: "always while there are retries, so that a
// value overwritten behind this ingester's back (a late Apply of a
// replica that led before, which no fencing stops) is put right at the
// next sync rather than read back by the next lead"): only while the new
// leader's list is non-empty. When it is empty (the usual case) and the
// old leader's late Apply lands with its own list (here: the item whose
// fetch failed on the old leader, which the new leader fetched since and
// recorded), the new leader never writes "NO/retry" again (its value ""
// equals retryStored ""), not even in the Applies of pages it stores
// anyway, and the next lead or restart reads the stale retry back. Its
// recheck fetches A under enheter/100 and finds a later rename; the store
// skips it as a duplicate (a name_changed of A under enheter/100 is
// recorded already) while the snapshot moves on, and the item that did
// announce the rename (enheter/102) finds nothing: the rename is never
// recorded nor delivered. (A change of another kind would be recorded
// under enheter/100 and 11:59:40, before the register published it: what
// rev-ie's TestReview_StaleInternalRetryStampsALaterChange calls wrong.)
func TestReview_StaleRetryOverwriteKeptWhileTheListIsEmpty(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")), ok(report("NO", noA, "A NYESTE AS")))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory() // n leads
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// The old leader's late Apply: the page it read, with item 100 of A
	// whose fetch failed there with internal_error.
	stale, err := encodeRetries([]heldItem{{orgnr: noA, published: &noAt100, seen: t0, eventID: "enheter/100", attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	setCursors(t, st, "NO/enheter", "101", "NO/retry", stale)
	// n's next sync reads and stores a page (an unwatched company's item).
	srv.add(t, "enheter", unitItem(101, noC, "2026-09-01T12:00:30.000Z"))
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := storedNorwayRetries(t, st); len(got) != 0 {
		t.Errorf("stored retries after the leader's next sync (its list is empty): %+v, want none", got)
	}
	// A is renamed again; its item comes after a restart.
	srv.add(t, "enheter", unitItem(102, noA, "2026-09-01T12:02:00.000Z"))
	restarted := newTestNorway(t, st, f, srv)
	if err := restarted.Sync(t.Context(), t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{
		renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100),
		renamed(noA, "A NY AS", "A NYESTE AS", "enheter/102", time.Date(2026, 9, 1, 12, 2, 0, 0, time.UTC)),
	}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("changes after the restart (-want +got):\n%s", diff)
	}
}
