// Package catalog describes every operation of the service once: its name,
// its REST method and pattern, its MCP tool (if any), its parameters, its
// result document, its errors and its documentation. The adapters derive
// what they serve from it: restserver registers its routes by iterating
// [Operations] and builds /openapi.json, /llms.txt and /llms-full.txt from
// it (the texts are embedded templates, see [Render]); mcpserver builds each
// tool's name, title, description, input schema and annotations from it.
//
// What is where:
//
//	operation              REST                                          MCP
//	getHealth              GET /health                                   -
//	listCountries          GET /v1/countries                             list_countries
//	lookupCompany          GET /v1/{country}/company/{id}                lookup_company
//	searchCompanies        GET /v1/{country}/search                      search_company
//	companyDeadlines       GET /v1/{country}/company/{id}/deadlines      company_deadlines
//	companyRoles           GET /v1/{country}/company/{id}/roles          company_roles
//	companyDeadlinesICS    GET /v1/{country}/company/{id}/deadlines.ics  -
//	companyDeadlinesBatch  POST /v1/{country}/deadlines:batch            -
//	validateCompanyID      GET /v1/{country}/validate/{id}               validate_company_id
//	llmsTxt, llmsFullTxt   GET /llms.txt, /llms-full.txt                 -
//	serverJSON, openAPI    GET /server.json, /openapi.json               -
//	-                      -                                             resource registry://rules/{country}
//	-                      -                                             prompt explain_company
//
// [ChangeOperations] holds change monitoring's operations (the watch,
// delivery and feed routes, with a bearer token, and companyChanges, GET
// /v1/{country}/company/{id}/changes and the MCP tool company_changes),
// which the adapters serve only when change monitoring is configured.
//
// Every function returns fresh values that the caller may change.
package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/schema"
)

// DefaultCountry is the country an MCP tool uses when the caller gives
// none.
const DefaultCountry = "NO"

// Limits of POST /v1/{country}/deadlines:batch.
const (
	// MaxBatchIDs is the most identifiers one batch request may hold.
	MaxBatchIDs = 500
	// MaxBatchBodyBytes is the largest request body of a batch.
	MaxBatchBodyBytes = 64 << 10
	// BatchTimeout bounds the work of one batch request.
	BatchTimeout = 30 * time.Second
)

// Names of the batch route's documents in /openapi.json and /llms-full.txt.
const (
	BatchRequest  = "DeadlinesBatchRequest"
	BatchResponse = "DeadlinesBatchResponse"
	BatchItem     = "DeadlinesBatchItem"
)

// The MCP names beside the tools: the rules resource template and the
// prompt.
const (
	RulesURITemplate     = "registry://rules/{country}"
	PromptExplainCompany = "explain_company"
)

// In says where a REST parameter is.
type In string

// The places of a REST parameter.
const (
	InPath  In = "path"
	InQuery In = "query"
)

// Param is one parameter of an operation, on REST and (when Arg is set) as
// an MCP tool argument.
type Param struct {
	Name     string // on REST
	In       In     // path or query
	Required bool   // on REST
	Doc      string // REST and OpenAPI description
	Schema   ParamSchema
	Arg      *Arg // the MCP tool argument; nil when the tool has none
}

// ParamSchema is the JSON Schema of a parameter's value as plain values:
// OpenAPI gets all of it; an MCP input schema gets the type (with the
// argument's own default and description) and no range or length, so that
// the Registry answers out-of-range values with its own envelope.
type ParamSchema struct {
	Type                 string // "string" or "integer"
	Format               string
	MinLength, MaxLength *int
	Minimum, Maximum     *float64
	Default              string // JSON text, "" for none
	Examples             []any
}

// Arg is the MCP tool argument of a parameter.
type Arg struct {
	Name     string
	Required bool
	Default  string // JSON text, "" for none
	Doc      string
}

// Tool is the MCP tool of an operation.
type Tool struct {
	Name, Title, Description string
	// OpenWorld: the tool calls a national register.
	OpenWorld bool
	// Note follows the tool's line in /llms-full.txt.
	Note string
}

