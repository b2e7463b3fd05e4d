package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReview_FenceABAClocksWithinTheTTL (rev-fix6): CHANGELOG ("The
// replicas' clocks must agree within the lease's TTL"), README ("the
// replicas' clocks agreeing within the lease's 30 s"), ingest/doc.go ("as
// long as the replicas' clocks agree within the lease's TTL") and the
// Leader's doc ("within less than the TTL") give a skew under the TTL as
// enough for the fence to hold. It is not: with b's clock 20 s ahead (a
// third less than the 30 s TTL), b judges a's lease run out 20 s before
// a does, and everything b does in those 20 s (take the lease, sync
// twice, stop cleanly in a rolling deploy) happens while a's own check
// (`!now.Before(until)`, c07deac) still passes. a, paused for 25 s in a
// sync, wakes up, renews at t0+25s by its clock (inside its lease), takes
// the free lease back under the same holder, and its late page lands
// over b's: the cursor steps back from 102 to 101 and A's snapshot back
// to "A NY AS". Any skew opens a window as wide as the skew; "within the
// TTL" bounds nothing (doc/decisions.md's "more than the time a paused
// leader's write needs" is not the condition either: a's write here
// needs no time at all, b's lead fits in the skew).
func TestReview_FenceABAClocksWithinTheTTL(t *testing.T) {
	t.Parallel()
	const skew = 20 * time.Second // b's clock ahead of a's; the TTL is 30 s
	sb := newSplitBrain(t, "A NY AS", "A NYESTE AS")
	st, srv, paused, na, nb := sb.st, sb.srv, sb.paused, sb.na, sb.nb
	clockA, clockB := newFakeClock(t0), newFakeClock(t0.Add(skew))
	a := newTestLeader(t, st, clockA, "a", na)
	b, err := NewLeader(st, []Ingester{nb}, WithClock(clockB), WithHolder("b"), WithInterval(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}

	stopA := runLeader(t, a) // a leads from t0 (its clock) until t0+30s
	defer stopA()
	recv(t, paused.entered, "a's fetch of A") // a is paused from here
	clockA.BlockUntil(t, 1)                   // (its renewal timer at t0+10s)

	stopB := runLeader(t, b)
	clockB.BlockUntil(t, 1)          // b tried at t0+20s by its clock: a holds the lease
	clockB.Advance(10 * time.Second) // a's lease runs out by b's clock at t0+30s, 20 s early
	if err := recv(t, nb.synced, "b's first sync"); err != nil {
		t.Fatal(err)
	}
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
	clockB.BlockUntil(t, 2)
	clockB.Advance(5 * time.Second) // b's interval
	if err := recv(t, nb.synced, "b's second sync"); err != nil {
		t.Fatal(err)
	}
	stopB() // b leaves cleanly at t0+35s by its clock (t0+15s by a's)
	before := stateOfNorway(t, st)
	if before.Cursors["NO/enheter"] != "102" || before.Snapshot != "A NYESTE AS" {
		t.Fatalf("b's work: %+v", before)
	}

	// a wakes up at t0+25s by its clock (t0+45s by b's: still 20 s apart):
	// its overdue renewal, inside its lease by its clock, runs first.
	clockA.Advance(25 * time.Second)
	clockA.WaitFor(t, func(n int) bool { return n == 1 })
	t.Logf("a leading after its renewal: %v", a.Leading())

	close(paused.release) // then a's paused sync goes on
	if err := recv(t, na.synced, "a's late sync"); err == nil {
		t.Errorf("a's late sync after b led stored its page (err nil), want ErrLeaseLost or its lead ended")
	}
	if diff := cmp.Diff(before, stateOfNorway(t, st)); diff != "" {
		t.Errorf("what a's late page, written after b led, changed (-b's +after):\n%s", diff)
	}
}
