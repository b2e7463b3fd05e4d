package registry_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/internal/testwait"
)

// TestFetchStoresPlainThenPacks: with a cache that can compress later (the
// default cache.Memory), a fetch stores its answer plain before any caller
// has it (a lookup right after is a hit, and the register is asked once),
// and packs it once the callers have it: the cache then holds exactly what
// a Set of the same entries would have left, and a hit still gives the
// stored bytes.
func TestFetchStoresPlainThenPacks(t *testing.T) {
	t.Parallel()
	mem, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	purpose := strings.Repeat("To run a fake register's business and all that goes with it. ", 12)
	f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		rep := countrykit.NewReport("NO", "fake", id, "FAKE AS")
		rep.Purpose = &purpose
		return rep, nil
	}}
	r := newRegistry(t, f, registry.WithCache(mem))
	in := r.Internal(seal.Key{})
	ctx := t.Context()
	twin, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"111111", "222222"} { // the first becomes the dictionary
		key := "companyregistry/2/NO/company/" + id
		live, err := in.LookupJSON(ctx, "NO", id)
		if err != nil {
			t.Fatal(err)
		}
		if mem.Len() != i+1 {
			t.Fatalf("%s: %d entries when the caller had the answer, want %d (stored before it)", id, mem.Len(), i+1)
		}
		testwait.Until(t, "the compression after the lookup of "+id, func() bool { return in.PendingPacks() == 0 })
		packed := mem.Bytes()
		v, ok, err := mem.Get(ctx, key) // inflates: the bytes are read before
		if err != nil || !ok {
			t.Fatalf("%s: Get %v %v", id, ok, err)
		}
		if err := twin.Set(ctx, key, bytes.Clone(v), time.Hour); err != nil {
			t.Fatal(err)
		}
		if want := twin.Bytes(); packed != want {
			t.Errorf("%s: the cache counts %d bytes after the compression, %d after a Set of the same entries", id, packed, want)
		}
		hit, err := in.LookupJSON(ctx, "NO", id)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(string(live), `"cached":false`, `"cached":true`, 1)
		if diff := cmp.Diff(want, string(hit)); diff != "" {
			t.Errorf("%s: the hit is not the live answer with cached true (-want +got):\n%s", id, diff)
		}
	}
	if n := f.lookups.Load(); n != 2 {
		t.Errorf("the register was asked %d times, want 2", n)
	}
}
