// Package fakeclock is a clock that tests move by hand, for the clock
// options of the Registry, the cache and the servers.
package fakeclock

import (
	"sync"
	"time"
)

// Clock is a settable clock, safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a Clock that reads t until it is moved.
func New(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time; pass the method value c.Now as a clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d (backward when d is negative).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
