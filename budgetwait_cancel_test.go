package registry_test

import (
	"context"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/internal/testwait"
)

// signalBudget passes Take on to b and sends each answer on takes.
type signalBudget struct {
	b     registry.UpstreamBudget
	takes chan bool
}

func (s *signalBudget) Take(ctx context.Context) (bool, time.Duration, error) {
	ok, wait, err := s.b.Take(ctx)
	s.takes <- ok
	return ok, wait, err
}

// TestBudgetWaitEndsWithItsLastCaller: the wait for the budget runs
// inside the shared fetch, under a context no caller can cancel, so a
// caller that gave up while it waited left its wait running: when the slot
// freed, the fetch took it and called the register for an answer nobody
// waited for, spending the budget that live callers waited for. The wait
// now ends when the last caller of the fetch gives up: the budget is not
// asked again and the register not called (a budget that only has Take).
func TestBudgetWaitEndsWithItsLastCaller(t *testing.T) {
	t.Parallel()
	c := newManualClock()
	b := &signalBudget{b: budgetOn(t, oneASecond, c.Now), takes: make(chan bool, 8)}
	called := make(chan string, 8)
	f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		called <- id
		return countrykit.NewReport("NO", "fake", id, "FAKE AS"), nil
	}}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithWaiter(seal.Key{}, c.Now, c.sleep))
	if _, err := r.Lookup(t.Context(), "NO", "600000"); err != nil || !<-b.takes || <-called != "600000" { // uses the burst
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	gone := make(chan error, 1)
	go func() {
		_, err := r.Lookup(ctx, "NO", "600001")
		gone <- err
	}()
	s := c.waitSleeping() // the caller was refused and waits for the next slot
	if <-b.takes {
		t.Fatal("the budget allowed a call past its burst")
	}
	cancel()
	if err := <-gone; codeOf(err) != registry.CodeCanceled {
		t.Fatalf("cancelled caller: %v", err)
	}
	// The caller has gone. The slot frees.
	c.advanceTo(s.until)
	close(s.wake)
	if err := <-s.ret; err == nil {
		t.Fatalf("the wait went on after its only caller cancelled (took the slot: %v)", <-b.takes)
	}
	// The next caller gets the slot at once and is the only one to call.
	if _, err := r.Lookup(t.Context(), "NO", "600002"); err != nil || !<-b.takes {
		t.Fatalf("next caller: %v", err)
	}
	if id := <-called; id != "600002" {
		t.Errorf("the register was called for %s, want 600002", id)
	}
}

// TestBudgetWaitOfCancelledCallerGivesItsSlotBack: with a budget that
// reserves (budget.Budget), a caller refused at once reserves the next
// slot; when it cancels before the slot comes, the slot goes back to the
// budget, and the next caller gets that slot rather than the one after.
func TestBudgetWaitOfCancelledCallerGivesItsSlotBack(t *testing.T) {
	t.Parallel()
	c := newManualClock()
	start := c.Now()
	b := &releaseSignal{Budget: budgetOn(t, oneASecond, c.Now), released: make(chan struct{}, 1)}
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithWaiter(seal.Key{}, c.Now, c.sleep))
	if _, err := r.Lookup(t.Context(), "NO", "700000"); err != nil { // uses the burst
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	gone := make(chan error, 1)
	go func() {
		_, err := r.Lookup(ctx, "NO", "700001")
		gone <- err
	}()
	s := c.waitSleeping()
	cancel()
	if err := <-gone; codeOf(err) != registry.CodeCanceled {
		t.Fatalf("cancelled caller: %v", err)
	}
	close(s.wake) // the clock stays: a wait that goes on would ask again now
	if err := <-s.ret; err == nil {
		t.Fatal("the wait went on after its only caller cancelled")
	}
	// The slot goes back after the wait's sleep has returned: the next
	// caller comes once it has.
	testwait.Recv(t, b.released, "the cancelled caller's slot given back")
	next := make(chan error, 1)
	go func() {
		_, err := r.Lookup(t.Context(), "NO", "700002")
		next <- err
	}()
	s2 := c.waitSleeping()
	if got, want := s2.until.Sub(start), s.until.Sub(start); got != want {
		t.Errorf("the next caller waits for the slot at +%v, want +%v (the cancelled caller's slot, given back)", got, want)
	}
	c.advanceTo(s2.until)
	close(s2.wake)
	if err := <-next; err != nil {
		t.Fatal(err)
	}
	if n := f.lookups.Load(); n != 2 {
		t.Errorf("%d upstream calls, want 2 (the cancelled caller's is not made)", n)
	}
}

// releaseSignal is a reserving budget that says when a reservation is given
// back.
type releaseSignal struct {
	*budget.Budget
	released chan struct{}
}

// Reserve reserves from the budget; its release signals once it is done.
func (b *releaseSignal) Reserve(ctx context.Context, within time.Duration) (bool, time.Duration, func(context.Context), error) {
	ok, wait, release, err := b.Budget.Reserve(ctx, within)
	if release == nil {
		return ok, wait, nil, err
	}
	return ok, wait, func(ctx context.Context) {
		release(ctx)
		b.released <- struct{}{}
	}, err
}
