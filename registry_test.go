package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/internal/testwait"
)

func newFakeClock() *fakeclock.Clock {
	return fakeclock.New(time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC))
}

// fakeCountry is a Country whose lookups and searches are scripted per test.
// Identifiers are valid when they are six digits; "000000" is not_found.
type fakeCountry struct {
	code    string
	ready   error
	lookups atomic.Int64
	// lookup answers a lookup; nil means a default report.
	lookup   func(ctx context.Context, id string, call int64) (*registry.CompanyReport, error)
	searches atomic.Int64
	search   func(ctx context.Context, q string, limit int) (*registry.SearchResult, error)
	panicOn  string
}

func (f *fakeCountry) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country: f.code, Registry: "fake", Name: "Fake register", IDScheme: "six digits",
		IDExample: "123456", IDDescription: "Six digits.", SourceURL: "https://fake.example", License: "none",
	}
}

func (f *fakeCountry) Ready() error { return f.ready }

func (f *fakeCountry) Validate(input string) registry.ValidationResult {
	if f.panicOn == "validate" {
		panic("validate exploded")
	}
	id := strings.ReplaceAll(input, " ", "")
	v := registry.ValidationResult{Country: f.code, Registry: "fake", Input: input}
	if len(id) != 6 || strings.Trim(id, "0123456789") != "" {
		v.Reason = countrykit.Ptr("The identifier must be six digits.")
		v.Hint = countrykit.Ptr("Check the number or search by name.")
		return v
	}
	v.Valid = true
	v.Normalized = &id
	return v
}

func (f *fakeCountry) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	n := f.lookups.Add(1)
	if f.panicOn == "lookup" {
		panic("lookup exploded")
	}
	if f.lookup != nil {
		return f.lookup(ctx, id, n)
	}
	if id == "000000" {
		return nil, &registry.Error{Code: registry.CodeNotFound, Message: "no such unit"}
	}
	return countrykit.NewReport(f.code, "fake", id, "FAKE AS"), nil
}

func (f *fakeCountry) Search(ctx context.Context, q string, limit int) (*registry.SearchResult, error) {
	f.searches.Add(1)
	if f.search != nil {
		return f.search(ctx, q, limit)
	}
	return &registry.SearchResult{Country: f.code, Registry: "fake", Query: q, Hits: []registry.SearchHit{}}, nil
}

func (f *fakeCountry) Deadlines(rep *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	if f.panicOn == "deadlines" {
		panic("deadlines exploded")
	}
	return &registry.DeadlineReport{Country: f.code, Registry: "fake", CompanyID: rep.ID, CompanyName: &rep.Name, Today: today}, nil
}

func (f *fakeCountry) Rules() string { return "# Fake rules\n" }

