package heapfloor

import (
	"sync/atomic"
	"testing"
)

// TestReview_TunerTestReadsTheLimitBetweenTheKnobs:
// TestTunerFollowsCollections waits (collectUntil) until the fake GOGC
// is 100 at 40 MiB live and then requires the limit of the start back;
// but apply sets GOGC first and the limit after it ("raised after GOGC
// is put back"), both on the finalizer goroutine, so the test can see
// GOGC 100 while the limit is still twice the floor. Seen under load
// (this package's tests -race -count=50 beside another package's -race
// tests, 2 cores): "heapfloor_test.go:143: limit at 40 MiB live:
// 67108864, want the one of the start", once in 200 runs. Here the
// finalizer is held between the two knobs, where a loaded machine may
// preempt it, while the test's check runs: the same failure, every time.
func TestReview_TunerTestReadsTheLimitBetweenTheKnobs(t *testing.T) {
	const unlimited = 1 << 40
	f := &fakeRuntime{cur: 100, limit: unlimited}
	between, release := make(chan struct{}), make(chan struct{})
	var held atomic.Bool
	k := f.knobs()
	setPercent := k.setPercent
	k.setPercent = func(p int) int {
		old := setPercent(p)
		if p == 100 && held.CompareAndSwap(false, true) {
			close(between) // GOGC is 100, the limit not yet put back
			<-release
		}
		return old
	}
	tu := start(32*mib, 100, k)
	defer tu.Stop()
	f.setLive(40 * mib)
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-between
		// TestTunerFollowsCollections's check, once its collectUntil
		// has seen GOGC 100:
		if p, l := f.state(); p == 100 && l != unlimited {
			t.Errorf("GOGC %d at 40 MiB live and the limit %d MiB, not the start's: the test's check fails here", p, l/mib)
		}
		close(release)
	}()
	collectUntil(t, "GOGC back to 100 at 40 MiB live", func() bool { p, _ := f.state(); return p == 100 })
	<-done
}
