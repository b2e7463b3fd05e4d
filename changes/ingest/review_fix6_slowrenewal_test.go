package ingest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// stalledRenewalStore is a replica's view of the store whose second
// AcquireLease (the lead's first renewal) stalls after the Leader read
// its clock: a pause of the process between clock.Now and the store
// call, or a store call stuck on the network (the renewal has no
// timeout), that reaches the store only when the test lets it.
type stalledRenewalStore struct {
	changes.Store
	calls   atomic.Int32
	entered chan struct{}
	release chan struct{}
}

func (s *stalledRenewalStore) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if s.calls.Add(1) == 2 {
		s.entered <- struct{}{}
		<-s.release
	}
	return s.Store.AcquireLease(ctx, name, holder, now, ttl)
}

// RenewLease stalls as AcquireLease does: since the fix the Leader renews
// with RenewLease (added by the lead with the fix).
func (s *stalledRenewalStore) RenewLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if s.calls.Add(1) == 2 {
		s.entered <- struct{}{}
		<-s.release
	}
	return s.Store.RenewLease(ctx, name, holder, now, ttl)
}

// TestReview_FenceABARenewalStalledPastItsLease (rev-fix6): c07deac
// closes the ABA of TestReview_FenceABAReplacedLeaderRenewsThenWritesLate
// by checking the Leader's own clock before it renews (`!now.Before(until)`
// ends the lead). But the check and the renewal are not one step: the
// renewal sends the `now` it read before the check, and the store takes a
// free lease for it whatever time it is (AcquireLease's `expires_at <=
// now` with the caller's stale now, or no row at all after a release).
// So the same pause the fix is for, falling a moment later (after the
// clock was read, before or during the store call; a renewal stuck on
// the network has no timeout), lets the replaced leader take the lease
// back under the same holder, its lead going on, and its late page then
// passes the fence over the work of the replica that led meanwhile. The
// clocks here agree exactly (a's is moved to b's before its renewal goes
// on). The cursor steps back from 102 to 101 and A's snapshot back to
// "A NY AS", as in the original finding. Leader's doc ("a Leader that
// another replica replaced before it noticed (paused, or cut off from the
// store while its lease ran out) cannot finish a write over the new
// leader's"), ingest/doc.go, README's multi-replica paragraph and
// doc/decisions.md "After its review (rev-fence)" say this is closed for
// agreeing clocks.
func TestReview_FenceABARenewalStalledPastItsLease(t *testing.T) {
	t.Parallel()
	sb := newSplitBrain(t, "A NY AS", "A NYESTE AS")
	st, srv, paused, na, nb := sb.st, sb.srv, sb.paused, sb.na, sb.nb
	clockA, clockB := newFakeClock(t0), newFakeClock(t0)
	stA := &stalledRenewalStore{Store: st, entered: make(chan struct{}, 1), release: make(chan struct{})}
	a := newTestLeader(t, stA, clockA, "a", na)
	b := newTestLeader(t, st, clockB, "b", nb)

	stopA := runLeader(t, a)
	defer stopA()
	recv(t, paused.entered, "a's fetch of A") // a's sync is on its way
	// a's renewal at t0+10s, well inside its lease (until t0+30s): the
	// check passes, then the process stalls before the store sees the call.
	clockA.BlockUntil(t, 1)
	clockA.Advance(10 * time.Second)
	recv(t, stA.entered, "a's renewal")

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
	stopB() // b leaves cleanly (a rolling deploy): ReleaseLease
	before := stateOfNorway(t, st)
	if before.Cursors["NO/enheter"] != "102" || before.Snapshot != "A NYESTE AS" {
		t.Fatalf("b's work: %+v", before)
	}

	// The clocks agree: a's is where b's is. a's renewal reaches the store.
	clockA.Advance(clockB.Now().Sub(clockA.Now()))
	close(stA.release)
	clockA.BlockUntil(t, 1) // the renewal returned; a sleeps to its next one
	t.Logf("a leading after its stalled renewal: %v", a.Leading())

	close(paused.release) // a's paused sync goes on
	if err := recv(t, na.synced, "a's late sync"); err == nil {
		t.Errorf("a's late sync after b led stored its page (err nil), want ErrLeaseLost or its lead ended")
	}
	if diff := cmp.Diff(before, stateOfNorway(t, st)); diff != "" {
		t.Errorf("what a's late page, written after b led, changed (-b's +after):\n%s", diff)
	}
}
