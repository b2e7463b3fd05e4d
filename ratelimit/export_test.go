package ratelimit

import "time"

// WithRetry sets how often a Redis limiter that saw Redis fail tries it
// again.
func WithRetry(d time.Duration) Option {
	return func(o *options) error {
		o.retry = d
		return nil
	}
}

// Size returns the number of timestamps l holds.
func (l *Local) Size() int { return l.l.Size() }

// RotateAll makes every shard's timed rotation happen now.
func (l *Local) RotateAll() { l.l.RotateAll() }

// GCRAScript is the Lua script of a Redis limiter.
const GCRAScript = gcraScript

// ReserveScript and ReleaseScript are the reservation scripts of a Redis
// limiter.
const (
	ReserveScript = reserveScript
	ReleaseScript = releaseScript
)
