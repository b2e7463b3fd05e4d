package cache

import (
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"io"
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
	compress bool
}

// WithCompression makes a [Memory] store values compressed, for about a
// third of the memory of JSON values, and keep the plain value of each
// entry that is read. A value of at least [CompressMin] bytes is stored
// DEFLATE-compressed when that makes it smaller, with the first such value
// that started with the same byte (the tag byte of the Registry's entries)
// as the preset dictionary: values of one kind share their keys and much of
// their text. The first Get that finds a compressed entry inflates it,
// keeps the plain value in its place (the entry then counts the plain
// size towards the bound) and returns it; later Gets return that same
// slice without allocating.
//
// The dictionaries (at most [CompressDictMax] bytes each, one per first
// byte, kept for the life of the Memory) count towards the bound like
// entries, and together take at most a sixteenth of it: a first byte that
// comes when they have used that share up has no dictionary, and its values
// are stored plain. An entry is stored (and an inflated value kept) only
// when it fits beside the dictionaries. A Set of a large value then costs
// tens of microseconds more, and the first Get of it some microseconds and
// an allocation of exactly the plain value's length. [Memory.SetPlain] and
// [Memory.Pack] split a Set in two, so that the compression can come after
// the caller has answered.
func WithCompression() Option {
	return func(o *options) error {
		o.compress = true
		return nil
	}
}

// CompressMin is the smallest value that a [Memory] made
// [WithCompression] compresses.
const CompressMin = 512

// CompressDictMax bounds the preset dictionary of a [Memory] made
// [WithCompression], per first byte of the values.
const CompressDictMax = 16 << 10

// compressLevel is the DEFLATE level: BestSpeed ignores a preset
// dictionary; 2 uses it and is the fastest that does.
const compressLevel = 2

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
	compress bool
	readers  sync.Pool // of io.ReadCloser from flate.NewReader, with flate.Resetter

	mu    sync.Mutex
	items map[string]*entry
	// root is the sentinel of a circular doubly linked list of the
	// entries: root.next is the most recently used entry and root.prev
	// the least recently used one.
	root  entry
	bytes int64
	dicts [256]*dictionary // by the first byte of the values; with compress
	// dictBytes is the part of bytes that the dictionaries take: they are
	// never evicted, so an entry fits only in maxBytes - dictBytes.
	dictBytes int64
}

// dictionary is the preset dictionary of the values that start with one
// byte, with its pool of writers.
type dictionary struct {
	b       []byte
	writers sync.Pool // of *flate.Writer made with b
}

