package registry_test

import (
	"context"
	"runtime"
	"sync"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/seal"
)

// TestReview_LateJoinerOfAbandonedFetchLosesTheRetry: a caller that joins
// a shared fetch after its only other caller gave up (while the register
// call runs) was not counted by the fetch's wait (the count of callers and
// the shared fetch were two maps: the count made it a new wait, but
// singleflight joined it to the running fetch, which waited on the old
// one): when the first attempt fails retryably, the retry's budget wait
// ended at once (its callers had "all" given up) and the live caller was
// answered the first attempt's failure, although the retry's slot (1 s
// away) fits the 2 s bound. The same caller joining a moment earlier
// (before the other one gave up) gets the retried answer.
func TestReview_LateJoinerOfAbandonedFetchLosesTheRetry(t *testing.T) {
	for _, joinsFirst := range []bool{true, false} {
		name := map[bool]string{true: "joins before the cancel", false: "joins after the cancel"}[joinsFirst]
		t.Run(name, func(t *testing.T) {
			lateJoiner(t, joinsFirst)
		})
	}
}

func lateJoiner(t *testing.T, joinsFirst bool) {
	c := newManualClock()
	b := budgetOn(t, oneASecond, c.Now)
	started := make(chan struct{})
	gate := make(chan struct{})
	f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
		if call == 1 {
			close(started)
			<-gate
			return nil, &registry.Error{Code: registry.CodeUpstreamError, Retryable: true, Message: "503 from the register"}
		}
		return countrykit.NewReport("NO", "fake", id, "FAKE AS"), nil
	}}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithWaiter(seal.Key{}, c.Now, c.sleep))
	ctx, cancel := context.WithCancel(t.Context())
	errA := make(chan error, 1)
	go func() {
		_, err := r.Lookup(ctx, "NO", "900001")
		errA <- err
	}()
	<-started // the first attempt is at the register (it took the burst)
	errB := make(chan error, 1)
	joinB := func() {
		go func() {
			_, err := r.Lookup(t.Context(), "NO", "900001")
			errB <- err
		}()
	}
	if joinsFirst {
		joinB()
		awaitCallersInFetch(t, r, 2)
	}
	cancel()
	if err := <-errA; codeOf(err) != registry.CodeCanceled {
		t.Fatalf("cancelled caller: %v", err)
	}
	if !joinsFirst {
		joinB()
		awaitCallersInFetch(t, r, 1) // B waits for the fetch A started
	}
	close(gate) // the first attempt fails (503, retryable)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		// The retry waits for its slot, 1 s away: let it come.
		for {
			select {
			case <-done:
				return
			default:
			}
			c.mu.Lock()
			for _, s := range c.sleepers {
				if s.until.After(c.now) {
					c.now = s.until
				}
				close(s.wake)
			}
			c.sleepers = nil
			c.mu.Unlock()
			runtime.Gosched()
		}
	})
	err := <-errB
	close(done)
	wg.Wait()
	if err != nil {
		t.Errorf("live caller: %v (code %s), want the retried answer; %d upstream calls", err, codeOf(err), f.lookups.Load())
	}
}
