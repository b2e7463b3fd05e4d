// Package heapfloor keeps the garbage collector's heap goal at least a
// floor while the live heap is small, and leaves it to GOGC once the live
// heap is large.
//
// Go collects when the heap reaches its goal: the live heap after the
// last collection plus GOGC percent of what the collector scans (the live
// heap, the goroutine stacks and the globals), and at least 4 MiB ×
// GOGC/100. A server whose live heap is a few MiB and that allocates a
// few KiB a request therefore collects every thousand requests or so, and
// each collection marks the whole live heap again. With a floor of F
// bytes the goal is about max(F, the goal GOGC gives): the heap may hold
// up to F bytes before a collection while GOGC's own goal is smaller, and
// nothing changes once it is larger. The floor is memory the process may
// use anyway (F is the most a small live heap grows to), and it ends the
// collections a small live heap made the process pay for.
//
// After each collection, [Start] sets GOGC (runtime/debug.SetGCPercent)
// from what the collection found, never below the GOGC in force when it
// started. A process that turned the collector off (GOGC=off) is left
// alone.
//
// The runtime computes the goal of the next collection when one ends,
// with the GOGC in force then; the Tuner corrects GOGC only when its
// finalizer runs, some time after. So when the live heap grows fast (a
// cache filling), the collection that finds it large sets a goal with
// the raised GOGC of a small heap, several times the new live heap. To
// bound that, while GOGC is raised the Tuner also sets a soft memory
// limit (runtime/debug.SetMemoryLimit): the memory the runtime held
// besides the heap's objects and free pages at the last collection
// (goroutine stacks, the room left in spans, its own: what the runtime
// counts against its limit besides the heap) plus twice the floor, or
// the limit in force at Start when that is lower. The runtime then collects before the heap passes about twice
// the floor, until the Tuner has seen the grown heap and put GOGC and the
// limit back.
//
// One Tuner per process: a second one would take the first one's GOGC
// and limit for the process's own.
package heapfloor

import (
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// defaultHeapMinimum is the runtime's heap goal floor at GOGC=100 (its
// defaultHeapMinimum); at GOGC=p the floor is this × p/100.
const defaultHeapMinimum = 4 << 20

// maxPercent bounds the GOGC Percent returns, whatever the floor.
const maxPercent = 100_000

// Percent returns the GOGC that makes the heap goal about floor, never
// below base, for a collection that found live bytes of live heap and
// roots bytes of goroutine stacks and globals: at GOGC=p the runtime's
// goal is live + (live + roots) × p/100, and at least 4 MiB × p/100
// (runtime/mgcpacer.go). The result is the largest p whose goal does not
// pass floor, or base when base already gives a goal of floor or more
// (or base < 0: the collector is off).
func Percent(live, roots, floor uint64, base int) int {
	if base < 0 || floor == 0 {
		return base
	}
	// The heap minimum's own bound: 4 MiB × p/100 ≤ floor.
	p := min(floor*100/defaultHeapMinimum, maxPercent)
	if live >= floor {
		return base
	}
	if scan := live + roots; scan > 0 {
		// live + scan × p/100 ≤ floor.
		p = min(p, (floor-live)*100/scan)
	}
	return max(int(p), base)
}

// heapState is what the last collection found.
type heapState struct {
	live    uint64 // the live heap
	roots   uint64 // the goroutine stacks and globals it scanned
	nonHeap uint64 // the memory the runtime holds besides the heap's objects and free pages (stacks, room in spans, its own)
}

// knobs are the runtime's: read reads the last collection's heapState,
// setPercent sets GOGC, setLimit the soft memory limit (both return the
// previous value; a negative limit reads it).
type knobs struct {
	read       func() heapState
	setPercent func(int) int
	setLimit   func(int64) int64
}

// Tuner sets GOGC after each collection; see [Start].
type Tuner struct {
	floor     uint64
	base      int
	baseLimit int64
	knobs     knobs
	mu        sync.Mutex
	stopped   bool
	last      int
	lastLimit int64
}

// Start keeps the heap goal at least floor bytes, from now until Stop:
// after each collection it sets GOGC to [Percent] of what the collection
// found, the floor and the GOGC in force now, and while that is raised a
// soft memory limit (see the package doc). With the collector off
// (GOGC=off) it does nothing until Stop. Stop puts GOGC and the limit
// back as they were.
func Start(floor uint64) (*Tuner, error) {
	if floor == 0 {
		return nil, errors.New("heapfloor: the floor is 0")
	}
	if floor > math.MaxInt64/4 {
		return nil, errors.New("heapfloor: the floor is too large")
	}
	// Read the GOGC in force (SetGCPercent returns the previous value).
	base := debug.SetGCPercent(100)
	debug.SetGCPercent(base)
	return start(floor, base, knobs{read: readHeap, setPercent: debug.SetGCPercent, setLimit: debug.SetMemoryLimit}), nil
}

// start is Start with the runtime's knobs given.
func start(floor uint64, base int, k knobs) *Tuner {
	limit := k.setLimit(-1)
	t := &Tuner{floor: floor, base: base, baseLimit: limit, knobs: k, last: base, lastLimit: limit}
	if base < 0 {
		t.stopped = true // the collector is off: nothing to tune
		return t
	}
	t.tune()
	t.arm()
	return t
}

// Stop ends the tuning and puts GOGC and the memory limit back as they
// were at Start.
func (t *Tuner) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	t.stopped = true
	t.apply(t.base, t.baseLimit)
}

