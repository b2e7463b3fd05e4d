package restserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/schema"
)

type textResources struct {
	llms, llmsFull, serverJSON, openAPI *template
}

func buildText(reg *registry.Registry, o options) (*textResources, error) {
	fixed := fixedLocation(o)
	d := docInputs{
		reg:       reg,
		countries: ops.New(reg).Modules(),
		version:   reg.Health().Version,
		rateLimit: o.rateLimit,
		mcpURL:    mcpURL(o.mcpPath),
		shared:    o.limiter != nil,
	}
	serverJSON, err := d.serverJSON()
	if err != nil {
		return nil, err
	}
	openAPI, err := d.openAPI(o.publicURL != "")
	if err != nil {
		return nil, err
	}
	full, err := d.llmsFull()
	if err != nil {
		return nil, err
	}
	return &textResources{
		llms:       newTemplate(d.llms(), false, fixed),
		llmsFull:   newTemplate(full, false, fixed),
		serverJSON: newTemplate(serverJSON, true, fixed),
		openAPI:    newTemplate(string(openAPI), true, fixed),
	}, nil
}

type docInputs struct {
	reg       *registry.Registry
	countries []registry.CountryInfo
	version   string
	rateLimit int
	mcpURL    string // the advertised MCP endpoint, "" for none
	shared    bool   // a Limiter given with WithLimiter, which MCP may share
}

// mcpURL is the advertised MCP endpoint of a WithMCPPath value: a path
// after the base URL, or an absolute URL as it is.
func mcpURL(p string) string {
	if p == "" || strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
		return p
	}
	return basePlaceholder + p
}

func (d docInputs) codes() []string {
	codes := make([]string, 0, len(d.countries))
	for _, c := range d.countries {
		codes = append(codes, c.Country)
	}
	return codes
}

// example returns a country and identifier for the example lookup: the
// first country that needs no credential, else the first country.
func (d docInputs) example() (registry.CountryInfo, bool) {
	for _, c := range d.countries {
		if !c.RequiresAPIKey && !c.IsStub {
			return c, true
		}
	}
	if len(d.countries) > 0 {
		return d.countries[0], true
	}
	return registry.CountryInfo{}, false
}

const tools = "lookup_company, search_company, company_deadlines, company_roles, validate_company_id, list_countries"

func (d docInputs) llms() string {
	var b strings.Builder
	codes := strings.Join(d.codes(), ", ")
	fmt.Fprintf(&b, "# companyregistry — company data from national business registers (%s)\n\n", codes)
	b.WriteString("> One country-neutral JSON shape for national business registers: look a company up by its national " +
		"identifier, search by name, compute its next statutory filing deadlines, list who runs, signs for and controls it, " +
		"and validate an identifier offline. " +
		"REST under " + basePlaceholder + "/v1")
	if d.mcpURL != "" {
		b.WriteString(" and MCP (Streamable HTTP) at " + d.mcpURL)
	}
	b.WriteString(".\n\n")
	b.WriteString("Every failure is `{\"error\": {\"code\", \"message\", \"hint\", \"country\", \"registry\", \"details\"}}`; " +
		"branch on `code` and follow `hint`. Unknown values are null, never \"\" or 0. Country codes are ISO 3166-1 " +
		"alpha-2: use GB, not UK. Identifiers may be written with spaces or dots. Search hits are thin: look the id up " +
		"before acting on one. Cite `source` and `source_url`; some register data is licensed with an attribution duty.\n\n")
	b.WriteString("## REST\n\n")
	b.WriteString("- [Countries](" + basePlaceholder + "/v1/countries): the registries that can answer now, with identifier formats and examples\n")
	if c, ok := d.example(); ok {
		fmt.Fprintf(&b, "- [Example lookup](%s/v1/%s/company/%s): a CompanyReport; also `/v1/{country}/search?q=name&limit="+strconv.Itoa(registry.DefaultSearchLimit)+"`, "+
			"`/v1/{country}/company/{id}/deadlines?today=YYYY-MM-DD`, `/v1/{country}/company/{id}/roles`, `/v1/{country}/validate/{id}`\n",
			basePlaceholder, c.Country, c.IDExample)
		fmt.Fprintf(&b, "- Many companies: `POST /v1/{country}/deadlines:batch` with `{\"ids\": [...], \"today\": \"YYYY-MM-DD\"}` "+
			"(1 to %d ids, each charged to the rate limit) gives each id's DeadlineReport or error, in order; "+
			"`/v1/{country}/company/{id}/deadlines.ics` is the same deadlines as a calendar feed to subscribe to\n", MaxBatchIDs)
	}
	b.WriteString("- [OpenAPI 3.1](" + basePlaceholder + "/openapi.json): every route, parameter, response and schema\n")
	b.WriteString("- [Full reference](" + basePlaceholder + "/llms-full.txt): operations, parameters, errors, fields and each country's rules\n")
	if d.mcpURL != "" {
		b.WriteString("\n## MCP\n\n")
		b.WriteString("- [MCP endpoint](" + d.mcpURL + "): Streamable HTTP. Tools: " + tools +
			"; resource registry://rules/{country}; prompt explain_company\n")
		b.WriteString("- [server.json](" + basePlaceholder + "/server.json): MCP registry manifest\n")
	}
	b.WriteString("\n## Optional\n\n")
	b.WriteString("- [Health](" + basePlaceholder + "/health): liveness, version and the countries that can answer now\n")
	return b.String()
}

