package registry_test

import (
	"context"
	"maps"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// countingObserver counts the collapsed fetches by country.
type countingObserver struct {
	mu        sync.Mutex
	collapsed map[string]int
}

func (o *countingObserver) FetchCollapsed(country string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.collapsed == nil {
		o.collapsed = map[string]int{}
	}
	o.collapsed[country]++
}

func (o *countingObserver) counts() map[string]int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return maps.Clone(o.collapsed)
}

// TestFetchObserverCountsCollapsedCalls: two concurrent lookups of one id
// through a blocked register are one fetch and one collapsed call; a
// later cached lookup and a lookup of another id collapse nothing.
func TestFetchObserverCountsCollapsedCalls(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	f := &fakeCountry{code: "NO"}
	f.lookup = func(ctx context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		entered <- struct{}{}
		<-release
		return countrykit.NewReport("NO", "fake", id, "SHARED AS"), nil
	}
	obs := &countingObserver{}
	r := newRegistry(t, f, registry.WithFetchObserver(obs))
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { _, errs[0] = r.Lookup(t.Context(), "NO", "123456") })
	<-entered // the first call is in the register
	wg.Go(func() { _, errs[1] = r.Lookup(t.Context(), "NO", "123456") })
	awaitCallersInFetch(t, r, 2) // both callers wait for the one fetch
	close(release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("lookup %d: %v", i, err)
		}
	}
	if _, err := r.Lookup(t.Context(), "NO", "123456"); err != nil { // a cache hit
		t.Fatal(err)
	}
	if _, err := r.Lookup(t.Context(), "NO", "654321"); err != nil { // a fetch of its own
		t.Fatal(err)
	}
	if got := f.lookups.Load(); got != 2 {
		t.Errorf("register called %d times, want 2", got)
	}
	if diff := cmp.Diff(map[string]int{"NO": 1}, obs.counts()); diff != "" {
		t.Errorf("collapsed calls (-want +got):\n%s", diff)
	}
}

func TestWithFetchObserverNil(t *testing.T) {
	t.Parallel()
	if _, err := registry.New(nil, registry.WithFetchObserver(nil)); err == nil {
		t.Error("New accepted a nil observer")
	}
}
