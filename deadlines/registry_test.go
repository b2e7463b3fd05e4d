package deadlines_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/google/go-cmp/cmp"
)

// fakeNorway is a Country whose Deadlines is deadlines.Norway, as the real
// module's is, and whose Lookup serves one fixed report and counts calls.
type fakeNorway struct {
	lookups atomic.Int32
}

var _ registry.Country = (*fakeNorway)(nil)

func (f *fakeNorway) Info() registry.CountryInfo {
	return registry.CountryInfo{Country: "NO", Registry: "brreg", Name: "Fake Enhetsregisteret", IDScheme: "orgnr", TimeZone: "Europe/Oslo"}
}
func (f *fakeNorway) Ready() error { return nil }
func (f *fakeNorway) Validate(input string) registry.ValidationResult {
	return registry.ValidationResult{Country: "NO", Registry: "brreg", Input: input, Valid: true, Normalized: countrykit.Ptr(input)}
}
func (f *fakeNorway) Lookup(_ context.Context, id string) (*registry.CompanyReport, error) {
	f.lookups.Add(1)
	return typicalAS(id), nil
}
func (f *fakeNorway) Search(context.Context, string, int) (*registry.SearchResult, error) {
	return &registry.SearchResult{}, nil
}
func (f *fakeNorway) Deadlines(rep *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	return deadlines.Norway(rep, exampleAS(), today), nil
}
func (f *fakeNorway) Rules() string {
	return deadlines.NorwayRules([]deadlines.NorwegianDuties{exampleAS()})
}

func typicalAS(id string) *registry.CompanyReport {
	rep := countrykit.NewReport("NO", "brreg", id, "EKSEMPEL AS")
	rep.LegalFormCode = countrykit.Ptr("AS")
	rep.Status = registry.StatusActive
	rep.VATRegistered = countrykit.Ptr(true)
	rep.EmployeesReported = countrykit.Ptr(true)
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2012, 5, 3))
	return rep
}

// TestRegistryDeadlines: Registry.Deadlines looks the report up through the
// cache and computes with the module's Deadlines, which is deadlines.Norway;
// an empty today is the Registry clock's UTC date.
func TestRegistryDeadlines(t *testing.T) {
	t.Parallel()
	fake := &fakeNorway{}
	clock := func() time.Time { return time.Date(2027, 2, 28, 23, 30, 0, 0, time.FixedZone("CET", 3600)) }
	reg, err := registry.New([]registry.Country{fake}, registry.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := reg.Deadlines(ctx, "no", "923609016", registry.NewDate(2027, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := deadlines.Norway(typicalAS("923609016"), exampleAS(), registry.NewDate(2027, 3, 1))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The clock says 2027-02-28 23:30 CET (22:30 UTC): the register's
	// today (the fake's time zone is Europe/Oslo) is 2027-02-28.
	today, err := reg.Today("NO")
	if err != nil {
		t.Fatal(err)
	}
	byClock, err := reg.Deadlines(ctx, "NO", "923609016", today)
	if err != nil {
		t.Fatal(err)
	}
	if byClock.Today != registry.NewDate(2027, 2, 28) {
		t.Errorf("today from the clock = %s, want 2027-02-28", byClock.Today)
	}
	if n := fake.lookups.Load(); n != 1 {
		t.Errorf("%d lookups, want 1 (the second call is served from the cache)", n)
	}
}
