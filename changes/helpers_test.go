package changes_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"sync"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/memstore"
)

var t0 = time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)

// orgnr returns the valid Norwegian organisation number whose first eight
// digits are 9 and the seven digits of n (MOD11 weights 3 2 7 6 5 4 3 2;
// a prefix whose check digit would be 10 is skipped by the caller).
func orgnr(n int) (string, bool) {
	s := fmt.Sprintf("9%07d", n)
	weights := []int{3, 2, 7, 6, 5, 4, 3, 2}
	sum := 0
	for i, w := range weights {
		sum += int(s[i]-'0') * w
	}
	c := 11 - sum%11
	switch c {
	case 11:
		c = 0
	case 10:
		return "", false
	}
	return s + fmt.Sprint(c), true
}

// orgnrs returns n valid, distinct organisation numbers.
func orgnrs(n int) []string {
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		if s, ok := orgnr(i); ok {
			out = append(out, s)
		}
	}
	return out
}

// fakeFetcher answers each company with a snapshot, or the error set for
// it, and counts the fetches.
type fakeFetcher struct {
	mu     sync.Mutex
	errs   map[string]error
	calls  map[string]int
	now    func() time.Time
	hold   chan struct{} // when set, every fetch waits for it (or its context)
	called chan string   // when set, receives each id fetched
}

func newFetcher(now func() time.Time) *fakeFetcher {
	return &fakeFetcher{errs: map[string]error{}, calls: map[string]int{}, now: now}
}

func (f *fakeFetcher) setErr(id string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[id] = err
}

func (f *fakeFetcher) count(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[id]
}

func (f *fakeFetcher) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

func (f *fakeFetcher) Fetch(ctx context.Context, country, id string) (changes.Snapshot, error) {
	f.mu.Lock()
	f.calls[id]++
	err := f.errs[id]
	hold, called := f.hold, f.called
	f.mu.Unlock()
	if called != nil {
		called <- id
	}
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return changes.Snapshot{}, ctx.Err()
		}
	}
	if err != nil {
		return changes.Snapshot{}, err
	}
	rep := fmt.Sprintf(`{"country":%q,"id":%q,"name":"COMPANY %s AS","status":"active"}`, country, id, id)
	return changes.Snapshot{Country: country, CompanyID: id, Report: json.RawMessage(rep), TakenAt: f.now()}, nil
}

// publicResolver answers every name with a public address, so that URL
// checks never touch the network.
type publicResolver struct{}

func (publicResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
}

type fixture struct {
	svc     *changes.Service
	store   *memstore.Store
	fetcher *fakeFetcher
	clock   *fakeclock.Clock
	reg     *registry.Registry
	queued  int
	mu      sync.Mutex
}

func (f *fixture) queuedCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queued
}

type option func(*changes.ServiceConfig)

// newFixture builds a Service over a memstore, a fake fetcher and a
// Registry of the default countries without credentials (NO and FI can
// answer, GB cannot).
func newFixture(t *testing.T, opts ...option) *fixture {
	t.Helper()
	cs, err := countries.All(countries.Config{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{clock: fakeclock.New(t0), reg: reg}
	f.store = memstore.New(f.clock.Now)
	f.fetcher = newFetcher(f.clock.Now)
	cfg := changes.ServiceConfig{Store: f.store, Fetcher: f.fetcher, Registry: reg, Now: f.clock.Now,
		Policy: webhook.Policy{Resolver: publicResolver{}},
		Random: rand.NewChaCha8([32]byte{1}),
		Queued: func() { f.mu.Lock(); f.queued++; f.mu.Unlock() }}
	for _, o := range opts {
		o(&cfg)
	}
	if f.svc, err = changes.NewService(cfg); err != nil {
		t.Fatal(err)
	}
	return f
}

// asError returns err as a *registry.Error or fails.
func asError(t *testing.T, err error) *registry.Error {
	t.Helper()
	var e *registry.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *registry.Error", err, err)
	}
	return e
}

// toMap encodes v and decodes it as a JSON object.
func toMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
