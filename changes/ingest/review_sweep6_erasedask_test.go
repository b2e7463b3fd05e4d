package ingest

import (
	"context"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// hookFetcher runs a function before the fetch of one company: the test's
// stand-in for what another goroutine of the same replica does while a
// sync of the Poller is under way.
type hookFetcher struct {
	*fakeFetcher
	id   string
	hook func()
}

func (h *hookFetcher) Fetch(ctx context.Context, country, id string) (changes.Snapshot, error) {
	if id == h.id && h.hook != nil {
		h.hook()
		h.hook = nil
	}
	return h.fakeFetcher.Fetch(ctx, country, id)
}

// TestReview_SweepAskStoredDuringASyncIsErased (rev-sweep6, b150ec0):
// Poller.Sync reads GB/sweep once, at its start, and its first Apply
// writes GB/sweep = "" whatever the store holds by then. Under one Leader
// the stream's flush runs concurrently with that sync (up to applyEvery
// fetches, minutes on a spent budget, lie between the read and the
// Apply). A second ask the stream stores meanwhile (another stream's 416,
// a stream restarted without a timepoint), in the same Apply as its
// timepoint past that second gap, is erased by the poller's clearing
// Apply: the store no longer says a sweep is owed while the timepoint is
// already past the gap. The ask survives only in this replica's memory
// (RequestSweep), which is exactly the state rev-whole6's
// TestReview_SweepAskedByAResetIsLostAtFailover showed lost when the lease
// moves: replica B's Poller finds no ask and never fetches A again, A
// having been fetched before the second gap ended.
func TestReview_SweepAskStoredDuringASyncIsErased(t *testing.T) {
	t.Parallel()
	st, ff := newMemStore(), newFakeFetcher()
	for _, id := range []string{gbA, gbB} {
		rep := report("GB", id, "LTD "+id)
		ff.set("GB", id, ok(rep))
		watch(t, st, "GB", []string{id}, snapshot(rep, nil))
	}
	// The first ask, stored by a stream's flush.
	setCursors(t, st, "GB/stream/companies", "", "GB/sweep", "1")
	f := &hookFetcher{fakeFetcher: ff, id: gbB}
	pA := newTestPoller(t, st, f, "GB", WithSweepOnly())
	// While replica A's Poller sweeps (A fetched, B next), A's stream
	// gets a second reset: it asks A's Poller in memory (handle) and its
	// flush stores the ask with its timepoint past the second gap.
	f.hook = func() {
		pA.RequestSweep()
		// Since the fix the stream stores a new token with each ask (the
		// lead, adapting the stand-in to it).
		setCursors(t, st, "GB/stream/officers", "5000", "GB/sweep", "2")
	}
	if err := pA.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if got := cursor(t, st, "GB/sweep"); got != "2" {
		t.Errorf("GB/sweep after the sync %q, want \"2\": the ask stored after the sync read it was erased by the sync's Apply", got)
	}
	// The lease moves to replica B before A's Poller syncs again.
	pB := newTestPoller(t, st, ff, "GB", WithSweepOnly())
	before := ff.count("GB", gbA)
	if err := pB.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := ff.count("GB", gbA) - before; got != 1 {
		t.Errorf("replica B's Poller fetched A %d times, want 1 (the sweep the second reset asked for)", got)
	}
}
