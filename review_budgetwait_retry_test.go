package registry_test

import (
	"context"
	"sync"
	"testing"
	"time"

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

// TestReview_BudgetWaitBoundSpansRetry: DefaultBudgetWait and
// WithBudgetWait say the bound is how long a caller waits, at most, for an
// upstream budget (issue 29: "a caller waits for the budget when the wait
// fits within a bound ... at most a few seconds"). But the bound is counted
// per upstream attempt (takeBudget starts waited at zero on each call), and
// a retryable failure of the first attempt makes a second one: one Lookup
// waits 1.5 s + 1.5 s = 3 s for the budget under the default bound of 2 s.
func TestReview_BudgetWaitBoundSpansRetry(t *testing.T) {
	t.Parallel()
	p := newPacer()
	b := &alternatingBudget{wait: 1500 * time.Millisecond}
	f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
		if call == 1 {
			return nil, &registry.Error{Code: registry.CodeUpstreamError, Retryable: true, Message: "503 from the register"}
		}
		return countrykit.NewReport("NO", "fake", id, "FAKE AS"), nil
	}}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), p.option())
	if _, err := r.Lookup(t.Context(), "NO", "100001"); err != nil {
		t.Fatalf("lookup: %v", err)
	}
	var total time.Duration
	for _, w := range p.slept() {
		total += w
	}
	if total > registry.DefaultBudgetWait {
		t.Errorf("one Lookup waited %v in all for the budget (waits %v), more than the bound DefaultBudgetWait = %v",
			total, p.slept(), registry.DefaultBudgetWait)
	}
}
