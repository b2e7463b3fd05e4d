package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/schema"
)

// The tool names of the interface.
const (
	ToolLookupCompany     = "lookup_company"
	ToolSearchCompany     = "search_company"
	ToolCompanyDeadlines  = "company_deadlines"
	ToolCompanyRoles      = "company_roles"
	ToolValidateCompanyID = "validate_company_id"
	ToolListCountries     = "list_countries"
)

// DefaultCountry is the country a tool uses when the caller gives none.
const DefaultCountry = "NO"

// maxArgumentsBytes bounds the arguments of one tool call. The longest valid
// input is a 256-byte search query; anything far larger is a mistake.
const maxArgumentsBytes = 16 << 10

type handlers struct {
	reg   *registry.Registry
	ops   *ops.Ops
	log   *slog.Logger
	tools map[string]mcp.ToolHandler // by name, for the HTTP fast path
	lim   Limiter                    // WithLimiter's, or nil
}

// addTool registers a tool with srv and remembers its handler.
func (h *handlers) addTool(srv *mcp.Server, t *mcp.Tool, th mcp.ToolHandler) {
	th = h.limited(th)
	srv.AddTool(t, th)
	h.tools[t.Name] = th
}

// param describes one tool argument: its input schema and how to read it.
type param struct {
	name   string
	schema *jsonschema.Schema
}

func stringParam(name, desc string) param {
	return param{name, &jsonschema.Schema{Type: "string", Description: desc}}
}

func countryParam() param {
	return param{"country", &jsonschema.Schema{Type: "string", Default: json.RawMessage(strconv.Quote(DefaultCountry)),
		Description: "ISO 3166-1 alpha-2 country code, any case: NO (Norway) or GB (United Kingdom; never UK). " +
			"Default " + DefaultCountry + ". list_countries gives the codes that can answer now."}}
}

func idParam() param {
	return stringParam("id", "The company's national identifier as the user wrote it: spaces, dots, a country prefix "+
		"and (Norway) a trailing MVA are accepted. E.g. 923609016 or \"923 609 016\" (NO), 00445790 (GB).")
}

// inputSchema returns the object schema of a tool's arguments. It carries
// types, descriptions and defaults but no enum, pattern or range, so that
// the Registry answers out-of-range values with its own envelope.
func inputSchema(required []string, params ...param) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		Required:             required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	for _, p := range params {
		s.Properties[p.name] = p.schema
		s.PropertyOrder = append(s.PropertyOrder, p.name)
	}
	if s.Required == nil {
		s.Required = []string{}
	}
	return s
}

func annotations(openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{
		ReadOnlyHint:    true,
		IdempotentHint:  true,
		DestructiveHint: countrykit.Ptr(false),
		OpenWorldHint:   countrykit.Ptr(openWorld),
	}
}