func newRegistry(t *testing.T, f *fakeCountry, opts ...registry.Option) *registry.Registry {
	t.Helper()
	opts = append([]registry.Option{registry.WithRetryPause(0)}, opts...)
	r, err := registry.New([]registry.Country{f}, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

// awaitCallersInFetch blocks until n callers wait for shared fetches of r
// (of r only: the callers of other tests' Registries do not count).
func awaitCallersInFetch(t *testing.T, r *registry.Registry, n int) {
	t.Helper()
	testwait.Until(t, fmt.Sprintf("%d callers wait for a shared fetch", n), func() bool {
		return r.Internal(seal.Key{}).FetchCallers() >= n
	})
}

func codeOf(err error) registry.Code {
	var e *registry.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestNewRejectsBadModulesAndOptions(t *testing.T) {
	t.Parallel()
	ok := &fakeCountry{code: "NO"}
	tests := []struct {
		name      string
		countries []registry.Country
		opts      []registry.Option
	}{
		{"nil module", []registry.Country{nil}, nil},
		{"duplicate", []registry.Country{ok, &fakeCountry{code: "NO"}}, nil},
		{"lower-case code", []registry.Country{&fakeCountry{code: "no"}}, nil},
		{"nil cache", []registry.Country{ok}, []registry.Option{registry.WithCache(nil)}},
		{"ttl over 24h", []registry.Country{ok}, []registry.Option{registry.WithCacheTTL(25 * time.Hour)}},
		{"zero ttl", []registry.Country{ok}, []registry.Option{registry.WithCacheTTL(0)}},
		{"nil clock", []registry.Country{ok}, []registry.Option{registry.WithClock(nil)}},
		{"nil logger", []registry.Country{ok}, []registry.Option{registry.WithLogger(nil)}},
		{"negative timeout", []registry.Country{ok}, []registry.Option{registry.WithUpstreamTimeout(-1)}},
		{"nil option", []registry.Country{ok}, []registry.Option{nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := registry.New(tc.countries, tc.opts...); err == nil {
				t.Error("New succeeded")
			}
		})
	}
}

// TestCountryCodeNormalisation: any case is accepted; UK is never an alias.
func TestCountryCodeNormalisation(t *testing.T) {
	t.Parallel()
	r := newRegistry(t, &fakeCountry{code: "NO"})
	for _, in := range []string{"NO", "no", "No", " no "} {
		if _, err := r.Validate(in, "123456"); err != nil {
			t.Errorf("Validate(%q): %v", in, err)
		}
	}
	for _, in := range []string{"UK", "uk", "XX", "", "NOR", "n0", "ñ"} {
		_, err := r.Lookup(t.Context(), in, "123456")
		var e *registry.Error
		if !errors.As(err, &e) || e.Code != registry.CodeUnsupportedCountry {
			t.Fatalf("Lookup(%q) = %v, want unsupported_country", in, err)
		}
		if !strings.Contains(e.Hint, "countries") {
			t.Errorf("Lookup(%q) hint %q does not name the countries operation", in, e.Hint)
		}
		if e.HTTPStatus() != 404 {
			t.Errorf("status %d", e.HTTPStatus())
		}
	}
	_, err := r.Lookup(t.Context(), "uk", "123456")
	if e := registry.AsError(err); !strings.Contains(e.Hint, "GB") || e.Country != "UK" {
		t.Errorf("UK error does not point to GB: %+v", e)
	}
}

// TestUnsupportedCountryOnEveryOperation: spec endpoint rule 7.
func TestUnsupportedCountryOnEveryOperation(t *testing.T) {
	t.Parallel()
	r := newRegistry(t, &fakeCountry{code: "NO"})
	ctx := t.Context()
	errs := map[string]error{}
	_, errs["lookup"] = r.Lookup(ctx, "SE", "123456")
	_, errs["search"] = r.Search(ctx, "SE", "x", 10)
	_, errs["deadlines"] = r.Deadlines(ctx, "SE", "123456", registry.NewDate(2026, 1, 15))
	_, errs["today"] = r.Today("SE")
	_, errs["validate"] = r.Validate("SE", "123456")
	_, errs["rules"] = r.Rules("SE")
	for op, err := range errs {
		if !errors.Is(err, registry.ErrUnsupportedCountry) {
			t.Errorf("%s: %v, want unsupported_country", op, err)
		}
	}
}

// TestInvalidIDNeverReachesRegister: spec endpoint rule 3 and errors table.
func TestInvalidIDNeverReachesRegister(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f)
	_, err := r.Lookup(t.Context(), "NO", "12345x")
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != registry.CodeInvalidID {
		t.Fatalf("got %v, want invalid_id", err)
	}
	if e.Message != "The identifier must be six digits." || e.Hint != "Check the number or search by name." {
		t.Errorf("invalid_id does not carry the module's reason and hint: %+v", e)
	}
	if _, err := r.Deadlines(t.Context(), "NO", "1", registry.NewDate(2026, 1, 15)); !errors.Is(err, registry.ErrInvalidID) {
		t.Errorf("Deadlines: %v", err)
	}
	if n := f.lookups.Load(); n != 0 {
		t.Errorf("register called %d times for an invalid id", n)
	}
	// Validate reports the same as a normal result.
	v, err := r.Validate("NO", "12345x")
	if err != nil || v.Valid || v.Hint == nil {
		t.Errorf("Validate: %+v, %v", v, err)
	}
}

// TestSearchParameterValidation: empty q, limit 0 and 101 are bad_request,
// never clamped, and the register is not called.
func TestSearchParameterValidation(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f)
	tests := []struct {
		name  string
		q     string
		limit int
	}{
		{"empty q", "", 10},
		{"blank q", "   ", 10},
		{"limit 0", "equinor", 0},
		{"limit 101", "equinor", 101},
		{"negative limit", "equinor", -1},
		{"huge q", strings.Repeat("a", registry.MaxQueryLength+1), 10},
	}
	for _, tc := range tests {
		_, err := r.Search(t.Context(), "NO", tc.q, tc.limit)
		var e *registry.Error
		if !errors.As(err, &e) || e.Code != registry.CodeBadRequest || e.HTTPStatus() != 400 {
			t.Errorf("%s: %v, want bad_request", tc.name, err)
			continue
		}
		if e.Country != "NO" || e.Registry != "fake" || e.Hint == "" {
			t.Errorf("%s: envelope fields missing: %+v", tc.name, e)
		}
	}
	for _, limit := range []int{1, 100} {
		if _, err := r.Search(t.Context(), "NO", "equinor", limit); err != nil {
			t.Errorf("limit %d: %v", limit, err)
		}
	}
	if n := f.searches.Load(); n != 2 {
		t.Errorf("register searched %d times, want 2", n)
	}
}

// TestDeadlinesTodayValidation: today must be a real date; the zero Date
// and impossible dates are bad_request before any lookup.
func TestDeadlinesTodayValidation(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f)
	for _, today := range []registry.Date{{}, {Year: 2026, Month: 2, Day: 30}, {Year: 2026, Month: 13, Day: 1}, {Year: 2026, Month: 1, Day: 0}} {
		_, err := r.Deadlines(t.Context(), "no", "123456", today)
		want := &registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "fake",
			Message: "today must be a real calendar date.", Hint: "Pass today as a real calendar date, for example 2026-01-15."}
		if diff := cmp.Diff(want, registry.AsError(err)); diff != "" {
			t.Errorf("today %#v (-want +got):\n%s", today, diff)
		}
	}
	if n := f.lookups.Load(); n != 0 {
		t.Errorf("%d lookups for a bad today, want 0", n)
	}
	got, err := r.Deadlines(t.Context(), "NO", "123456", registry.NewDate(2030, 6, 10))
	if err != nil || got.Today != registry.NewDate(2030, 6, 10) {
		t.Errorf("explicit today: %v %v", got, err)
	}
}

