package ingest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// The proofs of a reviewer's finding (gb-ingest): "a company read after
// four failed attempts whose Apply fails and whose next fetch fails again
// is dropped (the cap allows it)". The cap ([internalAttempts]) is five
// fetches that fail with internal_error; but the fifth fetch here works
// and finds the change, only its Apply fails (the store, not the
// company), and the next fetch's failure was counted the fifth: the
// company was dropped and the change it had been read with never
// recorded, on each of the three ingesters. A read now proves the fault
// passed: the company's failures are counted from zero again, and the
// next fetch that works records the change once.

// readAgainScript is the fetches of the company in these tests: four
// internal_errors, a read (the Apply after it fails), one more
// internal_error, then the read again.
func readAgainScript(rep *registry.CompanyReport) []answer {
	ie := failing(registry.CodeInternalError)
	return []answer{ie, ie, ie, ie, ok(rep), ie, ok(rep)}
}

// readAgainApplyFails is the round (flush or sync) whose Apply fails:
// the fifth, which reads the company.
const readAgainApplyFails = 4

// readAgainRounds runs eight rounds of an ingester (round(i) is its
// flush or sync at minute i), the Apply failing in the fifth, and checks
// the company's fetches after each (it is fetched at every round until
// its change is stored at the seventh), the changes recorded (want) and
// the warnings logged of it (wantWarn: not its drop).
func readAgainRounds(t *testing.T, st *memStore, f *fakeFetcher, logs *bytes.Buffer, country, id string,
	round func(i int) error, want []noted, wantWarn []string) {
	t.Helper()
	var got []int
	for i := range 8 {
		st.failApply = nil
		if i == readAgainApplyFails {
			st.failApply = errDown
		}
		if err := round(i); (err != nil) != (i == readAgainApplyFails) {
			t.Fatalf("round %d: %v", i, err)
		}
		got = append(got, f.count(country, id))
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4, 5, 6, 7, 7}, got); diff != "" {
		t.Errorf("fetches after each round (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantWarn, warnings(t, logs, id)); diff != "" {
		t.Errorf("warnings (-want +got): the company was dropped\n%s", diff)
	}
}

// TestStreamReadWhoseApplyFailsIsNotDropped: Companies House's stream.
func TestStreamReadWhoseApplyFailsIsNotDropped(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, readAgainScript(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt)))...)
	var logs bytes.Buffer
	p := newTestFlusher(t, st, f, WithLogger(slogJSON(&logs)))
	p.handle(insolvency(500, gbA))
	flush := func(i int) error {
		p.flush(t.Context())
		if i == readAgainApplyFails {
			return errDown // the flush logs it
		}
		return nil
	}
	readAgainRounds(t, st, f, &logs, "GB", gbA, flush, []noted{bankrupt(gbA, "insolvency-cases/500")},
		[]string{"the stream's progress could not be stored; retrying at the next flush"})
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "500" {
		t.Errorf("cursor %q, want 500", got)
	}
}

// TestPollerSweepReadWhoseApplyFailsIsNotDropped: a sweep-only poller's
// company tried again, which has no next moment.
func TestPollerSweepReadWhoseApplyFailsIsNotDropped(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, readAgainScript(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt)))...)
	var logs bytes.Buffer
	p := newTestPoller(t, st, f, "GB", WithSweepOnly(), WithLogger(slogJSON(&logs)))
	p.RequestSweep()
	sync := func(i int) error { return p.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)) }
	readAgainRounds(t, st, f, &logs, "GB", gbA, sync,
		[]noted{{Kind: changes.KindStatusChanged, CompanyID: gbA, Old: `"active"`, New: `"bankrupt"`}}, nil)
}

// TestNorwayRecheckReadWhoseApplyFailsIsNotDropped: Norway's retry of a
// feed item.
func TestNorwayRecheckReadWhoseApplyFailsIsNotDropped(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, readAgainScript(report("NO", noA, "A NY AS"))...)
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	var logs bytes.Buffer
	n := newTestNorway(t, st, f, srv, WithLogger(slogJSON(&logs)))
	sync := func(i int) error { return n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)) }
	readAgainRounds(t, st, f, &logs, "NO", noA, sync,
		[]noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}, nil)
}

// TestPollerSweepReadRetryStoredAcrossRestart: a sweep's company read
// while its Apply failed keeps its entry with no failure counted (0);
// stored so by a later sync that did not come to it (the budget spent),
// it is read from the store after a restart and fetched, not taken as
// none.
func TestPollerSweepReadRetryStoredAcrossRestart(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	rep := report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(rep), failing(registry.CodeRateLimited), ok(rep))
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	p.RequestSweep()
	for i := range 3 {
		st.failApply = nil
		if i == 1 {
			st.failApply = errDown // A read, its Apply fails
		}
		if err := p.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); (err != nil) != (i == 1) {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	var ps pollState
	if err := json.Unmarshal([]byte(cursor(t, st, "GB/poll")), &ps); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{gbA: 0}, ps.Retry); diff != "" {
		t.Errorf("stored retries (-want +got):\n%s", diff)
	}
	restarted := newTestPoller(t, st, f, "GB", WithSweepOnly())
	if err := restarted.Sync(t.Context(), t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{{Kind: changes.KindStatusChanged, CompanyID: gbA, Old: `"active"`, New: `"bankrupt"`}}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the restart (-want +got):\n%s", diff)
	}
}