// Operation is one operation of the service.
type Operation struct {
	// Name is the OpenAPI operationId and the key of the adapters'
	// handler maps.
	Name    string
	Method  string // GET or POST
	Pattern string // the REST path pattern, net/http syntax
	// Tag is the operation's resource in /openapi.json, one of [Tags].
	Tag     string
	Summary string
	Doc     string
	// ExamplePath is the REST request (path and query) whose answer,
	// recorded from the real handler over recorded register answers, is
	// the 200 example of /openapi.json ([Operation.Example]); "" for the
	// one operation whose example is built from the document itself
	// (openAPI).
	ExamplePath string
	// Params in the order of the tool's arguments; REST lists path
	// parameters in the pattern's order, then query parameters.
	Params []Param
	// Body is the schema name of the JSON request body, or "";
	// BodyExample an example of it.
	Body, BodyExample string
	// Result is the schema name of the 200 document; with ContentType set,
	// a description of the answer instead.
	Result string
	// ContentType is the media type of a 200 that is not application/json.
	ContentType string
	Errors      []registry.Code
	// Limited: the route draws from the rate limit; Cost says how much.
	Limited bool
	Cost    string
	// Resource marks a text resource (/llms.txt and the like): never
	// limited, outside the reference's list of operations.
	Resource bool
	// Tool is the MCP tool, nil for a REST-only operation.
	Tool *Tool
	// Status is the HTTP status of a success, 0 for 200.
	Status int
	// Changes marks an operation of change monitoring (see
	// [ChangeOperations]): served only by adapters given a change service.
	Changes bool
	// Auth: the route needs an API token (Authorization: Bearer).
	Auth bool
}

// SuccessStatus returns the HTTP status of a success (200 unless Status
// says otherwise).
func (o Operation) SuccessStatus() int {
	if o.Status == 0 {
		return 200
	}
	return o.Status
}

// PathParams returns the parameters in the pattern, in its order.
func (o Operation) PathParams() []Param {
	var out []Param
	rest := o.Pattern
	for {
		_, after, ok := strings.Cut(rest, "{")
		if !ok {
			return out
		}
		name, tail, _ := strings.Cut(after, "}")
		rest = tail
		for _, p := range o.Params {
			if p.Name == name && p.In == InPath {
				out = append(out, p)
			}
		}
	}
}

// RESTParams returns the REST parameters: the path parameters in the
// pattern's order, then the query parameters.
func (o Operation) RESTParams() []Param {
	out := o.PathParams()
	for _, p := range o.Params {
		if p.In == InQuery {
			out = append(out, p)
		}
	}
	return out
}

// Args returns the tool's arguments in order.
func (o Operation) Args() []Param {
	var out []Param
	for _, p := range o.Params {
		if p.Arg != nil {
			out = append(out, p)
		}
	}
	return out
}

// ArgNames returns the names of the tool's arguments in order.
func (o Operation) ArgNames() []string {
	var out []string
	for _, p := range o.Args() {
		out = append(out, p.Arg.Name)
	}
	return out
}

// Signature is the tool's call as /llms-full.txt shows it:
// name(required, optional=default, other=null).
func (o Operation) Signature() string {
	args := make([]string, 0, len(o.Params))
	for _, p := range o.Args() {
		switch {
		case p.Arg.Required:
			args = append(args, p.Arg.Name)
		case p.Arg.Default != "":
			args = append(args, p.Arg.Name+"="+p.Arg.Default)
		default:
			args = append(args, p.Arg.Name+"=null")
		}
	}
	return o.Tool.Name + "(" + strings.Join(args, ", ") + ")"
}

// MediaType is the media type of the 200 answer without parameters.
func (o Operation) MediaType() string {
	if o.ContentType == "" {
		return "application/json"
	}
	t, _, _ := strings.Cut(o.ContentType, ";")
	return t
}

