package cache

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"
)

// DefaultMaxBytes is the size bound of a [Memory] created without
// [WithMaxBytes]: 64 MiB.
const DefaultMaxBytes = 64 << 20

// EntryOverhead is the fixed number of bytes that [Memory] counts for each
// entry on top of the lengths of its key and value. It estimates the memory
// that the entry's bookkeeping (list links, expiry time, map slot) takes.
const EntryOverhead = 128

// Option configures a [Memory] created by [NewMemory]. An Option returns an
// error when its argument is invalid.
type Option func(*options) error

// options holds the settings of a Memory.
type options struct {
	maxBytes int64
	now      func() time.Time
}

// WithMaxBytes bounds the bytes that a [Memory] holds: the sum over all
// entries of the key length, the value length and [EntryOverhead]. The
// default is [DefaultMaxBytes]. WithMaxBytes returns an error from
// [NewMemory] when n <= 0.
func WithMaxBytes(n int64) Option {
	return func(o *options) error {
		if n <= 0 {
			return errors.New("cache: WithMaxBytes: bound must be positive, got " + strconv.FormatInt(n, 10))
		}
		o.maxBytes = n
		return nil
	}
}

// WithClock sets the function that a [Memory] calls to read the current
// time when it sets and checks expiry times. The default is [time.Now].
// WithClock returns an error from [NewMemory] when now is nil.
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("cache: WithClock: clock must not be nil")
		}
		o.now = now
		return nil
	}
}

// Memory is the embedded [Cache]: an in-memory least-recently-used (LRU)
// cache with a time to live per entry and a bound on its size in bytes. It
// is safe for concurrent use. Create one with [NewMemory]; the zero Memory
// is not usable.
//
// Memory starts no goroutines. An expired entry is removed when a Get finds
// it, and otherwise stays, counting towards the bound, until it is
// overwritten, deleted or evicted. When a Set would take the cache over its
// bound, Memory evicts least recently used entries, where both Get hits and
// Sets count as use, until it fits.
//
// Memory never fails: its methods always return a nil error. They ignore
// their context, which may therefore be nil.
type Memory struct {
	now      func() time.Time
	maxBytes int64

	mu    sync.Mutex
	items map[string]*entry
	// root is the sentinel of a circular doubly linked list of the
	// entries: root.next is the most recently used entry and root.prev
	// the least recently used one.
	root  entry
	bytes int64
}

// entry is one key and value in a Memory and a node of its LRU list.
type entry struct {
	prev, next *entry
	key        string
	value      []byte
	expires    time.Time
	size       int64
}

var _ Cache = (*Memory)(nil)

// NewMemory returns an empty [Memory] configured by opts, or an error when
// an option is nil or invalid.
func NewMemory(opts ...Option) (*Memory, error) {
	o := options{maxBytes: DefaultMaxBytes, now: time.Now}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("cache: NewMemory: nil Option")
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	m := &Memory{
		now:      o.now,
		maxBytes: o.maxBytes,
		items:    make(map[string]*entry),
	}
	m.root.next = &m.root
	m.root.prev = &m.root
	return m, nil
}

// Get returns the value stored under key and ok = true, or nil and
// ok = false when the key is absent or its entry has expired; it removes an
// expired entry. A hit makes the entry the most recently used.
//
// Get returns the stored slice itself, not a copy, and does not allocate.
// The caller must not modify the returned value. The error is always nil and
// ctx is ignored.
func (m *Memory) Get(_ context.Context, key string) (value []byte, ok bool, err error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.items[key]
	if !ok {
		return nil, false, nil
	}
	if !now.Before(e.expires) {
		m.remove(e)
		return nil, false, nil
	}
	m.moveToFront(e)
	return e.value, true, nil
}

// Set stores value under key until ttl has passed, replacing any earlier
// entry, and makes it the most recently used entry. An entry set at time T
// with ttl d is a hit before T+d and a miss from T+d on.
//
// Set takes ownership of value: Memory keeps the slice without copying it,
// so the caller must not modify it after the call.
//
// Set does not store the entry, and removes any earlier entry under key,
// when ttl <= 0 or when the entry alone is larger than the size bound (see
// [WithMaxBytes]). Otherwise it evicts least recently used entries until the
// cache is within its bound. The error is always nil and ctx is ignored.
func (m *Memory) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	size := int64(len(key)) + int64(len(value)) + EntryOverhead
	if ttl <= 0 || size > m.maxBytes {
		m.mu.Lock()
		defer m.mu.Unlock()
		if e, ok := m.items[key]; ok {
			m.remove(e)
		}
		return nil
	}
	expires := m.now().Add(ttl)

	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.items[key]; ok {
		m.bytes += size - e.size
		e.value, e.size, e.expires = value, size, expires
		m.moveToFront(e)
	} else {
		e := &entry{key: key, value: value, expires: expires, size: size}
		m.items[key] = e
		m.pushFront(e)
		m.bytes += size
	}
	// The new entry is at the front and fits on its own, so eviction
	// stops before reaching it.
	for m.bytes > m.maxBytes {
		m.remove(m.root.prev)
	}
	return nil
}

// Delete removes the entry stored under key, if any. The error is always
// nil and ctx is ignored.
func (m *Memory) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.items[key]; ok {
		m.remove(e)
	}
	return nil
}

// Len returns the number of entries, including expired entries that have
// not been removed yet.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.items)
}

// Bytes returns the size that counts towards the bound (see
// [WithMaxBytes]), including expired entries that have not been removed yet.
func (m *Memory) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// pushFront links e in as the most recently used entry. The caller holds
// m.mu.
func (m *Memory) pushFront(e *entry) {
	e.prev = &m.root
	e.next = m.root.next
	e.next.prev = e
	m.root.next = e
}

// moveToFront makes the linked entry e the most recently used one. The
// caller holds m.mu.
func (m *Memory) moveToFront(e *entry) {
	if m.root.next == e {
		return
	}
	e.prev.next = e.next
	e.next.prev = e.prev
	m.pushFront(e)
}

// remove unlinks e, deletes it from the map and releases its bytes. The
// caller holds m.mu.
func (m *Memory) remove(e *entry) {
	e.prev.next = e.next
	e.next.prev = e.prev
	e.prev, e.next = nil, nil
	delete(m.items, e.key)
	m.bytes -= e.size
}