// TestToday: the register's own date by the Registry's clock. At
// 2026-01-15 23:30 UTC it is already 16 January in Oslo (UTC+1) and still
// 15 January in London; a module without a time zone gets the UTC date,
// and one whose zone is unknown an internal_error that says what to do.
func TestToday(t *testing.T) {
	t.Parallel()
	clock := fakeclock.New(time.Date(2026, 1, 15, 23, 30, 0, 0, time.UTC))
	countries := []registry.Country{
		&zonedCountry{fakeCountry{code: "NO"}, "Europe/Oslo"},
		&zonedCountry{fakeCountry{code: "GB"}, "Europe/London"},
		&zonedCountry{fakeCountry{code: "ZZ"}, ""},
		&zonedCountry{fakeCountry{code: "XX"}, "Nowhere/Atlantis"},
	}
	r, err := registry.New(countries, registry.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]registry.Date{"NO": registry.NewDate(2026, 1, 16), "GB": registry.NewDate(2026, 1, 15), "zz": registry.NewDate(2026, 1, 15)} {
		if got, err := r.Today(code); err != nil || got != want {
			t.Errorf("Today(%s) = %s, %v; want %s", code, got, err, want)
		}
	}
	_, err = r.Today("XX")
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeInternalError || !strings.Contains(e.Hint, "time/tzdata") {
		t.Errorf("Today(XX) = %v, want internal_error naming time/tzdata", err)
	}
}

// zonedCountry is a fakeCountry in a time zone.
type zonedCountry struct {
	fakeCountry
	zone string
}

func (z *zonedCountry) Info() registry.CountryInfo {
	info := z.fakeCountry.Info()
	info.TimeZone = z.zone
	return info
}

// TestSingleflightCollapsesConcurrentLookups: 1,000 concurrent lookups of one
// id reach the country once and all get the same answer.
func TestSingleflightCollapsesConcurrentLookups(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	f := &fakeCountry{code: "NO"}
	f.lookup = func(ctx context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		<-release
		return countrykit.NewReport("NO", "fake", id, "SHARED AS"), nil
	}
	r := newRegistry(t, f)
	const n = 1000
	var wg sync.WaitGroup
	var started sync.WaitGroup
	reports := make([]*registry.CompanyReport, n)
	errs := make([]error, n)
	started.Add(n)
	for i := range n {
		wg.Go(func() {
			started.Done()
			reports[i], errs[i] = r.Lookup(t.Context(), "NO", "123456")
		})
	}
	started.Wait()
	awaitCallersInFetch(t, r, n) // every caller waits for the one fetch
	close(release)
	wg.Wait()
	if got := f.lookups.Load(); got != 1 {
		t.Errorf("country called %d times, want 1", got)
	}
	// Every caller shares the live answer, which says cached false.
	live := -1
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if diff := cmp.Diff(reports[0], reports[i], cmpopts.IgnoreFields(registry.CompanyReport{}, "Cached")); diff != "" {
			t.Fatalf("caller %d got a different report (-0 +i):\n%s", i, diff)
		}
		if reports[i].Cached {
			t.Errorf("caller %d saw cached true; it joined the live fetch", i)
		} else if live < 0 {
			live = i
		}
	}
	if live < 0 {
		t.Fatal("every caller saw cached true; the caller of the live fetch must see false")
	}
	// Callers of a shared fetch get their own copies.
	other := (live + 1) % n
	reports[live].Name = "MUTATED"
	if reports[other].Name != "SHARED AS" {
		t.Error("callers share one mutable report")
	}
}

// gatedCache is a memory cache whose first Get after arm waits for gate
// (and then misses), so that a test can hold a caller between its cache
// miss and its fetch.
type gatedCache struct {
	*cache.Memory
	armed  atomic.Bool
	second chan struct{} // closed when the gated Get is waiting
	gate   chan struct{}
}

func (c *gatedCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if c.armed.CompareAndSwap(true, false) {
		close(c.second)
		<-c.gate
		return nil, false, nil
	}
	return c.Memory.Get(ctx, key)
}

