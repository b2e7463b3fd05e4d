package registry

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/companyregistry/registry/cache"
)

// storeAnswer stores a fetched answer b under key. When the cache is the
// default [cache.Memory] itself, the answer is stored plain
// ([cache.Memory.SetPlain]), so that it is a hit at once, and the cache is
// returned for the compression ([cache.Memory.Pack]) to come after the
// fetch's callers have their answer: none of them waits for it (tens of
// microseconds of a cold lookup). Any other cache, a wrapper of a Memory
// included (its Set must see every write), is given the answer with Set,
// and storeAnswer returns nil.
func (r *Registry) storeAnswer(ctx context.Context, key string, b []byte, ttl time.Duration) *cache.Memory {
	m, ok := r.cache.(*cache.Memory)
	if !ok {
		r.cacheSet(ctx, key, b, ttl)
		return nil
	}
	if err := m.SetPlain(ctx, key, b, ttl); err != nil {
		r.log.LogAttrs(ctx, slog.LevelWarn, "cache set failed", slog.String("error", err.Error()))
		return nil
	}
	return m
}

// maxPending bounds the keys waiting for their compression; beyond it an
// answer stays plain (counted at its length, so the cache's bound holds).
const maxPending = 4096

// packQueue compresses the answers that fetches stored plain, one at a
// time, on one goroutine that runs while keys wait and ends when none do
// (a compressor holds about a megabyte: one per fetch at once raised the
// peak memory of a burst of cold lookups). The first key of a burst waits
// [packDelay], so that its answer has left the process first.
type packQueue struct {
	mu      sync.Mutex
	keys    []string // waiting, at most maxPending
	running bool     // a drain goroutine runs, or its timer is set
	busy    bool     // the drain compresses a key taken off keys
}

// add queues key for m.Pack.
func (q *packQueue) add(m *cache.Memory, key string) {
	q.mu.Lock()
	if len(q.keys) >= maxPending {
		q.mu.Unlock()
		return
	}
	q.keys = append(q.keys, key)
	start := !q.running
	q.running = true
	q.mu.Unlock()
	if start {
		time.AfterFunc(packDelay, func() { q.drain(m) })
	}
}

// drain packs the queued keys until none is left.
func (q *packQueue) drain(m *cache.Memory) {
	for {
		q.mu.Lock()
		q.busy = false
		if len(q.keys) == 0 {
			q.keys, q.running = nil, false
			q.mu.Unlock()
			return
		}
		// One key at a time off the queue, so that the queue says what
		// is still plain and its bound counts all of it.
		k := q.keys[0]
		q.keys, q.busy = q.keys[1:], true
		q.mu.Unlock()
		m.Pack(k)
	}
}

// packDelay is how long after answering its callers a fetch compresses
// the answer it stored plain: long enough for the answer to have been
// written and read, so that the compression does not take a core from the
// callers' clients on a small machine (run at once, on the other of two
// cores, it delayed the client of a cold lookup by about 50 µs: BENCHMARKS.md,
// "Cold lookup: what the service adds (second pass)"). Nothing waits for it.
const packDelay = 2 * time.Millisecond
