package ingest

import (
	"testing"

	registry "github.com/companyregistry/registry"
)

// TestReview_StreamDropsEventOfCompanyWatchedSinceLastSync (issue 28,
// "A baseline is taken when a company is added, so the first event is a
// real change"; at-least-once): the stream filters events with the watched
// set it loaded at the Leader's last Sync (every REGISTRY_CHANGES_INTERVAL,
// 1 minute). A company added to a watch after that Sync, which goes into
// liquidation seconds later, has its event dropped as unwatched and the
// stream's timepoint stored past it; nothing ever fetches it again (with a
// stream key the GB poller only sweeps after a 416), so the change is
// never reported.
func TestReview_StreamDropsEventOfCompanyWatchedSinceLastSync(t *testing.T) {
	t.Parallel()
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	s := newTestStream(t, st, f, newCHServer(t, nil), clock, WithStreams("insolvency-cases"))
	// The Leader's Sync at the start of the interval: nothing watched yet.
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// Seconds later a caller creates a watch; its baseline is taken.
	watch(t, st, "GB", []string{"11519482"}, snapshot(report("GB", "11519482", "X LTD"), nil))
	f.set("GB", "11519482", ok(report("GB", "11519482", "X LTD", withStatus(registry.StatusUnderLiquidation))))
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"insolvency-cases": {}}, pending: map[string]*pendingCompany{}}
	// The liquidation's event arrives before the next Sync.
	p.handle(event{stream: "insolvency-cases", timepoint: 500, company: "11519482"})
	p.flush(t.Context())
	// The next interval: Sync reloads the watched set, later flushes.
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	p.flush(t.Context())
	p.flush(t.Context())
	if cs := companyChanges(t, st, "GB", "11519482"); len(cs) != 1 {
		t.Errorf("%d changes recorded for the watched company after its liquidation event (stored timepoint %q); want 1 status_changed",
			len(cs), cursor(t, st, "GB/stream/insolvency-cases"))
	}
}
