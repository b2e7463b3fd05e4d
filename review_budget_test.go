package registry_test

import (
	"context"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/seal"
)

// TestReview_SharedFetchWaitGoesOnForItsOtherCallers: two callers share a
// fetch that waits for the budget; the first (the leader) cancels; the
// wait goes on for the second, which is answered in the slot reserved
// for the fetch, with one upstream call.
func TestReview_SharedFetchWaitGoesOnForItsOtherCallers(t *testing.T) {
	c := newManualClock()
	b := budgetOn(t, oneASecond, c.Now)
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithWaiter(seal.Key{}, c.Now, c.sleep))
	if _, err := r.Lookup(t.Context(), "NO", "800000"); err != nil { // uses the burst
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	errA := make(chan error, 1)
	go func() {
		_, err := r.Lookup(ctx, "NO", "800001")
		errA <- err
	}()
	s := c.waitSleeping() // the fetch waits for its slot
	errB := make(chan error, 1)
	go func() {
		_, err := r.Lookup(t.Context(), "NO", "800001")
		errB <- err
	}()
	awaitCallersInFetch(t, r, 2)
	cancel()
	if err := <-errA; codeOf(err) != registry.CodeCanceled {
		t.Fatalf("cancelled caller: %v", err)
	}
	select {
	case err := <-s.ret:
		t.Fatalf("the wait ended (%v) while a caller still waited for it", err)
	default:
	}
	c.advanceTo(s.until)
	close(s.wake)
	if err := <-errB; err != nil {
		t.Fatalf("the caller that stayed: %v", err)
	}
	if n := f.lookups.Load(); n != 2 {
		t.Errorf("%d upstream calls, want 2", n)
	}
}

// gatedReserver passes Reserve on to b; a release it hands out waits for
// gate first.
type gatedReserver struct {
	b    registry.UpstreamReserver
	gate chan struct{}
}

func (g *gatedReserver) Take(ctx context.Context) (bool, time.Duration, error) { return g.b.Take(ctx) }

func (g *gatedReserver) Reserve(ctx context.Context, within time.Duration) (bool, time.Duration, func(context.Context), error) {
	ok, wait, release, err := g.b.Reserve(ctx, within)
	if release == nil {
		return ok, wait, nil, err
	}
	return ok, wait, func(ctx context.Context) {
		<-g.gate
		release(ctx)
	}, err
}

// TestReview_CallerJoiningAnAbandonedWaitFetchesAgain: a caller that
// joins a fetch just after its only caller gave up while it waited for
// the budget (the fetch is still giving its slot back) is answered by a
// fetch of its own (it waits for the abandoned fetch's end, then fetches
// again), in the slot the first caller gave back.
func TestReview_CallerJoiningAnAbandonedWaitFetchesAgain(t *testing.T) {
	c := newManualClock()
	start := c.Now()
	b := &gatedReserver{b: budgetOn(t, oneASecond, c.Now), gate: make(chan struct{})}
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithWaiter(seal.Key{}, c.Now, c.sleep))
	if _, err := r.Lookup(t.Context(), "NO", "810000"); err != nil { // uses the burst
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	errA := make(chan error, 1)
	go func() {
		_, err := r.Lookup(ctx, "NO", "810001")
		errA <- err
	}()
	s := c.waitSleeping()
	cancel()
	if err := <-errA; codeOf(err) != registry.CodeCanceled {
		t.Fatalf("cancelled caller: %v", err)
	}
	errB := make(chan error, 1)
	go func() {
		_, err := r.Lookup(t.Context(), "NO", "810001")
		errB <- err
	}()
	awaitCallersInFetch(t, r, 1) // B joined the abandoned fetch
	close(b.gate)                // which gives its slot back and ends
	s2 := c.waitSleeping()       // B's own fetch waits for the slot
	if got, want := s2.until.Sub(start), s.until.Sub(start); got != want {
		t.Errorf("B waits for +%v, want +%v (the slot A gave back)", got, want)
	}
	c.advanceTo(s2.until)
	close(s2.wake)
	if err := <-errB; err != nil {
		t.Fatalf("B: %v", err)
	}
	if n := f.lookups.Load(); n != 2 {
		t.Errorf("%d upstream calls, want 2", n)
	}
}
