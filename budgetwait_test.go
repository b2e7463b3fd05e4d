package registry_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/ratelimit"
)

// pacer is a fake clock and a sleep that moves it: a Registry paced by it
// never waits in real time, and the test reads what it would have waited.
type pacer struct {
	clock *fakeclock.Clock
	mu    sync.Mutex
	waits []time.Duration
}

func newPacer() *pacer {
	return &pacer{clock: fakeclock.New(time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC))}
}

func (p *pacer) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.mu.Lock()
	p.waits = append(p.waits, d)
	p.mu.Unlock()
	p.clock.Advance(d)
	return nil
}

func (p *pacer) option() registry.Option {
	return registry.WithWaiter(seal.Key{}, p.clock.Now, p.sleep)
}

func (p *pacer) slept() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Duration(nil), p.waits...)
}

// brregBudget is the example server's default budget for Brønnøysund
// (budget.Brreg: at most 300 calls in any minute, a burst of 30, then one
// every 222 ms) on the pacer's clock.
func brregBudget(t *testing.T, p *pacer) *budget.Budget {
	t.Helper()
	return budgetOn(t, budget.Brreg(), p.clock.Now)
}

// TestBudgetWaitsWithinBound (issue 29): 100 sequential cold lookups with
// the default Brønnøysund budget all answer, the 70 past the burst of 30
// after a short wait each (within the default bound); none is refused and
// the register is called 100 times. The pacer's clock shows the waits;
// nothing is timed.
func TestBudgetWaitsWithinBound(t *testing.T) {
	t.Parallel()
	p := newPacer()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", brregBudget(t, p)), p.option())
	for i := range 100 {
		if _, err := r.Lookup(t.Context(), "NO", fmt.Sprintf("%06d", 100000+i)); err != nil {
			t.Fatalf("lookup %d: %v", i+1, err)
		}
	}
	if n := f.lookups.Load(); n != 100 {
		t.Errorf("%d upstream calls, want 100", n)
	}
	waits := p.slept()
	if len(waits) != 70 {
		t.Errorf("%d waits, want 70 (one for each lookup past the burst of 30)", len(waits))
	}
	var total time.Duration
	for _, w := range waits {
		total += w
		if w <= 0 || w > registry.DefaultBudgetWait {
			t.Errorf("a wait of %v, want within (0, %v]", w, registry.DefaultBudgetWait)
		}
	}
	// 70 calls at 270 a minute take 70 × 222 ms, about 15.6 s of the
	// pacer's clock.
	if want := 70 * time.Minute / 270; total < want-time.Second || total > want+time.Second {
		t.Errorf("waited %v in all, want about %v", total, want)
	}
}

// TestBudgetRefusesBeyondBound (issue 29): a burst that cannot fit the
// bound is still refused at once with rate_limited and retry_after, and the
// register is not called: a bound shorter than the budget's pace, and no
// wait at all (WithBudgetWait(0)).
func TestBudgetRefusesBeyondBound(t *testing.T) {
	t.Parallel()
	type outcome struct {
		Answered, Limited int
		RetryAfter        int
	}
	run := func(t *testing.T, opts ...registry.Option) (outcome, []time.Duration) {
		p := newPacer()
		f := &fakeCountry{code: "NO"}
		r := newRegistry(t, f, append([]registry.Option{registry.WithUpstreamBudget("NO", brregBudget(t, p)), p.option()}, opts...)...)
		var o outcome
		for i := range 40 {
			_, err := r.Lookup(t.Context(), "NO", fmt.Sprintf("%06d", 200000+i))
			switch {
			case err == nil:
				o.Answered++
			case codeOf(err) == registry.CodeRateLimited:
				o.Limited++
				o.RetryAfter = registry.AsError(err).RetryAfter()
			default:
				t.Fatalf("lookup %d: %v", i+1, err)
			}
		}
		if int(f.lookups.Load()) != o.Answered {
			t.Errorf("%d upstream calls for %d answers", f.lookups.Load(), o.Answered)
		}
		return o, p.slept()
	}
	want := outcome{Answered: 30, Limited: 10, RetryAfter: 1}

	for name, opt := range map[string]registry.Option{
		"bound shorter than the pace": registry.WithBudgetWait(100 * time.Millisecond),
		"no waiting":                  registry.WithBudgetWait(0),
	} {
		got, waits := run(t, opt)
		if diff := cmp.Diff(want, got); diff != "" || len(waits) != 0 {
			t.Errorf("%s: (-want +got):\n%s\nwaits %v", name, diff, waits)
		}
	}
}

