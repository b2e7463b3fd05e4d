package registry_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// alternatingBudget refuses every other Take with a wait of wait: each
// call it allows comes after one refusal.
type alternatingBudget struct {
	mu    sync.Mutex
	n     int
	wait  time.Duration
	takes int
}

func (b *alternatingBudget) Take(context.Context) (bool, time.Duration, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
	b.takes++
	if b.n%2 == 1 {
		return false, b.wait, nil
	}
	return true, 0, nil
}

// TestBudgetWaitBoundSpansRetry: the bound of WithBudgetWait
// (DefaultBudgetWait, 2 s) is how long one Lookup waits for the budget in
// all, its retry included (it was counted per attempt, so a retried lookup
// waited 1.5 s + 1.5 s). The budget allows every other call after a wait:
// with waits of 1.5 s the retry would pass the bound, so it is not made and
// the first attempt's failure is answered (WithUpstreamBudget: "a retry
// refused by the budget is not made"); with waits of 0.5 s both fit and the
// retry answers. The pacer's clock shows the waits; nothing is timed.
func TestBudgetWaitBoundSpansRetry(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		wait      time.Duration
		wantCode  registry.Code // "" when the lookup answers
		wantCalls int64
		wantWaits []time.Duration
	}{
		{1500 * time.Millisecond, registry.CodeUpstreamError, 1, []time.Duration{1500 * time.Millisecond}},
		{500 * time.Millisecond, "", 2, []time.Duration{500 * time.Millisecond, 500 * time.Millisecond}},
	} {
		t.Run(tt.wait.String(), func(t *testing.T) {
			t.Parallel()
			p := newPacer()
			b := &alternatingBudget{wait: tt.wait}
			f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
				if call == 1 {
					return nil, &registry.Error{Code: registry.CodeUpstreamError, Retryable: true, Message: "503 from the register"}
				}
				return countrykit.NewReport("NO", "fake", id, "FAKE AS"), nil
			}}
			r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), p.option())
			_, err := r.Lookup(t.Context(), "NO", "100001")
			if got := codeOf(err); got != tt.wantCode {
				t.Errorf("lookup: code %q (%v), want %q", got, err, tt.wantCode)
			}
			if got := f.lookups.Load(); got != tt.wantCalls {
				t.Errorf("%d upstream calls, want %d", got, tt.wantCalls)
			}
			if diff := cmp.Diff(tt.wantWaits, p.slept()); diff != "" {
				t.Errorf("waits for the budget (-want +got):\n%s", diff)
			}
			var total time.Duration
			for _, w := range p.slept() {
				total += w
			}
			if total > registry.DefaultBudgetWait {
				t.Errorf("one Lookup waited %v in all for the budget, more than the bound DefaultBudgetWait = %v", total, registry.DefaultBudgetWait)
			}
		})
	}
}