// TestFetchAfterAnEndedFetchAsksTheCache: a caller that missed the cache
// while another fetch of the same id was in flight, and reaches the fetch
// only after that fetch ended, gets the stored answer; the register is asked
// once (it was asked twice when the fetch did not look at the cache again).
func TestFetchAfterAnEndedFetchAsksTheCache(t *testing.T) {
	t.Parallel()
	mem, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	c := &gatedCache{Memory: mem, second: make(chan struct{}), gate: make(chan struct{})}
	entered, release := make(chan struct{}), make(chan struct{})
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
		if call == 1 {
			close(entered)
			<-release
		}
		return countrykit.NewReport("NO", "fake", id, "ONCE AS"), nil
	}
	r := newRegistry(t, f, registry.WithCache(c))
	first := make(chan error, 1)
	go func() {
		_, err := r.Lookup(t.Context(), "NO", "123456")
		first <- err
	}()
	<-entered // the first caller missed and is fetching
	c.armed.Store(true)
	second := make(chan *registry.CompanyReport, 1)
	go func() {
		rep, err := r.Lookup(t.Context(), "NO", "123456")
		if err != nil {
			t.Errorf("second caller: %v", err)
		}
		second <- rep
	}()
	<-c.second // the second caller is in its cache Get, which will miss
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("first caller: %v", err)
	}
	close(c.gate) // the first fetch has ended and stored its answer
	rep := <-second
	if got := f.lookups.Load(); got != 1 {
		t.Errorf("register asked %d times, want 1", got)
	}
	if rep == nil || rep.Name != "ONCE AS" || !rep.Cached {
		t.Errorf("second caller got %+v, want the stored report (cached true)", rep)
	}
}

// TestCancellingCallerDoesNotFailOthers: one caller hanging up leaves the
// shared fetch running for the rest.
func TestCancellingCallerDoesNotFailOthers(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{})
	f := &fakeCountry{code: "NO"}
	f.lookup = func(ctx context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		close(entered)
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return countrykit.NewReport("NO", "fake", id, "STILL HERE AS"), nil
	}
	r := newRegistry(t, f)
	ctx1, cancel1 := context.WithCancel(t.Context())
	err1 := make(chan error, 1)
	go func() {
		_, err := r.Lookup(ctx1, "NO", "123456")
		err1 <- err
	}()
	<-entered
	other := make(chan *registry.CompanyReport, 1)
	go func() {
		rep, err := r.Lookup(t.Context(), "NO", "123456")
		if err != nil {
			t.Errorf("second caller: %v", err)
		}
		other <- rep
	}()
	awaitCallersInFetch(t, r, 2) // the second caller has joined the fetch
	cancel1()
	// Issue 14: the caller's own cancellation is reported as cancellation,
	// with a code that does not blame the register.
	if err := <-err1; !errors.Is(err, context.Canceled) || !errors.Is(err, registry.ErrCanceled) || registry.AsError(err).HTTPStatus() != 499 {
		t.Errorf("cancelled caller got %v, want canceled wrapping context.Canceled", err)
	}
	close(release)
	if rep := <-other; rep == nil || rep.Name != "STILL HERE AS" {
		t.Errorf("second caller got %+v", rep)
	}
	if got := f.lookups.Load(); got != 1 {
		t.Errorf("country called %d times, want 1", got)
	}
}

// TestCallerDeadline: a caller whose own deadline passes while the register
// is slow gets upstream_timeout wrapping context.DeadlineExceeded, with a
// message that says what happened rather than a configured value.
func TestCallerDeadline(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	f := &fakeCountry{code: "NO"}
	f.lookup = func(context.Context, string, int64) (*registry.CompanyReport, error) {
		<-release
		return nil, &registry.Error{Code: registry.CodeNotFound}
	}
	r := newRegistry(t, f)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	_, err := r.Lookup(ctx, "NO", "123456")
	want := &registry.Error{Code: registry.CodeUpstreamTimeout, Country: "NO", Registry: "fake",
		Message: "The caller's deadline passed before the NO register answered.",
		Hint:    registry.CodeUpstreamTimeout.DefaultHint()}
	if diff := cmp.Diff(want, registry.AsError(err), cmpopts.IgnoreFields(registry.Error{}, "Err")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, registry.ErrUpstreamTimeout) || errors.Is(err, registry.ErrUpstream) {
		t.Errorf("errors.Is: %v", err)
	}
}

// TestRetryOnceOnRetryableFailure: a retryable failure is retried exactly
// once; a second failure is answered with the right code.
func TestRetryOnceOnRetryableFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		err      error
		wantCode registry.Code
	}{
		{"5xx", &registry.Error{Code: registry.CodeUpstreamError, Message: "503", Retryable: true}, registry.CodeUpstreamError},
		{"connection refused", &url.Error{Op: "Get", URL: "https://x", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}, registry.CodeUpstreamError},
		{"timeout", &url.Error{Op: "Get", URL: "https://x", Err: context.DeadlineExceeded}, registry.CodeUpstreamTimeout},
		{"malformed json", fmt.Errorf("decode: %w", &json.SyntaxError{}), registry.CodeUpstreamError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeCountry{code: "NO"}
			f.lookup = func(context.Context, string, int64) (*registry.CompanyReport, error) { return nil, tc.err }
			r := newRegistry(t, f)
			_, err := r.Lookup(t.Context(), "NO", "123456")
			if got := codeOf(err); got != tc.wantCode {
				t.Errorf("code %q, want %q (%v)", got, tc.wantCode, err)
			}
			if got := f.lookups.Load(); got != 2 {
				t.Errorf("country called %d times, want 2 (one retry)", got)
			}
			// A failure is not cached: the next call tries again.
			_, _ = r.Lookup(t.Context(), "NO", "123456")
			if got := f.lookups.Load(); got != 4 {
				t.Errorf("after a second lookup: %d calls, want 4", got)
			}
		})
	}
}

