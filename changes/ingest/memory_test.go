package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

var (
	_ memoryHolder = (*Norway)(nil)
	_ memoryHolder = (*Poller)(nil)
)

// forgettingIngester records its syncs and each forgetMemory, in order.
type forgettingIngester struct {
	*fakeIngester
	events chan string
}

func (f *forgettingIngester) forgetMemory() { f.events <- "forget" }

// TestLeaderForgetsMemoryAtEachLead: what an ingester keeps in memory
// between syncs (Norway's held items and retries, a sweep's companies to
// fetch again) may be stale once another replica has led, for instance a
// retry of a unit that replica purged since; the Leader makes the
// ingester forget it each time this replica starts leading, before the
// first sync of that lead (the retries are then read again from the
// store: TestNorwayForgetMemory).
func TestLeaderForgetsMemoryAtEachLead(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	in := &forgettingIngester{fakeIngester: newFakeIngester("A"), events: make(chan string, 100)}
	a := newTestLeader(t, st, clock, "a", in)
	runLeader(t, a)
	recv(t, in.syncs, "sync")
	if got := recv(t, in.events, "forget at the first lead"); got != "forget" {
		t.Fatalf("event %q, want forget", got)
	}
	clock.BlockUntil(t, 2)
	st.mu.Lock()
	st.leaseBy, st.leaseTill = "intruder", t0.Add(time.Hour)
	st.mu.Unlock()
	clock.Advance(10 * time.Second)
	clock.WaitFor(t, func(n int) bool { return n == 1 && !a.Leading() })
	select {
	case e := <-in.events:
		t.Fatalf("%s while another replica leads", e)
	default:
	}
	if err := st.ReleaseLease(t.Context(), LeaseName, "intruder"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	recv(t, in.syncs, "sync after taking the lease again")
	if got := recv(t, in.events, "forget at the second lead"); got != "forget" {
		t.Fatalf("event %q, want forget", got)
	}
}

// TestNorwayForgetMemory: after forgetMemory (the start of a lead) an
// item held for a second look is gone, so the next sync does not fetch its
// company even though a watch holds it now; the retry kept for an
// internal_error is read again from the store, so the next sync fetches
// it and records its change, with the item's source event and time
// (doc/decisions.md, "The retries of internal_error are stored with the
// cursors").
func TestNorwayForgetMemory(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS")))
	f.set("NO", noB, ok(report("NO", noB, "B NY AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	n.hold([]heldItem{{orgnr: noB, seen: t0}}, nil)
	n.mu.Lock()
	kept := len(n.retry) + len(n.held)
	n.mu.Unlock()
	if kept != 2 {
		t.Fatalf("%d items kept before forgetMemory, want the retry and the held item", kept)
	}
	// B's watch is stored now: the held item would fetch it.
	watch(t, st, "NO", []string{noB}, snapshot(report("NO", noB, "B AS"), nil))
	n.forgetMemory()
	if err := n.Sync(t.Context(), t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{noA: 2, noB: 0}, fetches(f, "NO", noA, noB)); diff != "" {
		t.Errorf("fetches after forgetMemory (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}