// TestBudgetWaitEndsBeforeTheCallersDeadline (issue 29): a caller waits
// for the budget only when the wait ends before its own deadline. A budget
// of one call every 5 s and the longest bound: a caller with 4 s left is
// refused at once (retry_after 5) and the register is not called; one
// without a deadline waits the 5 s (on the pacer's clock) and is answered.
func TestBudgetWaitEndsBeforeTheCallersDeadline(t *testing.T) {
	t.Parallel()
	p := newPacer()
	l, err := ratelimit.NewLocal(ratelimit.Rate{Limit: 1, Period: 5 * time.Second, Burst: 1}, ratelimit.WithClock(p.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	b, err := budget.New(l, "NO")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithBudgetWait(registry.MaxBudgetWait), p.option())
	if _, err := r.Lookup(t.Context(), "NO", "100001"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Second)
	defer cancel()
	_, err = r.Lookup(ctx, "NO", "100002")
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeRateLimited || e.RetryAfter() != 5 || len(p.slept()) != 0 {
		t.Errorf("caller with 4 s left: %v, waits %v; want rate_limited with retry_after 5 and no wait", err, p.slept())
	}
	if _, err := r.Lookup(t.Context(), "NO", "100003"); err != nil || !slices.Equal(p.slept(), []time.Duration{5 * time.Second}) {
		t.Errorf("caller without a deadline: %v, waits %v; want an answer after one wait of 5s", err, p.slept())
	}
	if n := f.lookups.Load(); n != 2 {
		t.Errorf("%d upstream calls, want 2", n)
	}
}

func TestWithBudgetWaitValidation(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	for _, d := range []time.Duration{-time.Millisecond, registry.MaxBudgetWait + time.Millisecond} {
		if _, err := registry.New([]registry.Country{f}, registry.WithBudgetWait(d)); err == nil {
			t.Errorf("WithBudgetWait(%v) accepted", d)
		}
	}
	for _, d := range []time.Duration{0, registry.MaxBudgetWait} {
		if _, err := registry.New([]registry.Country{f}, registry.WithBudgetWait(d)); err != nil {
			t.Errorf("WithBudgetWait(%v): %v", d, err)
		}
	}
	if _, err := registry.New([]registry.Country{f}, registry.WithWaiter(seal.Key{}, nil, nil)); err == nil {
		t.Error("WithWaiter(nil, nil) accepted")
	}
}

// TestBatchPacesItself (issue 29): a cold batch of 100 identifiers with the
// default Brønnøysund budget answers every item: each identifier waits for
// the budget as a single lookup does, and when the bound is shorter than
// the budget's pace the batch pauses for the retry_after and tries again,
// on the same pacing clock. No item is rate_limited; nothing is timed.
func TestBatchPacesItself(t *testing.T) {
	t.Parallel()
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = fmt.Sprintf("%06d", 300000+i)
	}
	for name, opts := range map[string][]registry.Option{
		"default bound":               nil,
		"bound shorter than the pace": {registry.WithBudgetWait(100 * time.Millisecond)},
	} {
		p := newPacer()
		f := &fakeCountry{code: "NO"}
		r := newRegistry(t, f, append([]registry.Option{registry.WithUpstreamBudget("NO", brregBudget(t, p)), p.option()}, opts...)...)
		items, err := r.LookupBatch(t.Context(), "NO", ids)
		if err != nil {
			t.Fatal(err)
		}
		failed := map[registry.Code]int{}
		for _, it := range items {
			if it.Err != nil {
				failed[codeOf(it.Err)]++
			}
		}
		if len(failed) != 0 || f.lookups.Load() != 100 || len(p.slept()) == 0 {
			t.Errorf("%s: failed %v, %d upstream calls, %d waits; want none failed, 100 calls, some waits",
				name, failed, f.lookups.Load(), len(p.slept()))
		}
	}
}
