package registry_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/internal/testwait"
)

// packCache is a cache.Memory made WithCompression that records what the
// Registry stores plain (SetPlain) and tells each Pack on packed.
type packCache struct {
	*cache.Memory
	mu     sync.Mutex
	plain  map[string][]byte // a copy of each value stored with SetPlain
	packed chan string
}

func (p *packCache) SetPlain(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	p.mu.Lock()
	p.plain[key] = bytes.Clone(v)
	p.mu.Unlock()
	return p.Memory.SetPlain(ctx, key, v, ttl)
}

func (p *packCache) Pack(key string) {
	p.Memory.Pack(key)
	p.packed <- key
}

func (p *packCache) stored(key string) ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.plain[key]
	return v, ok
}

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
	pc := &packCache{Memory: mem, plain: map[string][]byte{}, packed: make(chan string, 4)}
	purpose := strings.Repeat("To run a fake register's business and all that goes with it. ", 12)
	f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		rep := countrykit.NewReport("NO", "fake", id, "FAKE AS")
		rep.Purpose = &purpose
		return rep, nil
	}}
	r := newRegistry(t, f, registry.WithCache(pc))
	in := r.Internal(seal.Key{})
	ctx := t.Context()
	twin, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"111111", "222222"} { // the first becomes the dictionary
		key := "companyregistry/2/NO/company/" + id
		live, err := in.LookupJSON(ctx, "NO", id)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := pc.stored(key)
		if !ok {
			t.Fatalf("%s: not stored plain before the caller had the answer", id)
		}
		if got := testwait.Recv(t, pc.packed, "the Pack after the lookup of "+id); got != key {
			t.Errorf("packed %q, want %q", got, key)
		}
		if err := twin.Set(ctx, key, bytes.Clone(v), time.Hour); err != nil {
			t.Fatal(err)
		}
		if got, want := mem.Bytes(), twin.Bytes(); got != want {
			t.Errorf("%s: the cache counts %d bytes after Pack, %d after a Set of the same entries", id, got, want)
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
