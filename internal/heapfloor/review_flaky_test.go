package heapfloor

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_TunerTestHangsWhenACollectionMeetsTheFinalizer:
// TestTunerFollowsCollections waits until the fake GOGC is 300 and then
// runs the next collection at once; but the fake GOGC is set inside the
// finalizer, and until that finalizer has returned the sentinel is still
// reachable from the finalizer queue (runtime/mfinal.go, runFinalizers:
// f.arg is cleared only after the call), so a collection then finds it
// alive and queues nothing. The Tuner re-arms for the collection after,
// which the test never makes: its testwait.Until for 100 waits until the
// test's deadline, or until the runtime's forced collection two minutes
// later (runtime/proc.go, forcegcperiod) rescues it. Seen under load
// (this package's tests -race -count=50 beside another package's
// -race tests, 2 cores): TestTunerFollowsCollections took 120.32 s once
// in 200 runs, and one batch of 50 took 123.9 s. Here the finalizer is held in set (where the real
// test's finalizer goroutine may be preempted by a loaded machine) while
// the test's second collection runs: the same hang, every time. The
// test then checks which collection the GOGC for 40 MiB came from: the
// runtime's forced one, two minutes later (or, with -timeout under about
// 2m5s, none: a hang at the deadline).
func TestReview_TunerTestHangsWhenACollectionMeetsTheFinalizer(t *testing.T) {
	f := &fakeRuntime{cur: 100}
	inSet, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	var cycleAt100 atomic.Uint64
	set := func(p int) int {
		old := f.set(p)
		if p == 100 && cycleAt100.Load() == 0 {
			cycleAt100.Store(readMetric("/gc/cycles/total:gc-cycles"))
		}
		if calls.Add(1) == 2 { // the first set from a finalizer
			close(inSet)
			<-release
		}
		return old
	}
	tu := start(32*mib, 100, f.readLive, set)
	defer tu.Stop()
	f.setLive(8 * mib)
	runtime.GC()
	<-inSet // GOGC is 300: what TestTunerFollowsCollections waits for
	f.setLive(40 * mib)
	runtime.GC() // its next collection, while the finalizer has not returned
	cycle := readMetric("/gc/cycles/total:gc-cycles")
	close(release)
	testwait.Until(t, "GOGC back to 100 at 40 MiB live", func() bool { return f.current() == 100 })
	if got := cycleAt100.Load(); got != cycle {
		t.Errorf("GOGC for 40 MiB live was set after collection %d, not after the test's collection %d: the test's collection was missed", got, cycle)
	}
}
