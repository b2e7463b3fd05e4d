package cache

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"
)

// TestReview_InflatingGetOfAnOlderEntryBreaksBound: the first Get of a
// compressed entry makes it the most recently used, inflates it outside
// the lock and then keeps the plain value, evicting least recently used
// entries "but never the entry itself" — it stopped there. When Sets made
// the entry less recently used while it was inflated, entries more
// recently used than it were not evicted and Bytes stayed over the bound
// (issue 30: "the cache bound still exact"). The test makes that
// interleaving: it takes the entry as Get does, Sets, then keeps the value
// as Get does. (Run side by side, Gets and Sets broke the bound 2 times in
// 10 runs.)
func TestReview_InflatingGetOfAnOlderEntryBreaksBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const bound = 64 << 10
	m, err := NewMemory(WithCompression(), WithMaxBytes(bound))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Set(ctx, "dict", append([]byte{'r'}, bytes.Repeat([]byte(`{"a":1}`), 100)...), time.Hour); err != nil {
		t.Fatal(err)
	}
	// 32 KB plain, a few hundred bytes compressed.
	big := append([]byte{'r'}, bytes.Repeat([]byte(`{"b":2}`), 32<<10/7)...)
	if err := m.Set(ctx, "big", bytes.Clone(big), time.Hour); err != nil {
		t.Fatal(err)
	}
	// What Get takes under the lock before it inflates.
	m.mu.Lock()
	e := m.items["big"]
	m.moveToFront(e)
	value, packed, plainLen := e.value, e.packed, e.plainLen
	m.mu.Unlock()
	if packed == nil {
		t.Fatal("the entry is not stored compressed")
	}
	// Meanwhile, Sets fill the cache: the entry is now among the least
	// recently used, with the more recently used entries in front of it.
	for i := 0; m.Bytes()+500 < bound; i++ {
		if err := m.Set(ctx, fmt.Sprintf("f%d", i), bytes.Repeat([]byte{'x'}, 400), time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if m.items["big"] != e {
		t.Fatal("the entry was evicted by the Sets")
	}
	got := m.unpack(e, value, packed, plainLen)
	if !bytes.Equal(got, big) {
		t.Fatal("the inflated value differs")
	}
	if b := m.Bytes(); b > bound {
		t.Errorf("Bytes() = %d after the inflating Get, over the bound %d (Len %d)", b, bound, m.Len())
	}
}
