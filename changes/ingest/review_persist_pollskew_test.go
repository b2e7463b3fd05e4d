package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_PollerRetryLostToClockSkew (052929d: a sweep's retries are
// pollState.Retry, "read at the first sync and at each lead"; CHANGELOG:
// "a restart or a lease handover between replicas continues them"):
// Poller.state throws the whole stored state away when its Last is after
// the syncing replica's now ("unreadable poll cursor, starting the
// schedule now"). Last is the previous leader's now at its last sync, so
// a new leader whose clock is a second behind, syncing within that second
// of a handover (or a replica whose clock NTP stepped back), resets the
// state: the retries stored in it are gone with it (as is a sweep in
// progress, Sweep/After: older than this work), and the sweep's company
// whose change was owed is never fetched again.
func TestReview_PollerRetryLostToClockSkew(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	a := newTestPoller(t, st, f, "GB", WithSweepOnly())
	a.RequestSweep()
	if err := a.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{gbA: 1}, storedPollRetries(t, st, "GB/poll")); diff != "" {
		t.Fatalf("stored retries (-want +got):\n%s", diff)
	}
	// b leads next; its clock is one second behind a's.
	b := newTestPoller(t, st, f, "GB", WithSweepOnly())
	b.forgetMemory()
	for i := range 3 {
		if err := b.Sync(t.Context(), t0.Add(-time.Second+time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	want := []noted{{Kind: changes.KindStatusChanged, CompanyID: gbA, Old: `"active"`, New: `"bankrupt"`}}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes after a lead by a replica whose clock is a second behind (-want +got):\n%s", diff)
	}
}
