package registry_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/testwait"
)

// inflightCountry counts the lookups in flight and the most seen at once.
type inflightCountry struct {
	fakeCountry
	now, most atomic.Int64
	perID     sync.Map // id -> *atomic.Int64
	delay     time.Duration
}

func (c *inflightCountry) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	v, _ := c.perID.LoadOrStore(id, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
	time.Sleep(c.delay)
	return c.fakeCountry.Lookup(ctx, id)
}

// TestDeadlinesBatch (issue 18): a 500-id batch asks the register once per
// distinct cold id, never more than the bound at once, and not at all when
// warm; the answers are in the request's order, one per id.
func TestDeadlinesBatch(t *testing.T) {
	t.Parallel()
	c := &inflightCountry{fakeCountry: fakeCountry{code: "NO"}, delay: time.Millisecond}
	r, err := registry.New([]registry.Country{c}, registry.WithBatchConcurrency(5))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 500)
	for i := range ids {
		ids[i] = fmt.Sprintf("%06d", 100000+i%250) // 250 distinct, each twice
	}
	today := registry.NewDate(2026, 1, 15)
	items, err := r.DeadlinesBatch(t.Context(), "no", ids, today)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(ids) {
		t.Fatalf("%d items, want %d", len(items), len(ids))
	}
	for i, it := range items {
		if it.ID != ids[i] || it.Err != nil || it.Report == nil || it.Report.CompanyID != ids[i] || it.Report.Today != today {
			t.Fatalf("item %d = %+v, want the report of %s", i, it, ids[i])
		}
	}
	distinct := 0
	c.perID.Range(func(_, v any) bool {
		distinct++
		if n := v.(*atomic.Int64).Load(); n != 1 {
			t.Errorf("an id was fetched %d times, want 1", n)
		}
		return true
	})
	if distinct != 250 || c.lookups.Load() != 250 {
		t.Errorf("%d distinct ids fetched, %d lookups; want 250 and 250", distinct, c.lookups.Load())
	}
	if m := c.most.Load(); m > 5 || m < 1 {
		t.Errorf("at most %d lookups in flight, want 1 to 5", m)
	}
	// Warm: no upstream call.
	if _, err := r.DeadlinesBatch(t.Context(), "NO", ids, today); err != nil {
		t.Fatal(err)
	}
	if n := c.lookups.Load(); n != 250 {
		t.Errorf("a warm batch made %d more lookups", n-250)
	}
}

// TestBatchMixedIDs: invalid and unknown ids carry their own errors and the
// others their answers.
func TestBatchMixedIDs(t *testing.T) {
	t.Parallel()
	r := newRegistry(t, &fakeCountry{code: "NO"})
	items, err := r.LookupBatch(t.Context(), "NO", []string{"123456", "12x", "000000", "654 321"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		switch {
		case it.Err != nil:
			got = append(got, it.ID+" "+string(registry.AsError(it.Err).Code))
		default:
			got = append(got, it.ID+" "+it.Report.ID)
		}
	}
	want := []string{"123456 123456", "12x invalid_id", "000000 not_found", "654 321 654321"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := r.LookupBatch(t.Context(), "SE", []string{"123456"}); !errors.Is(err, registry.ErrUnsupportedCountry) {
		t.Errorf("unknown country: %v", err)
	}
	if _, err := r.DeadlinesBatch(t.Context(), "NO", []string{"123456"}, registry.Date{}); !errors.Is(err, registry.ErrBadRequest) {
		t.Errorf("zero today: %v", err)
	}
	empty, err := r.LookupBatch(t.Context(), "NO", nil)
	if err != nil || len(empty) != 0 {
		t.Errorf("no ids: %v %v", empty, err)
	}
}

// TestBatchCancellation: cancelling mid-batch returns promptly; the ids not
// answered carry canceled; no goroutine is left once the register answers
// the fetches already started.
func TestBatchCancellation(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan struct{}, 100)
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		started <- struct{}{}
		<-release
		return countrykit.NewReport("NO", "fake", id, "SLOW AS"), nil
	}
	r := newRegistry(t, f, registry.WithBatchConcurrency(2))
	ids := make([]string, 50)
	for i := range ids {
		ids[i] = fmt.Sprintf("%06d", 200000+i)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan []registry.LookupItem)
	go func() {
		items, _ := r.LookupBatch(ctx, "NO", ids)
		done <- items
	}()
	<-started
	<-started
	cancel()
	// The register holds its two lookups until release, after the batch
	// returned: the batch returns at all only because it stopped waiting at
	// the cancellation.
	items := testwait.Recv(t, done, "the batch's return after cancellation")
	close(release)
	for i, it := range items {
		if !errors.Is(it.Err, context.Canceled) || it.ID != ids[i] {
			t.Fatalf("item %d = %+v, want canceled", i, it)
		}
	}
	if n := f.lookups.Load(); n != 2 {
		t.Errorf("%d lookups started, want the 2 in flight at the cancellation", n)
	}
}