// entry is one key and value in a Memory and a node of its LRU list.
type entry struct {
	prev, next *entry
	key        string
	value      []byte
	expires    time.Time
	size       int64
	packed     *dictionary // value is compressed with this dictionary; nil: plain
	plainLen   int         // the length of the plain value, when packed
	// pending: stored plain by SetPlain and not read since, so that Pack
	// compresses it.
	pending bool
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
		compress: o.compress,
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
// Get returns the stored slice itself, not a copy, and does not allocate
// (but for the first hit of a compressed entry, see [WithCompression]).
// The caller must not modify the returned value. The error is always nil and
// ctx is ignored.
func (m *Memory) Get(_ context.Context, key string) (value []byte, ok bool, err error) {
	now := m.now()
	m.mu.Lock()
	e, ok := m.items[key]
	if !ok {
		m.mu.Unlock()
		return nil, false, nil
	}
	if !now.Before(e.expires) {
		m.remove(e)
		m.mu.Unlock()
		return nil, false, nil
	}
	m.moveToFront(e)
	// Read: it stays plain, as an inflated entry does. Written only when
	// set, so that a hit of a hot entry writes nothing to it (its cache
	// line stays shared between the cores that read it).
	if e.pending {
		e.pending = false
	}
	value, packed, plainLen := e.value, e.packed, e.plainLen
	m.mu.Unlock()
	if packed == nil {
		return value, true, nil
	}
	return m.unpack(e, value, packed, plainLen), true, nil
}

// unpack inflates the compressed value of e and, unless another Get did it
// first or e was replaced or removed meanwhile, keeps the plain value in
// e's place. It returns the plain value.
func (m *Memory) unpack(e *entry, packed []byte, d *dictionary, plainLen int) []byte {
	plain, err := m.inflate(packed, d, plainLen)
	if err != nil {
		// Cannot happen: the bytes were compressed here. The entry is
		// useless; the caller gets a miss next time.
		m.mu.Lock()
		if m.items[e.key] == e {
			m.remove(e)
		}
		m.mu.Unlock()
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.packed == nil && m.items[e.key] == e {
		return e.value // another Get kept its plain value first
	}
	if m.items[e.key] != e || e.packed != d || len(e.value) != len(packed) || &e.value[0] != &packed[0] {
		return plain // replaced or removed meanwhile
	}
	size := int64(len(e.key)) + int64(len(plain)) + EntryOverhead
	if size > m.maxBytes-m.dictBytes {
		return plain // the plain value would not fit beside the dictionaries: keep it packed
	}
	m.bytes += size - e.size
	e.value, e.size, e.packed, e.plainLen = plain, size, nil, 0
	// Other calls may have made e less recently used while it was
	// inflated: the hit makes it the most recently used again, so that
	// eviction can reach every other entry and the bound holds.
	m.moveToFront(e)
	m.evictLocked(e)
	return plain
}

// inflate returns the plain value of packed, which is plainLen bytes long,
// in a slice of exactly that capacity: the entry keeps it, and the bound
// counts its length.
func (m *Memory) inflate(packed []byte, d *dictionary, plainLen int) ([]byte, error) {
	r, _ := m.readers.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReaderDict(bytes.NewReader(packed), d.b)
	} else if err := r.(flate.Resetter).Reset(bytes.NewReader(packed), d.b); err != nil {
		return nil, err
	}
	defer m.readers.Put(r)
	out := make([]byte, plainLen)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, err
	}
	var one [1]byte
	if n, err := r.Read(one[:]); n != 0 || err != io.EOF {
		return nil, errors.New("cache: a compressed value is longer than it was")
	}
	return out, nil
}

// pack returns value compressed and its dictionary, or value and nil when
// compression is off, the value is small, or compressing does not make it
// smaller. The first value of its first byte becomes that byte's
// dictionary, and is stored plain.
func (m *Memory) pack(value []byte) ([]byte, *dictionary) {
	if !m.compress || len(value) < CompressMin {
		return value, nil
	}
	m.mu.Lock()
	d := m.dicts[value[0]]
	if d == nil {
		n := int64(min(len(value), CompressDictMax))
		if m.dictBytes+n > m.maxBytes/16 {
			m.mu.Unlock() // the dictionaries would take too much of the bound
			return value, nil
		}
		d = &dictionary{b: bytes.Clone(value[:n])}
		m.dicts[value[0]] = d
		m.bytes += n
		m.dictBytes += n
		m.evictLocked(nil)
		m.mu.Unlock()
		return value, nil
	}
	m.mu.Unlock()
	w, _ := d.writers.Get().(*flate.Writer)
	var buf bytes.Buffer
	buf.Grow(len(value) / 2)
	if w == nil {
		var err error
		if w, err = flate.NewWriterDict(&buf, compressLevel, d.b); err != nil {
			return value, nil
		}
	} else {
		w.Reset(&buf)
	}
	defer d.writers.Put(w)
	if _, err := w.Write(value); err != nil {
		return value, nil
	}
	if err := w.Close(); err != nil || buf.Len() >= len(value) {
		return value, nil
	}
	return bytes.Clone(buf.Bytes()), d
}

