// Package seal holds the key that opens the adapter entry point of a
// registry.Registry (Registry.Internal). The package is internal, so only
// packages of this module can make a Key: the REST and MCP adapters reach
// the zero-copy answers through it, and no user of the library sees them as
// part of its API.
package seal

// Key is the argument of registry.Registry.Internal. Its zero value is the
// key.
type Key struct{ _ [0]func() }
