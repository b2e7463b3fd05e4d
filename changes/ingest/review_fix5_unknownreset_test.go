package ingest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_StreamNewEventViaUnknownGetsOneFetch (doc/decisions.md,
// after rev-ie: "A new event of a company pending on Companies House's
// stream gets its own five attempts (pendingCompany.add resets the
// count)"): the reset is in add, which handle calls for a company of the
// watched set loaded at the last Sync. A company whose watch was created
// after that Sync (the case checkUnknown exists for, up to the Leader's
// interval, a minute by default) has its events kept as unknown and
// merged into its pending entry by checkUnknown, which takes the newer
// event but keeps the attempts of the older one. The insolvency event
// that comes after four failed fetches of the older one gets one fetch
// and is dropped with it: the bankruptcy is never recorded.
func TestReview_StreamNewEventViaUnknownGetsOneFetch(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	ie := failing(registry.CodeInternalError)
	f.set("GB", gbA, ie, ie, ie, ie, ie, ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	p := newTestFlusher(t, st, f) // loads the watched set: gbA is not in it
	// The watch is created after the stream's last Sync (another replica,
	// or the API of this one, between two syncs of the Leader).
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	p.handle(insolvency(500, gbA))
	for range internalAttempts - 1 {
		p.flush(t.Context())
	}
	if got := f.count("GB", gbA); got != internalAttempts-1 {
		t.Fatalf("%d fetches of event 500, want %d", got, internalAttempts-1)
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
