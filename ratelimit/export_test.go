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
func (l *Local) Size() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.cur) + len(sh.prev)
		sh.mu.Unlock()
	}
	return n
}

// RotateAll makes every shard's timed rotation happen now.
func (l *Local) RotateAll() {
	now := l.now().UnixNano()
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		sh.rotate(now, now, 2*l.perShard)
		sh.mu.Unlock()
	}
}
