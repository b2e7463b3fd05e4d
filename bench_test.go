package registry_test

import (
	"context"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/seal"
)

// BenchmarkLookupCacheHit measures a Lookup answered from the default
// in-memory cache: the cost a cached answer adds before any adapter encodes
// it.
func BenchmarkLookupCacheHit(b *testing.B) {
	r := benchRegistry(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		rep, err := r.Lookup(ctx, "NO", "123456")
		if err != nil || !rep.Cached {
			b.Fatalf("%v %v", rep, err)
		}
	}
}

// BenchmarkLookupJSONCacheHit measures the adapters' path: a cache hit
// returned as the stored JSON bytes, with no decoding or encoding.
func BenchmarkLookupJSONCacheHit(b *testing.B) {
	r := benchRegistry(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Internal(seal.Key{}).LookupJSON(ctx, "NO", "123456"); err != nil {
			b.Fatal(err)
		}
	}
}

// benchRegistry returns a Registry whose cache holds one report.
func benchRegistry(b *testing.B) *registry.Registry {
	b.Helper()
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		rep := countrykit.NewReport("NO", "fake", id, "BENCHMARK ASA")
		rep.Status = registry.StatusActive
		rep.IndustryCodes = []registry.IndustryCode{{Code: "06.100", Description: countrykit.Ptr("Utvinning av råolje"), Scheme: countrykit.Ptr("SN2007"), Rank: 1}}
		rep.BusinessAddress = &registry.Address{Lines: []string{"Forusbeen 50"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER")}
		rep.Notes = []string{"A note."}
		return rep, nil
	}
	r, err := registry.New([]registry.Country{f})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := r.Lookup(context.Background(), "NO", "123456"); err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkValidate measures the Registry's offline validation path.
func BenchmarkValidate(b *testing.B) {
	r, err := registry.New([]registry.Country{&fakeCountry{code: "NO"}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Validate("NO", "123456"); err != nil {
			b.Fatal(err)
		}
	}
}