// operation describes one REST route for the text reference and OpenAPI.
type operation struct {
	id, method, path, summary, doc string
	params                         []param
	result                         string // schema name
	errors                         []registry.Code
	limited                        bool
	body                           string // schema name of the JSON request body, if any
	contentType                    string // of the 200 answer when it is not JSON (result is then its description)
}

type param struct {
	name, in, doc string
	required      bool
	schema        *jsonschema.Schema
}

func operations() []operation {
	country := param{name: "country", in: "path", required: true,
		doc:    "ISO 3166-1 alpha-2 country code from GET /v1/countries, any letter case (GB for the United Kingdom, never UK).",
		schema: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(2), MaxLength: jsonschema.Ptr(2), Examples: []any{"NO"}}}
	id := param{name: "id", in: "path", required: true,
		doc:    "National identifier; spaces, dots, a leading country prefix and (Norway) a trailing MVA are accepted.",
		schema: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), Examples: []any{"923609016"}}}
	upstream := []registry.Code{registry.CodeInvalidID, registry.CodeNotFound, registry.CodeUnsupportedCountry,
		registry.CodeRateLimited, registry.CodeNotImplemented, registry.CodeUpstreamError, registry.CodeUpstreamTimeout,
		registry.CodeInternalError}
	return []operation{
		{id: "health", method: "GET", path: "/health", summary: "Liveness check",
			doc:    "Answers 200 whenever the process is up; makes no upstream call; never rate limited.",
			result: schema.HealthResponse},
		{id: "listCountries", method: "GET", path: "/v1/countries", summary: "List the supported countries",
			doc: "The registries that can answer now, sorted by country code. A registry that needs an operator " +
				"credential the deployment lacks is not listed. Do not hard-code this list.",
			result: schema.CountriesResponse, limited: true,
			errors: []registry.Code{registry.CodeRateLimited, registry.CodeInternalError}},
		{id: "lookupCompany", method: "GET", path: "/v1/{country}/company/{id}", summary: "Look up one company",
			doc: "The full report of one entity. The identifier is normalised first; one that fails format or " +
				"checksum is invalid_id and the register is not called. A well-formed identifier with no entity is " +
				"not_found. A failing register is retried once before upstream_error (502) or upstream_timeout (504).",
			params: []param{country, id}, result: schema.CompanyReport, limited: true, errors: upstream},
		{id: "searchCompanies", method: "GET", path: "/v1/{country}/search", summary: "Search companies by name",
			doc: "Thin candidate hits, best first (confidence 0.95 exact name, 0.8 prefix, 0.6 all words, 0.4 other). " +
				"Zero hits is a success with hits [] and a hint. A missing or empty q, or a limit outside 1 to " +
				strconv.Itoa(registry.MaxSearchLimit) + ", is bad_request (never clamped).",
			params: []param{country,
				{name: "q", in: "query", required: true, doc: fmt.Sprintf("The name or part of it (1 to %d bytes).", registry.MaxQueryLength),
					schema: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(registry.MaxQueryLength), Examples: []any{"equinor"}}},
				{name: "limit", in: "query", doc: fmt.Sprintf("Most hits to return, 1 to %d (default %d).", registry.MaxSearchLimit, registry.DefaultSearchLimit),
					schema: &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(registry.MaxSearchLimit)),
						Default: json.RawMessage(fmt.Sprint(registry.DefaultSearchLimit))}},
			},
			result: schema.SearchResult, limited: true,
			errors: []registry.Code{registry.CodeBadRequest, registry.CodeUnsupportedCountry, registry.CodeRateLimited,
				registry.CodeNotImplemented, registry.CodeUpstreamError, registry.CodeUpstreamTimeout, registry.CodeInternalError}},
		{id: "companyDeadlines", method: "GET", path: "/v1/{country}/company/{id}/deadlines", summary: "Next statutory filing deadlines",
			doc: "The next occurrence of each filing obligation, sorted by due_date, computed from the company's report " +
				"and today. The same company and today always give the same list; an empty list is a valid answer and " +
				"notes says why.",
			params: []param{country, id,
				{name: "today", in: "query", doc: "The date to count from, YYYY-MM-DD (default: the server's current UTC date).",
					schema: &jsonschema.Schema{Type: "string", Format: "date", Examples: []any{"2026-01-15"}}},
			},
			result: schema.DeadlineReport, limited: true, errors: append([]registry.Code{registry.CodeBadRequest}, upstream...)},
		{id: "companyRoles", method: "GET", path: "/v1/{country}/company/{id}/roles", summary: "Who runs, signs for and controls a company",
			doc: "The registered roles of one entity: board, management, signatories and procuration holders, partners, " +
				"owners, beneficial owners (persons with significant control), secretaries, auditors and accountants, each " +
				"with a country-neutral group, the register's own code and an English label. Current roles come first, " +
				"then by group (board first, the chair first); former roles are kept with current false. The entity is " +
				"looked up first, so the errors are those of a lookup; a country without roles is not_implemented. A " +
				"person's birth is at most year and month. notes say where a signing rule is registered and when a list " +
				"was cut.",
			params: []param{country, id}, result: schema.RolesReport, limited: true, errors: upstream},
		{id: "companyDeadlinesICS", method: "GET", path: "/v1/{country}/company/{id}/deadlines.ics", summary: "Filing deadlines as a calendar feed",
			doc: "The deadlines of the JSON route, for the same today, as an RFC 5545 iCalendar feed to subscribe to: " +
				"one all-day event per deadline on its due_date, named after the company (X-WR-CALNAME), with the " +
				"legal basis and source_url in the description. An event's UID is the same for the same company, kind " +
				"and period, so a subscribed calendar updates it; DTSTAMP is midnight UTC of today, so the same company " +
				"and today give the same bytes. A failure is the JSON error envelope.",
			params: []param{country, id,
				{name: "today", in: "query", doc: "The date to count from, YYYY-MM-DD (default: the server's current UTC date).",
					schema: &jsonschema.Schema{Type: "string", Format: "date", Examples: []any{"2026-01-15"}}},
			},
			result: "calendar feed (text/calendar; charset=utf-8, RFC 5545)", contentType: "text/calendar", limited: true,
			errors: append([]registry.Code{registry.CodeBadRequest}, upstream...)},
		{id: "companyDeadlinesBatch", method: "POST", path: "/v1/{country}/deadlines:batch", summary: "Deadlines of many companies in one call",
			doc: fmt.Sprintf("The DeadlineReport of each of 1 to %d identifiers, computed from one today, in the order of "+
				"the request. One bad identifier never fails the batch: its item carries the error the single deadlines "+
				"route would give (error and status) and the others their reports. A batch of n identifiers costs n "+
				"requests of the rate limit. A batch answers within %d seconds: an identifier not answered by then carries "+
				"upstream_timeout (or rate_limited when the register's allowance ran out); send those again. A body that "+
				"is not such a JSON object (more than %d ids, none, an unknown field, over %d bytes) is bad_request.",
				MaxBatchIDs, int(BatchTimeout.Seconds()), MaxBatchIDs, MaxBatchBodyBytes),
			params: []param{country}, body: batchRequestSchema, result: batchResponseSchema, limited: true,
			errors: []registry.Code{registry.CodeBadRequest, registry.CodeUnsupportedCountry, registry.CodeRateLimited,
				registry.CodeInternalError}},
		{id: "validateCompanyID", method: "GET", path: "/v1/{country}/validate/{id}", summary: "Validate an identifier offline",
			doc: "Format and checksum only, no call to the register. An invalid identifier is a normal 200 with valid " +
				"false, a reason and a hint. A valid result does not mean the entity exists.",
			params: []param{country, id}, result: schema.ValidationResult, limited: true,
			errors: []registry.Code{registry.CodeUnsupportedCountry, registry.CodeRateLimited, registry.CodeInternalError}},
	}
}