func (h *handlers) addTools(srv *mcp.Server) {
	h.addTool(srv, &mcp.Tool{
		Name:  ToolLookupCompany,
		Title: "Look up a company",
		Description: "Fetch the full report on one registered entity by its national identifier from the country's " +
			"business register: name, legal form, status (is it trading?), registration and VAT facts, addresses, " +
			"industry codes, employees, and notes to show the user. Use search_company first when you only have a name. " +
			"Cached answers carry cached true and the original fetched_at. Failures: invalid_id (fix the id or search), " +
			"not_found (search by name), unsupported_country, upstream_error/upstream_timeout (already retried once).",
		InputSchema:  inputSchema([]string{"id"}, idParam(), countryParam()),
		OutputSchema: schema.Output(schema.CompanyReport),
		Annotations:  annotations(true),
	}, h.lookup)

	h.addTool(srv, &mcp.Tool{
		Name:  ToolSearchCompany,
		Title: "Search companies by name",
		Description: "Search a country's business register by company name and get thin candidate hits, best first, " +
			"each with a confidence. A hit is not a report: pass its id to lookup_company before acting on it. " +
			"Zero hits is a normal answer whose hint says what to try. Norwegian names are registered in upper case " +
			"and often end in AS, ASA or NUF. " +
			fmt.Sprintf("limit is 1 to %d (default %d); outside that the result is bad_request.", registry.MaxSearchLimit, registry.DefaultSearchLimit),
		InputSchema: inputSchema([]string{"name"},
			stringParam("name", "The company name or part of it, e.g. equinor."),
			countryParam(),
			param{"limit", &jsonschema.Schema{Type: "integer", Default: json.RawMessage(strconv.Itoa(registry.DefaultSearchLimit)),
				Description: fmt.Sprintf("Maximum number of hits, an integer from 1 to %d. Default %d.", registry.MaxSearchLimit, registry.DefaultSearchLimit)}}),
		OutputSchema: schema.Output(schema.SearchResult),
		Annotations:  annotations(true),
	}, h.search)

	h.addTool(srv, &mcp.Tool{
		Name:  ToolCompanyDeadlines,
		Title: "Next statutory filing deadlines",
		Description: "Compute the next statutory filing deadline of each kind for one entity (annual accounts, tax " +
			"return, VAT return, payroll report, general meeting, confirmation statement, ...), sorted by due_date. " +
			"Quote due_date (after weekend and holiday roll-forward); days_until is negative when overdue. An empty " +
			"list is a valid answer: notes say why. The company is looked up first, so lookup errors apply.",
		InputSchema: inputSchema([]string{"id"}, idParam(), countryParam(),
			stringParam("today", "The date to count from, YYYY-MM-DD. Omit it (or pass null) for the current UTC date.")),
		OutputSchema: schema.Output(schema.DeadlineReport),
		Annotations:  annotations(true),
	}, h.deadlines)

	h.addTool(srv, &mcp.Tool{
		Name:  ToolCompanyRoles,
		Title: "Who runs, signs for and controls a company",
		Description: "List the registered roles of one entity: board (chair first), management, signatories and " +
			"procuration holders, partners, owners, beneficial owners (persons with significant control, with their " +
			"natures of control), secretaries, auditors and accountants. Each role has a country-neutral group, the " +
			"register's role_code, an English role label and a holder (a person or an entity). Current roles come " +
			"first; current false marks a former one. Read notes: they say where the rule of who may sign together is " +
			"registered (it is not guessed) and when a long list was cut. Roles name people: use them for the task at " +
			"hand only. The company is looked up first, so lookup errors apply; a country without roles is " +
			"not_implemented.",
		InputSchema:  inputSchema([]string{"id"}, idParam(), countryParam()),
		OutputSchema: schema.Output(schema.RolesReport),
		Annotations:  annotations(true),
	}, h.roles)

	h.addTool(srv, &mcp.Tool{
		Name:  ToolValidateCompanyID,
		Title: "Validate a company identifier",
		Description: "Check an identifier's format and checksum offline, without calling the register, and get its " +
			"canonical form (normalized) and local typography (formatted). An invalid identifier is a normal answer " +
			"with valid false, a reason and a hint, not an error. A valid identifier does not prove the entity exists.",
		InputSchema:  inputSchema([]string{"id"}, idParam(), countryParam()),
		OutputSchema: schema.Output(schema.ValidationResult),
		Annotations:  annotations(false),
	}, h.validate)

	h.addTool(srv, &mcp.Tool{
		Name:  ToolListCountries,
		Title: "List supported countries",
		Description: "List the countries and registers that can answer now, with each identifier scheme, an example " +
			"identifier and the data licence. Use these country codes in the other tools; do not hard-code them.",
		InputSchema:  inputSchema(nil),
		OutputSchema: schema.Output(schema.CountriesResponse),
		Annotations:  annotations(false),
	}, h.countries)
}

func (h *handlers) lookup(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := h.args(req, "id", "country")
	if err != nil {
		return h.failure(err), nil
	}
	b, err := h.ops.LookupJSON(ctx, a.country, a.id)
	return h.resultJSON(b, err), nil
}

func (h *handlers) search(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := h.args(req, "name", "country", "limit")
	if err != nil {
		return h.failure(err), nil
	}
	b, err := h.ops.SearchJSON(ctx, a.country, a.name, a.limit)
	return h.resultJSON(b, err), nil
}

func (h *handlers) deadlines(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := h.args(req, "id", "country", "today")
	if err != nil {
		return h.failure(err), nil
	}
	today, err := h.ops.ParseToday(a.country, a.today, a.today != "")
	if err != nil {
		return h.failure(err), nil
	}
	rep, err := h.reg.Deadlines(ctx, a.country, a.id, today)
	return h.result(rep, err), nil
}

func (h *handlers) roles(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := h.args(req, "id", "country")
	if err != nil {
		return h.failure(err), nil
	}
	b, err := h.ops.RolesJSON(ctx, a.country, a.id)
	return h.resultJSON(b, err), nil
}

func (h *handlers) validate(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := h.args(req, "id", "country")
	if err != nil {
		return h.failure(err), nil
	}
	res, err := h.reg.Validate(a.country, a.id)
	return h.result(ops.SurfaceValidation(res), err), nil
}

func (h *handlers) countries(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if _, err := h.args(req); err != nil {
		return h.failure(err), nil
	}
	return h.result(h.reg.Countries(), nil), nil
}

// result turns an operation's answer into a tool result: the document as
// structured content and as text, or the error envelope with isError.
func (h *handlers) result(doc any, err error) *mcp.CallToolResult {
	if err != nil {
		return h.failure(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return h.failure(&registry.Error{Code: registry.CodeInternalError,
			Message: "The answer could not be encoded.", Err: err})
	}
	return h.resultJSON(b, nil)
}

// resultJSON is result for a document already encoded; b is not modified.
func (h *handlers) resultJSON(b []byte, err error) *mcp.CallToolResult {
	if err != nil {
		return h.failure(err)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}
}

// failure renders err as the REST error envelope in a tool result with
// isError set.
func (h *handlers) failure(err error) *mcp.CallToolResult {
	b, e := ops.EnvelopeJSON(err)
	if e.Code == registry.CodeInternalError {
		h.log.LogAttrs(context.Background(), slog.LevelError, "mcp tool failed",
			slog.String("code", string(e.Code)), slog.String("country", e.Country), slog.Any("error", e.Err))
	}
	return &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: string(b)}},
	}
}

