package ingest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_StreamNewEventGetsOneFetch (doc.go: "a feed's item or event
// ... gets five fetches in all before it is dropped"; doc/decisions.md:
// "the signal gets internalAttempts (5) fetches in all"): the stream
// counts the attempts per pending company, not per event, and a new event
// of a company being tried again does not reset them (Norway's newer item
// does). An insolvency event that comes while the company's fourth
// attempt has failed is fetched once and dropped with the older event;
// the register answers at the next flush, but the bankruptcy is never
// recorded and the stored timepoint is past it.
func TestReview_StreamNewEventGetsOneFetch(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	ie := failing(registry.CodeInternalError)
	f.set("GB", gbA, ie, ie, ie, ie, ie, ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	p := newTestFlusher(t, st, f)
	p.handle(insolvency(500, gbA))
	for range internalAttempts - 1 {
		p.flush(t.Context())
	}
	p.handle(insolvency(600, gbA)) // the event that announces the bankruptcy
	for range internalAttempts {
		p.flush(t.Context())
	}
	if diff := cmp.Diff([]noted{bankrupt(gbA, "insolvency-cases/600")}, notedOf(companyChanges(t, st, "GB", gbA))); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if got := f.count("GB", gbA) - (internalAttempts - 1); got < 2 {
		t.Errorf("event 600 got %d fetch(es), want up to %d", got, internalAttempts)
	}
}