// Percent returns the GOGC the Tuner set last (the GOGC in force at
// Start before its first collection, and after Stop).
func (t *Tuner) Percent() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// Limit returns the soft memory limit the Tuner set last (the one in
// force at Start while GOGC is not raised, and after Stop).
func (t *Tuner) Limit() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastLimit
}

// tune sets GOGC and the limit from the last collection.
func (t *Tuner) tune() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	h := t.knobs.read()
	p := Percent(h.live, h.roots, t.floor, t.base)
	limit := t.baseLimit
	if p > t.base {
		// Start bounds floor, so that this does not overflow for any
		// nonHeap a process can have.
		limit = min(limit, int64(min(h.nonHeap, math.MaxInt64/2)+2*t.floor))
	}
	t.apply(p, limit)
	return true
}

// apply sets GOGC and the memory limit, each only when it changes; a
// limit is lowered before GOGC is raised and raised after GOGC is put
// back, so that a raised GOGC is never without its limit. t.mu is held.
func (t *Tuner) apply(p int, limit int64) {
	if limit < t.lastLimit {
		t.knobs.setLimit(limit)
		t.lastLimit = limit
	}
	if p != t.last {
		t.knobs.setPercent(p)
		t.last = p
	}
	if limit > t.lastLimit {
		t.knobs.setLimit(limit)
		t.lastLimit = limit
	}
}

// sentinel is garbage whose finalizer runs after each collection that
// finds it unreachable; the finalizer re-arms it. It holds a pointer and
// is larger than 16 bytes so that it is its own allocation (a finalizer
// of an object in the tiny allocator's blocks may never run).
type sentinel struct {
	t *Tuner
	_ [24]byte
}

// arm makes the next collection call tune.
func (t *Tuner) arm() {
	runtime.SetFinalizer(&sentinel{t: t}, onCollection)
}

// onCollection runs on the runtime's finalizer goroutine after a
// collection: it tunes and re-arms until Stop.
func onCollection(s *sentinel) {
	if s.t.tune() {
		runtime.SetFinalizer(s, onCollection)
	}
}

// readHeap reads what the last collection found (zeros before the
// first).
func readHeap() heapState {
	s := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},    // the live heap the last collection marked
		{Name: "/gc/scan/stack:bytes"},   // the stacks it scanned
		{Name: "/gc/scan/globals:bytes"}, // the globals it scanned
		// All the memory the runtime mapped, less the heap's objects, its
		// free pages and the pages returned to the system: the rest
		// (stacks, the room left in spans that hold objects, the
		// runtime's own) is what the runtime's memory limit counts
		// besides the heap (runtime/mgcpacer.go, memoryLimitHeapGoal:
		// mappedReady - heapFree - heapAlloc).
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	v := make([]uint64, len(s))
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	nonHeap := v[3]
	for _, heap := range v[4:] {
		nonHeap -= min(heap, nonHeap)
	}
	return heapState{live: v[0], roots: v[1] + v[2], nonHeap: nonHeap}
}