// toolArgs holds the decoded arguments of a tool call, defaults applied.
type toolArgs struct {
	id, name, country, today string
	limit                    int
}

// args decodes the arguments of req, accepting only the names allowed. A
// problem is a bad_request error with the project's envelope.
func (h *handlers) args(req *mcp.CallToolRequest, allowed ...string) (toolArgs, error) {
	a := toolArgs{limit: registry.DefaultSearchLimit}
	if slices.Contains(allowed, "country") {
		a.country = DefaultCountry
	}
	raw := bytes.TrimSpace(req.Params.Arguments)
	if len(raw) > maxArgumentsBytes {
		return a, h.badRequest(a.country, "The tool arguments are too large.", "Pass only the documented arguments.")
	}
	if len(raw) == 0 || string(raw) == "null" {
		return a, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return a, h.badRequest(a.country, "The tool arguments must be a JSON object.",
			"Pass the arguments as an object, for example {\"id\":\"923609016\",\"country\":\"NO\"}.")
	}
	// The country first, so that later errors name it.
	if v, ok := m["country"]; ok && slices.Contains(allowed, "country") {
		s, isNull, ok := jsonString(v)
		if !ok {
			return a, h.badRequest(a.country, "country must be a string such as \"NO\" or \"GB\".",
				"Pass a country code from list_countries; the United Kingdom is GB.")
		}
		if !isNull && strings.TrimSpace(s) != "" { // "" is the default, as some clients send it
			a.country = s
		}
	}
	// An unknown argument first, the least by name so that the answer does
	// not depend on map order.
	unknown, found := "", false
	for k := range m {
		if !slices.Contains(allowed, k) && (!found || k < unknown) {
			unknown, found = k, true
		}
	}
	if found {
		msg := fmt.Sprintf("Unknown argument %q; this tool takes no arguments.", unknown)
		if len(allowed) > 0 {
			msg = fmt.Sprintf("Unknown argument %q; this tool takes %s.", unknown, strings.Join(allowed, ", "))
		}
		return a, h.badRequest(a.country, msg, "Retry with only the documented arguments.")
	}
	for _, k := range allowed {
		v, ok := m[k]
		if !ok {
			continue
		}
		switch k {
		case "id", "name", "today":
			s, isNull, ok := jsonString(v)
			if !ok {
				return a, h.badRequest(a.country, k+" must be a string.", stringHint(k))
			}
			if isNull {
				continue
			}
			switch k {
			case "id":
				a.id = s
			case "name":
				a.name = s
			case "today":
				if s == "" {
					// Given but not a date, as on REST; null or absent is
					// the current date.
					return a, h.ops.InvalidToday(a.country)
				}
				a.today = s
			}
		case "limit":
			raw, present := limitText(v)
			n, err := h.ops.ParseLimit(a.country, raw, present)
			if err != nil {
				return a, err
			}
			a.limit = n
		}
	}
	return a, nil
}

func stringHint(name string) string {
	switch name {
	case "id":
		return "Pass the identifier as a JSON string, for example \"923609016\", so that leading zeros survive."
	case "today":
		return "Pass today as a string YYYY-MM-DD (for example \"2026-01-15\"), or null for the current UTC date."
	}
	return "Pass a company name as a JSON string, for example \"equinor\"."
}

// jsonString decodes a JSON string; null is reported as isNull.
func jsonString(v json.RawMessage) (s string, isNull, ok bool) {
	if string(bytes.TrimSpace(v)) == "null" {
		return "", true, true
	}
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false, false
	}
	return s, false, true
}

// limitText turns a JSON limit into the text [registry.Registry.ParseLimit]
// reads: null is absent; a string is its content (so "5" works, which some
// clients send); a number with no fraction (5 or 5.0) is its integer; any
// other value is its JSON text, which ParseLimit refuses.
func limitText(v json.RawMessage) (raw string, present bool) {
	v = bytes.TrimSpace(v)
	if string(v) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, true
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err == nil && f == math.Trunc(f) && math.Abs(f) <= 1e9 {
		return strconv.Itoa(int(f)), true
	}
	return string(v), true
}

// badRequest returns the Registry's error for a parameter problem of a call
// for country: unsupported_country for an unknown code, else bad_request. A
// tool without a country argument (country "") gets a plain bad_request.
func (h *handlers) badRequest(country, message, hint string) *registry.Error {
	if country == "" {
		return &registry.Error{Code: registry.CodeBadRequest, Message: message, Hint: hint}
	}
	return h.ops.BadRequest(country, message, hint)
}
