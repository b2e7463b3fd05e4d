package ingest

import (
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_FirstStartSweepsTwice (rev-tok6, 44dd5ec): the double sweep
// left open by 44dd5ec (TestReview_SweepDoneFromMemoryIsDoneAgainFromTheStore,
// skipped as a race between a reset and the next flush) is the ordinary
// path of a stream's first start (sweepWithoutTimepoint): start asks the
// sweeper in memory before the streams connect and the token is stored
// only at the first flush, DefaultFlushEvery later, while the Leader's
// syncLoop calls every ingester's Sync at once when it takes the lease. A
// poller sync in those five seconds sweeps from memory (Asked = "" or the
// old token), and the next sync finds the flush's new token and sweeps
// every watched British company again: 2N fetches of Companies House's
// shared budget (600 requests per 5 minutes) for one first start, on every
// deployment and every lead of a replica whose stream has no timepoint.
// Fixed: the stream passes its ask's token with the memory ask
// (Poller.askSweep), the sweep from memory records it (pollState.Asked),
// and a sync that reads it stored only records it.
func TestReview_FirstStartSweepsTwice(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	const id = "01234567"
	watch(t, st, "GB", []string{id}, snapshot(report("GB", id, "FIRST LTD"), nil))
	f.set("GB", id, ok(report("GB", id, "FIRST LTD")))
	st.applied = make(chan changes.Batch, 16)
	sweeper := newTestPoller(t, st, f, "GB", WithSweepOnly())
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"), WithSweeper(sweeper))
	runStream(t, s)
	clock.BlockUntil(t, 2) // started (the sweep asked in memory): the flush and the idle check
	// The Leader's first round of syncs, before the first flush.
	if err := sweeper.Sync(t.Context(), t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	recv(t, st.applied, "the sync's Apply")
	if got := f.count("GB", id); got != 1 {
		t.Fatalf("the first sync fetched the company %d times, want 1 (the sweep the start asked for)", got)
	}
	clock.Advance(DefaultFlushEvery)
	if b := recv(t, st.applied, "flush"); b.Cursors["GB/sweep"] == "" {
		t.Fatalf("the flush stored %v, want the token", b.Cursors)
	}
	for h := 1; h <= 2; h++ {
		if err := sweeper.Sync(t.Context(), t0.Add(time.Duration(h)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.count("GB", id); got != 1 {
		t.Errorf("the company was fetched %d times for one first start, want 1: the sweep done from memory was started over by the token the first flush stored", got)
	}
}
