package ingest

import (
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
)

// TestReview_ReaskedSweepFetchesARetryTwice (poller.go Sync: the retries
// go first in the work, then the sweep from its start; the sweep asked
// again by a sync whose Apply failed, rev-ie's asked/stored defer): the
// failed sync kept the retry of A (its attempt counted in memory) and
// asked for the sweep again, so the next sync fetches A twice, once as a
// retry and once as the sweep's company, and the sweep's failure sets its
// attempts back to 1 (setRetry(id, 0+1)) after the retry counted 2.
// decisions.md: "A sweep's company that fails with internal_error is now
// fetched again at the next syncs, five fetches in all"; here A costs two
// fetches a sync and its count goes down. No change is lost.
func TestReview_ReaskedSweepFetchesARetryTwice(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError))
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	p.RequestSweep()
	st.failApply = errDown
	if err := p.Sync(t.Context(), t0); err == nil {
		t.Fatal("the sync whose Apply fails succeeded")
	}
	st.failApply = nil
	before := f.count("GB", gbA)
	if err := p.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := f.count("GB", gbA) - before; got != 1 {
		t.Errorf("%d fetches of A in one sync, want 1", got)
	}
	p.mu.Lock()
	got := p.retry[gbA]
	p.mu.Unlock()
	if got != 2 {
		t.Errorf("A's failed fetches %d after its second failing sync, want 2", got)
	}
}
