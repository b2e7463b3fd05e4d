package heapfloor

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

// TestReview_LimitProofNeverSetsTheLimit (rev-last6): the proof
// TestReview_MemoryLimitMakesTheCollectorRunMore is about the soft memory
// limit the Tuner sets while GOGC is raised (its doc: "while GOGC is
// raised the Tuner sets a soft memory limit ... A server with a small live
// heap and many goroutines ... the collector runs back to back"). Since
// ec788e1 Percent counts the stacks the collector scans, so for the
// proof's 2,500 goroutines parked 16 KiB deep (about 44 MiB of stacks, more
// than the 24 MiB floor) GOGC is never raised and no limit is set: the
// proof passes whatever the limit's nonHeap term is (a limit that leaves
// the stacks out, the first version's bug, passes it too: checked by
// adding /memory/classes/heap/stacks:bytes to readHeap's subtrahends, and
// every test of the package still passes). Here the proof's own setup,
// asking whether the limit it is about is ever in force.
func TestReview_LimitProofNeverSetsTheLimit(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	const goroutines, depth = 2500, 16 // TestReview_MemoryLimitMakesTheCollectorRunMore's
	release := make(chan struct{})
	var ready, done sync.WaitGroup
	ready.Add(goroutines)
	for range goroutines {
		done.Go(func() { deepPark(depth, &ready, release) })
	}
	defer func() { close(release); done.Wait() }()
	ready.Wait()
	runtime.GC()

	tu, err := Start(24 * mib)
	if err != nil {
		t.Fatal(err)
	}
	defer tu.Stop()
	runtime.GC()
	runtime.GC()
	if tu.Percent() <= 100 || tu.Limit() == math.MaxInt64 {
		t.Errorf("stacks %.1f MiB, live %.1f MiB: GOGC %d, limit %d: the Tuner never raised GOGC nor set a limit, "+
			"so TestReview_MemoryLimitMakesTheCollectorRunMore cannot fail on the limit it is about",
			float64(readMetric("/gc/scan/stack:bytes"))/mib, float64(readMetric("/gc/heap/live:bytes"))/mib, tu.Percent(), tu.Limit())
	}
}
