// Package cacheonly marks a context whose Registry operations may answer
// only from the cache: where an operation would ask a register (a fetch),
// it returns [Miss] at once instead. The MCP stdio server uses it to answer
// a cached call while it reads, and hands a miss to the SDK.
package cacheonly

import "context"

type key struct{}

// With returns ctx marked cache-only.
func With(ctx context.Context) context.Context { return context.WithValue(ctx, key{}, true) }

// Is reports whether ctx is marked cache-only.
func Is(ctx context.Context) bool {
	v, _ := ctx.Value(key{}).(bool)
	return v
}

// Miss is the error of an operation under a cache-only context whose answer
// is not in the cache. It never reaches a client.
type Miss struct{}

func (Miss) Error() string { return "registry: the answer is not in the cache (cache-only context)" }
