// Package cache defines [Cache], a small byte store with a time to live per
// entry, and [Memory], an embedded implementation: an in-memory
// least-recently-used cache with a bound on its size in bytes.
//
// A network store such as Redis or memcached can implement [Cache] as well;
// callers that only need the interface should depend on it rather than on
// [Memory].
package cache

import (
	"context"
	"time"
)

// Cache is a small, context-aware byte store with a time to live (TTL) per
// entry. Implementations must be safe for concurrent use.
//
// Errors report a failing backend, such as an unreachable network store; a
// missing or expired key is not an error. A caller that gets an error may
// treat the cache as empty and carry on. Error texts must not contain the key
// or the value: callers log them, and keys hold identifiers, some of which
// (Norwegian sole proprietorships) are personal data.
//
// # Keys
//
// A registry.Registry writes keys of the form
//
//	companyregistry/<format>/<country>/<kind>/<parts>
//
// for example "companyregistry/2/NO/company/923609016" or
// "companyregistry/2/GB/search/10/tesco". The first element is a namespace
// (registry.CacheNamespace), so that one external store can hold other
// programs' entries beside them; the second is the version of the entries'
// format (registry.CacheFormat), which changes whenever the bytes stored for
// an answer change their meaning, so that two versions of the library sharing
// one store never read each other's entries. Keys are at most a few hundred
// bytes of UTF-8. Values start with one tag byte followed by JSON.
type Cache interface {
	// Get returns the value stored under key and ok = true, or nil and
	// ok = false when the key is absent or its entry has expired.
	// Implementations may return a slice they keep using, so the caller
	// must not modify the returned value.
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)

	// Set stores value under key for ttl, replacing any earlier entry. A
	// ttl <= 0 means "do not store" and removes any earlier entry.
	// Implementations may keep value without copying it, so the caller
	// must not modify value after the call. A cache may drop entries at
	// any time, for instance to stay within a size bound, so a successful
	// Set does not promise a later hit.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error

	// Delete removes the entry stored under key. Deleting an absent key is
	// not an error.
	Delete(ctx context.Context, key string) error
}
