package registry

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/companyregistry/registry/cache"
)

// Cache keys are "companyregistry/<format>/<country>/<kind>/<parts...>":
// a namespace, so that the entries can share an external cache with other
// programs, and the format version of the entries, so that two versions of
// this library that store entries differently never read each other's. The
// country is upper case, parts are canonical identifiers or, for a search,
// the limit and the trimmed query. See [cache.Cache].
const (
	// CacheNamespace is the first element of every cache key.
	CacheNamespace = "companyregistry"
	// CacheFormat is the version of the cache entries' format: the second
	// element of every key. It changes whenever the bytes stored for an
	// answer change their meaning. "2": Finnish ids without the hyphen, a
	// hint on every search with hits, the UK's employees_reported and
	// founded_at (0.3.0); "1" stored them as before.
	CacheFormat = "2"
)

// Kinds of cache entries, the third element of a key.
const (
	kindCompany = "company"
	kindSearch  = "search"
	kindRoles   = "roles"
)

// Cache entries start with one byte saying what follows.
const (
	tagReport   = 'r' // a CompanyReport JSON with cached true
	tagNotFound = 'n' // an error envelope JSON
	tagSearch   = 's' // a SearchResult JSON with cached true
	tagRoles    = 'o' // a RolesReport JSON with cached true
)

const keyPrefix = CacheNamespace + "/" + CacheFormat + "/"

// key returns the cache key of an answer of kind for the module of e.
func (r *Registry) key(e entry, kind string, parts ...string) string {
	n := len(keyPrefix) + len(e.info.Country) + 1 + len(kind)
	for _, p := range parts {
		n += 1 + len(p)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(keyPrefix)
	b.WriteString(e.info.Country)
	b.WriteByte('/')
	b.WriteString(kind)
	for _, p := range parts {
		b.WriteByte('/')
		b.WriteString(p)
	}
	return b.String()
}

// remember caches a not_found answer for the not_found TTL, and purges the
// key for an entity the register says is gone. Other failures are not cached.
func (r *Registry) remember(ctx context.Context, key string, err error) {
	var e *Error
	if !errors.As(err, &e) {
		return
	}
	switch {
	case e.Gone:
		if derr := r.cache.Delete(ctx, key); derr != nil {
			r.log.LogAttrs(ctx, slog.LevelWarn, "cache delete failed", slog.String("error", derr.Error()))
		}
	case e.Code == CodeNotFound:
		b, merr := json.Marshal(e)
		if merr == nil {
			r.cacheSet(ctx, key, append([]byte{tagNotFound}, b...), r.notFoundTTL)
		}
	}
}

func (r *Registry) cacheGet(ctx context.Context, key string) ([]byte, bool) {
	b, ok, err := r.cache.Get(ctx, key)
	if err != nil {
		r.log.LogAttrs(ctx, slog.LevelWarn, "cache get failed", slog.String("error", err.Error()))
		return nil, false
	}
	return b, ok && len(b) > 0
}

// cachedAnswer looks key up in the cache: an entry a fetch stored with
// tag gives its JSON, a remembered not_found its error. hit is false on a
// miss and for an entry of another kind, which the next fetch overwrites.
func (r *Registry) cachedAnswer(ctx context.Context, key string, tag byte) (b []byte, hit bool, err error) {
	b, ok := r.cacheGet(ctx, key)
	if !ok {
		return nil, false, nil
	}
	switch b[0] {
	case tag:
		return b[1:], true, nil
	case tagNotFound:
		var cerr Error
		if json.Unmarshal(b[1:], &cerr) == nil {
			return nil, true, &cerr
		}
	}
	return nil, false, nil
}

func (r *Registry) cacheSet(ctx context.Context, key string, b []byte, ttl time.Duration) {
	if err := r.cache.Set(ctx, key, b, ttl); err != nil {
		r.log.LogAttrs(ctx, slog.LevelWarn, "cache set failed", slog.String("error", err.Error()))
	}
}

// noCache is the cache of a Registry built with [WithoutCache]: it stores
// nothing.
type noCache struct{}

func (noCache) Get(context.Context, string) ([]byte, bool, error)        { return nil, false, nil }
func (noCache) Set(context.Context, string, []byte, time.Duration) error { return nil }
func (noCache) Delete(context.Context, string) error                     { return nil }

// Describe reports [cache.BackendNone].
func (noCache) Describe(context.Context) cache.Description {
	return cache.Description{Backend: cache.BackendNone}
}