func TestRetrySucceedsOnSecondAttempt(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
		if call == 1 {
			return nil, &registry.Error{Code: registry.CodeUpstreamError, Retryable: true}
		}
		return countrykit.NewReport("NO", "fake", id, "SECOND TRY AS"), nil
	}
	r := newRegistry(t, f)
	rep, err := r.Lookup(t.Context(), "NO", "123456")
	if err != nil || rep.Name != "SECOND TRY AS" {
		t.Fatalf("got %+v, %v", rep, err)
	}
}

// TestHungUpstreamTimesOut: each attempt is bounded by the upstream
// timeout; a register that never answers gives upstream_timeout after two
// attempts. The only calls are to the register that never answers, so the
// short timeout cannot end a call that would have answered. Each attempt
// runs under a deadline at most the timeout away, and it is that deadline
// (not a cancellation, not the caller's context, which has none) that ends
// it.
func TestHungUpstreamTimesOut(t *testing.T) {
	t.Parallel()
	const timeout = 20 * time.Millisecond
	f := &fakeCountry{code: "NO"}
	var mu sync.Mutex
	var problems []string
	f.lookup = func(ctx context.Context, _ string, n int64) (*registry.CompanyReport, error) {
		dl, ok := ctx.Deadline()
		left := time.Until(dl)
		<-ctx.Done()
		mu.Lock()
		defer mu.Unlock()
		if !ok || left > timeout {
			problems = append(problems, fmt.Sprintf("attempt %d: deadline set %t, %v away, want at most %v", n, ok, left, timeout))
		}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			problems = append(problems, fmt.Sprintf("attempt %d ended by %v, want its deadline", n, ctx.Err()))
		}
		return nil, &url.Error{Op: "Get", URL: "https://x", Err: ctx.Err()}
	}
	r := newRegistry(t, f, registry.WithUpstreamTimeout(timeout))
	// The register blocks until its context ends, and the test's own
	// context ends only after the test: the lookup returns at all only
	// because each attempt's timeout ended it.
	done := make(chan error, 1)
	go func() {
		_, err := r.Lookup(t.Context(), "NO", "123456")
		done <- err
	}()
	err := testwait.Recv(t, done, "the lookup of a hung register (the attempts are not bounded)")
	if codeOf(err) != registry.CodeUpstreamTimeout {
		t.Fatalf("got %v, want upstream_timeout", err)
	}
	if e := registry.AsError(err); e.HTTPStatus() != 504 {
		t.Errorf("status %d", e.HTTPStatus())
	}
	if f.lookups.Load() != 2 {
		t.Errorf("attempts %d, want 2", f.lookups.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
}

func TestNonRetryableFailuresAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, code := range []registry.Code{registry.CodeNotFound, registry.CodeRateLimited, registry.CodeInvalidID, registry.CodeUpstreamError} {
		f := &fakeCountry{code: "NO"}
		f.lookup = func(context.Context, string, int64) (*registry.CompanyReport, error) {
			return nil, &registry.Error{Code: code, Details: map[string]any{"retry_after": 30}}
		}
		r := newRegistry(t, f)
		_, err := r.Lookup(t.Context(), "NO", "123456")
		if codeOf(err) != code {
			t.Errorf("%s: got %v", code, err)
		}
		if f.lookups.Load() != 1 {
			t.Errorf("%s: called %d times, want 1", code, f.lookups.Load())
		}
	}
}

// TestCacheLifetimes: success is cached 24 h, not_found 1 h (fake clock);
// a hit has cached true and the original fetched_at.
func TestCacheLifetimes(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithClock(clock.Now))
	ctx := t.Context()

	first, err := r.Lookup(ctx, "NO", "123 456")
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached {
		t.Error("live answer marked cached")
	}
	wantFetched := clock.Now()
	if first.FetchedAt == nil || !first.FetchedAt.Equal(wantFetched) {
		t.Errorf("fetched_at = %v, want %v", first.FetchedAt, wantFetched)
	}
	clock.Advance(24*time.Hour - time.Second)
	hit, err := r.Lookup(ctx, "NO", "123456") // another spelling, same canonical id
	if err != nil {
		t.Fatal(err)
	}
	if !hit.Cached || !hit.FetchedAt.Equal(wantFetched) {
		t.Errorf("hit: cached %v fetched_at %v, want true and %v", hit.Cached, hit.FetchedAt, wantFetched)
	}
	want := *first
	want.Cached = true
	if diff := cmp.Diff(&want, hit); diff != "" {
		t.Errorf("hit differs from the live answer beyond cached (-want +got):\n%s", diff)
	}
	if f.lookups.Load() != 1 {
		t.Errorf("calls %d, want 1", f.lookups.Load())
	}
	clock.Advance(time.Second)
	again, err := r.Lookup(ctx, "NO", "123456")
	if err != nil || again.Cached || f.lookups.Load() != 2 {
		t.Errorf("after 24 h: cached %v, calls %d, err %v; want a live fetch", again.Cached, f.lookups.Load(), err)
	}

	// not_found: cached for exactly one hour, never retried.
	_, err = r.Lookup(ctx, "NO", "000000")
	if !errors.Is(err, registry.ErrNotFound) || f.lookups.Load() != 3 {
		t.Fatalf("not_found: %v, calls %d", err, f.lookups.Load())
	}
	clock.Advance(time.Hour - time.Second)
	_, err = r.Lookup(ctx, "NO", "000000")
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != registry.CodeNotFound || e.Country != "NO" || e.Registry != "fake" || e.Message != "no such unit" {
		t.Errorf("cached not_found: %+v", err)
	}
	if f.lookups.Load() != 3 {
		t.Errorf("not_found was not cached: calls %d", f.lookups.Load())
	}
	clock.Advance(time.Second)
	_, _ = r.Lookup(ctx, "NO", "000000")
	if f.lookups.Load() != 4 {
		t.Errorf("not_found cached beyond 1 h: calls %d", f.lookups.Load())
	}
}