// Operations returns every operation in the order of the reference.
func Operations() []Operation {
	country := func(arg bool) Param {
		p := Param{Name: "country", In: InPath, Required: true,
			Doc:    "ISO 3166-1 alpha-2 country code from GET /v1/countries, any letter case (GB for the United Kingdom, never UK).",
			Schema: ParamSchema{Type: "string", MinLength: ptr(2), MaxLength: ptr(2), Examples: []any{"NO"}}}
		if arg {
			p.Arg = &Arg{Name: "country", Default: strconv.Quote(DefaultCountry),
				Doc: "ISO 3166-1 alpha-2 country code, any case (GB for the United Kingdom, never UK). " +
					"Default " + DefaultCountry + ". list_countries gives the codes that can answer now."}
		}
		return p
	}
	id := func(arg bool) Param {
		p := Param{Name: "id", In: InPath, Required: true,
			Doc:    "National identifier; spaces, dots, a leading country prefix and (Norway) a trailing MVA are accepted.",
			Schema: ParamSchema{Type: "string", MinLength: ptr(1), Examples: []any{"923609016"}}}
		if arg {
			p.Arg = &Arg{Name: "id", Required: true,
				Doc: "The company's national identifier as the user wrote it: spaces, dots, a country prefix " +
					"and (Norway) a trailing MVA are accepted. E.g. 923609016 or \"923 609 016\" (NO), 00445790 (GB)."}
		}
		return p
	}
	today := func(arg bool) Param {
		p := Param{Name: "today", In: InQuery,
			Doc:    "The date to count from, YYYY-MM-DD (default: the server's current UTC date).",
			Schema: ParamSchema{Type: "string", Format: "date", Examples: []any{"2026-01-15"}}}
		if arg {
			p.Arg = &Arg{Name: "today", Doc: "The date to count from, YYYY-MM-DD. Omit it (or pass null) for the current UTC date."}
		}
		return p
	}
	upstream := func() []registry.Code {
		return []registry.Code{registry.CodeInvalidID, registry.CodeNotFound, registry.CodeUnsupportedCountry,
			registry.CodeRateLimited, registry.CodeNotImplemented, registry.CodeUpstreamError, registry.CodeUpstreamTimeout,
			registry.CodeInternalError}
	}
	const one = "one request"
	return []Operation{
		{Name: "getHealth", Method: "GET", Pattern: "/health", Tag: TagService, ExamplePath: "/health", Summary: "Liveness check",
			Doc:    "Answers 200 whenever the process is up; makes no upstream call; never rate limited.",
			Result: schema.HealthResponse},
		{Name: "listCountries", Method: "GET", Pattern: "/v1/countries", Tag: TagCountries, ExamplePath: "/v1/countries", Summary: "List the supported countries",
			Doc: "The registries that can answer now, sorted by country code. A registry that needs an operator " +
				"credential the deployment lacks is not listed. Do not hard-code this list.",
			Result: schema.CountriesResponse, Limited: true, Cost: one,
			Errors: []registry.Code{registry.CodeRateLimited, registry.CodeInternalError},
			Tool: &Tool{Name: "list_countries", Title: "List supported countries",
				Description: "List the countries and registers that can answer now, with each identifier scheme, an example " +
					"identifier and the data licence. Use these country codes in the other tools; do not hard-code them."}},
		{Name: "lookupCompany", Method: "GET", Pattern: "/v1/{country}/company/{id}", Tag: TagCompanies,
			ExamplePath: "/v1/NO/company/923609016", Summary: "Look up one company",
			Doc: "The full report of one entity. The identifier is normalised first; one that fails format or " +
				"checksum is invalid_id and the register is not called. A well-formed identifier with no entity is " +
				"not_found. A failing register is retried once before upstream_error (502) or upstream_timeout (504).",
			Params: []Param{id(true), country(true)}, Result: schema.CompanyReport, Limited: true, Cost: one, Errors: upstream(),
			Tool: &Tool{Name: "lookup_company", Title: "Look up a company", OpenWorld: true,
				Description: "Fetch the full report on one registered entity by its national identifier from the country's " +
					"business register: name, legal form, status (is it trading?), registration and VAT facts, addresses, " +
					"industry codes, employees, and notes to show the user. Use search_company first when you only have a name. " +
					"Cached answers carry cached true and the original fetched_at. Failures: invalid_id (fix the id or search), " +
					"not_found (search by name), unsupported_country, upstream_error/upstream_timeout (already retried once)."}},
		{Name: "searchCompanies", Method: "GET", Pattern: "/v1/{country}/search", Tag: TagCompanies,
			ExamplePath: "/v1/NO/search?q=digitaliseringsdirektoratet&limit=1", Summary: "Search companies by name",
			Doc: "Thin candidate hits, best first (confidence 0.95 exact name, 0.8 prefix, 0.6 all words, 0.4 other). " +
				"Zero hits is a success with hits [] and a hint. A missing or empty q, or a limit outside 1 to " +
				strconv.Itoa(registry.MaxSearchLimit) + ", is bad_request (never clamped).",
			Params: []Param{
				{Name: "q", In: InQuery, Required: true, Doc: fmt.Sprintf("The name or part of it (1 to %d bytes).", registry.MaxQueryLength),
					Schema: ParamSchema{Type: "string", MinLength: ptr(1), MaxLength: ptr(registry.MaxQueryLength), Examples: []any{"equinor"}},
					Arg:    &Arg{Name: "name", Required: true, Doc: "The company name or part of it, e.g. equinor."}},
				country(true),
				{Name: "limit", In: InQuery, Doc: fmt.Sprintf("Most hits to return, 1 to %d (default %d).", registry.MaxSearchLimit, registry.DefaultSearchLimit),
					Schema: ParamSchema{Type: "integer", Minimum: ptr(1.0), Maximum: ptr(float64(registry.MaxSearchLimit)),
						Default: strconv.Itoa(registry.DefaultSearchLimit), Examples: []any{5}},
					Arg: &Arg{Name: "limit", Default: strconv.Itoa(registry.DefaultSearchLimit),
						Doc: fmt.Sprintf("Maximum number of hits, an integer from 1 to %d. Default %d.", registry.MaxSearchLimit, registry.DefaultSearchLimit)}},
			},
			Result: schema.SearchResult, Limited: true, Cost: one,
			Errors: []registry.Code{registry.CodeBadRequest, registry.CodeUnsupportedCountry, registry.CodeRateLimited,
				registry.CodeNotImplemented, registry.CodeUpstreamError, registry.CodeUpstreamTimeout, registry.CodeInternalError},
			Tool: &Tool{Name: "search_company", Title: "Search companies by name", OpenWorld: true,
				Description: "Search a country's business register by company name and get thin candidate hits, best first, " +
					"each with a confidence. A hit is not a report: pass its id to lookup_company before acting on it. " +
					"Zero hits is a normal answer whose hint says what to try. Norwegian names are registered in upper case " +
					"and often end in AS, ASA or NUF. " +
					fmt.Sprintf("limit is 1 to %d (default %d); outside that the result is bad_request.", registry.MaxSearchLimit, registry.DefaultSearchLimit)}},
		{Name: "companyDeadlines", Method: "GET", Pattern: "/v1/{country}/company/{id}/deadlines", Tag: TagDeadlines,
			ExamplePath: "/v1/NO/company/923609016/deadlines?today=2026-01-15", Summary: "Next statutory filing deadlines",
			Doc: "The next occurrence of each filing obligation, sorted by due_date, computed from the company's report " +
				"and today. The same company and today always give the same list; an empty list is a valid answer and " +
				"notes says why.",
			Params: []Param{id(true), country(true), today(true)},
			Result: schema.DeadlineReport, Limited: true, Cost: one, Errors: append([]registry.Code{registry.CodeBadRequest}, upstream()...),
			Tool: &Tool{Name: "company_deadlines", Title: "Next statutory filing deadlines", OpenWorld: true,
				Description: "Compute the next statutory filing deadline of each kind for one entity (annual accounts, tax " +
					"return, VAT return, payroll report, general meeting, confirmation statement, ...), sorted by due_date. " +
					"Quote due_date (after weekend and holiday roll-forward); days_until is negative when overdue. An empty " +
					"list is a valid answer: notes say why. The company is looked up first, so lookup errors apply."}},
		{Name: "companyRoles", Method: "GET", Pattern: "/v1/{country}/company/{id}/roles", Tag: TagRoles,
			ExamplePath: "/v1/NO/company/923609016/roles", Summary: "Who runs, signs for and controls a company",
			Doc: "The registered roles of one entity: board, management, signatories and procuration holders, partners, " +
				"owners, beneficial owners (persons with significant control), secretaries, auditors and accountants, each " +
				"with a country-neutral group, the register's own code and an English label. Current roles come first, " +
				"then by group (board first, the chair first); former roles are kept with current false. The entity is " +
				"looked up first, so the errors are those of a lookup; a country without roles is not_implemented. A " +
				"person's birth is at most year and month. notes say where a signing rule is registered and when a list " +
				"was cut.",
			Params: []Param{id(true), country(true)}, Result: schema.RolesReport, Limited: true, Cost: one, Errors: upstream(),
			Tool: &Tool{Name: "company_roles", Title: "Who runs, signs for and controls a company", OpenWorld: true,
				Description: "List the registered roles of one entity: board (chair first), management, signatories and " +
					"procuration holders, partners, owners, beneficial owners (persons with significant control, with their " +
					"natures of control), secretaries, auditors and accountants. Each role has a country-neutral group, the " +
					"register's role_code, an English role label and a holder (a person or an entity). Current roles come " +
					"first; current false marks a former one. Read notes: they say where the rule of who may sign together is " +
					"registered (it is not guessed) and when a long list was cut. Roles name people: use them for the task at " +
					"hand only. The company is looked up first, so lookup errors apply; a country without roles is " +
					"not_implemented."}},
		{Name: "companyDeadlinesICS", Method: "GET", Pattern: "/v1/{country}/company/{id}/deadlines.ics", Tag: TagDeadlines,
			ExamplePath: "/v1/NO/company/923609016/deadlines.ics?today=2026-01-15", Summary: "Filing deadlines as a calendar feed",
			Doc: "The deadlines of the JSON route, for the same today, as an RFC 5545 iCalendar feed to subscribe to: " +
				"one all-day event per deadline on its due_date, named after the company (X-WR-CALNAME), with the " +
				"legal basis and source_url in the description. An event's UID is the same for the same company, kind " +
				"and period, so a subscribed calendar updates it; DTSTAMP is midnight UTC of today, so the same company " +
				"and today give the same bytes. A failure is the JSON error envelope.",
			Params: []Param{country(false), id(false), today(false)},
			Result: "calendar feed (text/calendar; charset=utf-8, RFC 5545)", ContentType: "text/calendar; charset=utf-8",
			Limited: true, Cost: one, Errors: append([]registry.Code{registry.CodeBadRequest}, upstream()...)},
		{Name: "companyDeadlinesBatch", Method: "POST", Pattern: "/v1/{country}/deadlines:batch", Tag: TagDeadlines,
			ExamplePath: "/v1/NO/deadlines:batch", Summary: "Deadlines of many companies in one call",
			Doc: fmt.Sprintf("The DeadlineReport of each of 1 to %d identifiers, computed from one today, in the order of "+
				"the request. One bad identifier never fails the batch: its item carries the error the single deadlines "+
				"route would give (error and status) and the others their reports. A batch of n identifiers costs n "+
				"requests of the rate limit. A batch answers within %d seconds: an identifier not answered by then carries "+
				"upstream_timeout (or rate_limited when the register's allowance ran out); send those again. A body that "+
				"is not such a JSON object (more than %d ids, none, an unknown field, over %d bytes) is bad_request.",
				MaxBatchIDs, int(BatchTimeout.Seconds()), MaxBatchIDs, MaxBatchBodyBytes),
			Params: []Param{country(false)}, Body: BatchRequest,
			BodyExample: `{"ids": ["923609016", "974760673"], "today": "2026-01-15"}`, Result: BatchResponse, Limited: true,
			Cost: "one request per identifier (one for a body that cannot be read)",
			Errors: []registry.Code{registry.CodeBadRequest, registry.CodeUnsupportedCountry, registry.CodeRateLimited,
				registry.CodeInternalError}},
		{Name: "validateCompanyID", Method: "GET", Pattern: "/v1/{country}/validate/{id}", Tag: TagValidation,
			ExamplePath: "/v1/NO/validate/923%20609%20016", Summary: "Validate an identifier offline",
			Doc: "Format and checksum only, no call to the register. An invalid identifier is a normal 200 with valid " +
				"false, a reason and a hint. A valid result does not mean the entity exists.",
			Params: []Param{id(true), country(true)}, Result: schema.ValidationResult, Limited: true, Cost: one,
			Errors: []registry.Code{registry.CodeUnsupportedCountry, registry.CodeRateLimited, registry.CodeInternalError},
			Tool: &Tool{Name: "validate_company_id", Title: "Validate a company identifier",
				Note: " (invalid gives valid false, no error)",
				Description: "Check an identifier's format and checksum offline, without calling the register, and get its " +
					"canonical form (normalized) and local typography (formatted). An invalid identifier is a normal answer " +
					"with valid false, a reason and a hint, not an error. A valid identifier does not prove the entity exists."}},
		{Name: "llmsTxt", Method: "GET", Pattern: "/llms.txt", Tag: TagService, ExamplePath: "/llms.txt", Summary: "Short guide for language models", Resource: true,
			Doc:         "The llms.txt file: what the service does and where to go next. Never rate limited.",
			ContentType: "text/plain; charset=utf-8"},
		{Name: "llmsFullTxt", Method: "GET", Pattern: "/llms-full.txt", Tag: TagService, ExamplePath: "/llms-full.txt", Summary: "Full reference", Resource: true,
			Doc:         "Every operation, parameter, error code, field and country rule as plain text, generated from the running service. Never rate limited.",
			ContentType: "text/plain; charset=utf-8"},
		{Name: "serverJSON", Method: "GET", Pattern: "/server.json", Tag: TagService, ExamplePath: "/server.json", Summary: "MCP registry manifest", Resource: true,
			Doc: "server.json after the MCP registry schema 2025-12-11. Never rate limited."},
		{Name: "openAPI", Method: "GET", Pattern: "/openapi.json", Tag: TagService, Summary: "This document", Resource: true,
			Doc: "The OpenAPI 3.1 description of the service. Never rate limited."},
	}
}

