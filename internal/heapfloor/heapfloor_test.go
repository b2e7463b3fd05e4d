package heapfloor

import (
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
		name        string
		live, floor uint64
		base, want  int
	}{
		// 3 MiB live, 32 MiB floor: 966 would give 32 MiB from the live
		// heap, but the minimum 4 MiB × 9.66 = 38.6 MiB passes the floor;
		// 800 gives 32 MiB (minimum) and 27 MiB (live).
		{"small live heap, the minimum bounds it", 3 * mib, 32 * mib, 100, 800},
		// 8 MiB live: 8 × (1 + 3) = 32 MiB.
		{"live heap bounds it", 8 * mib, 32 * mib, 100, 300},
		// 16 MiB live: GOGC 100 already gives 32 MiB.
		{"at the floor", 16 * mib, 32 * mib, 100, 100},
		{"above the floor", 40 * mib, 32 * mib, 100, 100},
		{"live over the floor itself", 64 * mib, 32 * mib, 100, 100},
		{"a higher GOGC of the operator wins", 8 * mib, 32 * mib, 500, 500},
		{"no collection yet", 0, 32 * mib, 100, 800},
		{"a floor under the runtime's own", 1 * mib, 2 * mib, 100, 100},
		{"collector off", 3 * mib, 32 * mib, -1, -1},
		{"no floor", 3 * mib, 0, 100, 100},
		{"one byte live", 1, 32 * mib, 100, 800},
		{"a huge floor is bounded", 1, 1 << 50, 100, maxPercent},
	}
	for _, c := range cases {
		if got := Percent(c.live, c.floor, c.base); got != c.want {
			t.Errorf("%s: Percent(%d, %d, %d) = %d, want %d", c.name, c.live, c.floor, c.base, got, c.want)
		}
	}
}

// fakeRuntime records the GOGC values set and serves a live heap size.
type fakeRuntime struct {
	mu   sync.Mutex
	live uint64
	sets []int
	cur  int
}

func (f *fakeRuntime) readLive() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.live
}

func (f *fakeRuntime) set(p int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.cur
	f.cur = p
	f.sets = append(f.sets, p)
	return old
}

func (f *fakeRuntime) setLive(n uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.live = n
}

func (f *fakeRuntime) current() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cur
}

func (f *fakeRuntime) setsSoFar() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.sets...)
}

// TestTunerFollowsCollections: GOGC is set at the start and after each
// collection from the live heap it found, only when it changes; Stop puts
// the GOGC of the start back and later collections set nothing.
// Collections are the real runtime's (runtime.GC), the GOGC a fake.
func TestTunerFollowsCollections(t *testing.T) {
	// Not parallel: the finalizer goroutine is the process's.
	f := &fakeRuntime{cur: 100}
	tu := start(32*mib, 100, f.readLive, f.set)
	if got := tu.Percent(); got != 800 {
		t.Fatalf("before any collection: %d, want 800", got)
	}
	f.setLive(8 * mib)
	runtime.GC()
	testwait.Until(t, "GOGC set from 8 MiB live", func() bool { return f.current() == 300 })
	f.setLive(40 * mib)
	runtime.GC()
	testwait.Until(t, "GOGC back to 100 at 40 MiB live", func() bool { return f.current() == 100 })
	f.setLive(3 * mib)
	runtime.GC()
	testwait.Until(t, "GOGC set from 3 MiB live", func() bool { return f.current() == 800 })
	runtime.GC() // same live heap: nothing set
	tu.Stop()
	if diff := cmp.Diff([]int{800, 300, 100, 800, 100}, f.setsSoFar()); diff != "" {
		t.Errorf("GOGC set (-want +got):\n%s", diff)
	}
	f.setLive(8 * mib)
	runtime.GC()
	runtime.GC()
	if got := f.setsSoFar(); len(got) != 5 || f.current() != 100 || tu.Percent() != 100 {
		t.Errorf("after Stop: sets %v, GOGC %d, Percent %d", got, f.current(), tu.Percent())
	}
	tu.Stop() // twice: nothing more
	if got := f.setsSoFar(); len(got) != 5 {
		t.Errorf("a second Stop set GOGC: %v", got)
	}
}

// TestTunerLeavesTheCollectorOff: with GOGC=off nothing is set, ever.
func TestTunerLeavesTheCollectorOff(t *testing.T) {
	f := &fakeRuntime{cur: -1}
	tu := start(32*mib, -1, f.readLive, f.set)
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
	tu, err := Start(64 * mib)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	testwait.Until(t, "the runtime's GOGC to be the Tuner's", func() bool {
		p := tu.Percent()
		return p > 100 && gogc() == p
	})
	tu.Stop()
	if got := gogc(); got != 100 {
		t.Errorf("after Stop the runtime's GOGC is %d, want 100", got)
	}
	if readLive() == 0 {
		t.Error("readLive: 0 after a collection")
	}
}

// gogc reads the runtime's GOGC.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}
