package ingest

import (
	"net/http"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_SweepDoneFromMemoryIsDoneAgainFromTheStore (rev-sweep6,
// b150ec0): the stream asks its sweeper twice for one gap, at once in
// memory (handle: RequestSweep) and at its next flush in the store
// (GB/sweep = "1"), up to DefaultFlushEvery later (longer when the flush's
// fetches wait on the budget or its Apply fails and is retried). A Poller
// sync that falls between the two starts the sweep from memory and
// stores nothing to clear (it read GB/sweep before the flush wrote it);
// its next sync then reads the stored ask and starts the same sweep over
// from the first company: every watched British company is fetched
// twice for one reset, against Companies House's shared budget (600
// requests per 5 minutes), for no gap the first sweep did not cover (its
// fetches all came after the reset). Fixed with rev-tok6's
// TestReview_FirstStartSweepsTwice: the memory ask carries the token the
// flush stores.
func TestReview_SweepDoneFromMemoryIsDoneAgainFromTheStore(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{status: http.StatusRequestedRangeNotSatisfiable}, {}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	const id = "01234567"
	watch(t, st, "GB", []string{id}, snapshot(report("GB", id, "GAP LTD"), nil))
	f.set("GB", id, ok(report("GB", id, "GAP LTD")))
	setCursors(t, st, "GB/stream/companies", "1000")
	st.applied = make(chan changes.Batch, 16)
	sweeper := newTestPoller(t, st, f, "GB", WithSweepOnly())
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"), WithSweeper(sweeper))
	handled := runStream(t, s)
	if ev := recv(t, handled, "reset"); !ev.reset {
		t.Fatalf("first event %+v, want the reset", ev)
	}
	// The Poller's sync comes before the stream's flush: it sweeps from
	// memory.
	if err := sweeper.Sync(t.Context(), t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	recv(t, st.applied, "the sync's Apply")
	if got := f.count("GB", id); got != 1 {
		t.Fatalf("the sweep from memory fetched the company %d times, want 1", got)
	}
	// The stream's flush then stores the same ask.
	clock.BlockUntil(t, 2) // the flush and the back-off
	clock.Advance(minBackoff)
	clock.BlockUntil(t, 2) // the flush and the idle check of the new connection
	clock.Advance(DefaultFlushEvery)
	if b := recv(t, st.applied, "flush"); b.Cursors["GB/sweep"] == "" { // a token since the fix
		t.Fatalf("the flush stored %v, want the ask", b.Cursors)
	}
	for h := 1; h <= 2; h++ {
		if err := sweeper.Sync(t.Context(), t0.Add(time.Duration(h)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.count("GB", id); got != 1 {
		t.Errorf("the company was fetched %d times for one reset, want 1: the sweep done from memory was started over from the stored ask", got)
	}
}
