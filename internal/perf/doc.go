// Package perf holds the end-to-end performance tests and benchmarks of the
// module: a cached lookup through the REST and MCP handlers beside a bare
// net/http handler writing the same bytes, the latency a cold lookup adds
// to the register's own, the collapsing of identical concurrent lookups,
// and the memory a cache full of reports takes. It has no API; see
// BENCHMARKS.md at the root of the module for the figures and the commands
// that reproduce them.
package perf
