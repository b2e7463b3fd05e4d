package registry_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/ratelimit"
)

// fakeBudget allows the first allow Takes and refuses the rest with wait,
// or fails every Take with err.
type fakeBudget struct {
	mu    sync.Mutex
	allow int
	wait  time.Duration
	err   error
	takes int
}

func (b *fakeBudget) Take(context.Context) (bool, time.Duration, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.takes++
	if b.err != nil {
		return false, 0, b.err
	}
	if b.takes <= b.allow {
		return true, 0, nil
	}
	return false, b.wait, nil
}

func (b *fakeBudget) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.takes
}

// TestEmptyBudgetNeverCallsRegister: with the budget empty, lookups,
// searches and deadlines make zero upstream calls and answer rate_limited
// with the budget's retry_after; the refusal is not cached.
func TestEmptyBudgetNeverCallsRegister(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "GB"}
	b := &fakeBudget{wait: 2500 * time.Millisecond}
	r := newRegistry(t, f, registry.WithUpstreamBudget("gb", b))

	_, err := r.Lookup(t.Context(), "GB", "123456")
	var e *registry.Error
	if !errors.As(err, &e) {
		t.Fatalf("Lookup error %v, want an *Error", err)
	}
	want := struct {
		Code       registry.Code
		RetryAfter int
		Country    string
	}{registry.CodeRateLimited, 3, "GB"}
	got := want
	got.Code, got.RetryAfter, got.Country = e.Code, e.RetryAfter(), e.Country
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lookup error mismatch (-want +got):\n%s", diff)
	}
	if _, err := r.Search(t.Context(), "GB", "tesco", 10); codeOf(err) != registry.CodeRateLimited {
		t.Errorf("Search error %v, want rate_limited", err)
	}
	if _, err := r.Deadlines(t.Context(), "GB", "123456", registry.Date{Year: 2026, Month: 11, Day: 24}); codeOf(err) != registry.CodeRateLimited {
		t.Errorf("Deadlines error %v, want rate_limited", err)
	}
	if n := f.lookups.Load() + f.searches.Load(); n != 0 {
		t.Errorf("the register was called %d times, want 0", n)
	}
	// The refusal is not cached: once the budget has room, the register is
	// called.
	b.mu.Lock()
	b.allow = b.takes + 1
	b.mu.Unlock()
	if _, err := r.Lookup(t.Context(), "GB", "123456"); err != nil {
		t.Fatalf("Lookup with budget: %v", err)
	}
	if n := f.lookups.Load(); n != 1 {
		t.Errorf("%d upstream calls, want 1", n)
	}
}

// TestBudgetCacheHitsCostNothing: a hit, and callers collapsed into one
// fetch, take nothing from the budget.
func TestBudgetCacheHitsCostNothing(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	release := make(chan struct{})
	f.lookup = func(ctx context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		<-release
		return nil, &registry.Error{Code: registry.CodeNotFound}
	}
	b := &fakeBudget{allow: 100}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b))
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() { _, _ = r.Lookup(t.Context(), "NO", "123456") })
	}
	awaitCallersInFetch(t, r, 5) // all five wait for one fetch
	close(release)
	wg.Wait()
	// The collapsed callers share the one fetch's take.
	if takes, calls := b.count(), f.lookups.Load(); takes != 1 || calls != 1 {
		t.Errorf("%d budget takes for %d upstream calls, want 1 for 1", takes, calls)
	}
	before := b.count()
	for range 5 {
		_, _ = r.Lookup(t.Context(), "NO", "123456")
	}
	if n := b.count(); n != before {
		t.Errorf("5 cache hits took %d calls from the budget", n-before)
	}
}

// TestBudgetTakenBeforeRetry: the retry takes from the budget too; when it
// is refused the retry is not made and the first failure is returned.
func TestBudgetTakenBeforeRetry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		allow     int
		wantCalls int64
		wantCode  registry.Code
	}{
		{allow: 1, wantCalls: 1, wantCode: registry.CodeUpstreamError},
		{allow: 2, wantCalls: 2, wantCode: ""},
	} {
		f := &fakeCountry{code: "NO"}
		f.lookup = func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
			if call == 1 {
				return nil, &registry.Error{Code: registry.CodeUpstreamError, Retryable: true}
			}
			return nil, &registry.Error{Code: registry.CodeNotFound}
		}
		if tc.wantCode == "" {
			tc.wantCode = registry.CodeNotFound
		}
		b := &fakeBudget{allow: tc.allow, wait: time.Second}
		// Refused at once: this test is about the retry, not the wait.
		r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithBudgetWait(0))
		_, err := r.Lookup(t.Context(), "NO", "123456")
		if got := codeOf(err); got != tc.wantCode {
			t.Errorf("allow %d: code %q, want %q", tc.allow, got, tc.wantCode)
		}
		if n := f.lookups.Load(); n != tc.wantCalls {
			t.Errorf("allow %d: %d upstream calls, want %d", tc.allow, n, tc.wantCalls)
		}
		if n := b.count(); n != 2 {
			t.Errorf("allow %d: %d takes, want 2", tc.allow, n)
		}
	}
}

