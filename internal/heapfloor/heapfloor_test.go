package heapfloor

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

const mib = 1 << 20

// TestPercent: the GOGC whose goal is about the floor, by the runtime's
// pacer (runtime/mgcpacer.go: goal = live + live × GOGC/100, at least
// defaultHeapMinimum 4 MiB × GOGC/100), never below the GOGC in force.
func TestPercent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name               string
		live, roots, floor uint64
		base, want         int
	}{
		// 3 MiB live, 32 MiB floor: 966 would give 32 MiB from the live
		// heap, but the minimum 4 MiB × 9.66 = 38.6 MiB passes the floor;
		// 800 gives 32 MiB (minimum) and 27 MiB (live).
		{"small live heap, the minimum bounds it", 3 * mib, 0, 32 * mib, 100, 800},
		// 8 MiB live: 8 + 8 × 3 = 32 MiB.
		{"live heap bounds it", 8 * mib, 0, 32 * mib, 100, 300},
		// 8 MiB live, 8 MiB of stacks and globals: 8 + 16 × 1.5 = 32 MiB.
		{"stacks and globals count", 8 * mib, 8 * mib, 32 * mib, 100, 150},
		// 2 MiB live, 44 MiB of stacks: GOGC 100 gives 48 MiB already.
		{"many goroutines", 2 * mib, 44 * mib, 24 * mib, 100, 100},
		// 16 MiB live: GOGC 100 already gives 32 MiB.
		{"at the floor", 16 * mib, 0, 32 * mib, 100, 100},
		{"above the floor", 40 * mib, 0, 32 * mib, 100, 100},
		{"live over the floor itself", 64 * mib, 0, 32 * mib, 100, 100},
		{"a higher GOGC of the operator wins", 8 * mib, 0, 32 * mib, 500, 500},
		{"no collection yet", 0, 0, 32 * mib, 100, 800},
		{"a floor under the runtime's own", 1 * mib, 0, 2 * mib, 100, 100},
		{"collector off", 3 * mib, 0, 32 * mib, -1, -1},
		{"no floor", 3 * mib, 0, 0, 100, 100},
		{"one byte live", 1, 0, 32 * mib, 100, 800},
		{"a huge floor is bounded", 1, 0, 1 << 50, 100, maxPercent},
	}
	for _, c := range cases {
		if got := Percent(c.live, c.roots, c.floor, c.base); got != c.want {
			t.Errorf("%s: Percent(%d, %d, %d, %d) = %d, want %d", c.name, c.live, c.roots, c.floor, c.base, got, c.want)
		}
	}
}

// fakeRuntime records the GOGC values and memory limits set, in order,
// and serves a live heap size.
type fakeRuntime struct {
	mu    sync.Mutex
	live  uint64
	sets  []string
	cur   int
	limit int64
	// nonHeap is the runtime's memory besides the heap's objects.
	nonHeap uint64
}

func (f *fakeRuntime) knobs() knobs {
	return knobs{read: f.read, setPercent: f.set, setLimit: f.setLimit}
}

func (f *fakeRuntime) read() heapState {
	f.mu.Lock()
	defer f.mu.Unlock()
	return heapState{live: f.live, nonHeap: f.nonHeap}
}

func (f *fakeRuntime) set(p int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.cur
	f.cur = p
	f.sets = append(f.sets, fmt.Sprintf("GOGC=%d", p))
	return old
}

func (f *fakeRuntime) setLimit(l int64) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.limit
	if l >= 0 {
		f.limit = l
		f.sets = append(f.sets, fmt.Sprintf("limit=%dMiB", l/mib))
	}
	return old
}

func (f *fakeRuntime) setLive(n uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.live = n
}

func (f *fakeRuntime) state() (int, int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cur, f.limit
}

func (f *fakeRuntime) setsSoFar() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.sets...)
}

// collectUntil runs collections until cond holds: a collection that
// runs while the finalizer of the previous one has not re-armed the
// sentinel finds nothing to finalize, so one collection is not enough.
func collectUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, what, func() bool {
		runtime.GC()
		return cond()
	})
}

// TestTunerFollowsCollections: GOGC is set at the start and after each
// collection from the live heap it found, only when it changes; while
// it is raised the memory limit is twice the floor (lowered before GOGC
// is raised, put back after GOGC is); Stop puts the GOGC and the limit
// of the start back and later collections set nothing. Collections are
// the real runtime's (runtime.GC), the knobs a fake.
func TestTunerFollowsCollections(t *testing.T) {
	// Not parallel: the finalizer goroutine is the process's.
	const unlimited = 1 << 40
	f := &fakeRuntime{cur: 100, limit: unlimited}
	tu := start(32*mib, 100, f.knobs())
	if got := tu.Percent(); got != 800 || tu.Limit() != 64*mib {
		t.Fatalf("before any collection: GOGC %d, limit %d; want 800, 64 MiB", got, tu.Limit())
	}
	f.setLive(8 * mib)
	collectUntil(t, "GOGC set from 8 MiB live", func() bool { p, _ := f.state(); return p == 300 })
	f.setLive(40 * mib)
	// GOGC is put back before the limit: wait for both.
	collectUntil(t, "GOGC and the limit back at 40 MiB live", func() bool { p, l := f.state(); return p == 100 && l == unlimited })
	f.setLive(3 * mib)
	collectUntil(t, "GOGC set from 3 MiB live", func() bool { p, _ := f.state(); return p == 800 })
	runtime.GC() // same live heap: nothing set
	tu.Stop()
	want := []string{"limit=64MiB", "GOGC=800", "GOGC=300", "GOGC=100", "limit=1048576MiB", "limit=64MiB", "GOGC=800",
		"GOGC=100", "limit=1048576MiB"}
	if diff := cmp.Diff(want, f.setsSoFar()); diff != "" {
		t.Errorf("knobs set (-want +got):\n%s", diff)
	}
	f.setLive(8 * mib)
	runtime.GC()
	runtime.GC()
	if p, l := f.state(); len(f.setsSoFar()) != len(want) || p != 100 || l != unlimited || tu.Percent() != 100 ||
		tu.Limit() != unlimited {
		t.Errorf("after Stop: sets %v, GOGC %d, limit %d, Percent %d", f.setsSoFar(), p, l, tu.Percent())
	}
	tu.Stop() // twice: nothing more
	if got := f.setsSoFar(); len(got) != len(want) {
		t.Errorf("a second Stop set a knob: %v", got)
	}
}

