package cache

import "context"

// Backends named by [Description.Backend].
const (
	// BackendMemory is an in-process cache ([Memory]).
	BackendMemory = "memory"
	// BackendRedis is a cache on a Redis server (package rediscache).
	BackendRedis = "redis"
	// BackendNone is no cache (registry.WithoutCache).
	BackendNone = "none"
	// BackendCustom is a [Cache] that does not implement [Describer].
	BackendCustom = "custom"
)

// Describer is an optional interface of a [Cache]: it says what the cache
// is, for a health report (registry.Registry.Health reads it). The caches
// of this module implement it; a wrapper around a Cache should forward it
// with [Describe].
type Describer interface {
	// Describe returns what the cache is and, for a store on a server,
	// whether the server answers. It must be cheap and return within a
	// short bound even when the server does not answer, and by ctx's
	// deadline or cancellation: it is called for every health request,
	// with that request's context. A caller that gives up must not make
	// the server look unreachable.
	Describe(ctx context.Context) Description
}

// Description is what a [Describer] says of itself.
type Description struct {
	// Backend names the store: [BackendMemory], [BackendRedis] or another
	// short lower-case name.
	Backend string
	// Reachable says, for a store on a server of its own, whether the
	// server answered lately; it is false for a store in process.
	Reachable bool
}

// Describe returns c's Description, asked under ctx, or one with
// [BackendCustom] when c does not implement [Describer].
func Describe(ctx context.Context, c Cache) Description {
	if d, ok := c.(Describer); ok {
		return d.Describe(ctx)
	}
	return Description{Backend: BackendCustom}
}

// Describe reports [BackendMemory].
func (m *Memory) Describe(context.Context) Description { return Description{Backend: BackendMemory} }