func TestFailingBudgetLetsCallsThrough(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", &fakeBudget{err: errors.New("store down")}))
	if _, err := r.Lookup(t.Context(), "NO", "123456"); err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	if n := f.lookups.Load(); n != 1 {
		t.Errorf("%d upstream calls, want 1", n)
	}
}

func TestWithUpstreamBudgetValidation(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	for name, opt := range map[string]registry.Option{
		"bad code":   registry.WithUpstreamBudget("NOR", &fakeBudget{}),
		"nil budget": registry.WithUpstreamBudget("NO", nil),
		"no module":  registry.WithUpstreamBudget("GB", &fakeBudget{}),
	} {
		if _, err := registry.New([]registry.Country{f}, opt); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
}

// TestLocalBudgetRefusesBurst: the budget package's in-process budget lets
// a burst of cold lookups reach the register at most its burst times.
func TestLocalBudgetRefusesBurst(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "GB"}
	b, err := budget.Local(ratelimit.Rate{Limit: 1, Period: time.Hour, Burst: 5})
	if err != nil {
		t.Fatal(err)
	}
	r := newRegistry(t, f, registry.WithUpstreamBudget("GB", b))
	limited := 0
	for i := range 20 {
		_, err := r.Lookup(t.Context(), "GB", "1000"+string(rune('0'+i/10))+string(rune('0'+i%10)))
		if codeOf(err) == registry.CodeRateLimited {
			limited++
			if ra := registry.AsError(err).RetryAfter(); ra < 1 || ra > 3600 {
				t.Errorf("retry_after %d", ra)
			}
		}
	}
	if n := f.lookups.Load(); n != 5 || limited != 15 {
		t.Errorf("%d upstream calls and %d refusals, want 5 and 15", n, limited)
	}
}

// localCountry answers searches, and lookups when lookupsLocal, from data
// of its own ([registry.LocalAnswers]).
type localCountry struct {
	*fakeCountry
	lookupsLocal bool
}

func (l *localCountry) AnswersLocally(op string) bool {
	switch op {
	case "search":
		return true
	case "lookup":
		return l.lookupsLocal
	}
	panic("unknown operation " + op)
}

// TestLocalAnswersCostNothing: a module's local searches (and lookups,
// when it says so) take nothing from an empty budget and answer; its
// register's lookups still take one call each and are refused.
func TestLocalAnswersCostNothing(t *testing.T) {
	t.Parallel()
	for _, lookupsLocal := range []bool{false, true} {
		l := &localCountry{fakeCountry: &fakeCountry{code: "SE"}, lookupsLocal: lookupsLocal}
		b := &fakeBudget{wait: time.Second}
		r, err := registry.New([]registry.Country{l}, registry.WithRetryPause(0), registry.WithUpstreamBudget("SE", b), registry.WithBudgetWait(0))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Search(t.Context(), "SE", "acme", 5); err != nil {
			t.Errorf("local search with an empty budget: %v", err)
		}
		_, err = r.Lookup(t.Context(), "SE", "123456")
		_, derr := r.Deadlines(t.Context(), "SE", "654321", registry.NewDate(2026, 3, 1))
		wantTakes, wantCode := 2, registry.CodeRateLimited
		if lookupsLocal {
			wantTakes, wantCode = 0, ""
		}
		if codeOf(err) != wantCode || codeOf(derr) != wantCode || b.count() != wantTakes {
			t.Errorf("lookups local %t: lookup %v, deadlines %v, %d takes; want %q and %d takes", lookupsLocal, err, derr, b.count(), wantCode, wantTakes)
		}
		if n := l.searches.Load(); n != 1 {
			t.Errorf("lookups local %t: %d searches reached the module", lookupsLocal, n)
		}
	}
}
