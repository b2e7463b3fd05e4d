package heapfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
)

// readMetric reads one uint64 runtime metric.
func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// deepPark grows its goroutine's stack by about n KiB of frames, then
// parks until release is closed.
func deepPark(n int, ready *sync.WaitGroup, release <-chan struct{}) uint64 {
	var frame [128]uint64 // 1 KiB a frame
	frame[n%128] = uint64(n)
	if n == 0 {
		ready.Done()
		<-release
		return frame[0]
	}
	return deepPark(n-1, ready, release) + frame[(n+1)%128]
}

// TestReview_PercentIgnoresStacksAndGlobals: the runtime's goal at
// GOGC=p is live + (live + stacks + globals) × p/100
// (runtime/mgcpacer.go, gcControllerState.commit:
// "c.heapMarked + (c.heapMarked+c.lastStackScan.Load()+c.globalsScan.Load())*uint64(gcPercent)/100"),
// not live × (1 + p/100) as Percent assumes. A server with many
// goroutines (one per connection) has megabytes of stacks; the GOGC
// Percent raises for a small live heap multiplies them too, so the goal
// passes the floor by (stacks + globals) × p/100. Here 800 goroutines
// parked 16 KiB deep (12.5 MiB of stacks, a server holding 800
// keep-alive connections in a read): with a 24 MiB floor the goal is
// several times the floor, where the package and docs say "the heap may
// hold up to F bytes before a collection".
func TestReview_PercentIgnoresStacksAndGlobals(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	const goroutines, depth = 800, 16
	release := make(chan struct{})
	var ready, done sync.WaitGroup
	ready.Add(goroutines)
	for range goroutines {
		done.Go(func() { deepPark(depth, &ready, release) })
	}
	defer func() { close(release); done.Wait() }()
	ready.Wait()
	runtime.GC() // the live heap and the stacks the next goal is made of
	stacks := readMetric("/gc/scan/stack:bytes")
	live := readMetric("/gc/heap/live:bytes")
	goal100 := readMetric("/gc/heap/goal:bytes")
	const floor = 24 * mib
	tu, err := Start(floor)
	if err != nil {
		t.Fatal(err)
	}
	defer tu.Stop()
	// Start tunes at once from the last collection; SetGCPercent commits
	// the new goal before it returns.
	goal := readMetric("/gc/heap/goal:bytes")
	t.Logf("live %.1f MiB, stacks %.1f MiB; GOGC %d; goal %.1f MiB (at GOGC=100: %.1f MiB)",
		float64(live)/mib, float64(stacks)/mib, tu.Percent(), float64(goal)/mib, float64(goal100)/mib)
	if want := max(uint64(floor), goal100); goal > want+want/10 {
		t.Errorf("the heap goal with a floor of %d MiB is %.1f MiB: more than 10%% past max(the floor, GOGC=100's goal %.1f MiB)",
			floor/mib, float64(goal)/mib, float64(goal100)/mib)
	}
}
