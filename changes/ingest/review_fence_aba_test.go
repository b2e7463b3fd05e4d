package ingest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// diedStore is a replica's view of the store that dies without releasing
// its lease (ReleaseLease does nothing).
type diedStore struct{ changes.Store }

func (diedStore) ReleaseLease(context.Context, string, string) error { return nil }

// TestReview_FenceABAReplacedLeaderRenewsThenWritesLate (rev-fence): the
// fence compares holders only, and the Leader renews its lease with
// AcquireLease, which takes a lease that is free (released) or run out.
// So a leader a that was paused in a sync (the split brain of
// TestFencedLateApplyOfAReplacedLeader) and replaced by b gets the lease
// back, without ever noticing b, when b has left by the time a wakes up
// (b stopped cleanly, a rolling deploy: ReleaseLease; or b died and its
// lease ran out by a's clock) and a's renewal timer, overdue after the
// pause, runs before a's paused sync reaches its Apply. a's lead goes on
// (no forgetMemory, no new lead), the fence "a" matches the row a has just
// written again, and a's late page lands over b's work: the cursor steps
// back from 102 to 101 and A's snapshot back to "A NY AS", the very
// outcome the fence is documented to prevent (Leader's doc: "a Leader
// that another replica replaced before it noticed (paused, ...) cannot
// finish a write over the new leader's"; doc/decisions.md "The ingesters'
// Apply is fenced by the lease"; changes.ErrLeaseLost: "taken and released
// by another"). Holder match is an ABA check; a renewal that re-creates
// or re-takes the lease mid-lead is not a continuation of the lead.
func TestReview_FenceABAReplacedLeaderRenewsThenWritesLate(t *testing.T) {
	for _, tc := range []struct {
		name string
		// bStore is what b's Leader holds its lease through; pause is how
		// far a's clock moves at its wake-up (the wall clock went on during
		// the pause: past b's takeover at t0+40s and b's leaving at
		// t0+100s, the same times on both clocks).
		bStore func(changes.Store) changes.Store
		pause  time.Duration
	}{
		{"BReleased", func(s changes.Store) changes.Store { return s }, 2 * time.Minute},
		{"BDiedAndRanOut", func(s changes.Store) changes.Store { return diedStore{s} }, 10 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := newSplitBrain(t, "A NY AS", "A NYESTE AS")
			st, srv, paused, na, nb := sb.st, sb.srv, sb.paused, sb.na, sb.nb
			clockA, clockB := newFakeClock(t0), newFakeClock(t0)
			a := newTestLeader(t, st, clockA, "a", na)
			b := newTestLeader(t, tc.bStore(st), clockB, "b", nb)

			stopA := runLeader(t, a)
			defer stopA()
			recv(t, paused.entered, "a's fetch of A") // a is paused
			stopB := runLeader(t, b)
			for !b.Leading() { // a's lease runs out by b's clock
				clockB.BlockUntil(t, 1)
				clockB.Advance(10 * time.Second)
				if clockB.Now().Sub(t0) > time.Minute {
					t.Fatal("b never took the lease")
				}
			}
			if err := recv(t, nb.synced, "b's first sync"); err != nil {
				t.Fatal(err)
			}
			srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
			for range 6 { // one interval: b renews and syncs again
				clockB.BlockUntil(t, 2)
				clockB.Advance(10 * time.Second)
			}
			if err := recv(t, nb.synced, "b's second sync"); err != nil {
				t.Fatal(err)
			}
			stopB() // b leaves (a deploy; or it dies, its lease left to run out)
			before := stateOfNorway(t, st)
			if before.Cursors["NO/enheter"] != "102" || before.Snapshot != "A NYESTE AS" {
				t.Fatalf("b's work: %+v", before)
			}

			// a wakes up: its renewal timer, overdue, fires first.
			clockA.BlockUntil(t, 1)
			clockA.Advance(tc.pause)
			clockA.WaitFor(t, func(n int) bool { return n == 1 })
			t.Logf("a leading after its renewal: %v", a.Leading())

			close(paused.release) // then a's paused sync goes on
			// Refused (ErrLeaseLost), or stopped before its Apply (a lead
			// that ended at the wake-up): either way not stored.
			if err := recv(t, na.synced, "a's late sync"); err == nil {
				t.Errorf("a's late sync after b led stored its page (err nil), want ErrLeaseLost or its lead ended")
			}
			if diff := cmp.Diff(before, stateOfNorway(t, st)); diff != "" {
				t.Errorf("what a's late page, written after b led, changed (-b's +after):\n%s", diff)
			}
		})
	}
}
