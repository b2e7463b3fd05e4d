package registry_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/ratelimit"
)

// budgetOn is an in-process budget of rate on the clock now.
func budgetOn(t *testing.T, rate ratelimit.Rate, now func() time.Time) *budget.Budget {
	t.Helper()
	l, err := ratelimit.NewLocal(rate, ratelimit.WithMaxKeys(1), ratelimit.WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	b, err := budget.New(l, "NO")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// oneASecond is one call a second, in bursts of one.
var oneASecond = ratelimit.Rate{Limit: 1, Period: time.Second, Burst: 1}

// manualClock is a fake clock whose sleeps block until the test's driver
// moves the clock past them: the driver advances to the earliest wake-up
// only once every caller is asleep or done, so concurrent callers
// interleave exactly as they would in real time, without waiting in real
// time.
type manualClock struct {
	mu       sync.Mutex
	cond     *sync.Cond
	now      time.Time
	sleepers []*sleeper
	done     int
}

type sleeper struct {
	until time.Time
	wake  chan struct{}
	ret   chan error // what sleep returned
}

func newManualClock() *manualClock {
	c := &manualClock{now: time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	s := &sleeper{until: c.now.Add(d), wake: make(chan struct{}), ret: make(chan error, 1)}
	c.sleepers = append(c.sleepers, s)
	c.cond.Broadcast()
	c.mu.Unlock()
	select {
	case <-s.wake:
	case <-ctx.Done():
	}
	// A context that has ended wins over a wake-up that came with it, as
	// the select would pick either.
	err := ctx.Err()
	s.ret <- err
	return err
}

func (c *manualClock) finished() {
	c.mu.Lock()
	c.done++
	c.cond.Broadcast()
	c.mu.Unlock()
}

// drive advances the clock while n callers run: whenever each is asleep or
// done, to the earliest wake-up, waking every sleeper due by then.
func (c *manualClock) drive(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for len(c.sleepers)+c.done < n {
			c.cond.Wait()
		}
		if c.done == n {
			return
		}
		next := c.sleepers[0].until
		for _, s := range c.sleepers {
			if s.until.Before(next) {
				next = s.until
			}
		}
		if next.After(c.now) {
			c.now = next
		}
		kept := c.sleepers[:0]
		for _, s := range c.sleepers {
			if s.until.After(c.now) {
				kept = append(kept, s)
				continue
			}
			close(s.wake)
		}
		c.sleepers = kept
	}
}

// TestBudgetBurstBeyondBoundRefusedAtOnce: WithBudgetWait says a caller
// "that would have to wait longer is answered rate_limited with
// details.retry_after at once, as without waiting", and issue 29 asks that
// "a burst that cannot fit the bound still gets rate_limited". A caller
// reserves its call from the budget (budget.Budget is a
// registry.UpstreamReserver), so 100 concurrent cold lookups with the
// default Brønnøysund budget (30 at once, then one every 222 ms) and the
// default 2 s bound: 30 are answered at once, the 9 whose calls come within
// 2 s after waiting for them, and the other 61 are refused at once (on a
// fake clock that moves only when every caller sleeps). Before, a budget's
// answer reserved nothing: every refused caller was told the same next
// slot, one won it and the others started over, until their summed waits
// passed the bound, so they were refused only after waiting about 2 s.
func TestBudgetBurstBeyondBoundRefusedAtOnce(t *testing.T) {
	t.Parallel()
	c := newManualClock()
	b := budgetOn(t, budget.Brreg(), c.Now)
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithWaiter(seal.Key{}, c.Now, c.sleep))
	const n = 100
	start := c.Now()
	type outcome struct {
		ok    bool
		code  registry.Code
		after time.Duration
	}
	out := make([]outcome, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer c.finished()
			_, err := r.Lookup(t.Context(), "NO", fmt.Sprintf("%06d", 400000+i))
			out[i] = outcome{ok: err == nil, code: codeOf(err), after: c.Now().Sub(start)}
		})
	}
	c.drive(n)
	wg.Wait()
	served, refusedAtOnce, refusedLate := 0, 0, 0
	var latest time.Duration
	for _, o := range out {
		switch {
		case o.ok:
			served++
		case o.code == registry.CodeRateLimited && o.after == 0:
			refusedAtOnce++
		case o.code == registry.CodeRateLimited:
			refusedLate++
			latest = max(latest, o.after)
		default:
			t.Fatalf("unexpected outcome %+v", o)
		}
	}
	t.Logf("served %d, refused at once %d, refused after waiting %d (the last after %v); %d upstream calls",
		served, refusedAtOnce, refusedLate, latest, f.lookups.Load())
	if refusedLate > 0 {
		t.Errorf("%d callers of the burst that the bound could not fit were refused only after waiting (up to %v), not at once",
			refusedLate, latest)
	}
	// 30 at once and one every 60 s / 270 = 222 ms: 9 within 2 s.
	if served != 39 || refusedAtOnce != 61 || f.lookups.Load() != 39 {
		t.Errorf("served %d and refused %d at once with %d upstream calls, want 39, 61 and 39", served, refusedAtOnce, f.lookups.Load())
	}
}

