package testwait_test

import (
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestDeadlineBeforeTheTests: a wait gives up Margin before the test
// binary's deadline, when it has one.
func TestDeadlineBeforeTheTests(t *testing.T) {
	t.Parallel()
	tdl, tok := t.Deadline()
	dl, ok := testwait.Deadline(t)
	if ok != tok {
		t.Fatalf("Deadline ok %v, the test's %v", ok, tok)
	}
	if ok && !dl.Before(tdl) {
		t.Errorf("the wait gives up at %v, not before the test's deadline %v", dl, tdl)
	}
	if _, ok := testwait.Deadline(&testing.B{}); ok {
		t.Error("a benchmark has a deadline")
	}
}

// TestRecvAndUntil: a value sent later is received, a condition that
// becomes true later is seen.
func TestRecvAndUntil(t *testing.T) {
	t.Parallel()
	ch := make(chan int)
	go func() { ch <- 7 }()
	if v := testwait.Recv(t, ch, "the value"); v != 7 {
		t.Errorf("Recv = %d, want 7", v)
	}
	var mu sync.Mutex
	done := false
	go func() {
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	testwait.Until(t, "done", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return done
	})
}

func parkOnChannel(c chan struct{}) { <-c }

func parkInSelect(c chan struct{}) {
	select {
	case <-c:
	case <-time.After(time.Hour):
	}
}

func parkOnLock(mu *sync.Mutex) {
	mu.Lock()
	defer mu.Unlock()
}

// TestBlocked: goroutines blocked on a channel, in a select and on a lock
// are counted in the function they block in, and only there.
func TestBlocked(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var mu sync.Mutex
	mu.Lock()
	var wg sync.WaitGroup
	t.Cleanup(func() {
		close(release)
		mu.Unlock()
		wg.Wait()
	})
	for range 3 {
		wg.Go(func() { parkOnChannel(release) })
	}
	wg.Go(func() { parkInSelect(release) })
	wg.Go(func() { parkOnLock(&mu) })
	const pkg = "github.com/companyregistry/registry/internal/testwait_test."
	testwait.Blocked(t, pkg+"parkOnChannel", 3)
	testwait.Blocked(t, pkg+"parkInSelect", 1)
	testwait.Blocked(t, pkg+"parkOnLock", 1)
	for fn, want := range map[string]int{"parkOnChannel": 3, "parkInSelect": 1, "parkOnLock": 1, "parkNowhere": 0} {
		if got := testwait.BlockedIn(pkg + fn); got != want {
			t.Errorf("%d goroutines blocked in %s, want %d", got, fn, want)
		}
	}
	// A generic function is named without its type arguments.
	gen := make(chan int)
	wg.Go(func() { parkGeneric(gen) })
	testwait.Blocked(t, pkg+"parkGeneric", 1)
	close(gen)
}

func parkGeneric[T any](c chan T) { <-c }
