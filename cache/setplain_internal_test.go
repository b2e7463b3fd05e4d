package cache

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestMemorySetPlainPackConcurrent: SetPlain, Pack, Set, Get and Delete of
// report-like values from many goroutines on a small bound: the bound holds
// after every call, a Get gives exactly the value stored under its key
// (each key has one value), and at the end the entries and dictionaries
// account for Bytes exactly. Run with -race.
func TestMemorySetPlainPackConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const bound = 32 << 10
	m, err := NewMemory(WithCompression(), WithMaxBytes(bound))
	if err != nil {
		t.Fatal(err)
	}
	value := func(k int) []byte {
		return append([]byte(`r{"id":"`+strconv.Itoa(k)+`","text":"`), bytes.Repeat([]byte(strconv.Itoa(k%10)), 600+k*37)...)
	}
	const goroutines, ops, keys = 8, 600, 40
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 11))
			for range ops {
				k := rng.IntN(keys)
				key := strconv.Itoa(k)
				switch r := rng.IntN(100); {
				case r < 35:
					_ = m.SetPlain(ctx, key, value(k), time.Hour)
					if rng.IntN(2) == 0 {
						m.Pack(key)
					}
				case r < 50:
					m.Pack(key)
				case r < 60:
					_ = m.Set(ctx, key, value(k), time.Hour)
				case r < 95:
					if v, ok, _ := m.Get(ctx, key); ok && !bytes.Equal(v, value(k)) {
						t.Errorf("Get(%s) gave another value (%d bytes)", key, len(v))
						return
					}
				default:
					_ = m.Delete(ctx, key)
				}
				if b := m.Bytes(); b > bound {
					t.Errorf("Bytes %d over the bound %d", b, bound)
					return
				}
			}
		})
	}
	wg.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	size := m.dictBytes
	for e := m.root.next; e != &m.root; e = e.next {
		if want := int64(len(e.key)+len(e.value)) + EntryOverhead; e.size != want {
			t.Errorf("entry %q counts %d, want %d", e.key, e.size, want)
		}
		size += e.size
	}
	if size != m.bytes {
		t.Errorf("entries and dictionaries hold %d bytes, Bytes is %d", size, m.bytes)
	}
}
