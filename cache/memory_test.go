package cache

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/fakeclock"
)

func newFakeClock() *fakeclock.Clock {
	return fakeclock.New(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
}

// newTestMemory returns a Memory with a fake clock and the given bound.
func newTestMemory(t *testing.T, maxBytes int64) (*Memory, *fakeclock.Clock) {
	t.Helper()
	clock := newFakeClock()
	m, err := NewMemory(WithMaxBytes(maxBytes), WithClock(clock.Now))
	if err != nil {
		t.Fatalf("NewMemory: %v", err)
	}
	return m, clock
}

// keys returns the keys of m from most to least recently used.
func keys(m *Memory) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ks []string
	for e := m.root.next; e != &m.root; e = e.next {
		ks = append(ks, e.key)
	}
	return ks
}

// checkInvariants checks that the list, the map and the byte count of m
// agree and that m is within its bound.
func checkInvariants(t *testing.T, m *Memory) {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	n, size := 0, int64(0)
	for e := m.root.next; e != &m.root; e = e.next {
		if e.next.prev != e {
			t.Fatalf("broken link after %q", e.key)
		}
		if m.items[e.key] != e {
			t.Errorf("list entry %q is not the map entry", e.key)
		}
		if want := int64(len(e.key)+len(e.value)) + EntryOverhead; e.size != want {
			t.Errorf("entry %q size = %d, want %d", e.key, e.size, want)
		}
		n++
		size += e.size
	}
	if n != len(m.items) {
		t.Errorf("list has %d entries, map has %d", n, len(m.items))
	}
	if size != m.bytes {
		t.Errorf("entries hold %d bytes, bytes = %d", size, m.bytes)
	}
	if m.bytes > m.maxBytes {
		t.Errorf("bytes = %d, over the bound %d", m.bytes, m.maxBytes)
	}
}

// get returns the value under key as a string and whether it was a hit.
func get(t *testing.T, m *Memory, key string) (string, bool) {
	t.Helper()
	v, ok, err := m.Get(t.Context(), key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	return string(v), ok
}

func set(t *testing.T, m *Memory, key, value string, ttl time.Duration) {
	t.Helper()
	if err := m.Set(t.Context(), key, []byte(value), ttl); err != nil {
		t.Fatalf("Set(%q): %v", key, err)
	}
}

// lookup is the outcome of a Get, in a form cmp can print.
type lookup struct {
	Value string
	OK    bool
}

func lookupOf(t *testing.T, m *Memory, key string) lookup {
	t.Helper()
	v, ok := get(t, m, key)
	return lookup{Value: v, OK: ok}
}

func TestMemoryGetSetDelete(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t, DefaultMaxBytes)

	if diff := cmp.Diff(lookup{}, lookupOf(t, m, "a")); diff != "" {
		t.Errorf("Get on an empty cache mismatch (-want +got):\n%s", diff)
	}
	set(t, m, "a", "one", time.Hour)
	set(t, m, "b", "two", time.Hour)
	if diff := cmp.Diff(lookup{"one", true}, lookupOf(t, m, "a")); diff != "" {
		t.Errorf("Get(a) mismatch (-want +got):\n%s", diff)
	}
	set(t, m, "a", "uno", time.Hour)
	if diff := cmp.Diff(lookup{"uno", true}, lookupOf(t, m, "a")); diff != "" {
		t.Errorf("Get(a) after overwrite mismatch (-want +got):\n%s", diff)
	}
	if err := m.Delete(t.Context(), "a"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := m.Delete(t.Context(), "absent"); err != nil {
		t.Fatalf("Delete of an absent key: %v", err)
	}
	if diff := cmp.Diff(lookup{}, lookupOf(t, m, "a")); diff != "" {
		t.Errorf("Get(a) after Delete mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(lookup{"two", true}, lookupOf(t, m, "b")); diff != "" {
		t.Errorf("Get(b) mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(1, m.Len()); diff != "" {
		t.Errorf("Len() mismatch (-want +got):\n%s", diff)
	}
	checkInvariants(t, m)
}

// TestMemoryGetReturnsStoredSlice checks that Get returns the slice that
// Set was given, without copying it.
func TestMemoryGetReturnsStoredSlice(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t, DefaultMaxBytes)
	value := []byte("value")
	if err := m.Set(t.Context(), "k", value, time.Hour); err != nil {
		t.Fatalf("Set: %v", err)
	}
	got, ok, err := m.Get(t.Context(), "k")
	if err != nil || !ok {
		t.Fatalf("Get = %q, %v, %v; want a hit", got, ok, err)
	}
	if &got[0] != &value[0] {
		t.Errorf("Get returned a copy of the stored value")
	}
}

func TestMemoryNilContext(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t, DefaultMaxBytes)
	//lint:ignore SA1012 Memory documents that it ignores its context, which may be nil.
	if err := m.Set(nil, "k", []byte("v"), time.Hour); err != nil {
		t.Fatalf("Set: %v", err)
	}
	//lint:ignore SA1012 Memory documents that it ignores its context, which may be nil.
	if v, ok, err := m.Get(nil, "k"); err != nil || !ok || string(v) != "v" {
		t.Errorf("Get = %q, %v, %v; want \"v\", true, nil", v, ok, err)
	}
	//lint:ignore SA1012 Memory documents that it ignores its context, which may be nil.
	if err := m.Delete(nil, "k"); err != nil {
		t.Errorf("Delete: %v", err)
	}
}

func TestMemoryTTL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		advance time.Duration
		want    lookup
		wantLen int
	}{
		{name: "just set", advance: 0, want: lookup{"v", true}, wantLen: 1},
		{name: "one nanosecond before expiry", advance: time.Hour - time.Nanosecond, want: lookup{"v", true}, wantLen: 1},
		{name: "at expiry", advance: time.Hour, want: lookup{}, wantLen: 0},
		{name: "after expiry", advance: 2 * time.Hour, want: lookup{}, wantLen: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, clock := newTestMemory(t, DefaultMaxBytes)
			set(t, m, "k", "v", time.Hour)
			clock.Advance(tc.advance)
			if diff := cmp.Diff(tc.want, lookupOf(t, m, "k")); diff != "" {
				t.Errorf("Get mismatch (-want +got):\n%s", diff)
			}
			// Get removes an expired entry.
			if diff := cmp.Diff(tc.wantLen, m.Len()); diff != "" {
				t.Errorf("Len() mismatch (-want +got):\n%s", diff)
			}
			checkInvariants(t, m)
		})
	}
}

