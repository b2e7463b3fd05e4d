package ingest

import (
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/testwait"
)

// fakeClock is a Clock that the test moves by hand. Its timers fire when
// Advance passes their time; BlockUntil waits (without sleeping) until a
// number of timers are waiting, so that a test advances only once the
// goroutines under test wait on the clock.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*fakeTimer
	changed chan struct{} // closed and replaced when timers change
}

type fakeTimer struct {
	c  *fakeClock
	at time.Time
	d  time.Duration // as made
	ch chan time.Time
}

func newFakeClock(t time.Time) *fakeClock { return &fakeClock{now: t, changed: make(chan struct{})} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), d: d, ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- c.now
		return t
	}
	c.timers = append(c.timers, t)
	c.notify()
	return t
}

func (c *fakeClock) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	i := slices.Index(t.c.timers, t)
	if i < 0 {
		return false
	}
	t.c.timers = slices.Delete(t.c.timers, i, i+1)
	t.c.notify()
	return true
}

// Advance moves the clock by d and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.ch <- c.now
	}
	c.timers = kept
	c.notify()
}

// BlockUntil waits until at least n timers are waiting: the goroutines
// under test have settled on the clock (their timers come back after an
// Advance fired them).
func (c *fakeClock) BlockUntil(t *testing.T, n int) {
	t.Helper()
	c.WaitFor(t, func(waiting int) bool { return waiting >= n })
}

// WaitFor waits until cond, given the number of waiting timers, holds; it
// is evaluated again at every change of the timers. A cond that still does
// not hold at the test's deadline fails the test (a hang, not a timing
// assertion).
func (c *fakeClock) WaitFor(t *testing.T, cond func(waiting int) bool) {
	t.Helper()
	expired := testwait.Expired(t)
	for {
		c.mu.Lock()
		got, ch := len(c.timers), c.changed
		c.mu.Unlock()
		if cond(got) {
			return
		}
		select {
		case <-ch:
		case <-expired:
			t.Fatalf("the clock's waiters (%d timers) never met the condition", got)
		}
	}
}

// find returns a waiting timer made with a duration that is(d) accepts,
// nil when none is.
func (c *fakeClock) find(is func(d time.Duration) bool) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.timers {
		if is(t.d) {
			return t
		}
	}
	return nil
}

// waiting reports whether t has neither fired nor been stopped.
func (c *fakeClock) waiting(t *fakeTimer) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Contains(c.timers, t)
}

// recv waits for a value on ch, failing the test on a hang.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	return testwait.Recv(t, ch, what)
}

// slogJSON is a JSON logger at debug level into w.
func slogJSON(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