// TestBatchWaitsForTheRegistersAllowance: a rate_limited id is tried again
// after its retry_after when the caller's deadline leaves room, and keeps
// its rate_limited error when it does not.
func TestBatchWaitsForTheRegistersAllowance(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, n int64) (*registry.CompanyReport, error) {
		if n == 1 {
			return nil, &registry.Error{Code: registry.CodeRateLimited, Details: map[string]any{"retry_after": 1}}
		}
		return countrykit.NewReport("NO", "fake", id, "PATIENT AS"), nil
	}
	r := newRegistry(t, f, registry.WithBatchConcurrency(1))
	start := time.Now()
	items, err := r.LookupBatch(t.Context(), "NO", []string{"123456"})
	if err != nil || items[0].Err != nil || items[0].Report.Name != "PATIENT AS" {
		t.Fatalf("%+v %v", items, err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("answered after %v, want a wait of retry_after (1 s)", d)
	}

	g := &fakeCountry{code: "NO"}
	g.lookup = func(context.Context, string, int64) (*registry.CompanyReport, error) {
		return nil, &registry.Error{Code: registry.CodeRateLimited, Details: map[string]any{"retry_after": 60}}
	}
	r = newRegistry(t, g)
	// A deadline nearer than the 60 s retry_after, and far enough that a
	// loaded machine makes the one call well before it.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	items, err = r.LookupBatch(ctx, "NO", []string{"123456"})
	if err != nil || !errors.Is(items[0].Err, registry.ErrRateLimited) || g.lookups.Load() != 1 {
		t.Errorf("%+v %v, %d lookups; want rate_limited after one call (no room for 60 s)", items, err, g.lookups.Load())
	}
}

// TestBatchHugeRetryAfter: a retry_after beyond an hour (a third-party
// module's, the built-in ones cap it) ends the item with its rate_limited
// error after one call; it never overflows into a retry loop (review of
// issue 18).
func TestBatchHugeRetryAfter(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	f.lookup = func(context.Context, string, int64) (*registry.CompanyReport, error) {
		return nil, &registry.Error{Code: registry.CodeRateLimited, Details: map[string]any{"retry_after": 10_000_000_000}}
	}
	r := newRegistry(t, f, registry.WithBatchConcurrency(1))
	// The deadline only ends a batch that would wait: a minute, so that a
	// loaded machine never ends the one call before it answers.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	items, err := r.LookupBatch(ctx, "NO", []string{"123456"})
	if err != nil || !errors.Is(items[0].Err, registry.ErrRateLimited) || f.lookups.Load() != 1 {
		t.Errorf("%+v %v, %d lookups; want rate_limited after one call", items, err, f.lookups.Load())
	}
}

// TestBatchCancelledBeforeStart: with ctx already ended, every item carries
// the caller's error, also an invalid or a cached id; nothing is tried.
func TestBatchCancelledBeforeStart(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f)
	if _, err := r.Lookup(t.Context(), "NO", "123456"); err != nil { // warm the cache
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	items, err := r.LookupBatch(ctx, "NO", []string{"123456", "not an id", "654321"})
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range items {
		if !errors.Is(it.Err, registry.ErrCanceled) || it.Report != nil {
			t.Errorf("item %d = %+v, want the caller's cancellation", i, it)
		}
	}
	if n := f.lookups.Load(); n != 1 {
		t.Errorf("%d lookups, want only the warming one", n)
	}
}
