package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/cacheonly"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/ops"
)

// The tool names of the interface.
const (
	ToolLookupCompany     = "lookup_company"
	ToolSearchCompany     = "search_company"
	ToolCompanyDeadlines  = "company_deadlines"
	ToolCompanyRoles      = "company_roles"
	ToolValidateCompanyID = "validate_company_id"
	ToolListCountries     = "list_countries"
	// ToolCompanyChanges is served only with [WithChanges].
	ToolCompanyChanges = catalog.ToolCompanyChanges
)

// DefaultCountry is the country a tool uses when the caller gives none.
const DefaultCountry = catalog.DefaultCountry

// maxArgumentsBytes bounds the arguments of one tool call that
// encoding/json decodes. The longest valid input is a 256-byte search
// query; anything far larger is a mistake. Arguments the hand scanner
// takes (at most maxScanArgs plain strings, numbers, true, false or null,
// read in one linear pass) are not bounded here, nor are those of at most
// maxScanArgs strings with escapes and scalars (scanArgsEscaped, also
// linear), so that a long identifier or name gets the operation's own
// error, as from the Go API, whatever its JSON spelling; the transport
// bounds the message.
const maxArgumentsBytes = 16 << 10

type handlers struct {
	reg   *registry.Registry
	ops   *ops.Ops
	log   *slog.Logger
	tools map[string]rawTool // by name, for the fast paths
	// changes serves company_changes; nil without change monitoring.
	changes *changes.Service
}

// toolOutput is what a tool of this package answers: a document, encoded
// (structured content and, as text, the content), or an error envelope
// (the content, with isError). The bytes are never modified.
type toolOutput struct {
	doc      []byte // the document; nil for an error
	envelope []byte // the error envelope, when doc is nil
	// miss: no answer, under a cache-only context (internal/cacheonly),
	// whose operation would have asked a register; never sent.
	miss bool
}

// result is the tool result of o, as the SDK sends it.
func (o toolOutput) result() *mcp.CallToolResult {
	if o.doc == nil {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(o.envelope)}}}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(o.doc)}},
		StructuredContent: json.RawMessage(o.doc),
	}
}

// rawTool answers a call of one tool with its raw arguments: what the SDK's
// handler and the fast paths both call.
type rawTool func(ctx context.Context, args json.RawMessage) toolOutput

// toolFunc answers a tool call whose arguments are decoded.
type toolFunc func(ctx context.Context, a toolArgs) toolOutput

// toolFuncs returns the function of each tool of the catalogue, by the
// tool's name.
func (h *handlers) toolFuncs() map[string]toolFunc {
	return map[string]toolFunc{
		ToolLookupCompany:     h.lookup,
		ToolSearchCompany:     h.search,
		ToolCompanyDeadlines:  h.deadlines,
		ToolCompanyRoles:      h.roles,
		ToolValidateCompanyID: h.validate,
		ToolListCountries:     h.countries,
		ToolCompanyChanges:    h.companyChanges,
	}
}

// annotations returns the hints of a tool: every tool only reads, and
// may be repeated; an open-world one calls a national register.
func annotations(openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{
		ReadOnlyHint:    true,
		IdempotentHint:  true,
		DestructiveHint: countrykit.Ptr(false),
		OpenWorldHint:   countrykit.Ptr(openWorld),
	}
}

// addTools registers the tool of every operation of the catalogue that has
// one (a test checks that each has a function), and remembers the handlers
// for the fast paths. The handler decodes the arguments the catalogue
// names, then calls the tool's function.
func (h *handlers) addTools(srv *mcp.Server) {
	fns := h.toolFuncs()
	tools := catalog.Tools()
	if h.changes != nil {
		tools = append(tools, catalog.ChangeTools()...)
	}
	for _, op := range tools {
		fn, ok := fns[op.Tool.Name]
		if !ok {
			continue
		}
		allowed := op.ArgNames()
		var rt rawTool = func(ctx context.Context, args json.RawMessage) toolOutput {
			a, err := h.args(args, allowed...)
			if err != nil {
				return h.failure(err)
			}
			return fn(ctx, a)
		}
		rt = h.recoverTool(op.Tool.Name, h.limited(rt))
		th := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return rt(ctx, req.Params.Arguments).result(), nil
		}
		srv.AddTool(&mcp.Tool{
			Name:         op.Tool.Name,
			Title:        op.Tool.Title,
			Description:  op.Tool.Description,
			InputSchema:  op.InputSchema(),
			OutputSchema: op.OutputSchema(),
			Annotations:  annotations(op.Tool.OpenWorld),
		}, th)
		h.tools[op.Tool.Name] = rt
	}
}

func (h *handlers) lookup(ctx context.Context, a toolArgs) toolOutput {
	b, err := h.ops.LookupJSON(ctx, a.country, a.id)
	return h.resultJSON(b, err)
}

func (h *handlers) search(ctx context.Context, a toolArgs) toolOutput {
	b, err := h.ops.SearchJSON(ctx, a.country, a.name, a.limit)
	return h.resultJSON(b, err)
}

func (h *handlers) deadlines(ctx context.Context, a toolArgs) toolOutput {
	today, err := h.ops.ParseToday(a.country, a.today, a.today != "")
	if err != nil {
		return h.failure(err)
	}
	rep, err := h.reg.Deadlines(ctx, a.country, a.id, today)
	return h.result(rep, err)
}

func (h *handlers) roles(ctx context.Context, a toolArgs) toolOutput {
	b, err := h.ops.RolesJSON(ctx, a.country, a.id)
	return h.resultJSON(b, err)
}