func TestDeadlinesReuseCachedReport(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f)
	if _, err := r.Lookup(t.Context(), "NO", "123456"); err != nil {
		t.Fatal(err)
	}
	d, err := r.Deadlines(t.Context(), "NO", "123456", registry.NewDate(2026, 1, 15))
	if err != nil || d.CompanyID != "123456" {
		t.Fatalf("%+v %v", d, err)
	}
	if f.lookups.Load() != 1 {
		t.Errorf("deadlines fetched again: calls %d", f.lookups.Load())
	}
}

func TestSearchIsCachedPerQueryAndLimit(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f)
	ctx := t.Context()
	a, err := r.Search(ctx, "NO", " equinor ", 10)
	if err != nil || a.Cached || a.Query != "equinor" || a.FetchedAt == nil {
		t.Fatalf("%+v %v", a, err)
	}
	b, _ := r.Search(ctx, "NO", "equinor", 10)
	if !b.Cached || !b.FetchedAt.Equal(*a.FetchedAt) {
		t.Errorf("second search not a cache hit: %+v", b)
	}
	_, _ = r.Search(ctx, "NO", "equinor", 5)
	if f.searches.Load() != 2 {
		t.Errorf("searches %d, want 2 (a different limit is another key)", f.searches.Load())
	}
}

// keysCache records the keys a Registry writes.
type keysCache struct {
	cache.Cache
	mu   sync.Mutex
	keys []string
}

func (k *keysCache) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	k.mu.Lock()
	k.keys = append(k.keys, key)
	k.mu.Unlock()
	return k.Cache.Set(ctx, key, v, ttl)
}

// TestCacheKeys (issue 14): keys carry the namespace and the entry format,
// then the country, the kind and the canonical identifier or the limit and
// the trimmed query.
func TestCacheKeys(t *testing.T) {
	t.Parallel()
	mem, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	kc := &keysCache{Cache: mem}
	r := newRegistry(t, &fakeCountry{code: "NO"}, registry.WithCache(kc))
	ctx := t.Context()
	_, _ = r.Lookup(ctx, "no", "123 456")
	_, _ = r.Lookup(ctx, "NO", "000000")
	_, _ = r.Search(ctx, "NO", "  Equinor ASA ", 7)
	want := []string{"companyregistry/2/NO/company/123456", "companyregistry/2/NO/company/000000", "companyregistry/2/NO/search/7/Equinor ASA"}
	if diff := cmp.Diff(want, kc.keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if registry.CacheNamespace+"/"+registry.CacheFormat+"/" != "companyregistry/2/" {
		t.Errorf("prefix %s/%s", registry.CacheNamespace, registry.CacheFormat)
	}
}

// TestWithoutCache: every call asks the register; the last of WithCache and
// WithoutCache wins.
func TestWithoutCache(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithoutCache())
	for range 3 {
		rep, err := r.Lookup(t.Context(), "NO", "123456")
		if err != nil || rep.Cached {
			t.Fatalf("%+v %v", rep, err)
		}
	}
	if n := f.lookups.Load(); n != 3 {
		t.Errorf("lookups %d, want 3", n)
	}
	g := &fakeCountry{code: "NO"}
	r = newRegistry(t, g, registry.WithoutCache(), registry.WithCache(cache.Cache(mustMemory(t))))
	_, _ = r.Lookup(t.Context(), "NO", "123456")
	_, _ = r.Lookup(t.Context(), "NO", "123456")
	if n := g.lookups.Load(); n != 1 {
		t.Errorf("WithCache after WithoutCache: lookups %d, want 1", n)
	}
}

