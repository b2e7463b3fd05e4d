// Package registry answers questions about registered companies from national
// business registers, for any supported country, in one country-neutral JSON
// shape.
//
// A [Registry] is built from a list of national [Country] modules (see the
// countries/... packages) and offers the six operations of the interface:
// [Registry.Countries], [Registry.Lookup], [Registry.Search],
// [Registry.Deadlines], [Registry.Validate] and [Registry.Health]. The REST
// (restserver) and MCP (mcpserver) adapters call these same methods and encode
// the same structs, so both surfaces return identical documents.
//
// # Documents
//
// [CompanyReport], [SearchResult], [DeadlineReport], [ValidationResult],
// [CountriesResponse] and [HealthResponse] encode with every field present:
// unknown values are null (never "" or 0) and lists and maps are [] and {}.
// Dates are [Date] values written "YYYY-MM-DD"; fetched_at is RFC 3339 UTC.
//
// # Errors
//
// Every failure is an [*Error] carrying one of nine stable [Code] values, a
// message, a hint that names the next action, and the country and registry
// concerned. Its JSON form is the interface's envelope
// {"error":{"code":...,"message":...,"hint":...,"country":...,"registry":...,"details":{}}}.
// Test for a code with errors.Is and the sentinels ([ErrNotFound],
// [ErrInvalidID], ...), or read the fields with errors.As.
//
// # Caching and upstream calls
//
// Successful lookups and searches are cached for up to 24 hours and not_found
// answers for one hour; a cached answer has Cached true and keeps the
// FetchedAt of the live fetch. Identical concurrent fetches are collapsed into
// one upstream call that no single caller can cancel; a retryable upstream
// failure (timeout, connection error, 5xx) is retried exactly once before
// upstream_timeout or upstream_error.
package registry
