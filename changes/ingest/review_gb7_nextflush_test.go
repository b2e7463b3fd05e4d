package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_StreamNextFlushStillSkipsTheSweepsCompany (rev-gb7): a
// company the sweep holds is left pending by every flush of the stream
// until the Apply of the sweep's batch, which comes applyEvery (50)
// companies later or at the end of the sync: at Companies House's budget
// (600 requests per 5 minutes) and four requests a company some 100 s,
// about twenty flushes. doc/decisions.md
// ("The stream and its sweep refresh a company one at a time") said "the
// next flush (5 s) reads it"; it now says what the code does, which this
// test holds. The sweep fetches the company and then one more (its batch
// not yet stored): the flush that comes then skips the company, and so
// does the next one, 5 s later, the stored timepoint before its event and
// the company not fetched by the stream. The first flush after the
// sweep's Apply reads it, diffs the sweep's snapshot, and moves the
// timepoint past the event: the change is recorded once (the sweep's,
// without a source event).
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
	type state struct {
		Timepoint string
		Fetches   int // of the event's company, the sweep's and the stream's
		Changes   []noted
	}
	look := func() state {
		return state{cursor(t, st, "GB/stream/companies"), ff.count("GB", id), notedOf(st.all())}
	}
	var got []state
	// The sweep has fetched the company and fetches the next one, its
	// batch not yet stored: the flush that comes then skips the company,
	// and so does the next one, 5 s later.
	pf.hook = func() {
		flushOnce(t, clock)
		got = append(got, look())
		flushOnce(t, clock)
		got = append(got, look())
	}
	if err := sweeper.Sync(t.Context(), t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	got = append(got, look()) // the sweep's Apply stored the change
	flushOnce(t, clock)
	got = append(got, look())
	liquidation := noted{Kind: changes.KindStatusChanged, CompanyID: id, Old: `"active"`, New: `"under_liquidation"`}
	want := []state{
		{"47695460", 1, []noted{}},            // the flush that skips it: before its event
		{"47695460", 1, []noted{}},            // the next flush skips it too
		{"47695460", 1, []noted{liquidation}}, // the sweep's Apply
		{"47695461", 2, []noted{liquidation}}, // the first flush after it reads it: no change more
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each step (-want +got):\n%s", diff)
	}
	if n := st.deliveryCount(); n != 1 {
		t.Errorf("%d webhook deliveries for one liquidation, want 1", n)
	}
}
