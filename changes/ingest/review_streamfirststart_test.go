package ingest

import (
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_StreamFirstStartMissesChangeBeforeConnection (issue 28: "a
// baseline is taken when a company is added, so the first event is a real
// change"; the window the Norwegian fix closed, on Companies House's
// stream): a stream without a stored timepoint connects without one, and
// Companies House then delivers only "data events as they happen after a
// connection is established" (research, streaming API reference). A watch
// created before the stream's first connection (the server's first start:
// the routes answer before the leader runs the stream; or a stream added
// to the list later) took its baseline then; the liquidation that
// happened between the baseline and the connection has no event after it,
// and with a stream key the British poller only sweeps when asked (after a
// 416), so it is never reported. Nothing asks for a sweep on a first
// start.
func TestReview_StreamFirstStartMissesChangeBeforeConnection(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"insolvency-cases": {{lines: []string{""}}}}) // heartbeats only
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	watch(t, st, "GB", []string{"11519482"}, snapshot(report("GB", "11519482", "IN TROUBLE LTD"), nil))
	f.set("GB", "11519482", ok(report("GB", "11519482", "IN TROUBLE LTD", withStatus(registry.StatusUnderLiquidation))))
	sweeper := newTestPoller(t, st, f, "GB", WithSweepOnly()) // as Standard builds it with a stream key
	s := newTestStream(t, st, f, srv, clock, WithStreams("insolvency-cases"), WithSweeper(sweeper))
	runStream(t, s)
	awaitConnections(t, clock, srv, 1, 2) // the flush and the idle check of the connection
	if c := srv.connections(); len(c) != 1 || c[0].timepoint != "" {
		t.Fatalf("connections %+v, want one without a timepoint", c)
	}
	// The Leader's syncs of the British poller during the next day.
	for i := range 24 {
		if err := sweeper.Sync(t.Context(), t0.Add(time.Duration(i+1)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	cs := companyChanges(t, st, "GB", "11519482")
	if len(cs) != 1 || cs[0].Kind != changes.KindStatusChanged {
		t.Errorf("%d changes of the watched company (fetches %d); want the liquidation that happened between its baseline and the stream's first connection",
			len(cs), f.count("GB", "11519482"))
	}
}
