package registry_test

import (
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/seal"
)

// wrappedMemory is a cache.Memory behind a wrapper: it describes itself as
// memory (the method is promoted) but its Get is the wrapper's.
type wrappedMemory struct{ *cache.Memory }

// TestInternalLocalCache: LocalCache is true only for the in-process memory
// cache itself (the default, or a cache.Memory given to WithCache); a Redis,
// a custom cache, a wrapped Memory and no cache are not local.
func TestInternalLocalCache(t *testing.T) {
	t.Parallel()
	mem, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts []registry.Option
		want bool
	}{
		{"default", nil, true},
		{"memory", []registry.Option{registry.WithCache(mem)}, true},
		{"wrapped memory", []registry.Option{registry.WithCache(wrappedMemory{mem})}, false},
		{"redis", []registry.Option{registry.WithCache(describedCache{cache.Description{Backend: cache.BackendRedis, Reachable: true}})}, false},
		{"custom", []registry.Option{registry.WithCache(&keysCache{})}, false},
		{"none", []registry.Option{registry.WithoutCache()}, false},
	} {
		r, err := registry.New(nil, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Internal(seal.Key{}).LocalCache(); got != tc.want {
			t.Errorf("%s: LocalCache() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
