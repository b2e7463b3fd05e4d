package registry_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
)

// countingMemory is the usual way to add something to a cache: embed the
// default cache.Memory and override Set (to count, replicate or log the
// writes). WithCache takes any cache.Cache and documents no other method.
type countingMemory struct {
	*cache.Memory
	sets atomic.Int64
}

func (c *countingMemory) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	c.sets.Add(1)
	return c.Memory.Set(ctx, key, v, ttl)
}

// TestReview_EmbeddedMemoryWrapperSetBypassed: a cache given to WithCache
// whose type embeds *cache.Memory and overrides Set no longer sees the
// Registry's writes of fetched answers: the Registry finds the promoted
// SetPlain/Pack (its unexported packer interface) and calls them instead of
// the cache.Cache method the wrapper overrides. Before the second pass every
// stored answer went through Set.
func TestReview_EmbeddedMemoryWrapperSetBypassed(t *testing.T) {
	t.Parallel()
	mem, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	c := &countingMemory{Memory: mem}
	r := newRegistry(t, &fakeCountry{code: "NO"}, registry.WithCache(c))
	if _, err := r.Lookup(t.Context(), "NO", "123456"); err != nil {
		t.Fatal(err)
	}
	if mem.Len() != 1 {
		t.Fatalf("the answer was not stored: %d entries", mem.Len())
	}
	if n := c.sets.Load(); n != 1 {
		t.Errorf("the wrapper's Set saw %d writes for one stored answer, want 1 (the Registry went around it)", n)
	}
}