func TestMemoryHugeTTL(t *testing.T) {
	t.Parallel()
	m, clock := newTestMemory(t, DefaultMaxBytes)
	set(t, m, "k", "v", time.Duration(1<<63-1))
	clock.Advance(100 * 365 * 24 * time.Hour)
	if diff := cmp.Diff(lookup{"v", true}, lookupOf(t, m, "k")); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
}

func TestMemoryOverwriteResetsTTL(t *testing.T) {
	t.Parallel()
	m, clock := newTestMemory(t, DefaultMaxBytes)
	set(t, m, "k", "old", time.Hour)
	clock.Advance(50 * time.Minute)
	set(t, m, "k", "new", time.Hour)
	clock.Advance(50 * time.Minute)
	if diff := cmp.Diff(lookup{"new", true}, lookupOf(t, m, "k")); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
}

func TestMemoryNonPositiveTTL(t *testing.T) {
	t.Parallel()
	for _, ttl := range []time.Duration{0, -time.Second} {
		t.Run(ttl.String(), func(t *testing.T) {
			t.Parallel()
			m, _ := newTestMemory(t, DefaultMaxBytes)
			set(t, m, "new", "v", ttl)
			set(t, m, "old", "v", time.Hour)
			set(t, m, "old", "v2", ttl)
			for _, key := range []string{"new", "old"} {
				if diff := cmp.Diff(lookup{}, lookupOf(t, m, key)); diff != "" {
					t.Errorf("Get(%q) mismatch (-want +got):\n%s", key, diff)
				}
			}
			if diff := cmp.Diff(int64(0), m.Bytes()); diff != "" {
				t.Errorf("Bytes() mismatch (-want +got):\n%s", diff)
			}
			checkInvariants(t, m)
		})
	}
}

// entrySize is the accounted size of an entry with a one-byte key and a
// ten-byte value, the shape the eviction tests use.
const entrySize = 1 + 10 + EntryOverhead

