package registry_test

import (
	"context"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/ratelimit"
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

// TestReview_BudgetWaitOutlivesCancelledCaller: the wait for the budget
// runs inside the shared fetch, under a context no caller can cancel
// (fetch's bg), so a caller that gives up while it waits leaves its wait
// running: when the slot frees, the fetch takes it and calls the register
// for an answer nobody is waiting for, spending the budget that live
// callers wait for. Issue 29 bounds the wait by the request's own deadline;
// a cancelled request should end its wait, and a fetch whose callers have
// all gone should not take a slot.
func TestReview_BudgetWaitOutlivesCancelledCaller(t *testing.T) {
	t.Parallel()
	c := newManualClock()
	l, err := ratelimit.NewLocal(ratelimit.Rate{Limit: 1, Period: time.Second, Burst: 1}, ratelimit.WithClock(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	inner, err := budget.New(l, "NO")
	if err != nil {
		t.Fatal(err)
	}
	b := &signalBudget{b: inner, takes: make(chan bool, 8)}
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
	if err := <-s.ret; err != nil {
		return // the wait ended with the caller: what should happen
	}
	if took := <-b.takes; took {
		t.Errorf("the wait went on after its only caller cancelled, took the budget's slot and called the register for %s", <-called)
	}
}
