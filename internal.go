package registry

import (
	"context"
	"time"

	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/seal"
)

// Internal is the entry point of this module's REST and MCP adapters to the
// answers as the bytes they send (a cache hit is sent as stored, with no
// decoding or encoding). Its argument is a key that only packages of this
// module can make, so no other program can call it; Go callers use the
// operations above, which return the same documents as values.
func (r *Registry) Internal(seal.Key) adapter { return adapter{r} }

// adapter is what [Registry.Internal] returns: the operations the REST and
// MCP adapters of this module need beyond the public ones. Its methods are
// exported so that those packages, which cannot name the type, call them
// through an interface of their own.
type adapter struct{ r *Registry }

// LookupJSON is [Registry.Lookup] returning the report's JSON: on a cache
// hit the stored bytes, which the caller must not modify.
func (a adapter) LookupJSON(ctx context.Context, country, id string) ([]byte, error) {
	e, err := a.r.country(country)
	if err != nil {
		return nil, err
	}
	return a.r.lookupJSON(ctx, e, id)
}

// SearchJSON is [Registry.Search] returning the result's JSON: on a cache
// hit the stored bytes, which the caller must not modify.
func (a adapter) SearchJSON(ctx context.Context, country, query string, limit int) ([]byte, error) {
	e, err := a.r.country(country)
	if err != nil {
		return nil, err
	}
	return a.r.searchJSON(ctx, e, query, limit)
}

// RolesJSON is [Registry.Roles] returning the report's JSON: on a cache
// hit the stored bytes, which the caller must not modify.
func (a adapter) RolesJSON(ctx context.Context, country, id string) ([]byte, error) {
	e, err := a.r.country(country)
	if err != nil {
		return nil, err
	}
	return a.r.rolesJSON(ctx, e, id)
}

// Module describes the module that serves country, ready or not, or returns
// the unsupported_country error every operation returns for it.
func (a adapter) Module(country string) (CountryInfo, error) {
	e, err := a.r.country(country)
	if err != nil {
		return CountryInfo{}, err
	}
	return e.info, nil
}

// Modules describes every module the Registry was built with, ready or not
// and stub or not, sorted by country code.
func (a adapter) Modules() []CountryInfo {
	out := make([]CountryInfo, 0, len(a.r.codes))
	for _, code := range a.r.codes {
		out = append(out, a.r.byCode[code].info)
	}
	return out
}

// Now reads the Registry's clock (see [WithClock]).
func (a adapter) Now() time.Time { return a.r.now() }

// LocalCache reports whether the Registry's cache is the in-process
// memory cache itself (a [cache.Memory], [cache.BackendMemory], not
// wrapped): its Get neither blocks nor fails, and reading it again is seen
// by nothing (no log line, no counter, no round trip). The stdio adapter
// answers a cached call in front of the SDK's reader only then.
func (a adapter) LocalCache() bool {
	_, ok := a.r.cache.(*cache.Memory)
	return ok
}

// PendingPacks is how many answers wait for their compression, or are
// being compressed (the Registry's default cache stores a fetched answer
// plain and compresses it after the callers have it). Tests of this module
// wait for it to be 0.
func (a adapter) PendingPacks() int {
	q := &a.r.packs
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.keys)
	if q.busy {
		n++
	}
	return n
}

// FetchCallers is how many callers wait for the Registry's shared fetches
// now (each counted from the moment it has joined one, so it gets that
// fetch's answer). Tests of this module wait on it to know that callers
// have joined a fetch.
func (a adapter) FetchCallers() int {
	a.r.flights.mu.Lock()
	defer a.r.flights.mu.Unlock()
	return a.r.flights.callers
}
