package ingest

import (
	"encoding/json"
	"strings"

	"github.com/companyregistry/registry/changes"
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

// TestReview_RemovedUnitKeepsEarlierChanges (research §1.3: Fjernet
// "Enheten har blitt fjernet fra Åpne Data. Eventuelle kopier skal også
// fjerne enheten" — "We must purge stored data for it, not only notify"):
// after Brønnøysund removes a unit from its open data, the changes
// recorded of it before (here the name from the register's JSON Patch)
// stay in the store and are still served to anyone by company_changes,
// for 30 days. Only the snapshot is purged.
func TestReview_RemovedUnitKeepsEarlierChanges(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"OLA NORDMANN HOLDING AS"}]}`),
		json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-01T11:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	for _, c := range companyChanges(t, st, "NO", "971421444") {
		if c.Kind != changes.KindDeleted || strings.Contains(string(c.New)+string(c.Old), "NORDMANN") {
			t.Errorf("a change of a unit removed from the open data is still kept and served: %s old %s new %s", c.Kind, c.Old, c.New)
		}
	}
}