func TestMemoryLRUEviction(t *testing.T) {
	t.Parallel()
	const ten = "0123456789"
	tests := []struct {
		name string
		ops  func(t *testing.T, m *Memory)
		want []string // most recently used first
	}{
		{
			name: "fills up",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c"} {
					set(t, m, k, ten, time.Hour)
				}
			},
			want: []string{"c", "b", "a"},
		},
		{
			name: "evicts least recently set",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c", "d"} {
					set(t, m, k, ten, time.Hour)
				}
			},
			want: []string{"d", "c", "b"},
		},
		{
			name: "get refreshes recency",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c"} {
					set(t, m, k, ten, time.Hour)
				}
				get(t, m, "a")
				set(t, m, "d", ten, time.Hour)
			},
			want: []string{"d", "a", "c"},
		},
		{
			name: "miss does not refresh",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c"} {
					set(t, m, k, ten, time.Hour)
				}
				get(t, m, "x")
				set(t, m, "d", ten, time.Hour)
			},
			want: []string{"d", "c", "b"},
		},
		{
			name: "overwrite refreshes recency",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c"} {
					set(t, m, k, ten, time.Hour)
				}
				set(t, m, "a", ten, time.Hour)
				set(t, m, "d", ten, time.Hour)
			},
			want: []string{"d", "a", "c"},
		},
		{
			name: "large entry evicts several",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c"} {
					set(t, m, k, ten, time.Hour)
				}
				// Needs the room of two entries.
				set(t, m, "x", string(make([]byte, entrySize+10)), time.Hour)
			},
			want: []string{"x", "c"},
		},
		{
			name: "growing overwrite evicts others, not itself",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c"} {
					set(t, m, k, ten, time.Hour)
				}
				set(t, m, "a", string(make([]byte, 2*entrySize+10)), time.Hour)
			},
			want: []string{"a"},
		},
		{
			name: "oversize entry is not stored and removes the old one",
			ops: func(t *testing.T, m *Memory) {
				for _, k := range []string{"a", "b", "c"} {
					set(t, m, k, ten, time.Hour)
				}
				set(t, m, "b", string(make([]byte, 3*entrySize)), time.Hour)
			},
			want: []string{"c", "a"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestMemory(t, 3*entrySize)
			tc.ops(t, m)
			if diff := cmp.Diff(tc.want, keys(m)); diff != "" {
				t.Errorf("keys mismatch (-want +got):\n%s", diff)
			}
			checkInvariants(t, m)
		})
	}
}

func TestMemorySizeAccounting(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t, DefaultMaxBytes)
	steps := []struct {
		name      string
		key       string
		value     string
		wantBytes int64
		wantLen   int
	}{
		{name: "first", key: "key", value: "0123456789", wantBytes: 3 + 10 + EntryOverhead, wantLen: 1},
		{name: "grow", key: "key", value: string(make([]byte, 100)), wantBytes: 3 + 100 + EntryOverhead, wantLen: 1},
		{name: "second", key: "k2", value: "", wantBytes: 3 + 100 + 2 + 2*EntryOverhead, wantLen: 2},
		{name: "shrink", key: "key", value: "x", wantBytes: 3 + 1 + 2 + 2*EntryOverhead, wantLen: 2},
	}
	for _, step := range steps {
		set(t, m, step.key, step.value, time.Hour)
		if diff := cmp.Diff(step.wantBytes, m.Bytes()); diff != "" {
			t.Errorf("%s: Bytes() mismatch (-want +got):\n%s", step.name, diff)
		}
		if diff := cmp.Diff(step.wantLen, m.Len()); diff != "" {
			t.Errorf("%s: Len() mismatch (-want +got):\n%s", step.name, diff)
		}
		checkInvariants(t, m)
	}
	if err := m.Delete(t.Context(), "key"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if diff := cmp.Diff(int64(2+EntryOverhead), m.Bytes()); diff != "" {
		t.Errorf("Bytes() after Delete mismatch (-want +got):\n%s", diff)
	}
}

func TestMemoryOversizeEntry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		valueLen  int
		wantHit   bool
		wantBytes int64
	}{
		{name: "exactly the bound", valueLen: 1000 - 1 - EntryOverhead, wantHit: true, wantBytes: 1000},
		{name: "one byte over", valueLen: 1000 - EntryOverhead, wantHit: false, wantBytes: 0},
		{name: "far over", valueLen: 1 << 20, wantHit: false, wantBytes: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestMemory(t, 1000)
			set(t, m, "k", string(make([]byte, tc.valueLen)), time.Hour)
			_, ok := get(t, m, "k")
			if diff := cmp.Diff(tc.wantHit, ok); diff != "" {
				t.Errorf("hit mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantBytes, m.Bytes()); diff != "" {
				t.Errorf("Bytes() mismatch (-want +got):\n%s", diff)
			}
			checkInvariants(t, m)
		})
	}
}

