package se

import (
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/moduletest"
)

// TestReview_SESearchPersonalNumberCacheKey: issue 26 says a personal
// identity number is never "cached under its clear value", and the change
// refuses a search that holds one. But the refusal is in the module's
// Search, which the Registry calls only after it has asked the cache for
// the key ".../SE/search/<limit>/<query>": the clear number goes to the
// cache (over the network, for the Redis cache) on every such search.
func TestReview_SESearchPersonalNumberCacheKey(t *testing.T) {
	t.Parallel()
	inner, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	mem := &keyRecorder{Cache: inner}
	r := moduletest.NewRegistry(t, build(t, newRegister(t)), registry.WithCache(mem))
	_, err = r.Search(t.Context(), "SE", "Anna 810105-2382", 5)
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeBadRequest {
		t.Fatalf("search: %v, want bad_request", err)
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	for _, key := range mem.keys {
		if strings.Contains(key, "810105-2382") {
			t.Errorf("the cache was asked for a key carrying the number: %q", key)
		}
	}
}
