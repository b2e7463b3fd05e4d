package rediscache

import "time"

// WithRetry sets how often a Cache that saw Redis fail tries it again.
func WithRetry(d time.Duration) Option {
	return func(o *options) error {
		o.retry = d
		return nil
	}
}
