// Package registry answers questions about registered companies from national
// business registers, for any supported country, in one country-neutral JSON
// shape.
//
// Start with [New]: it builds a [Registry] from national modules, usually
// the default set of package countries (countries.All), and every question
// is a method of that Registry:
//
//	cs, err := countries.All(countries.Config{ContactEmail: "ops@example.com"})
//	reg, err := registry.New(cs)
//	rep, err := reg.Lookup(ctx, countries.NO, "923 609 016")
//	today, err := reg.Today(countries.NO)
//	dl, err := reg.Deadlines(ctx, countries.NO, "923609016", today)
//
// The operations are [Registry.Countries], [Registry.Lookup],
// [Registry.Search], [Registry.Deadlines], [Registry.Roles],
// [Registry.Validate], [Registry.Health] and [Registry.Rules];
// [Registry.LookupBatch] and [Registry.DeadlinesBatch] answer many
// identifiers in one call with bounded concurrency, and [Registry.Refresh]
// reads a report and its roles from the register past the cache (change
// monitoring, package changes, compares them over time). The REST (package restserver) and MCP (package mcpserver)
// adapters call the same Registry and send the same documents.
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
// Every failure is an [*Error] carrying a stable [Code], a message, a hint
// that names the next action, and the country and registry concerned. Its
// JSON form is the interface's envelope
// {"error":{"code":...,"message":...,"hint":...,"country":...,"registry":...,"details":{}}}.
// Test for a code with errors.Is and the sentinels ([ErrNotFound],
// [ErrInvalidID], ...), or read the fields with errors.As. A call whose
// context is cancelled fails with [ErrCanceled] (and context.Canceled); one
// whose context deadline passes first with [ErrUpstreamTimeout] (and
// context.DeadlineExceeded).
//
// # Caching and upstream calls
//
// Successful lookups and searches are cached for up to 24 hours and not_found
// answers for one hour, in memory by default or in any [cache.Cache] given
// with [WithCache]; a cached answer has Cached true and keeps the FetchedAt of
// the live fetch. Identical concurrent fetches are collapsed into one
// upstream call that no single caller can cancel; a retryable upstream
// failure (timeout, connection error, 5xx) is retried exactly once before
// upstream_timeout or upstream_error. With [WithUpstreamBudget] every
// upstream attempt takes a call from the register's budget first, waiting
// for it up to [WithBudgetWait]; past that the caller gets rate_limited and
// the register is not called.
//
// # Writing a country module
//
// A national module implements [Country]; package countrykit has the helpers
// for building its documents and package countrytest the conformance suite
// every module should pass.
package registry
