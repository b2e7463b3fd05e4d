package cache_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/cache"
)

// TestMemoryCompression: with WithCompression, the first large value of a
// tag byte is stored plain and becomes the dictionary (counted in Bytes);
// later large values of that tag are stored compressed, counted at their
// compressed size; the first Get returns the exact value and keeps it plain
// (Bytes grows by the difference), and a second Get returns the same slice;
// small values and a Memory without the option are untouched.
func TestMemoryCompression(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	doc := func(i int) []byte {
		return []byte(fmt.Sprintf(`r{"id":"%09d","name":"COMPANY %d AS","status":"active","notes":[],"source":"%s"}`, i, i, strings.Repeat("register text ", 60)))
	}
	first := doc(1)
	if err := m.Set(ctx, "k1", first, time.Hour); err != nil {
		t.Fatal(err)
	}
	dict := int64(len(first))
	if got, want := m.Bytes(), dict+int64(len("k1")+len(first))+cache.EntryOverhead; got != want {
		t.Errorf("Bytes after the first value: %d, want %d (the value and its dictionary)", got, want)
	}
	second := doc(2)
	before := m.Bytes()
	if err := m.Set(ctx, "k2", bytes.Clone(second), time.Hour); err != nil {
		t.Fatal(err)
	}
	packed := m.Bytes() - before - int64(len("k2")) - cache.EntryOverhead
	if packed <= 0 || packed*4 > int64(len(second)) {
		t.Errorf("second value stored in %d bytes of %d, want under a quarter", packed, len(second))
	}
	got, ok, _ := m.Get(ctx, "k2")
	if !ok || !bytes.Equal(got, second) {
		t.Fatalf("Get: %v %q, want %q", ok, got, second)
	}
	if want := before + int64(len("k2")+len(second)) + cache.EntryOverhead; m.Bytes() != want {
		t.Errorf("Bytes after the first Get: %d, want %d (the plain value counted)", m.Bytes(), want)
	}
	again, _, _ := m.Get(ctx, "k2")
	if &again[0] != &got[0] {
		t.Errorf("a second Get returned another slice")
	}
	small := []byte(`r{"id":"1"}`)
	before = m.Bytes()
	if err := m.Set(ctx, "k3", small, time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := m.Bytes() - before; got != int64(len("k3")+len(small))+cache.EntryOverhead {
		t.Errorf("a small value counts %d", got)
	}
	if v, _, _ := m.Get(ctx, "k3"); &v[0] != &small[0] {
		t.Errorf("a small value was copied")
	}
}

// TestMemoryCompressionBound: the bound holds exactly with compressed and
// inflated entries, dictionaries included, while entries are set and read
// in turn; a bound too small for a dictionary stores values plain.
func TestMemoryCompressionBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const bound = 64 << 10
	m, err := cache.NewMemory(cache.WithCompression(), cache.WithMaxBytes(bound))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		v := []byte(fmt.Sprintf(`r{"id":"%09d","text":"%s"}`, i, strings.Repeat(strconv.Itoa(i%7), 600+i%300)))
		key := "k" + strconv.Itoa(i)
		if err := m.Set(ctx, key, bytes.Clone(v), time.Hour); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if got, ok, _ := m.Get(ctx, key); !ok || !bytes.Equal(got, v) {
				t.Fatalf("Get %s: %v", key, ok)
			}
		}
		if m.Bytes() > bound {
			t.Fatalf("after %d values: %d bytes, bound %d", i+1, m.Bytes(), bound)
		}
	}
	tiny, err := cache.NewMemory(cache.WithCompression(), cache.WithMaxBytes(4096))
	if err != nil {
		t.Fatal(err)
	}
	v := []byte(`r` + strings.Repeat("x", 1000))
	for _, k := range []string{"a", "b"} {
		if err := tiny.Set(ctx, k, v, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := tiny.Bytes(), 2*(1+int64(len(v))+cache.EntryOverhead); got != want {
		t.Errorf("tiny bound: %d bytes, want %d (plain, no dictionary)", got, want)
	}
}

// BenchmarkMemoryCompressed measures a Memory made WithCompression with
// report-like values of about 2.5 KB: "set" stores a value (compressing it
// against the dictionary), "first-get" stores one and reads it once (the
// inflating Get), "hot-get" reads an entry already inflated.
func BenchmarkMemoryCompressed(b *testing.B) {
	ctx := b.Context()
	value := func(i int) []byte {
		return []byte(fmt.Sprintf(`r{"id":"%09d","name":"COMPANY %d AS","status":"active","source":"%s"}`, i, i, strings.Repeat("register text ", 170)))
	}
	newMemory := func(b *testing.B) *cache.Memory {
		m, err := cache.NewMemory(cache.WithCompression())
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Set(ctx, "dictionary", value(0), time.Hour); err != nil {
			b.Fatal(err)
		}
		return m
	}
	const n = 1024
	values := make([][]byte, n)
	keys := make([]string, n)
	for i := range values {
		values[i], keys[i] = value(i+1), "NO/company/"+strconv.Itoa(i)
	}
	b.Run("set", func(b *testing.B) {
		m := newMemory(b)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = m.Set(ctx, keys[i%n], values[i%n], time.Hour)
			i++
		}
	})
	b.Run("first-get", func(b *testing.B) {
		m := newMemory(b)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = m.Set(ctx, keys[i%n], values[i%n], time.Hour)
			if _, ok, _ := m.Get(ctx, keys[i%n]); !ok {
				b.Fatal("Get missed")
			}
			i++
		}
	})
	b.Run("hot-get", func(b *testing.B) {
		m := newMemory(b)
		for i := range n {
			_ = m.Set(ctx, keys[i], values[i], time.Hour)
			_, _, _ = m.Get(ctx, keys[i])
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, ok, _ := m.Get(ctx, keys[i%n]); !ok {
				b.Fatal("Get missed")
			}
			i++
		}
	})
}