func (h *handlers) validate(_ context.Context, a toolArgs) toolOutput {
	res, err := h.reg.Validate(a.country, a.id)
	return h.result(ops.SurfaceValidation(res), err)
}

func (h *handlers) countries(context.Context, toolArgs) toolOutput {
	return h.result(h.reg.Countries(), nil)
}

// companyChanges answers company_changes (served only with WithChanges).
func (h *handlers) companyChanges(ctx context.Context, a toolArgs) toolOutput {
	b, err := h.changes.CompanyChangesJSON(ctx, a.country, a.id, a.limit)
	return h.resultJSON(b, err)
}

// result turns an operation's answer into a tool result: the document as
// structured content and as text, or the error envelope with isError.
func (h *handlers) result(doc any, err error) toolOutput {
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
func (h *handlers) resultJSON(b []byte, err error) toolOutput {
	if err != nil {
		return h.failure(err)
	}
	return toolOutput{doc: b}
}

// failure renders err as the REST error envelope in a tool result with
// isError set.
func (h *handlers) failure(err error) toolOutput {
	if errors.As(err, new(cacheonly.Miss)) {
		return toolOutput{miss: true} // not logged: the SDK's path runs the call
	}
	b, e := ops.EnvelopeJSON(err)
	if e.Code == registry.CodeInternalError {
		h.log.LogAttrs(context.Background(), slog.LevelError, "mcp tool failed",
			slog.String("code", string(e.Code)), slog.String("country", e.Country), slog.Any("error", e.Err))
	}
	return toolOutput{envelope: b}
}

// toolArgs holds the decoded arguments of a tool call, defaults applied.
type toolArgs struct {
	id, name, country, today string
	limit                    int
}

// args decodes the raw arguments of a call, accepting only the names
// allowed. A problem is a bad_request error with the project's envelope.
func (h *handlers) args(args json.RawMessage, allowed ...string) (toolArgs, error) {
	a := toolArgs{limit: registry.DefaultSearchLimit}
	if slices.Contains(allowed, "country") {
		a.country = DefaultCountry
	}
	raw := bytes.TrimSpace(args)
	if len(raw) == 0 || string(raw) == "null" {
		return a, nil
	}
	var room [4]argMember // the members of the arguments, on the stack
	m, ok := scanArgs(raw, room[:0])
	switch {
	case ok:
	case len(raw) > maxArgumentsBytes:
		// A long value spelt with an escape gets the answer its plain
		// spelling gets (doors12); anything else this large is refused
		// before encoding/json decodes it.
		if m, ok = scanArgsEscaped(raw, room[:0]); !ok {
			return a, h.badRequest(a.country, "The tool arguments are larger than 16 KiB.",
				fmt.Sprintf("Shorten the arguments: an identifier is far shorter, a name at most %d bytes.", registry.MaxQueryLength))
		}
	default:
		m, ok = unmarshalArgs(raw)
	}
	if !ok {
		return a, h.badRequest(a.country, "The tool arguments must be a JSON object.",
			"Pass the arguments as an object, for example {\"id\":\"923609016\",\"country\":\"NO\"}.")
	}
	// The country first, so that later errors name it.
	if v, ok := m.get("country"); ok && slices.Contains(allowed, "country") {
		s, isNull, ok := jsonString(v)
		if !ok {
			return a, h.badRequest(a.country, "country must be a string such as \"NO\" or \"GB\".",
				"Pass a country code from list_countries; the United Kingdom is GB.")
		}
		// null and "" are the default, as some clients send them; a blank
		// country (" ") is no country code, as on REST and the Go API.
		if !isNull && s != "" {
			a.country = s
		}
	}
	// An unknown argument first, the least by name so that the answer does
	// not depend on map order: ops.UnknownMember's rule, over the byte
	// names scanArgs read (converting them to strings would allocate on
	// the cached path).
	unknown, found := "", false
	for _, a := range m {
		if !isAllowed(allowed, a.key) && (!found || string(a.key) < unknown) {
			unknown, found = string(a.key), true
		}
	}
	if found {
		msg := fmt.Sprintf("Unknown argument %s; this tool takes no arguments.", ops.Quote(unknown))
		if len(allowed) > 0 {
			msg = fmt.Sprintf("Unknown argument %s; this tool takes %s.", ops.Quote(unknown), strings.Join(allowed, ", "))
		}
		return a, h.badRequest(a.country, msg, "Retry with only the documented arguments.")
	}
	for _, k := range allowed {
		v, ok := m.get(k)
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
	if s, ok := plainStringValue(v); ok {
		return s, false, true
	}
	// A variable of its own: &s of the result would move s to the heap on
	// every call, the plain strings' too.
	var u string
	if err := json.Unmarshal(v, &u); err != nil {
		return "", false, false
	}
	return u, false, true
}

// unmarshalArgs is json.Unmarshal(raw, &m) for the arguments scanArgs does
// not take, the map's members (the last of a name given twice, as the map
// keeps it) in any order. Its m is declared where it is needed: &m moves m
// to the heap, which on the caller's variable cost an allocation on every
// call.
func unmarshalArgs(raw []byte) (argMembers, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	members := make(argMembers, 0, len(m))
	for k, v := range m {
		members = append(members, argMember{[]byte(k), v})
	}
	return members, true
}

// isAllowed reports whether key is one of the names allowed.
func isAllowed(allowed []string, key []byte) bool {
	for _, a := range allowed {
		if a == string(key) {
			return true
		}
	}
	return false
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
