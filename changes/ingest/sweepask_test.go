package ingest

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sweepFetches returns the fetches of each company of ids.
func sweepFetches(f *fakeFetcher, ids []string) []int {
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = f.count("GB", id)
	}
	return out
}

// TestPollerSweepAskedInMemoryThenStored: a stream asks its sweeper in
// memory with a token (askSweep) and stores the same token in GB/sweep at
// its next flush, seconds later; the sweep started from memory is not
// started again when a sync then reads the token stored (rev-tok6). The
// poller records the token in its own cursor (pollState.Asked), so
// another replica's poller, taking over, does not sweep for it either;
// several asks between two syncs are one sweep; a sync whose Apply fails
// asks again with its tokens; and a token no sweep was started for still
// sweeps (TestPollerSweepAskedInTheStore).
func TestPollerSweepAskedInMemoryThenStored(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	ids := []string{gbA, gbB}
	for _, id := range ids {
		rep := report("GB", id, "LTD "+id)
		f.set("GB", id, ok(rep))
		watch(t, st, "GB", []string{id}, snapshot(rep, nil))
	}
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	at := t0
	sync := func(p *Poller) {
		t.Helper()
		at = at.Add(time.Minute)
		if err := p.Sync(t.Context(), at); err != nil {
			t.Fatal(err)
		}
	}
	asked := func() string {
		t.Helper()
		var ps pollState
		if err := json.Unmarshal([]byte(cursor(t, st, "GB/poll")), &ps); err != nil {
			t.Fatal(err)
		}
		return ps.Asked
	}
	want := []int{0, 0}
	// check checks the fetches since the last check (n each) and the
	// token the stored state records.
	check := func(step string, n int, wantAsked string) {
		t.Helper()
		for i := range want {
			want[i] += n
		}
		if diff := cmp.Diff(want, sweepFetches(f, ids)); diff != "" {
			t.Errorf("%s: fetches (-want +got):\n%s", step, diff)
		}
		if got := asked(); got != wantAsked {
			t.Errorf("%s: Asked %q, want %q", step, got, wantAsked)
		}
	}

	// The ask in memory sweeps at once; its token is recorded with it.
	p.askSweep("a")
	sync(p)
	check("the ask in memory", 1, "a")
	// The flush stores the token: no second sweep, here or on another
	// replica taking over.
	setCursors(t, st, "GB/sweep", "a")
	sync(p)
	sync(newTestPoller(t, st, f, "GB", WithSweepOnly()))
	check("the token stored after the sweep from memory", 0, "a")

	// Two asks, the first already stored by a flush, the second not yet:
	// one sweep; neither token stored later starts another.
	p.askSweep("b")
	setCursors(t, st, "GB/sweep", "b")
	p.askSweep("c")
	sync(p)
	check("two asks", 1, "c")
	sync(p)
	setCursors(t, st, "GB/sweep", "c")
	sync(p)
	check("the two tokens read stored", 0, "c")

	// A sync whose Apply fails keeps the ask and its token.
	p.askSweep("d")
	st.failApply = errDown
	if err := p.Sync(t.Context(), at.Add(time.Second)); err == nil {
		t.Fatal("the sync whose Apply fails succeeded")
	}
	st.failApply = nil
	check("the failed sync", 1, "c")
	sync(p)
	check("the sweep asked again", 1, "d")
	setCursors(t, st, "GB/sweep", "d")
	sync(p)
	sync(newTestPoller(t, st, f, "GB", WithSweepOnly()))
	check("the token of the failed sync stored", 0, "d")

	// A token no sweep was started for is a new ask.
	setCursors(t, st, "GB/sweep", "e")
	sync(p)
	check("a new token", 1, "e")
}

// TestPollerStartedTokensForgottenAtALead: what this poller started a
// sweep for is forgotten when its replica starts leading (another may have
// led since): a stored token its stored state does not record is swept
// for, a sweep at worst more, never one less.
func TestPollerStartedTokensForgottenAtALead(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	rep := report("GB", gbA, "A LTD")
	f.set("GB", gbA, ok(rep))
	watch(t, st, "GB", []string{gbA}, snapshot(rep, nil))
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	p.askSweep("a")
	p.askSweep("b")
	if err := p.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// The stored state says "b"; "a" was started only in memory.
	p.forgetMemory()
	setCursors(t, st, "GB/sweep", "a")
	if err := p.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := f.count("GB", gbA); got != 2 {
		t.Errorf("%d fetches, want 2: a token the stored state does not record sweeps after a new lead", got)
	}
}

// TestPollerSweepAsksBounded: the tokens asked in memory and those of
// sweeps started are kept at most maxStarted each, the newest (the
// stream stores only its last ask's token).
func TestPollerSweepAsksBounded(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	var all []string
	for i := range 3 * maxStarted {
		tok := fmt.Sprintf("t%02d", i)
		all = append(all, tok)
		p.askSweep(tok)
	}
	p.mu.Lock()
	asks := slices.Clone(p.asks)
	p.mu.Unlock()
	if diff := cmp.Diff(all[len(all)-maxStarted:], asks); diff != "" {
		t.Errorf("asks kept (-want +got):\n%s", diff)
	}
	if err := p.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	p.markStarted(all[:2*maxStarted]) // the older, again
	p.mu.Lock()
	started := slices.Clone(p.started)
	p.mu.Unlock()
	if diff := cmp.Diff(all[maxStarted:2*maxStarted], started); diff != "" {
		t.Errorf("tokens started kept (-want +got):\n%s", diff)
	}
}
