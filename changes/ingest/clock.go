package ingest

import (
	"context"
	"time"
)

// Clock is the time source of the ingesters and the [Leader]: the time
// now and timers. The default is the system clock ([SystemClock]); tests
// pass a fake one that they move by hand.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer that sends the time on its channel once d
	// has passed.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer of a [Clock].
type Timer interface {
	// C is the channel the time is sent on.
	C() <-chan time.Time
	// Stop stops the timer; it reports whether the call stopped it
	// before it fired.
	Stop() bool
}

// SystemClock returns the [Clock] of package time.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) NewTimer(d time.Duration) Timer { return systemTimer{time.NewTimer(d)} }

type systemTimer struct{ t *time.Timer }

func (t systemTimer) C() <-chan time.Time { return t.t.C }
func (t systemTimer) Stop() bool          { return t.t.Stop() }

// sleep waits d on c; it returns false when ctx ended first.
func sleep(ctx context.Context, c Clock, d time.Duration) bool {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}