func mustMemory(t *testing.T) *cache.Memory {
	t.Helper()
	m, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGoneIsPurgedNotCached: an entity the register removed (Brreg 410) is
// not_found, purged from the cache and not cached as a failure.
func TestGoneIsPurgedNotCached(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	gone := atomic.Bool{}
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		if gone.Load() {
			return nil, &registry.Error{Code: registry.CodeNotFound, Gone: true, Hint: "removed from open data"}
		}
		return countrykit.NewReport("NO", "fake", id, "SOON GONE AS"), nil
	}
	r := newRegistry(t, f, registry.WithClock(clock.Now), registry.WithCacheTTL(time.Hour))
	if _, err := r.Lookup(t.Context(), "NO", "123456"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour) // expired; the next call goes upstream
	gone.Store(true)
	_, err := r.Lookup(t.Context(), "NO", "123456")
	if !errors.Is(err, registry.ErrNotFound) || registry.AsError(err).Hint != "removed from open data" {
		t.Fatalf("%v", err)
	}
	_, _ = r.Lookup(t.Context(), "NO", "123456")
	if f.lookups.Load() != 3 {
		t.Errorf("calls %d, want 3: a gone answer must not be cached", f.lookups.Load())
	}
}

// TestPanicInModuleIsInternalError: a defect becomes internal_error, not a
// crash.
func TestPanicInModuleIsInternalError(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"validate", "lookup", "deadlines"} {
		f := &fakeCountry{code: "NO", panicOn: where}
		r := newRegistry(t, f)
		var err error
		switch where {
		case "validate":
			_, err = r.Validate("NO", "123456")
		case "lookup":
			_, err = r.Lookup(t.Context(), "NO", "123456")
		case "deadlines":
			_, err = r.Deadlines(t.Context(), "NO", "123456", registry.NewDate(2026, 1, 15))
		}
		e := registry.AsError(err)
		if e == nil || e.Code != registry.CodeInternalError || e.HTTPStatus() != 500 {
			t.Errorf("%s: %v, want internal_error", where, err)
			continue
		}
		if strings.Contains(e.Message, "exploded") {
			t.Errorf("%s: panic text leaked into the message: %q", where, e.Message)
		}
		if where == "lookup" && f.lookups.Load() != 1 {
			t.Errorf("a panic was retried: %d calls", f.lookups.Load())
		}
	}
}

