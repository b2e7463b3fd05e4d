package cache_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/cache"
)

// reportLike is a report-like value of about 1.5 KB that differs by i.
func reportLike(i int) []byte {
	return []byte(fmt.Sprintf(`r{"id":"%09d","name":"COMPANY %d AS","status":"active","source":"%s"}`, i, i, strings.Repeat("register text ", 100)))
}

// TestMemorySetPlainThenPack: SetPlain stores a value plain (counted at
// its length, read back as the same slice) and Pack then stores it as Set
// would have: the Bytes of a Memory fed with SetPlain and Pack are those
// of a twin fed with Set after every value, the first value included (it
// becomes the dictionary), and every Get gives the value.
func TestMemorySetPlainThenPack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	set, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	plain, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		key, v := fmt.Sprint("k", i), reportLike(i)
		if err := set.Set(ctx, key, bytes.Clone(v), time.Hour); err != nil {
			t.Fatal(err)
		}
		before := plain.Bytes()
		stored := bytes.Clone(v)
		if err := plain.SetPlain(ctx, key, stored, time.Hour); err != nil {
			t.Fatal(err)
		}
		if got, want := plain.Bytes()-before, int64(len(key)+len(v))+cache.EntryOverhead; got != want {
			t.Errorf("value %d: SetPlain counts %d bytes, want %d (plain)", i, got, want)
		}
		plain.Pack(key)
		if got, want := plain.Bytes(), set.Bytes(); got != want {
			t.Errorf("value %d: Bytes after Pack %d, after Set %d", i, got, want)
		}
	}
	for i := range 20 {
		key := fmt.Sprint("k", i)
		a, okA, _ := set.Get(ctx, key)
		b, okB, _ := plain.Get(ctx, key)
		if !okA || !okB || !bytes.Equal(a, reportLike(i)) || !bytes.Equal(b, a) {
			t.Errorf("Get %s: %v %v, values equal to the stored one: %v %v", key, okA, okB, bytes.Equal(a, reportLike(i)), bytes.Equal(b, a))
		}
	}
	if got, want := plain.Bytes(), set.Bytes(); got != want {
		t.Errorf("Bytes after the Gets: %d, want %d", got, want)
	}
}

// TestMemoryPackSkips: Pack leaves alone an entry read since SetPlain (it
// stays plain, the same slice, as an inflated entry does), one replaced by
// Set or removed, a key never stored, a small value, and everything in a
// Memory without WithCompression.
func TestMemoryPackSkips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	newMemory := func(t *testing.T, opts ...cache.Option) *cache.Memory {
		m, err := cache.NewMemory(opts...)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	t.Run("read", func(t *testing.T) {
		t.Parallel()
		m := newMemory(t, cache.WithCompression())
		_ = m.Set(ctx, "dict", reportLike(0), time.Hour)
		v := reportLike(1)
		_ = m.SetPlain(ctx, "k", v, time.Hour)
		got, _, _ := m.Get(ctx, "k")
		before := m.Bytes()
		m.Pack("k")
		again, _, _ := m.Get(ctx, "k")
		if m.Bytes() != before || &got[0] != &v[0] || &again[0] != &v[0] {
			t.Errorf("Pack of a read entry: Bytes %d -> %d; the stored slice returned: %v, %v", before, m.Bytes(), &got[0] == &v[0], &again[0] == &v[0])
		}
	})
	t.Run("replaced", func(t *testing.T) {
		t.Parallel()
		m := newMemory(t, cache.WithCompression())
		_ = m.Set(ctx, "dict", reportLike(0), time.Hour)
		_ = m.SetPlain(ctx, "k", reportLike(1), time.Hour)
		small := []byte(`r{"id":"2"}`)
		_ = m.Set(ctx, "k", small, time.Hour)
		before := m.Bytes()
		m.Pack("k")
		if got, _, _ := m.Get(ctx, "k"); m.Bytes() != before || &got[0] != &small[0] {
			t.Errorf("Pack of a replaced entry: Bytes %d -> %d, value %q", before, m.Bytes(), got)
		}
	})
	t.Run("removed", func(t *testing.T) {
		t.Parallel()
		m := newMemory(t, cache.WithCompression())
		_ = m.Set(ctx, "dict", reportLike(0), time.Hour)
		_ = m.SetPlain(ctx, "k", reportLike(1), time.Hour)
		_ = m.Delete(ctx, "k")
		before := m.Bytes()
		m.Pack("k")
		m.Pack("never stored")
		if _, ok, _ := m.Get(ctx, "k"); ok || m.Bytes() != before || m.Len() != 1 {
			t.Errorf("Pack of a removed entry: hit %v, Bytes %d -> %d, Len %d", ok, before, m.Bytes(), m.Len())
		}
	})
	t.Run("small", func(t *testing.T) {
		t.Parallel()
		m := newMemory(t, cache.WithCompression())
		_ = m.Set(ctx, "dict", reportLike(0), time.Hour)
		small := []byte(`r{"id":"2"}`)
		_ = m.SetPlain(ctx, "k", small, time.Hour)
		before := m.Bytes()
		m.Pack("k")
		if got, _, _ := m.Get(ctx, "k"); m.Bytes() != before || &got[0] != &small[0] {
			t.Errorf("Pack of a small value: Bytes %d -> %d", before, m.Bytes())
		}
	})
	t.Run("without compression", func(t *testing.T) {
		t.Parallel()
		m := newMemory(t)
		_ = m.SetPlain(ctx, "dict", reportLike(0), time.Hour)
		v := reportLike(1)
		_ = m.SetPlain(ctx, "k", v, time.Hour)
		before := m.Bytes()
		m.Pack("k")
		want := int64(len("dict")+len(reportLike(0))+len("k")+len(v)) + 2*cache.EntryOverhead
		if got, _, _ := m.Get(ctx, "k"); before != want || m.Bytes() != before || &got[0] != &v[0] {
			t.Errorf("Pack without compression: Bytes %d -> %d, want %d unchanged", before, m.Bytes(), want)
		}
	})
}