// waitSleeping blocks until one caller sleeps on c, and returns its
// sleeper without waking it.
func (c *manualClock) waitSleeping() *sleeper {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.sleepers) == 0 {
		c.cond.Wait()
	}
	s := c.sleepers[0]
	c.sleepers = c.sleepers[1:]
	return s
}

// advanceTo sets the clock to t.
func (c *manualClock) advanceTo(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// settle blocks until n callers, the test's own aside, are asleep or done.
func (c *manualClock) settle(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.sleepers)+c.done < n {
		c.cond.Wait()
	}
}

// TestBudgetWaiterNotOvertakenByNewcomers: a caller that waits for the
// budget holds its place. With one call a second and the default 2 s
// bound, a caller refused at once waits for the next slot; at that moment
// two newcomers ask. The caller that came first calls the register in the
// slot it was told about, and the newcomers after it, in the next two
// slots (within their bound). Before, a wait reserved nothing: a newcomer
// arriving as the slot freed took it, the waiter started its wait again,
// and with two newcomers the caller that came first was refused
// rate_limited while both that came after it were answered. The clock
// moves only when the test says.
func TestBudgetWaiterNotOvertakenByNewcomers(t *testing.T) {
	t.Parallel()
	c := newManualClock()
	b := budgetOn(t, oneASecond, c.Now)
	var (
		mu     sync.Mutex
		called []string
	)
	f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		mu.Lock()
		called = append(called, id)
		mu.Unlock()
		return countrykit.NewReport("NO", "fake", id, "FAKE AS"), nil
	}}
	r := newRegistry(t, f, registry.WithUpstreamBudget("NO", b), registry.WithWaiter(seal.Key{}, c.Now, c.sleep))
	if _, err := r.Lookup(t.Context(), "NO", "500000"); err != nil { // uses the burst
		t.Fatal(err)
	}
	errs := make([]error, 3)
	var wg sync.WaitGroup
	lookup := func(i int) {
		wg.Go(func() {
			defer c.finished()
			_, errs[i] = r.Lookup(t.Context(), "NO", fmt.Sprintf("%06d", 500001+i))
		})
	}
	lookup(0)
	s := c.waitSleeping() // the first caller waits for the next slot
	c.advanceTo(s.until)  // the slot comes ...
	lookup(1)             // ... and two newcomers ask
	lookup(2)
	c.settle(2)
	close(s.wake)
	c.drive(3)
	wg.Wait()
	if diff := cmp.Diff([]error{nil, nil, nil}, errs, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("errors of the caller that came first and the two newcomers (-want +got):\n%s", diff)
	}
	want := []string{"500000", "500001", "500002", "500003"}
	if diff := cmp.Diff(want, called, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("register calls (-want +got):\n%s", diff)
	} else if called[1] != "500001" {
		t.Errorf("register calls in the order %v: the caller that came first (500001) was overtaken", called)
	}
	if got, want := c.Now().Sub(s.until), 2*time.Second; got != want {
		t.Errorf("the newcomers were served %v after the first waiter's slot, want %v (one slot each)", got, want)
	}
}