// TestNotReadyCountry: a module without its credential is left out of
// Countries and Health, answers lookups with its own upstream_error, and
// still validates.
func TestNotReadyCountry(t *testing.T) {
	t.Parallel()
	gb := &fakeCountry{code: "GB", ready: &registry.Error{Code: registry.CodeUpstreamError,
		Message: "No API key is configured.", Hint: "Set COMPANIES_HOUSE_API_KEY."}}
	no := &fakeCountry{code: "NO"}
	r, err := registry.New([]registry.Country{gb, no})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, c := range r.Countries().Countries {
		codes = append(codes, c.Country)
	}
	if diff := cmp.Diff([]string{"NO"}, codes); diff != "" {
		t.Errorf("Countries (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"NO"}, r.Health(t.Context()).Countries); diff != "" {
		t.Errorf("Health countries (-want +got):\n%s", diff)
	}
	ctx := t.Context()
	for op, call := range map[string]func() error{
		"lookup":    func() error { _, err := r.Lookup(ctx, "GB", "123456"); return err },
		"search":    func() error { _, err := r.Search(ctx, "GB", "bbc", 10); return err },
		"deadlines": func() error { _, err := r.Deadlines(ctx, "GB", "123456", registry.NewDate(2026, 1, 15)); return err },
	} {
		e := registry.AsError(call())
		if e == nil || e.Code != registry.CodeUpstreamError || e.HTTPStatus() != 502 || !strings.Contains(e.Hint, "COMPANIES_HOUSE_API_KEY") || e.Country != "GB" {
			t.Errorf("%s: %+v", op, e)
		}
	}
	if v, err := r.Validate("GB", "123456"); err != nil || !v.Valid {
		t.Errorf("Validate without credential: %+v %v", v, err)
	}
	if gb.lookups.Load() != 0 || gb.searches.Load() != 0 {
		t.Error("a module that is not ready was called")
	}
	if n := len(r.Internal(seal.Key{}).Modules()); n != 2 {
		t.Errorf("Modules = %d, want 2", n)
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []registry.Option
		want *registry.HealthResponse
	}{
		{"default cache", nil,
			&registry.HealthResponse{Status: "ok", Version: "1.2.3", Countries: []string{"NO"}, Cache: "memory"}},
		{"without cache", []registry.Option{registry.WithoutCache()},
			&registry.HealthResponse{Status: "ok", Version: "1.2.3", Countries: []string{"NO"}, Cache: "none"}},
		{"custom cache", []registry.Option{registry.WithCache(&keysCache{})},
			&registry.HealthResponse{Status: "ok", Version: "1.2.3", Countries: []string{"NO"}, Cache: "custom"}},
		{"redis up", []registry.Option{registry.WithCache(describedCache{cache.Description{Backend: "redis", Reachable: true}})},
			&registry.HealthResponse{Status: "ok", Version: "1.2.3", Countries: []string{"NO"}, Cache: "redis",
				Redis: &registry.RedisHealth{Reachable: true}}},
		{"redis down", []registry.Option{registry.WithCache(describedCache{cache.Description{Backend: "redis"}})},
			&registry.HealthResponse{Status: "ok", Version: "1.2.3", Countries: []string{"NO"}, Cache: "redis",
				Redis: &registry.RedisHealth{Reachable: false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRegistry(t, &fakeCountry{code: "NO"}, append(tc.opts, registry.WithVersion("1.2.3"))...)
			if diff := cmp.Diff(tc.want, r.Health(t.Context())); diff != "" {
				t.Errorf("Health (-want +got):\n%s", diff)
			}
		})
	}
}

// describedCache is a cache that describes itself as d.
type describedCache struct {
	d cache.Description
}

func (describedCache) Get(context.Context, string) ([]byte, bool, error)        { return nil, false, nil }
func (describedCache) Set(context.Context, string, []byte, time.Duration) error { return nil }
func (describedCache) Delete(context.Context, string) error                     { return nil }
func (c describedCache) Describe(context.Context) cache.Description             { return c.d }

// ctxCache is a Redis-like cache whose health answer depends on the
// context it is asked under: reachable only while that context is live.
type ctxCache struct{ describedCache }

func (ctxCache) Describe(ctx context.Context) cache.Description {
	return cache.Description{Backend: cache.BackendRedis, Reachable: ctx.Err() == nil}
}

// TestHealthAsksUnderTheCallersContext (issue 29): Health(ctx) hands the
// caller's context to the cache's health check, which bounds the Redis
// ping by the caller's deadline (see rediscache's TestDescribe tests).
func TestHealthAsksUnderTheCallersContext(t *testing.T) {
	t.Parallel()
	r := newRegistry(t, &fakeCountry{code: "NO"}, registry.WithCache(ctxCache{}))
	if h := r.Health(t.Context()); h.Redis == nil || !h.Redis.Reachable {
		t.Errorf("live context: %+v", h.Redis)
	}
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	if h := r.Health(ended); h.Redis == nil || h.Redis.Reachable {
		t.Errorf("ended context: %+v, want the cache asked under it", h.Redis)
	}
}

func TestRules(t *testing.T) {
	t.Parallel()
	r := newRegistry(t, &fakeCountry{code: "NO"})
	doc, err := r.Rules("no")
	if err != nil || doc != "# Fake rules\n" {
		t.Errorf("Rules: %q %v", doc, err)
	}
}

// TestLookupJSONMatchesLookup: the JSON forms are the bytes of the struct
// forms, live and cached; a hit returns the stored bytes.
func TestLookupJSONMatchesLookup(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f, registry.WithClock(clock.Now))
	ctx := t.Context()
	live, err := r.Internal(seal.Key{}).LookupJSON(ctx, "NO", "123456")
	if err != nil {
		t.Fatal(err)
	}
	hitJSON, err := r.Internal(seal.Key{}).LookupJSON(ctx, "NO", "123456")
	if err != nil {
		t.Fatal(err)
	}
	hit, err := r.Lookup(ctx, "NO", "123456")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(hit)
	if diff := cmp.Diff(string(want), string(hitJSON)); diff != "" {
		t.Errorf("cached LookupJSON differs from json.Marshal(Lookup) (-want +got):\n%s", diff)
	}
	hit.Cached = false
	wantLive, _ := json.Marshal(hit)
	if diff := cmp.Diff(string(wantLive), string(live)); diff != "" {
		t.Errorf("live LookupJSON (-want +got):\n%s", diff)
	}
	if f.lookups.Load() != 1 {
		t.Errorf("calls %d", f.lookups.Load())
	}
	if _, err := r.Internal(seal.Key{}).LookupJSON(ctx, "NO", "000000"); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("not_found: %v", err)
	}
	s1, err := r.Internal(seal.Key{}).SearchJSON(ctx, "NO", "equinor", 3)
	if err != nil || !strings.Contains(string(s1), `"cached":false`) {
		t.Errorf("SearchJSON live: %s %v", s1, err)
	}
	s2, err := r.Internal(seal.Key{}).SearchJSON(ctx, "NO", "equinor", 3)
	if err != nil || !strings.Contains(string(s2), `"cached":true`) {
		t.Errorf("SearchJSON hit: %s %v", s2, err)
	}
}

// TestCacheEntryMarksOnlyTheTopLevelField: the cached entry differs from the
// live answer only in the top-level cached field, even when a register key
// or a note spells "cached":false.
func TestCacheEntryMarksOnlyTheTopLevelField(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		rep := countrykit.NewReport("NO", "fake", id, `TRICKY "cached":false AS`)
		rep.Registers = map[string]bool{"cached": false}
		rep.Notes = []string{`"cached":false`}
		return rep, nil
	}
	r := newRegistry(t, f)
	ctx := t.Context()
	live, err := r.Lookup(ctx, "NO", "123456")
	if err != nil {
		t.Fatal(err)
	}
	hit, err := r.Internal(seal.Key{}).LookupJSON(ctx, "NO", "123456")
	if err != nil {
		t.Fatal(err)
	}
	live.Cached = true
	want, _ := json.Marshal(live)
	if diff := cmp.Diff(string(want), string(hit)); diff != "" {
		t.Errorf("cached entry (-want +got):\n%s", diff)
	}
}