// TestMemoryConcurrent runs many goroutines against one small Memory; run
// it with -race.
func TestMemoryConcurrent(t *testing.T) {
	t.Parallel()
	m, clock := newTestMemory(t, 20*entrySize)
	const goroutines, ops = 32, 2000
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for range ops {
				key := strconv.Itoa(rng.IntN(64))
				switch r := rng.IntN(100); {
				case r < 50:
					v, ok, err := m.Get(t.Context(), key)
					if err != nil {
						t.Errorf("Get: %v", err)
						return
					}
					if ok && len(v) != 10 {
						t.Errorf("Get(%q) = %q, want a ten-byte value", key, v)
						return
					}
				case r < 85:
					if err := m.Set(t.Context(), key, []byte("0123456789"), time.Duration(1+rng.IntN(10))*time.Second); err != nil {
						t.Errorf("Set: %v", err)
						return
					}
				case r < 95:
					if err := m.Delete(t.Context(), key); err != nil {
						t.Errorf("Delete: %v", err)
						return
					}
				default:
					clock.Advance(time.Second)
					_ = m.Len()
					_ = m.Bytes()
				}
			}
		})
	}
	wg.Wait()
	checkInvariants(t, m)
}

func TestNewMemoryOptions(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	tests := []struct {
		name         string
		opts         []Option
		wantErr      bool
		wantMaxBytes int64
	}{
		{name: "defaults", wantMaxBytes: DefaultMaxBytes},
		{name: "max bytes", opts: []Option{WithMaxBytes(1)}, wantMaxBytes: 1},
		{name: "clock", opts: []Option{WithClock(clock.Now)}, wantMaxBytes: DefaultMaxBytes},
		{name: "last wins", opts: []Option{WithMaxBytes(5), WithMaxBytes(7)}, wantMaxBytes: 7},
		{name: "zero max bytes", opts: []Option{WithMaxBytes(0)}, wantErr: true},
		{name: "negative max bytes", opts: []Option{WithMaxBytes(-1)}, wantErr: true},
		{name: "nil clock", opts: []Option{WithClock(nil)}, wantErr: true},
		{name: "nil option", opts: []Option{nil}, wantErr: true},
		{name: "invalid after valid", opts: []Option{WithMaxBytes(5), WithClock(nil)}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := NewMemory(tc.opts...)
			if tc.wantErr {
				if err == nil || m != nil {
					t.Fatalf("NewMemory = %v, %v; want nil and an error", m, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewMemory: %v", err)
			}
			if diff := cmp.Diff(tc.wantMaxBytes, m.maxBytes); diff != "" {
				t.Errorf("maxBytes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewMemoryUsesClock(t *testing.T) {
	t.Parallel()
	m, clock := newTestMemory(t, DefaultMaxBytes)
	set(t, m, "k", "v", time.Minute)
	clock.Advance(time.Minute)
	if diff := cmp.Diff(lookup{}, lookupOf(t, m, "k")); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
}

// TestMemoryGetHitAllocs checks that a Get hit does not allocate. It does
// not call t.Parallel because testing.AllocsPerRun panics while parallel
// tests run.
func TestMemoryGetHitAllocs(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	m, err := NewMemory()
	if err != nil {
		t.Fatalf("NewMemory: %v", err)
	}
	ctx := t.Context()
	if err := m.Set(ctx, "NO/923609016", []byte("value"), time.Hour); err != nil {
		t.Fatalf("Set: %v", err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, ok, _ := m.Get(ctx, "NO/923609016"); !ok {
			t.Fatal("Get missed")
		}
	})
	if allocs != 0 {
		t.Errorf("Get hit allocates %v times, want 0", allocs)
	}
}

func BenchmarkMemoryGetHit(b *testing.B) {
	m, err := NewMemory()
	if err != nil {
		b.Fatalf("NewMemory: %v", err)
	}
	ctx := b.Context()
	const n = 1024
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "GB/" + strconv.Itoa(10_000_000+i)
		if err := m.Set(ctx, keys[i], make([]byte, 512), time.Hour); err != nil {
			b.Fatalf("Set: %v", err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok, _ := m.Get(ctx, keys[i%n]); !ok {
			b.Fatal("Get missed")
		}
		i++
	}
}

// BenchmarkMemoryParallel mixes 90% Gets and 10% Sets over a key space
// larger than the cache holds, so Sets also evict.
func BenchmarkMemoryParallel(b *testing.B) {
	const n = 4096
	m, err := NewMemory(WithMaxBytes(n / 2 * (512 + 16 + EntryOverhead)))
	if err != nil {
		b.Fatalf("NewMemory: %v", err)
	}
	ctx := b.Context()
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "GB/" + strconv.Itoa(10_000_000+i)
	}
	value := make([]byte, 512)
	for _, k := range keys {
		if err := m.Set(ctx, k, value, time.Hour); err != nil {
			b.Fatalf("Set: %v", err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
		for pb.Next() {
			k := keys[rng.IntN(n)]
			if rng.IntN(10) == 0 {
				_ = m.Set(ctx, k, value, time.Hour)
			} else {
				_, _, _ = m.Get(ctx, k)
			}
		}
	})
}
