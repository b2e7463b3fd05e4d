package heapfloor

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// node is a 16-byte object with a pointer (size class 16, not the tiny
// allocator): 512 of them fill one 8 KiB span.
type node struct {
	next *node
	_    int
}

// sparseHeap allocates n MiB of nodes, all live at once (a large heap:
// a data set loaded, a big request), then keeps one node of every 512
// (one a span) and drops the rest: the live heap is about n/512 MiB, and
// the spans the kept nodes sit in stay in use, their room
// /memory/classes/heap/unused:bytes.
func sparseHeap(n int) *node {
	var head *node
	for range n << 20 / 16 {
		head = &node{next: head}
	}
	var kept, last *node
	i := 0
	for p := head; p != nil; {
		next := p.next
		if i%512 == 0 {
			p.next = nil
			if last == nil {
				kept = p
			} else {
				last.next = p
			}
			last = p
		}
		i++
		p = next
	}
	return kept
}

// TestReview_UnusedSpansMakeTheCollectorRunBackToBack (rev-fix6): the
// Tuner's limit is nonHeap + 2×floor, with nonHeap the memory besides
// the heap's objects, unused room, free and released pages
// (readHeap). The runtime's memoryLimitHeapGoal (runtime/mgcpacer.go)
// takes off the limit mappedReady - heapFree - heapAlloc: everything but
// the heap's objects and free pages, so the unused room of the spans in
// use counts against the limit (it is not free: it is in spans that hold
// live objects). The heap's room under the limit is therefore 2×floor
// minus the unused room, not 2×floor, and a heap that was large and
// shrank to a small live heap in sparse spans (here 64 MiB of small
// objects of which one a span is kept: a live heap of about 0.2 MiB in
// about 64 MiB of spans) leaves none: the goal is the live heap itself
// and the collector runs back to back, while the live heap, far under
// the floor, keeps GOGC raised and the limit on. Without the floor
// (GOGC=100 alone) the goal is the 4 MiB heap minimum above the live
// heap, and the unused room costs nothing. The floor is there to make
// the collector run less (package doc: "it ends the collections a small
// live heap made the process pay for").
func TestReview_UnusedSpansMakeTheCollectorRunBackToBack(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	const garbage = 8
	kept := sparseHeap(64)
	runtime.GC()
	runtime.GC()
	without := collections(garbage)

	tu, err := Start(24 * mib)
	if err != nil {
		t.Fatal(err)
	}
	defer tu.Stop()
	runtime.GC()
	runtime.GC() // the Tuner has seen the sparse heap
	with := collections(garbage)
	t.Logf("live %.1f MiB, unused %.1f MiB; GOGC %d, limit %d MiB; collections for %d MiB: %d without the floor, %d with",
		float64(readMetric("/gc/heap/live:bytes"))/mib, float64(readMetric("/memory/classes/heap/unused:bytes"))/mib,
		tu.Percent(), tu.Limit()/mib, garbage, without, with)
	runtime.KeepAlive(kept)
	// The same slack as TestReview_MemoryLimitMakesTheCollectorRunMore.
	if with > 2*without+2 {
		t.Errorf("a 24 MiB floor over a sparse heap: %d collections for %d MiB of garbage, against %d without a floor", with, garbage, without)
	}
}
