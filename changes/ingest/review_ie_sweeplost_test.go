package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_SweepLostWhenItsApplyFails (pre-existing, seen while
// reviewing the sweep's internal_error retries; doc/decisions.md: a
// sweep-only poller "has no next moment"): RequestSweep's flag is cleared
// when a sync starts the sweep, and the sweep lives on only in the cursor
// that sync stores. When that sync's Apply fails (here on a sweep shorter
// than applyEvery companies, so the only Apply), the sweep is forgotten:
// the next sync reads a cursor without it and fetches nothing, and the
// bankruptcy the sweep found is never recorded. The internal_error
// retries added beside it survive such an Apply (they are in memory); the
// sweep they belong to does not.
func TestReview_SweepLostWhenItsApplyFails(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbB}, snapshot(report("GB", gbB, "B LTD"), nil))
	f.set("GB", gbB, ok(report("GB", gbB, "B LTD", withStatus(registry.StatusBankrupt))))
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	p.RequestSweep()
	st.failApply = errDown
	if err := p.Sync(t.Context(), t0); err == nil {
		t.Fatal("Sync with a failing Apply returned nil")
	}
	st.failApply = nil
	for i := 1; i <= 3; i++ {
		if err := p.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	want := []noted{{Kind: "status_changed", CompanyID: gbB, Old: `"active"`, New: `"bankrupt"`}}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the sweep's Apply failed once (-want +got):\n%s", diff)
	}
}
