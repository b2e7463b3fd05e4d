package ingest

import (
	"net/http"
	"testing"

	"github.com/companyregistry/registry/changes"
)

// TestReview_SweepAskedByAResetIsLostAtFailover (rev-whole6): a stream
// whose stored timepoint is too old (416) asks its sweeper for a sweep
// (the events of the gap are lost), reconnects and flushes the timepoint
// of the next event. The sweep asked lives only in the memory of this
// replica's Poller until that Poller's next Sync stores it; the stream's
// flush has already stored a timepoint past the gap. When the lease moves
// in between (this replica dies, is paused, or, since the fence, has the
// Poller's Apply refused: poller.go puts the request back in its own
// memory only), the new leader's stream connects from the stored
// timepoint (no 416, no sweep) and its Poller finds no sweep in the
// store: the watched companies whose events were in the gap are never
// compared with their baselines, and their changes are never recorded.
// Before the fence, a paused leader's late Poller Apply at least stored
// Sweep over the new leader's cursor; now the refusal drops it.
func TestReview_SweepAskedByAResetIsLostAtFailover(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {
		{status: http.StatusRequestedRangeNotSatisfiable},
		{lines: []string{eventLine(t, evCompany)}},
	}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	// A watched company whose event fell in the lost gap.
	watch(t, st, "GB", []string{"01234567"}, snapshot(report("GB", "01234567", "GAP LTD"), nil))
	f.set("GB", "01234567", ok(report("GB", "01234567", "GAP LTD")))
	setCursors(t, st, "GB/stream/companies", "1000")
	st.applied = make(chan changes.Batch, 16)
	sweeperA := newTestPoller(t, st, f, "GB", WithSweepOnly())
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"), WithSweeper(sweeperA))
	handled := runStream(t, s)
	if ev := recv(t, handled, "reset"); !ev.reset {
		t.Fatalf("first event %+v, want the reset", ev)
	}
	clock.BlockUntil(t, 2) // the flush and the back-off
	clock.Advance(minBackoff)
	recv(t, handled, "the event after the reset")
	// Flush until the stream has stored a timepoint past the gap.
	for cursor(t, st, "GB/stream/companies") == "" || cursor(t, st, "GB/stream/companies") == "1000" {
		clock.BlockUntil(t, 2)
		clock.Advance(DefaultFlushEvery)
		recv(t, st.applied, "a flush")
	}
	if !sweeperA.sweep.Load() {
		t.Fatal("replica A's Poller was not asked for a sweep")
	}

	// The lease moves to replica B before A's Poller syncs. B's Poller
	// (and B's stream, which connects from the stored timepoint without a
	// 416) has only the store to go by.
	sweeperB := newTestPoller(t, st, f, "GB", WithSweepOnly())
	before := f.count("GB", "01234567")
	if err := sweeperB.Sync(t.Context(), t0.Add(DefaultFlushEvery*2)); err != nil {
		t.Fatal(err)
	}
	if got := f.count("GB", "01234567") - before; got != 1 {
		t.Errorf("replica B's Poller fetched the watched company %d times after the failover, want 1 (the sweep the reset asked for); stored GB/poll %q",
			got, cursor(t, st, "GB/poll"))
	}
}