// TestTunerKeepsALowerLimit: an operator's memory limit below twice the
// floor is kept while GOGC is raised, and is the one in force after.
func TestTunerKeepsALowerLimit(t *testing.T) {
	f := &fakeRuntime{cur: 100, limit: 40 * mib}
	tu := start(32*mib, 100, f.knobs())
	if p, l := f.state(); p != 800 || l != 40*mib {
		t.Errorf("GOGC %d, limit %d MiB; want 800, 40 MiB", p, l/mib)
	}
	tu.Stop()
	if diff := cmp.Diff([]string{"GOGC=800", "GOGC=100"}, f.setsSoFar()); diff != "" {
		t.Errorf("knobs set (-want +got):\n%s", diff)
	}
}

// TestTunerLeavesTheCollectorOff: with GOGC=off nothing is set, ever.
func TestTunerLeavesTheCollectorOff(t *testing.T) {
	f := &fakeRuntime{cur: -1, limit: 1 << 40}
	tu := start(32*mib, -1, f.knobs())
	f.setLive(3 * mib)
	runtime.GC()
	tu.Stop()
	if got := f.setsSoFar(); len(got) != 0 || tu.Percent() != -1 {
		t.Errorf("sets %v, Percent %d; want none, -1", got, tu.Percent())
	}
}

// TestStartWithTheRuntime: Start and Stop against the runtime itself:
// the GOGC the runtime reports (/gc/gogc:percent) is the Tuner's after a
// collection, and the one before Start after Stop.
func TestStartWithTheRuntime(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	if _, err := Start(0); err == nil {
		t.Error("Start(0): no error")
	}
	limit := debug.SetMemoryLimit(-1)
	tu, err := Start(64 * mib)
	if err != nil {
		t.Fatal(err)
	}
	collectUntil(t, "the runtime's GOGC to be the Tuner's", func() bool {
		p := tu.Percent()
		return p > 100 && gogc() == p
	})
	// Twice the floor above the runtime's memory besides the heap.
	if got := debug.SetMemoryLimit(-1); got != tu.Limit() || got <= 128*mib || got >= limit {
		t.Errorf("the runtime's memory limit while GOGC is raised: %d (the Tuner's %d), want above 128 MiB and below %d",
			got, tu.Limit(), limit)
	}
	tu.Stop()
	if got := gogc(); got != 100 {
		t.Errorf("after Stop the runtime's GOGC is %d, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("after Stop the runtime's memory limit is %d, want %d", got, limit)
	}
	if h := readHeap(); h.live == 0 || h.roots == 0 || h.nonHeap == 0 {
		t.Errorf("readHeap after a collection: %+v, want no zero", h)
	}
}

// gogc reads the runtime's GOGC.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// TestReadHeapCountsStacks: the memory the limit leaves the runtime
// besides the heap (readHeap's nonHeap) holds the goroutine stacks, as
// the runtime's own limit term does (mappedReady - heapFree - heapAlloc):
// a limit that left them out would fall on the heap of a process with
// many goroutines. rev-last6 found the limit proof
// (TestReview_MemoryLimitMakesTheCollectorRunMore) no longer reaches the
// limit (GOGC stays 100 for its stacks), so this checks the term itself:
// 1,000 goroutines parked 16 KiB deep.
func TestReadHeapCountsStacks(t *testing.T) {
	const goroutines, depth = 1000, 16
	release := make(chan struct{})
	var ready, done sync.WaitGroup
	ready.Add(goroutines)
	for range goroutines {
		done.Go(func() { deepPark(depth, &ready, release) })
	}
	defer func() { close(release); done.Wait() }()
	ready.Wait()
	runtime.GC()
	h := readHeap()
	stacks := readMetric("/memory/classes/heap/stacks:bytes")
	if stacks < goroutines*depth<<10 {
		t.Fatalf("stacks %d bytes: the goroutines did not grow them", stacks)
	}
	if h.nonHeap < stacks {
		t.Errorf("readHeap's nonHeap %d bytes, less than the goroutine stacks %d", h.nonHeap, stacks)
	}
	if h.roots < goroutines*depth<<10 {
		t.Errorf("readHeap's roots %d bytes, less than the stacks scanned", h.roots)
	}
}
