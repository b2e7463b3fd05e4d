package cache_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/companyregistry/registry/cache"
)

// TestReview_CompressionDictionariesBreakBound: WithMaxBytes promises that
// Bytes (dictionaries included, per WithCompression's doc) stays within the
// bound. The dictionaries are counted but never evicted, so Set and the
// inflating Get must decide that an entry "fits on its own" beside them,
// and the dictionaries together must take at most their share of the bound
// (they took it over before the fix).
func TestReview_CompressionDictionariesBreakBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	incompressible := func(first byte, n int) []byte {
		r := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		b[0] = first
		return b
	}
	t.Run("a plain Set after a dictionary", func(t *testing.T) {
		t.Parallel()
		const bound = 64 << 10
		m, err := cache.NewMemory(cache.WithCompression(), cache.WithMaxBytes(bound))
		if err != nil {
			t.Fatal(err)
		}
		// A report-like first value of 4,000 bytes becomes the 'r' dictionary.
		if err := m.Set(ctx, "dict", append([]byte{'r'}, bytes.Repeat([]byte(`{"a":1}`), 570)...), time.Hour); err != nil {
			t.Fatal(err)
		}
		// An entry that fits the bound on its own (key + value + overhead
		// = bound - 1000), stored plain (it does not compress).
		v := incompressible('x', bound-1000-len("big")-cache.EntryOverhead)
		if err := m.Set(ctx, "big", v, time.Hour); err != nil {
			t.Fatal(err)
		}
		if got := m.Bytes(); got > bound {
			t.Errorf("Bytes() = %d after a Set, over the bound %d (Len %d)", got, bound, m.Len())
		}
	})
	t.Run("the first Get of a compressed entry", func(t *testing.T) {
		t.Parallel()
		const bound = 64 << 10
		m, err := cache.NewMemory(cache.WithCompression(), cache.WithMaxBytes(bound))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Set(ctx, "dict", append([]byte{'r'}, bytes.Repeat([]byte(`{"a":1}`), 570)...), time.Hour); err != nil {
			t.Fatal(err)
		}
		// Stored compressed (a few hundred bytes); plain it fits the bound
		// on its own, but not beside the dictionary.
		v := append([]byte{'r'}, bytes.Repeat([]byte(`{"b":2}`), (bound-1000)/7)...)
		if err := m.Set(ctx, "big", bytes.Clone(v), time.Hour); err != nil {
			t.Fatal(err)
		}
		if got := m.Bytes(); got > bound {
			t.Fatalf("Bytes() = %d after the Set", got)
		}
		got, ok, _ := m.Get(ctx, "big")
		if !ok || !bytes.Equal(got, v) {
			t.Fatalf("Get: %v", ok)
		}
		if got := m.Bytes(); got > bound {
			t.Errorf("Bytes() = %d after the first Get, over the bound %d (Len %d)", got, bound, m.Len())
		}
	})
	t.Run("seventeen kinds", func(t *testing.T) {
		t.Parallel()
		// Each dictionary passes the "at most a sixteenth of the bound"
		// check; seventeen kinds of value (first bytes) take more than the
		// bound, for the life of the Memory, and every Set then empties
		// the cache of everything else.
		const bound = 256 << 10
		m, err := cache.NewMemory(cache.WithCompression(), cache.WithMaxBytes(bound))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 17 {
			v := bytes.Repeat([]byte{'a' + byte(i)}, cache.CompressDictMax)
			if err := m.Set(ctx, string(rune('a'+i)), v, time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Set(ctx, "small-1", []byte("r{}"), time.Hour); err != nil {
			t.Fatal(err)
		}
		if err := m.Set(ctx, "small-2", []byte("r{}"), time.Hour); err != nil {
			t.Fatal(err)
		}
		if got := m.Bytes(); got > bound {
			t.Errorf("Bytes() = %d, over the bound %d; Len %d (two 3-byte entries cannot both stay)", got, bound, m.Len())
		}
	})
}