// Set stores value under key until ttl has passed, replacing any earlier
// entry, and makes it the most recently used entry. An entry set at time T
// with ttl d is a hit before T+d and a miss from T+d on.
//
// Set takes ownership of value: Memory keeps the slice without copying it
// (or a compressed copy, see [WithCompression]), so the caller must not
// modify it after the call.
//
// Set does not store the entry, and removes any earlier entry under key,
// when ttl <= 0 or when the entry alone is larger than the size bound (see
// [WithMaxBytes]; with [WithCompression], less the dictionaries). Otherwise
// it evicts least recently used entries until the cache is within its
// bound. The error is always nil and ctx is ignored.
func (m *Memory) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	var d *dictionary
	plainLen := len(value)
	if ttl > 0 {
		value, d = m.pack(value)
	}
	m.store(key, value, plainLen, d, ttl, false)
	return nil
}

// SetPlain is [Memory.Set] without the compression, for a caller that
// wants the entry readable at once and the compression done later, off its
// own critical path (the Registry answers the callers of a fetch first):
// the value is stored plain and counted at its length, and a later
// [Memory.Pack] of key compresses it as Set would have. Without
// [WithCompression], SetPlain is Set. Like Set, it takes ownership of
// value.
// A value too large to be kept plain (but which Set could keep compressed)
// is stored by Set.
func (m *Memory) SetPlain(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if m.compress && int64(len(key))+int64(len(value))+EntryOverhead > m.room() {
		return m.Set(ctx, key, value, ttl)
	}
	m.store(key, value, len(value), nil, ttl, m.compress)
	return nil
}

// room is the most an entry may take: the bound less the dictionaries.
func (m *Memory) room() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.maxBytes - m.dictBytes
}

// Pack compresses the value that [Memory.SetPlain] stored under key, as
// [Memory.Set] would have stored it (see [WithCompression]), unless the
// entry has been read since (it stays plain, as an inflated entry does),
// replaced or removed. The entry's count towards the bound only shrinks.
// Pack of any other key does nothing; so does Pack without
// WithCompression.
func (m *Memory) Pack(key string) {
	m.mu.Lock()
	e, ok := m.items[key]
	if !ok || !e.pending {
		m.mu.Unlock()
		return
	}
	plain := e.value
	m.mu.Unlock()
	packed, d := m.pack(plain) // outside the lock: Gets go on meanwhile
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.items[key] != e || !e.pending || len(e.value) != len(plain) || &e.value[0] != &plain[0] {
		return // read, replaced or removed meanwhile
	}
	e.pending = false
	if d == nil {
		return // small, not smaller compressed, or it became the dictionary
	}
	size := int64(len(e.key)) + int64(len(packed)) + EntryOverhead
	m.bytes += size - e.size
	e.value, e.size, e.packed, e.plainLen = packed, size, d, len(plain)
}

// store puts value (compressed with d, from plainLen bytes, when d is not
// nil) under key until ttl has passed, as Set and SetPlain do; pending
// marks a plain value for Pack.
func (m *Memory) store(key string, value []byte, plainLen int, d *dictionary, ttl time.Duration, pending bool) {
	size := int64(len(key)) + int64(len(value)) + EntryOverhead
	var expires time.Time
	if ttl > 0 {
		expires = m.now().Add(ttl)
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.items[key]
	if ttl <= 0 || size > m.maxBytes-m.dictBytes {
		if ok {
			m.remove(e)
		}
		return
	}
	if d == nil {
		plainLen = 0
	}
	pending = pending && d == nil && len(value) >= CompressMin
	if ok {
		m.bytes += size - e.size
		e.value, e.size, e.expires, e.packed, e.plainLen, e.pending = value, size, expires, d, plainLen, pending
		m.moveToFront(e)
	} else {
		e = &entry{key: key, value: value, expires: expires, size: size, packed: d, plainLen: plainLen, pending: pending}
		m.items[key] = e
		m.pushFront(e)
		m.bytes += size
	}
	m.evictLocked(e)
}

// evictLocked removes least recently used entries until the cache is
// within its bound, but never keep (the entry just stored, which fits on
// its own). The caller holds m.mu.
func (m *Memory) evictLocked(keep *entry) {
	for m.bytes > m.maxBytes && m.root.prev != &m.root && m.root.prev != keep {
		m.remove(m.root.prev)
	}
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
// [WithMaxBytes]), including expired entries that have not been removed yet
// and the dictionaries of [WithCompression].
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
