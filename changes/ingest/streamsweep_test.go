package ingest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/testwait"
)

// flushOnce fires the stream's flush timer and waits until the flush has
// run (its timer is set again beside the connection's idle check).
func flushOnce(t *testing.T, clock *fakeClock) {
	t.Helper()
	clock.BlockUntil(t, 2) // the flush and the idle check
	clock.Advance(DefaultFlushEvery)
	clock.BlockUntil(t, 2)
}

// TestStreamAndSweepRecordAChangeOnce (gb-ingest, a reviewer's finding):
// Companies House's stream and its sweep-only poller run at once under
// one Leader (the stream's flush in Run's goroutine, the poller's Sync in
// the sync loop), and a sweep is asked exactly while events come (after a
// 416 of one stream, or a stream's first start). Both refresh a company
// the same way: read its stored snapshot, fetch it, diff, and Apply the
// changes with the new snapshot, the poller up to applyEvery companies
// later. When the stream's flush of the company falls between the
// sweep's snapshot read and its Apply, both diff the same stored
// snapshot and both record the liquidation: two changes, two feed
// entries, two webhooks for one register change (the poller's has no
// source event, so the store's de-duplication by event does not see
// it). Refreshes of one company are now serialised: the flush leaves a
// company the sweep holds pending for its next flush, which diffs against
// the sweep's snapshot.
func TestStreamAndSweepRecordAChangeOnce(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{lines: []string{eventLine(t, evCompany)}}}})
	st, ff, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	const id = "SC571653" // the recorded event's company
	watch(t, st, "GB", []string{id}, snapshot(report("GB", id, "FC KIOSKS LTD"), nil))
	ff.set("GB", id, ok(report("GB", id, "FC KIOSKS LTD", withStatus(registry.StatusUnderLiquidation))))
	setCursors(t, st, "GB/stream/companies", "1000")
	pf := &hookFetcher{fakeFetcher: ff, id: id}
	sweeper := newTestPoller(t, st, pf, "GB", WithSweepOnly())
	s := newTestStream(t, st, ff, srv, clock, WithStreams("companies"), WithSweeper(sweeper))
	handled := runStream(t, s)
	recv(t, handled, "the company's event")
	sweeper.RequestSweep() // another stream's 416
	// The stream's flush comes while the sweep, having read the company's
	// snapshot, fetches it.
	pf.hook = func() { flushOnce(t, clock) }
	if err := sweeper.Sync(t.Context(), t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	flushOnce(t, clock) // what the stream left pending
	want := []noted{{Kind: changes.KindStatusChanged, CompanyID: id, Old: `"active"`, New: `"under_liquidation"`}}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes recorded for one liquidation (-want +got):\n%s", diff)
	}
	if n := st.deliveryCount(); n != 1 {
		t.Errorf("%d webhook deliveries for one liquidation, want 1", n)
	}
	if got := cursor(t, st, "GB/stream/companies"); got != "47695461" {
		t.Errorf("stored timepoint %q, want the event's, 47695461 (handled)", got)
	}
}

// TestSweepWaitsForTheStreamsRefresh: the other order of
// TestStreamAndSweepRecordAChangeOnce. The sweep comes to a company
// while the stream's flush, having read its snapshot, fetches it: the
// sweep waits until the flush has stored what it found, then fetches the
// company (after the ask, as a sweep must) and diffs the stream's
// snapshot: the change is recorded once, with the stream's event.
func TestSweepWaitsForTheStreamsRefresh(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{lines: []string{eventLine(t, evCompany)}}}})
	st, ff, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	const id = "SC571653"
	watch(t, st, "GB", []string{id}, snapshot(report("GB", id, "FC KIOSKS LTD"), nil))
	ff.set("GB", id, ok(report("GB", id, "FC KIOSKS LTD", withStatus(registry.StatusUnderLiquidation))))
	setCursors(t, st, "GB/stream/companies", "1000")
	sweeper := newTestPoller(t, st, ff, "GB", WithSweepOnly())
	waiting := make(chan string, 1)
	sweeper.guard.waiting = func(id string) { waiting <- id }
	sf := &hookFetcher{fakeFetcher: ff, id: id}
	s := newTestStream(t, st, sf, srv, clock, WithStreams("companies"), WithSweeper(sweeper))
	synced := make(chan error, 1)
	// The sweep comes to the company while the flush fetches it.
	sf.hook = func() {
		sweeper.RequestSweep()
		go func() { synced <- sweeper.Sync(t.Context(), t0.Add(time.Second)) }()
		select {
		case got := <-waiting:
			if got != id {
				t.Errorf("the sweep waited for %q, want %q", got, id)
			}
		case err := <-synced: // the sweep did not wait: what it recorded shows below
			synced <- err
		case <-testwait.Expired(t):
			t.Error("the sweep neither waited for the company nor ended")
		}
	}
	handled := runStream(t, s)
	recv(t, handled, "the company's event")
	flushOnce(t, clock)
	if err := recv(t, synced, "the sweep's sync"); err != nil {
		t.Fatal(err)
	}
	want := []noted{{Kind: changes.KindStatusChanged, CompanyID: id, Old: `"active"`, New: `"under_liquidation"`,
		SourceEventID: "companies/47695461", RegisteredAt: time.Date(2022, 8, 2, 14, 21, 6, 0, time.UTC)}}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes recorded for one liquidation (-want +got):\n%s", diff)
	}
	if n := st.deliveryCount(); n != 1 {
		t.Errorf("%d webhook deliveries for one liquidation, want 1", n)
	}
	if n := ff.count("GB", id); n != 2 {
		t.Errorf("%d fetches of the company, want 2 (the flush's, the sweep's after it)", n)
	}
}

// TestRefreshGuard: one owner at a time holds a company; its release
// lets a waiting owner in; an owner holding it holds it again; a waiter
// whose context ends gives up; a nil guard holds everything.
func TestRefreshGuard(t *testing.T) {
	t.Parallel()
	var g refreshGuard
	stream, poll := new(int), new(int)
	for range 2 {
		if !g.tryHold(stream, "A") {
			t.Fatal("the stream could not hold A (again)")
		}
	}
	if g.tryHold(poll, "A") {
		t.Fatal("the poller held A that the stream holds")
	}
	if !g.tryHold(poll, "B") {
		t.Fatal("the poller could not hold B")
	}
	waiting := make(chan string, 1)
	g.waiting = func(id string) { waiting <- id }
	got := make(chan error, 1)
	go func() { got <- g.hold(t.Context(), poll, "A") }()
	recv(t, waiting, "the poller waiting for A")
	g.release(poll, []string{"A"}) // not the poller's: no effect
	g.release(stream, []string{"A", "B"})
	if err := recv(t, got, "the poller's hold of A"); err != nil {
		t.Fatal(err)
	}
	if g.tryHold(stream, "B") {
		t.Error("the stream's release let go of the poller's B")
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { got <- g.hold(ctx, stream, "A") }()
	recv(t, waiting, "the stream waiting for A")
	cancel()
	if err := recv(t, got, "the cancelled hold"); !errors.Is(err, context.Canceled) {
		t.Errorf("hold after its context ended = %v, want context.Canceled", err)
	}
	var none *refreshGuard
	if !none.tryHold(stream, "A") || none.hold(t.Context(), poll, "A") != nil {
		t.Error("a nil guard refused a hold")
	}
	none.release(stream, []string{"A"})
}
