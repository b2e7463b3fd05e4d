package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReview_EmptyListErasesAnOldLeadersRetry (e8047ec, Norway.process:
// "The value goes with every Apply (an old leader's late write is put
// right, even by an empty list: rev-last5)"): the empty list now also
// erases a retry the old leader's late Apply stored together with the
// feed cursor that moves past its item. The new leader n loaded the
// retries (none) and read enheter up to 100 before the register published
// item 100 of A; the old leader's late Apply stores NO/enheter=101 and
// A's retry (its fetch for item 100 failed with internal_error). n reads
// on from 101, the old leader's cursor, so it never sees item 100, and
// its next page's Apply writes NO/retry="" (its list, loaded before the
// late Apply): the retry is gone and no one ever fetches A for item 100.
// A's rename is never recorded, not after a restart either. Before
// e8047ec the empty list was not written (value "" == retryStored ""), the
// retry stayed stored and the next lead (here a restart) fetched A and
// recorded the rename under enheter/100.
func TestReview_EmptyListErasesAnOldLeadersRetry(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory() // n leads; nothing published after 100 yet
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// The register publishes item 100 of A; the old leader, still in its
	// sync, read it, its fetch failed with internal_error, and its late
	// Apply lands: the page's cursor and A's retry.
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	late, err := encodeRetries([]heldItem{{orgnr: noA, published: &noAt100, seen: t0, eventID: "enheter/100", attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	setCursors(t, st, "NO/enheter", "101", "NO/retry", late)
	// n's next sync reads on from 101 and stores a page (an unwatched
	// company's item).
	srv.add(t, "enheter", unitItem(101, noC, "2026-09-01T12:00:30.000Z"))
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A's retry is still stored, or n took it in and its recheck
	// recorded the change already (adoptForeign before recheck).
	if got := storedNorwayRetries(t, st); len(got) == 0 && len(companyChanges(t, st, "NO", noA)) == 0 {
		t.Errorf("stored retries after the new leader's page: none, and no change of A; want A's retry of the old leader's page (no one else fetches A for item 100)")
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
