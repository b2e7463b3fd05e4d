package ingest

import (
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
)

// TestReview_StreamNextFlushStillSkipsTheSweepsCompany (rev-gb7):
// doc/decisions.md ("The stream and its sweep refresh a company one at a
// time") says of a company the sweep holds that the stream's flush leaves
// pending: "the next flush (5 s) reads it, by then after the sweep's
// Apply". The Poller holds a company from its fetch until the Apply of
// its batch, which comes applyEvery (50) companies later or at the end of
// the sync: at Companies House's budget (600 requests per 5 minutes)
// that is some 25 s, five flushes. Here the sweep fetches the company and
// then one more (its batch not yet stored); the flush that skipped it and
// the next one both leave it pending, the stored timepoint before its
// event. Harmless (it is read after the sweep's Apply, and recorded
// once), but the sentence is not what the code does.
func TestReview_StreamNextFlushStillSkipsTheSweepsCompany(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{lines: []string{eventLine(t, evCompany)}}}})
	st, ff, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	const id, later = "SC571653", "SC999999" // the recorded event's company; one the sweep fetches after it
	watch(t, st, "GB", []string{id, later}, snapshot(report("GB", id, "FC KIOSKS LTD"), nil),
		snapshot(report("GB", later, "LATER LTD"), nil))
	ff.set("GB", id, ok(report("GB", id, "FC KIOSKS LTD", withStatus(registry.StatusUnderLiquidation))))
	ff.set("GB", later, ok(report("GB", later, "LATER LTD")))
	setCursors(t, st, "GB/stream/companies", "1000")
	pf := &hookFetcher{fakeFetcher: ff, id: later}
	sweeper := newTestPoller(t, st, pf, "GB", WithSweepOnly())
	s := newTestStream(t, st, ff, srv, clock, WithStreams("companies"), WithSweeper(sweeper))
	handled := runStream(t, s)
	recv(t, handled, "the company's event")
	sweeper.RequestSweep()
	var afterNext string
	// The sweep has fetched the company and fetches the next one, its
	// batch not yet stored: the flush that comes then skips the company,
	// and so does the next one, 5 s later.
	pf.hook = func() {
		flushOnce(t, clock)
		flushOnce(t, clock)
		afterNext = cursor(t, st, "GB/stream/companies")
	}
	if err := sweeper.Sync(t.Context(), t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if afterNext != "47695461" {
		t.Errorf("stored timepoint after the flush that followed the skipping one: %q, want 47695461 "+
			"(\"the next flush (5 s) reads it, by then after the sweep's Apply\")", afterNext)
	}
}
