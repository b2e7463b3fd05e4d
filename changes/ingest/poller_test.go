package ingest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

func newTestPoller(t *testing.T, st changes.Store, f changes.Fetcher, country string, opts ...Option) *Poller {
	t.Helper()
	p, err := NewPoller(st, f, country, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// finnishIDs returns n Business IDs of the form the tests use (the fake
// fetcher does not check them) and their baselines.
func finnishIDs(f *fakeFetcher, n int) ([]string, []changes.Snapshot) {
	var ids []string
	var base []changes.Snapshot
	for i := range n {
		id := fmt.Sprintf("%07d-%d", 1000000+i, i%10)
		ids = append(ids, id)
		rep := report("FI", id, "YRITYS "+id+" OY")
		base = append(base, snapshot(rep, nil))
		f.set("FI", id, ok(rep))
	}
	return ids, base
}

// TestPollerSpreadsEvenly (issue 28): over one poll interval, synced every
// ten minutes, each watched company is fetched exactly once, and the
// fetches are spread over the day (no hour has more than twice its
// share).
func TestPollerSpreadsEvenly(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	ids, base := finnishIDs(f, 1000)
	watch(t, st, "FI", ids, base...)
	p := newTestPoller(t, st, f, "FI")
	start := t0
	if err := p.Sync(t.Context(), start); err != nil { // starts the schedule
		t.Fatal(err)
	}
	perHour := make([]int, 24)
	for m := 10; m <= 24*60; m += 10 {
		before := f.total()
		if err := p.Sync(t.Context(), start.Add(time.Duration(m)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		perHour[(m-1)/60] += f.total() - before
	}
	for _, id := range ids {
		if n := f.count("FI", id); n != 1 {
			t.Fatalf("%s fetched %d times in one interval, want 1", id, n)
		}
	}
	for h, n := range perHour {
		if n > 2*1000/24 {
			t.Errorf("hour %d: %d fetches, more than twice its share (%d)", h, n, 1000/24)
		}
	}
	if len(st.all()) != 0 {
		t.Errorf("%d changes for unchanged companies", len(st.all()))
	}
}

// TestPollerFindsChangesAndDeletions: a company's poll compares it with
// its snapshot (a new status: a change without a source event); a company
// the register does not find is reported deleted at the second
// consecutive miss only, once.
func TestPollerFindsChangesAndDeletions(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "FI", []string{"0112038-9", "2331972-7"},
		snapshot(report("FI", "0112038-9", "NOKIA OYJ"), nil), snapshot(report("FI", "2331972-7", "LOPETTAA OY"), nil))
	f.set("FI", "0112038-9", ok(report("FI", "0112038-9", "NOKIA OYJ", withStatus(registry.StatusUnderLiquidation))))
	p := newTestPoller(t, st, f, "FI", WithPollInterval(time.Hour))
	now := t0
	_ = p.Sync(t.Context(), now)
	for range 3 * 60 { // three intervals
		now = now.Add(time.Minute)
		if err := p.Sync(t.Context(), now); err != nil {
			t.Fatal(err)
		}
	}
	cs := companyChanges(t, st, "FI", "0112038-9")
	if len(cs) != 1 || cs[0].Kind != changes.KindStatusChanged || string(cs[0].New) != `"under_liquidation"` ||
		cs[0].SourceEventID != "" || cs[0].RegisteredAt != nil {
		t.Errorf("changes %+v", recordedOf(cs))
	}
	gone := companyChanges(t, st, "FI", "2331972-7")
	if len(gone) != 1 || gone[0].Kind != changes.KindDeleted || string(gone[0].Old) != `"active"` || f.count("FI", "2331972-7") != 3 {
		t.Errorf("after %d polls not found: %+v; want one deletion", f.count("FI", "2331972-7"), recordedOf(gone))
	}
	if st.deliveryCount() != 2 {
		t.Errorf("%d deliveries, want 2", st.deliveryCount())
	}
}

// TestPollerKeepsToTheBudget: a fetch refused by the budget ends the sync
// without an error; the companies due are fetched at the next sync, none
// skipped, none twice.
func TestPollerKeepsToTheBudget(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	ids, base := finnishIDs(f, 40)
	watch(t, st, "FI", ids, base...)
	for _, id := range ids[:5] {
		f.set("FI", id, failing(registry.CodeRateLimited), ok(report("FI", id, "YRITYS "+id+" OY")))
	}
	p := newTestPoller(t, st, f, "FI", WithPollInterval(time.Hour))
	_ = p.Sync(t.Context(), t0)
	// One sync covering the whole interval: the refusals stop it five
	// times; each sync picks up where the last stopped.
	for i := 1; i <= 6; i++ {
		if err := p.Sync(t.Context(), t0.Add(time.Hour)); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	for _, id := range ids {
		want := 1
		if f.count("FI", id) > 1 {
			want = 2 // refused once, then fetched
		}
		if n := f.count("FI", id); n != want || (n == 2) != (id <= ids[4]) {
			t.Errorf("%s fetched %d times", id, n)
		}
	}
}

// TestPollerSweep: a sweep-only poller (Companies House with a stream)
// polls nothing until a sweep is asked for, then every watched company
// once, resuming across syncs and restarts.
func TestPollerSweep(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	ids := []string{"03743582", "11519482", "SC571653"}
	for _, id := range ids {
		rep := report("GB", id, "LTD "+id)
		f.set("GB", id, ok(rep))
		watch(t, st, "GB", []string{id}, snapshot(rep, nil))
	}
	f.set("GB", "11519482", failing(registry.CodeRateLimited), ok(report("GB", "11519482", "LTD 11519482")))
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	for m := range 3 * 24 * 60 / 30 {
		if err := p.Sync(t.Context(), t0.Add(time.Duration(m)*30*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if f.total() != 0 {
		t.Fatalf("a sweep-only poller fetched %d times unasked", f.total())
	}
	p.RequestSweep()
	if err := p.Sync(t.Context(), t0.Add(72*time.Hour)); err != nil {
		t.Fatal(err)
	}
	// A new poller (a restart, a new leader) finishes the sweep.
	p2 := newTestPoller(t, st, f, "GB", WithSweepOnly())
	if err := p2.Sync(t.Context(), t0.Add(73*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := p2.Sync(t.Context(), t0.Add(74*time.Hour)); err != nil {
		t.Fatal(err)
	}
	got := []int{f.count("GB", ids[0]), f.count("GB", ids[1]), f.count("GB", ids[2])}
	if got[0] != 1 || got[1] != 2 || got[2] != 1 {
		t.Errorf("fetches %v, want [1 2 1] (the refused one twice)", got)
	}
}

// TestPollerSweepAskedInTheStore: a sweep a stream stored as asked for
// (a token in GB/sweep, with its timepoint past the gap) is done by a
// sweep-only poller that never heard of it in memory (another replica's),
// once per token: the poller stores the token it swept for in its own
// cursor, so the next syncs do not start it over, and a new token starts
// a new sweep.
func TestPollerSweepAskedInTheStore(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	ids := []string{"03743582", "SC571653"}
	for _, id := range ids {
		rep := report("GB", id, "LTD "+id)
		f.set("GB", id, ok(rep))
		watch(t, st, "GB", []string{id}, snapshot(rep, nil))
	}
	setCursors(t, st, "GB/sweep", "1")
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	for h := range 3 {
		if err := p.Sync(t.Context(), t0.Add(time.Duration(h)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if got := []int{f.count("GB", ids[0]), f.count("GB", ids[1])}; got[0] != 1 || got[1] != 1 {
		t.Errorf("fetches %v, want [1 1]: the stored ask swept once", got)
	}
	// The poller never writes the ask (a stream may store a new one at
	// any time); it keeps the token it swept for in its own cursor.
	if got := cursor(t, st, "GB/sweep"); got != "1" {
		t.Errorf("GB/sweep after the sweep: %q, want the stream's token left alone", got)
	}
	var ps pollState
	if err := json.Unmarshal([]byte(cursor(t, st, "GB/poll")), &ps); err != nil || ps.Asked != "1" {
		t.Errorf("GB/poll %q (%v): want the token it swept for", cursor(t, st, "GB/poll"), err)
	}
	// A new token is a new ask: one more sweep.
	setCursors(t, st, "GB/sweep", "2")
	for h := 3; h < 5; h++ {
		if err := p.Sync(t.Context(), t0.Add(time.Duration(h)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if got := []int{f.count("GB", ids[0]), f.count("GB", ids[1])}; got[0] != 2 || got[1] != 2 {
		t.Errorf("fetches %v after a new token, want [2 2]", got)
	}
}

// TestPollerCatchesUpAtMostOneInterval: after an outage longer than the
// interval, one sync fetches every company once, not once per missed
// interval.
func TestPollerCatchesUpAtMostOneInterval(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	ids, base := finnishIDs(f, 50)
	watch(t, st, "FI", ids, base...)
	p := newTestPoller(t, st, f, "FI", WithPollInterval(time.Hour))
	_ = p.Sync(t.Context(), t0)
	if err := p.Sync(t.Context(), t0.Add(50*time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if n := f.count("FI", id); n != 1 {
			t.Errorf("%s fetched %d times, want 1", id, n)
		}
	}
}

func TestNewPollerValidation(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	for _, cc := range []string{"", "fi", "FIN", "F1"} {
		if _, err := NewPoller(st, f, cc); err == nil {
			t.Errorf("NewPoller(%q) succeeded", cc)
		}
	}
	if _, err := NewPoller(nil, f, "FI"); err == nil {
		t.Error("NewPoller with a nil store succeeded")
	}
	if _, err := NewPoller(st, f, "FI", WithPollInterval(time.Second)); err == nil {
		t.Error("a one-second poll interval was accepted")
	}
}

// TestPollerRetryAndScheduleRecordAChangeOnce: a regular poller's sweep
// company that an internal_error left to try again, and whose moment falls
// in a later sync's window, is fetched once in that sync (as the retry),
// not once more for the schedule: both fetches would diff the snapshot
// stored before the sync's Apply and record the change twice (rev-gb7's
// class, through the retries rather than the sweep). The schedule moves on
// past its moment: the next sync fetches nothing.
func TestPollerRetryAndScheduleRecordAChangeOnce(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	p := newTestPoller(t, st, f, "GB")
	if err := p.Sync(t.Context(), t0); err != nil { // starts the schedule
		t.Fatal(err)
	}
	if _, due := momentIn("GB", gbA, DefaultPollInterval, t0, t0.Add(time.Minute)); due {
		t.Fatal("the company's moment falls in the sweep's sync: the test needs another company")
	}
	p.RequestSweep()
	type after struct {
		Fetches int
		Changes []noted
	}
	var got []after
	for _, at := range []time.Time{t0.Add(time.Minute), t0.Add(24 * time.Hour), t0.Add(24*time.Hour + time.Minute)} {
		if err := p.Sync(t.Context(), at); err != nil {
			t.Fatal(err)
		}
		got = append(got, after{f.count("GB", gbA), notedOf(st.all())})
	}
	bankrupt := noted{Kind: changes.KindStatusChanged, CompanyID: gbA, Old: `"active"`, New: `"bankrupt"`}
	want := []after{
		{1, []noted{}},         // the sweep's fetch fails: a retry
		{2, []noted{bankrupt}}, // the retry reads it; its moment fell too
		{2, []noted{bankrupt}}, // nothing due
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each sync (-want +got):\n%s", diff)
	}
}
