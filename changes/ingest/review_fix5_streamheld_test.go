package ingest

import (
	"testing"

	registry "github.com/companyregistry/registry"
)

// TestReview_StreamResetHoldsTheTimepoint (doc/decisions.md, after
// rev-ie: "A company with a new event more often than every five flushes
// and a defect that never passes is fetched once a flush for as long as
// its events come: bounded by the events"; the same section on spacing
// the attempts out: it "would hold the stream's stored timepoint back
// longer for every company, and was not built"): the text names the
// fetches as the cost of the reset, not the stored timepoint. A pending
// company keeps its first event's timepoint (pendingCompany.first) until
// it is done or dropped, and the reset keeps it from being dropped: the
// stream's stored timepoint stays before that first event for as long as
// the company's events come, whatever the other companies' events, so a
// restart or a handover replays the stream from there (or gets a 416 and
// a sweep once it is too old). Here ten events, each three flushes
// apart, of a company whose fetch always fails: the stored timepoint is
// still 499 after thirty flushes, the last event at 2,300.
func TestReview_StreamResetHoldsTheTimepoint(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError))
	p := newTestFlusher(t, st, f)
	for i := range 10 {
		p.handle(insolvency(int64(500+200*i), gbA))
		for range internalAttempts - 2 {
			p.flush(t.Context())
		}
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got == "499" {
		t.Errorf("stored timepoint %s after %d fetches of one company and %d flushes: held before its first event for as long as its events come",
			got, f.count("GB", gbA), 10*(internalAttempts-2))
	}
}