// Tools returns the operations that have an MCP tool, in the order of the
// texts.
func Tools() []Operation {
	order := []string{"lookup_company", "search_company", "company_deadlines", "company_roles",
		"validate_company_id", "list_countries"}
	ops := Operations()
	out := make([]Operation, 0, len(order))
	for _, name := range order {
		for _, o := range ops {
			if o.Tool != nil && o.Tool.Name == name {
				out = append(out, o)
			}
		}
	}
	return out
}

// Lookup returns the operation called name, change monitoring's included.
func Lookup(name string) (Operation, bool) {
	for _, o := range append(Operations(), ChangeOperations()...) {
		if o.Name == name {
			return o, true
		}
	}
	return Operation{}, false
}

// CodeCondition says when an operation answers with code c.
func CodeCondition(c registry.Code) string {
	switch c {
	case registry.CodeInvalidID:
		return "the identifier fails format or checksum"
	case registry.CodeBadRequest:
		return fmt.Sprintf("a parameter is missing, malformed or out of range (empty q, limit outside 1 to %d, unparseable today); also a method other than GET (HTTP 405)", registry.MaxSearchLimit)
	case registry.CodeNotFound:
		return "well-formed identifier, no such entity; also an unknown route"
	case registry.CodeUnsupportedCountry:
		return "no module for the country code"
	case registry.CodeRateLimited:
		return "over the rate limit (of this service or of the upstream register)"
	case registry.CodeNotImplemented:
		return "the country module lacks this operation"
	case registry.CodeUpstreamError:
		return "the national register errored, or a required operator credential is missing"
	case registry.CodeUpstreamTimeout:
		return "the national register did not answer in time"
	case registry.CodeUnauthorized:
		return "a watch or feed route without a valid API token (Authorization: Bearer)"
	case registry.CodeForbidden:
		return "a watch or feed route of a deployment whose operator has configured no API token"
	case registry.CodeCursorExpired:
		return "a change feed cursor older than the changes kept (details.oldest_cursor says where to resume)"
	}
	return "a defect in the service"
}

func ptr[T any](v T) *T { return &v }
