package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_PollerSweepAndScheduleRecordAChangeTwice (rev-gb7): the
// class of gb-ingest's finding 2 (two refreshes of one company diff the
// same stored snapshot) inside one Poller. A poller that is not
// sweep-only ([NewPoller] without [WithSweepOnly]) and is asked for a
// sweep ([Poller.RequestSweep], "the fallback of a feed that lost
// events"; or given to [WithSweeper], which accepts it) puts a company
// both in the sweep and in the schedule of one sync when its moment falls
// in the sync's window. Both refreshes read the stored snapshot before
// the sync's Apply stores either, and the refreshGuard lets them both
// through (one owner "holds it still"), so the change is recorded twice:
// two feed entries, two webhooks for one register change. Pre-existing
// (the work list is unchanged by 35869c7..586f9fb), but WithSweeper's
// doc now promises "a change is recorded once".
func TestReview_PollerSweepAndScheduleRecordAChangeTwice(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	// Polls on a schedule, as GB without a stream key.
	p := newTestPoller(t, st, f, "GB")
	if err := p.Sync(t.Context(), t0); err != nil { // starts the schedule
		t.Fatal(err)
	}
	p.RequestSweep()
	// A day later every company's moment fell in the window, and the
	// sweep takes every company too.
	if err := p.Sync(t.Context(), t0.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	want := []noted{{Kind: changes.KindStatusChanged, CompanyID: gbA, Old: `"active"`, New: `"bankrupt"`}}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes recorded for one bankruptcy (-want +got):\n%s", diff)
	}
	if n := st.deliveryCount(); n != 1 {
		t.Errorf("%d webhook deliveries for one bankruptcy, want 1", n)
	}
	if n := f.count("GB", gbA); n != 1 {
		t.Errorf("%d fetches of the company in one sync, want 1", n)
	}
}
