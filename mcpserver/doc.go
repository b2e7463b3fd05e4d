// Package mcpserver exposes a [registry.Registry] as a Model Context Protocol
// server, built on github.com/modelcontextprotocol/go-sdk.
//
// [New] returns the *mcp.Server with six tools, one resource template with
// a concrete resource per country, and one prompt:
//
//   - lookup_company(id, country="NO") returns a CompanyReport.
//   - search_company(name, country="NO", limit=10) returns a SearchResult.
//   - company_deadlines(id, country="NO", today=null) returns a DeadlineReport.
//   - company_roles(id, country="NO") returns a RolesReport.
//   - validate_company_id(id, country="NO") returns a ValidationResult; an
//     invalid identifier is a normal result with valid false.
//   - list_countries() returns a CountriesResponse.
//   - company_changes(id, country="NO", limit=10) returns a CompanyChanges,
//     a company's recorded changes; only with [WithChanges].
//   - registry://rules/{country} is the country's rules document (Markdown).
//   - explain_company(id, country="NO") asks for a plain-language summary;
//     another argument is refused (the JSON-RPC invalid-params error whose
//     message is the bad_request envelope, "Unknown argument ..."), as the
//     tools refuse one, so that a misspelt country is never the default.
//
// The country argument of the prompt and of the template completes to the
// codes that can answer now (completion/complete).
//
// A tool's success carries the same JSON document the REST surface returns
// for the same operation, byte for byte, both as structuredContent and as
// the text of its one content item. A failure is a result with isError true
// whose text is the REST error envelope
// {"error":{"code","message","hint","country","registry","details"}}.
// Parameter problems (a country without a module, a limit outside 1 to 100,
// an argument of the wrong type) are answered with that envelope too, never
// with the SDK's generic validation text: the input schemas carry types,
// descriptions and defaults but no enum, pattern or range, and no type
// arrays (an optional argument is simply not required). The output schemas
// are schema.Output: nested resources once in $defs, nullable values as
// anyOf with {"type":"null"} (clients that map tool schemas onto a
// single-type dialect reject type arrays), and a content-addressed $id, so
// that a client caching compiled validators by $id (the TypeScript SDK)
// compiles them once.
//
// A defect that panics inside a handler never ends the process: a tool
// answers the internal_error envelope as a result with isError true, a
// resource, prompt or completion the JSON-RPC internal error whose message
// is that envelope; the panic is logged with its stack, on every transport.
//
// # Transports
//
// [Handler] serves Streamable HTTP in stateless mode with JSON responses:
// every POST is answered on its own, so any replica behind a load balancer
// can answer any request and no session id is needed. One *mcp.Server is
// built per Handler and reused for every request. GET and DELETE are 405.
// A plain tools/call of protocol versions up to 2025-11-25 is answered by a
// fast path that writes exactly the bytes the SDK would (a test compares
// them), without the SDK's per-request session, several times faster than
// the SDK's path for a cached lookup (BenchmarkToolsCallLookupCached against
// BenchmarkToolsCallLookupCachedSDKPath; figures in BENCHMARKS.md). [ServeStdio] (and
// [ServeIO] for any reader and writer) serves the same server over stdio.
//
// The four lists (tools, resources, resource templates, prompts) are
// constant for the life of the servers of Handler and ServeIO, so each is
// encoded once, from the SDK's own first answer, and later first-page
// requests without _meta are answered with those bytes, over HTTP and over
// stdio (a test compares them with the SDK's). [New] returns its server to
// the caller, who may add tools, so its lists are built on every call.
//
// # Host and Origin checks
//
// The SDK's DNS-rebinding protection rejects a request that arrives on a
// loopback address with a Host header that is not loopback. That breaks the
// common deployment behind a reverse proxy on the same machine, which
// forwards Host: registry.example.com to 127.0.0.1. Handler therefore turns
// it off and offers its own Host allow-list instead ([WithAllowedHosts]):
// without one, any Host is accepted. Every tool is read-only and answers
// with public register data, so a rebinding page gains nothing it could not
// fetch directly; operators who run the server on a workstation can still
// pin the Host names.
//
// Browser requests are checked with [http.CrossOriginProtection]: a
// cross-origin POST from a web page (Sec-Fetch-Site or an Origin that does
// not match Host) is 403 unless its origin was trusted with
// [WithTrustedOrigins], which also answers the CORS preflight of those
// origins. Clients that are not browsers send neither header and are not
// affected.
package mcpserver