func codeCondition(c registry.Code) string {
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
	}
	return "a defect in the service"
}

func (d docInputs) llmsFull() (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# companyregistry — full reference (version %s)\n\n", d.version)
	b.WriteString("This service answers questions about registered companies from national business registers, for " +
		"every supported country, in one country-neutral JSON shape. Base URL: " + basePlaceholder + ". REST routes are " +
		"under /v1")
	if d.mcpURL != "" {
		b.WriteString("; the MCP endpoint (Streamable HTTP) is " + d.mcpURL + " and returns the same " +
			"documents")
	}
	b.WriteString(". This file is generated from the running service.\n\n")

	b.WriteString("## 1. Conventions\n\n")
	b.WriteString("- Every field of every document is always present. Unknown values are null, never \"\" or 0 " +
		"(`employees: null` means no figure is published; `employees: 0` means zero is published). Lists are [] " +
		"and maps {} when empty.\n")
	b.WriteString("- Dates are `YYYY-MM-DD`; `fetched_at` is an RFC 3339 UTC timestamp.\n")
	b.WriteString("- Country codes are ISO 3166-1 alpha-2 in any letter case on input, upper case on output. " +
		"The United Kingdom is GB; UK is unsupported_country. Call GET /v1/countries rather than hard-coding the list.\n")
	b.WriteString("- Identifiers may be written the way people write them (spaces, dots, a country prefix); the answer " +
		"carries the canonical form.\n")
	b.WriteString("- Search hits are thin candidates: look the id up before acting on one.\n")
	b.WriteString("- Deadlines are computed, not fetched: the same company and the same `today` always give the same list. " +
		"Quote `due_date`.\n")
	b.WriteString("- Cite `source` and `source_url`: some registers publish under licences that require attribution.\n")
	b.WriteString("- Sole proprietorships (legal form ENK) are registered in a person's name: treat their data as " +
		"personal data.\n")
	b.WriteString("- Roles name people: use them for the purpose at hand only. A person's birth is never more than year " +
		"and month; the register's rule for who may sign together is not guessed (notes say where it is registered).\n\n")

	b.WriteString("## 2. REST operations\n\n")
	b.WriteString("All routes but the batch are GET (HEAD also works) and take no body; the batch is POST with a JSON " +
		"body. All answer `application/json` except the calendar feed; errors are always JSON. Another method on a " +
		"known route is 405 with the error envelope (code bad_request) and an `Allow` header; an unknown route is 404 " +
		"not_found. Every response carries `X-Request-ID` (yours, echoed, or a generated one).\n\n")
	for _, op := range operations() {
		fmt.Fprintf(&b, "### %s %s\n\n%s. %s\n\n", op.method, op.path, op.summary, op.doc)
		for _, p := range op.params {
			req := "optional"
			if p.required {
				req = "required"
			}
			fmt.Fprintf(&b, "- `%s` (%s, %s): %s\n", p.name, p.in, req, p.doc)
		}
		if op.body != "" {
			fmt.Fprintf(&b, "- Body (required, application/json): a %s, for example `{\"ids\": [\"923609016\", \"974760673\"], \"today\": \"2026-01-15\"}`.\n", op.body)
		}
		fmt.Fprintf(&b, "- Success: 200, a %s.\n", op.result)
		if len(op.errors) > 0 {
			codes := make([]string, 0, len(op.errors))
			for _, c := range op.errors {
				codes = append(codes, fmt.Sprintf("%s (%d)", c, c.HTTPStatus()))
			}
			fmt.Fprintf(&b, "- Errors: %s.\n", strings.Join(codes, ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("Text resources (never rate limited): GET /llms.txt (short guide), GET /llms-full.txt (this file), " +
		"GET /server.json (MCP registry manifest), GET /openapi.json (OpenAPI 3.1 description of every route and " +
		"schema).\n\n")

	if d.mcpURL != "" {
		b.WriteString("## 3. MCP\n\n")
		fmt.Fprintf(&b, "Endpoint %s (Streamable HTTP); the server can also run over stdio. Every tool returns the same "+
			"JSON document as its REST counterpart; a failure is a tool result with isError true whose text is the same "+
			"error envelope.\n\n", d.mcpURL)
		b.WriteString("- `lookup_company(id, country=\"NO\")` → CompanyReport\n")
		fmt.Fprintf(&b, "- `search_company(name, country=\"NO\", limit=%d)` → SearchResult\n", registry.DefaultSearchLimit)
		b.WriteString("- `company_deadlines(id, country=\"NO\", today=null)` → DeadlineReport\n")
		b.WriteString("- `company_roles(id, country=\"NO\")` → RolesReport\n")
		b.WriteString("- `validate_company_id(id, country=\"NO\")` → ValidationResult (invalid gives valid false, no error)\n")
		b.WriteString("- `list_countries()` → CountriesResponse\n")
		b.WriteString("- Resource `registry://rules/{country}`: the country's rules document (section 7 below).\n")
		b.WriteString("- Prompt `explain_company(id, country)`: a plain-language summary of a company.\n\n")
	}

	b.WriteString("## 4. Errors\n\n")
	b.WriteString("Every failure has the body `{\"error\": {\"code\", \"message\", \"hint\", \"country\", \"registry\", " +
		"\"details\"}}`. Branch on `code`, never on `message`; `hint` always names a next action; `country` and " +
		"`registry` are null when no country is concerned; `details` is an object (for rate_limited it holds " +
		"`retry_after`, in seconds, also sent as the Retry-After header). Codes are stable and never renamed. " +
		"No response is ever 422.\n\n")
	b.WriteString("| code | HTTP | condition | what to do |\n|---|---|---|---|\n")
	for _, c := range registry.Codes() {
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", c, c.HTTPStatus(), codeCondition(c), c.DefaultHint())
	}
	b.WriteString("\n")

	b.WriteString("## 5. Limits\n\n")
	if d.rateLimit > 0 {
		fmt.Fprintf(&b, "- Rate: %d requests per minute per client address on the /v1 routes (a token bucket: a burst of "+
			"%d, then one every %s); over it, 429 rate_limited with Retry-After. /health and the text resources are "+
			"not limited.\n", d.rateLimit, d.rateLimit, perToken(d.rateLimit))
		if d.shared && d.mcpURL != "" {
			b.WriteString("- The same allowance covers MCP tool calls: a tools/call over it is a tool result with the " +
				"rate_limited envelope (and Retry-After on the HTTP response).\n")
		}
	} else {
		b.WriteString("- Rate: this deployment sets no rate limit of its own.\n")
	}
	fmt.Fprintf(&b, "- Search: `q` 1 to %d bytes; `limit` 1 to %d, default %d; outside the range is bad_request.\n",
		registry.MaxQueryLength, registry.MaxSearchLimit, registry.DefaultSearchLimit)
	fmt.Fprintf(&b, "- Batch: 1 to %d ids, a body of at most %d bytes. A batch of n ids is charged as n requests of the "+
		"rate limit: it needs as many tokens as it has ids (a full bucket when it has more ids than the bucket holds), "+
		"and a batch larger than the bucket leaves a debt that refills at the usual pace before the next call.\n",
		MaxBatchIDs, MaxBatchBodyBytes)
	b.WriteString("- Cache: successful lookups, searches and roles are cached up to 24 hours, not_found answers 1 hour; a cached " +
		"answer has `cached: true` and keeps the original `fetched_at`.\n")
	b.WriteString("- Upstream: one automatic retry of a failing register before 502 or 504; callers retry at most once " +
		"more after about 60 seconds, never in a loop.\n\n")

	b.WriteString("## 6. Documents\n\n")
	b.WriteString("Every field is listed with its JSON type. \"or null\" marks a nullable field; all fields are always " +
		"present.\n\n")
	comps := schema.Components()
	maps.Copy(comps, batchSchemas())
	for _, name := range []string{schema.CompanyReport, schema.Address, schema.IndustryCode, schema.PublishedDeadline,
		schema.SearchResult, schema.SearchHit, schema.DeadlineReport, schema.Deadline, schema.RolesReport, schema.Role,
		schema.RoleHolder, schema.ValidationResult, schema.CountriesResponse, schema.CountryInfo, schema.HealthResponse, schema.Error,
		batchRequestSchema, batchResponseSchema, batchItemSchema} {
		s := comps[name]
		if s == nil {
			return "", fmt.Errorf("restserver: no schema %s", name)
		}
		fmt.Fprintf(&b, "### %s\n\n%s\n\n", name, s.Description)
		writeFields(&b, s, "")
		b.WriteString("\n")
	}

	b.WriteString("## 7. Countries\n\n")
	if len(d.countries) == 0 {
		b.WriteString("This deployment has no country modules.\n")
	}
	for _, c := range d.countries {
		fmt.Fprintf(&b, "- %s: %s (registry `%s`), identifier %s, e.g. `%s`. %s", c.Country, c.Name, c.Registry,
			c.IDScheme, c.IDExample, c.IDDescription)
		if c.RequiresAPIKey && c.APIKeyEnv != nil {
			fmt.Fprintf(&b, " Needs an operator credential (%s).", *c.APIKeyEnv)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, c := range d.countries {
		rules, err := d.reg.Rules(c.Country)
		if err != nil {
			return "", fmt.Errorf("restserver: rules of %s: %w", c.Country, err)
		}
		b.WriteString(demoteHeadings(strings.TrimSpace(rules), 2))
		b.WriteString("\n\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

func perToken(perMinute int) string {
	if perMinute == 60 {
		return "second"
	}
	if 60%perMinute == 0 {
		return fmt.Sprintf("%d seconds", 60/perMinute)
	}
	return fmt.Sprintf("%.2f seconds", 60/float64(perMinute))
}

// writeFields lists the properties of an object schema as Markdown bullets.
func writeFields(b *strings.Builder, s *jsonschema.Schema, indent string) {
	order := s.PropertyOrder
	if len(order) == 0 {
		for k := range s.Properties {
			order = append(order, k)
		}
		slices.Sort(order)
	}
	for _, name := range order {
		p := s.Properties[name]
		fmt.Fprintf(b, "%s- `%s`: %s\n", indent, name, describe(p))
		if p.Type == "object" && len(p.Properties) > 0 {
			writeFields(b, p, indent+"  ")
		}
	}
}

// describe renders a property schema as a short type phrase.
func describe(s *jsonschema.Schema) string {
	if s.Ref != "" {
		ref := strings.TrimPrefix(s.Ref, schema.ComponentsRef)
		if doc, member, ok := strings.Cut(ref, "/properties/"); ok {
			return "the " + member + " member of " + doc
		}
		return ref
	}
	if len(s.AnyOf) == 2 && s.AnyOf[1].Type == "null" {
		return describe(s.AnyOf[0]) + " or null"
	}
	typ := s.Type
	nullable := false
	if len(s.Types) > 0 {
		typ = s.Types[0]
		nullable = slices.Contains(s.Types, "null")
	}
	switch {
	case typ == "array" && s.Items != nil:
		typ = "array of " + describe(s.Items)
	case typ == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Type != "":
		typ = "object of " + s.AdditionalProperties.Type
	case s.Format == "date":
		typ = "date (YYYY-MM-DD)"
	case s.Format == "date-time":
		typ = "date-time (RFC 3339, UTC)"
	}
	if len(s.Enum) > 0 {
		vals := make([]string, 0, len(s.Enum))
		for _, v := range s.Enum {
			vals = append(vals, fmt.Sprint(v))
		}
		typ += ", one of " + strings.Join(vals, ", ")
	}
	if s.Minimum != nil && s.Maximum != nil {
		typ += fmt.Sprintf(" (%g to %g)", *s.Minimum, *s.Maximum)
	} else if s.Minimum != nil {
		typ += fmt.Sprintf(" (>= %g)", *s.Minimum)
	}
	if nullable {
		typ += " or null"
	}
	return typ
}

// demoteHeadings adds levels to every Markdown ATX heading outside fenced
// code blocks, so an embedded document nests under the file's headings.
func demoteHeadings(doc string, levels int) string {
	var b strings.Builder
	fenced := false
	prefix := strings.Repeat("#", levels)
	for i, line := range strings.Split(doc, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "#") {
			b.WriteString(prefix)
		}
		b.WriteString(line)
	}
	return b.String()
}

// server.json: the MCP registry manifest (schema 2025-12-11).

// ServerJSONSchemaURL is the "$schema" of /server.json.
const ServerJSONSchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// ServerName is the name of the server in /server.json, the same as the
// MCP serverInfo name of mcpserver.
const ServerName = ops.ServerName

type serverManifest struct {
	Schema      string         `json:"$schema"`
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Version     string         `json:"version"`
	WebsiteURL  string         `json:"websiteUrl"`
	Remotes     []remote       `json:"remotes,omitempty"`
	Meta        map[string]any `json:"_meta"`
}

type remote struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

func (d docInputs) serverJSON() (string, error) {
	m := serverManifest{
		Schema:      ServerJSONSchemaURL,
		Name:        ServerName,
		Title:       ops.ServerTitle,
		Description: "Company data from national business registers: lookup, name search, ID checks, filing deadlines.",
		Version:     d.version,
		WebsiteURL:  basePlaceholder + "/llms.txt",
		Meta: map[string]any{
			"io.modelcontextprotocol.registry/publisher-provided": map[string]any{
				"countries": d.codes(),
				"documentation": map[string]string{
					"llmsTxt":     basePlaceholder + "/llms.txt",
					"llmsFullTxt": basePlaceholder + "/llms-full.txt",
					"openapi":     basePlaceholder + "/openapi.json",
				},
			},
		},
	}
	if d.mcpURL != "" {
		m.Remotes = []remote{{Type: "streamable-http", URL: d.mcpURL}}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return "", fmt.Errorf("restserver: server.json: %w", err)
	}
	return buf.String(), nil
}
