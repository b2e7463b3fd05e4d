package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func indent(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func parse(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

// text returns the text of a result's single content item.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("got %d content items, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}

// TestToolsList checks the tool surface: the five names of the spec, titles,
// annotations and input schemas (golden), and that each outputSchema is the
// schema package's schema of the document the tool returns.
func TestToolsList(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantOutput := map[string]string{
		"lookup_company":      schema.CompanyReport,
		"search_company":      schema.SearchResult,
		"company_deadlines":   schema.DeadlineReport,
		"company_roles":       schema.RolesReport,
		"validate_company_id": schema.ValidationResult,
		"list_countries":      schema.CountriesResponse,
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		want := parse(t, indent(t, schema.Output(wantOutput[tool.Name])))
		if diff := cmp.Diff(want, parse(t, indent(t, tool.OutputSchema))); diff != "" {
			t.Errorf("%s outputSchema (-want +got):\n%s", tool.Name, diff)
		}
		tool.OutputSchema = nil
	}
	if diff := cmp.Diff([]string{"company_deadlines", "company_roles", "list_countries", "lookup_company", "search_company", "validate_company_id"}, names); diff != "" {
		t.Errorf("tool names (-want +got):\n%s", diff)
	}
	golden(t, "tools.golden", indent(t, res.Tools))
}

// TestToolAnnotations checks the spec rule: every tool is read-only,
// idempotent and not destructive; the three that call a register are
// open-world.
func TestToolAnnotations(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	res, err := connect(t, reg).ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][4]bool{}
	for _, tool := range res.Tools {
		a := tool.Annotations
		got[tool.Name] = [4]bool{a.ReadOnlyHint, a.IdempotentHint, *a.DestructiveHint, *a.OpenWorldHint}
		if tool.Title == "" || len(tool.Description) < 80 {
			t.Errorf("%s: title %q, description %q: want both, and a description an agent can act on", tool.Name, tool.Title, tool.Description)
		}
	}
	want := map[string][4]bool{
		"lookup_company":      {true, true, false, true},
		"search_company":      {true, true, false, true},
		"company_deadlines":   {true, true, false, true},
		"company_roles":       {true, true, false, true},
		"validate_company_id": {true, true, false, false},
		"list_countries":      {true, true, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("annotations [readOnly idempotent destructive openWorld] (-want +got):\n%s", diff)
	}
}

// TestInputSchemasHaveNoRanges checks the rule that input schemas carry no
// enum, pattern, minimum or maximum, so the project's own envelope answers
// out-of-range values.
func TestInputSchemasHaveNoRanges(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	res, err := connect(t, reg).ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		for _, kw := range []string{`"enum"`, `"pattern"`, `"minimum"`, `"maximum"`, `"minLength"`} {
			if bytes.Contains(b, []byte(kw)) {
				t.Errorf("%s input schema has %s: %s", tool.Name, kw, b)
			}
		}
	}
}

// call is one tool call and the Registry operation it must equal.
type call struct {
	name string
	tool string
	args map[string]any
	// op performs the same operation on the Registry and names its REST route.
	op op
	// code is the expected error code, or "" for success.
	code registry.Code
}

// op is one operation of the interface: a direct call on the Registry and
// the REST request for it.
type op struct {
	do   func(ctx context.Context, reg *registry.Registry) (any, error)
	path string
}

func calls() []call {
	esc := url.PathEscape
	lookup := func(country, id string) op {
		return op{func(ctx context.Context, reg *registry.Registry) (any, error) { return reg.Lookup(ctx, country, id) },
			"/v1/" + esc(country) + "/company/" + esc(id)}
	}
	search := func(country, q string, limit int) op {
		return op{func(ctx context.Context, reg *registry.Registry) (any, error) {
			return reg.Search(ctx, country, q, limit)
		},
			"/v1/" + esc(country) + "/search?" + url.Values{"q": {q}, "limit": {strconv.Itoa(limit)}}.Encode()}
	}
	deadlines := func(country, id, today string) op {
		path := "/v1/" + esc(country) + "/company/" + esc(id) + "/deadlines"
		if today != "" {
			path += "?" + url.Values{"today": {today}}.Encode()
		}
		return op{func(ctx context.Context, reg *registry.Registry) (any, error) {
			day, err := ops.New(reg).ParseToday(country, today, today != "")
			if err != nil {
				return nil, err
			}
			return reg.Deadlines(ctx, country, id, day)
		}, path}
	}
	validate := func(country, id string) op {
		return op{func(_ context.Context, reg *registry.Registry) (any, error) { return reg.Validate(country, id) },
			"/v1/" + esc(country) + "/validate/" + esc(id)}
	}
	countries := op{func(_ context.Context, reg *registry.Registry) (any, error) { return reg.Countries(), nil }, "/v1/countries"}
	roles := func(country, id string) op {
		return op{func(ctx context.Context, reg *registry.Registry) (any, error) { return reg.Roles(ctx, country, id) },
			"/v1/" + esc(country) + "/company/" + esc(id) + "/roles"}
	}
	return []call{
		{"lookup ok default country", "lookup_company", map[string]any{"id": idEquinor}, lookup("NO", idEquinor), ""},
		{"lookup ok spaced lower-case country", "lookup_company", map[string]any{"id": "NO 923 609 016 MVA", "country": "no"}, lookup("no", "NO 923 609 016 MVA"), ""},
		{"lookup ok empty country is the default", "lookup_company", map[string]any{"id": idEquinor, "country": ""}, lookup("NO", idEquinor), ""},
		{"lookup invalid_id", "lookup_company", map[string]any{"id": idBadChecksum}, lookup("NO", idBadChecksum), registry.CodeInvalidID},
		{"lookup not_found", "lookup_company", map[string]any{"id": idNotFound, "country": "NO"}, lookup("NO", idNotFound), registry.CodeNotFound},
		{"lookup unsupported_country UK", "lookup_company", map[string]any{"id": "00445790", "country": "UK"}, lookup("UK", "00445790"), registry.CodeUnsupportedCountry},
		{"lookup unsupported_country SE", "lookup_company", map[string]any{"id": "5560360793", "country": "SE"}, lookup("SE", "5560360793"), registry.CodeUnsupportedCountry},
		{"lookup rate_limited", "lookup_company", map[string]any{"id": idRateLimited}, lookup("NO", idRateLimited), registry.CodeRateLimited},
		{"lookup not_implemented", "lookup_company", map[string]any{"id": idNotImplemented}, lookup("NO", idNotImplemented), registry.CodeNotImplemented},
		{"lookup upstream_error", "lookup_company", map[string]any{"id": idUpstreamError}, lookup("NO", idUpstreamError), registry.CodeUpstreamError},
		{"lookup upstream_error GB without key", "lookup_company", map[string]any{"id": "00445790", "country": "GB"}, lookup("GB", "00445790"), registry.CodeUpstreamError},
		{"lookup upstream_timeout", "lookup_company", map[string]any{"id": idUpstreamTimout}, lookup("NO", idUpstreamTimout), registry.CodeUpstreamTimeout},
		{"lookup internal_error", "lookup_company", map[string]any{"id": idDefect}, lookup("NO", idDefect), registry.CodeInternalError},
		{"search ok", "search_company", map[string]any{"name": "equinor", "limit": 2}, search("NO", "equinor", 2), ""},
		{"search ok default limit", "search_company", map[string]any{"name": "equinor"}, search("NO", "equinor", 10), ""},
		{"search zero hits", "search_company", map[string]any{"name": "zzqx", "country": "NO"}, search("NO", "zzqx", 10), ""},
		{"search bad_request empty name", "search_company", map[string]any{"name": " "}, search("NO", " ", 10), registry.CodeBadRequest},
		{"search bad_request limit empty", "search_company", map[string]any{"name": "equinor", "limit": ""}, op{
			func(_ context.Context, reg *registry.Registry) (any, error) {
				return ops.New(reg).ParseLimit("NO", "", true)
			},
			"/v1/NO/search?q=equinor&limit="}, registry.CodeBadRequest},
		{"search ok limit null is the default", "search_company", map[string]any{"name": "equinor", "limit": nil}, search("NO", "equinor", 10), ""},
		{"search bad_request limit 0", "search_company", map[string]any{"name": "equinor", "limit": 0}, search("NO", "equinor", 0), registry.CodeBadRequest},
		{"search bad_request limit 101", "search_company", map[string]any{"name": "equinor", "limit": 101}, search("NO", "equinor", 101), registry.CodeBadRequest},
		{"search unsupported_country", "search_company", map[string]any{"name": "bbc", "country": "UK"}, search("UK", "bbc", 10), registry.CodeUnsupportedCountry},
		{"search upstream_error GB without key", "search_company", map[string]any{"name": "bbc", "country": "gb"}, search("gb", "bbc", 10), registry.CodeUpstreamError},
		{"deadlines ok", "company_deadlines", map[string]any{"id": idEquinor, "today": "2026-01-15"}, deadlines("NO", idEquinor, "2026-01-15"), ""},
		{"deadlines ok today null", "company_deadlines", map[string]any{"id": idEquinor, "today": nil}, deadlines("NO", idEquinor, ""), ""},
		{"deadlines ok today absent", "company_deadlines", map[string]any{"id": idEquinor, "country": "NO"}, deadlines("NO", idEquinor, ""), ""},
		{"deadlines bad_request today", "company_deadlines", map[string]any{"id": idEquinor, "today": "15.01.2026"}, deadlines("NO", idEquinor, "15.01.2026"), registry.CodeBadRequest},
		{"deadlines bad_request today empty", "company_deadlines", map[string]any{"id": idEquinor, "today": ""}, op{
			// The same envelope as any other today that is not a date.
			func(ctx context.Context, reg *registry.Registry) (any, error) {
				return nil, ops.New(reg).InvalidToday("NO")
			},
			"/v1/NO/company/" + idEquinor + "/deadlines?today="}, registry.CodeBadRequest},
		{"deadlines invalid_id", "company_deadlines", map[string]any{"id": "123"}, deadlines("NO", "123", ""), registry.CodeInvalidID},
		{"deadlines not_found", "company_deadlines", map[string]any{"id": idNotFound}, deadlines("NO", idNotFound, ""), registry.CodeNotFound},
		{"deadlines unsupported_country", "company_deadlines", map[string]any{"id": idEquinor, "country": "XX"}, deadlines("XX", idEquinor, ""), registry.CodeUnsupportedCountry},
		{"validate valid", "validate_company_id", map[string]any{"id": "923 609 016"}, validate("NO", "923 609 016"), ""},
		{"validate invalid is valid false", "validate_company_id", map[string]any{"id": idBadChecksum}, validate("NO", idBadChecksum), ""},
		{"validate GB works without key", "validate_company_id", map[string]any{"id": "sc294759", "country": "GB"}, validate("GB", "sc294759"), ""},
		{"validate unsupported_country", "validate_company_id", map[string]any{"id": idEquinor, "country": "UK"}, validate("UK", idEquinor), registry.CodeUnsupportedCountry},
		{"list_countries", "list_countries", nil, countries, ""},
		{"roles ok", "company_roles", map[string]any{"id": "923 609 016"}, roles("NO", "923 609 016"), ""},
		{"roles invalid_id", "company_roles", map[string]any{"id": idBadChecksum}, roles("NO", idBadChecksum), registry.CodeInvalidID},
		{"roles not_found", "company_roles", map[string]any{"id": idNotFound, "country": "no"}, roles("no", idNotFound), registry.CodeNotFound},
		{"roles unsupported_country", "company_roles", map[string]any{"id": idEquinor, "country": "UK"}, roles("UK", idEquinor), registry.CodeUnsupportedCountry},
		{"roles not_implemented GB", "company_roles", map[string]any{"id": "00445790", "country": "GB"}, roles("GB", "00445790"), registry.CodeNotImplemented},
		{"roles upstream_timeout", "company_roles", map[string]any{"id": idUpstreamTimout}, roles("NO", idUpstreamTimout), registry.CodeUpstreamTimeout},
	}
}

// TestToolCalls checks the spec rule that every tool returns the same JSON
// document as the operation it wraps: on success the text content is the
// document's JSON byte for byte and structuredContent is the same document;
// on failure isError is set and the text is the error envelope, byte for
// byte. The library's neutral operation phrases in hints appear as the
// adapters name them (ops.SurfaceText). It also checks the defaults
// (country NO, limit 10, today null).
func TestToolCalls(t *testing.T) {
	t.Parallel()
	for _, tc := range calls() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg, _ := newRegistry(t)
			cs := connect(t, reg)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			// A second Registry, so the MCP call's cache entry does not change the answer.
			other, _ := newRegistry(t)
			doc, derr := tc.op.do(t.Context(), other)
			var want []byte
			if derr != nil {
				want, _ = ops.EnvelopeJSON(derr)
			} else {
				if v, ok := doc.(*registry.ValidationResult); ok {
					doc = ops.SurfaceValidation(v)
				}
				want, _ = json.Marshal(doc)
				if v, ok := doc.(*registry.SearchResult); ok {
					want = ops.SurfaceSearchJSON(v.Country, want)
				}
			}
			if got := text(t, res); got != string(want) {
				t.Errorf("text:\n got %s\nwant %s", got, want)
			}
			if res.IsError != (tc.code != "") {
				t.Fatalf("isError = %v, want %v", res.IsError, tc.code != "")
			}
			if tc.code != "" {
				var e registry.Error
				if err := json.Unmarshal([]byte(text(t, res)), &e); err != nil {
					t.Fatal(err)
				}
				if e.Code != tc.code || e.Hint == "" {
					t.Errorf("envelope code %q hint %q, want code %q and a hint", e.Code, e.Hint, tc.code)
				}
				if res.StructuredContent != nil {
					t.Errorf("structuredContent = %v on an error, want none", res.StructuredContent)
				}
				return
			}
			sc, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(parse(t, want), parse(t, sc)); diff != "" {
				t.Errorf("structuredContent (-want +got):\n%s", diff)
			}
		})
	}
}

// TestToolCallLookupCached checks that a second lookup is served from the
// cache (cached true, the original fetched_at) without a second upstream call.
func TestToolCallLookupCached(t *testing.T) {
	t.Parallel()
	reg, no := newRegistry(t)
	cs := connect(t, reg)
	var docs []map[string]any
	for range 2 {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "lookup_company", Arguments: map[string]any{"id": idEquinor}})
		if err != nil || res.IsError {
			t.Fatalf("CallTool: %v %v", err, res)
		}
		docs = append(docs, parse(t, []byte(text(t, res))).(map[string]any))
	}
	if docs[0]["cached"] != false || docs[1]["cached"] != true || docs[0]["fetched_at"] != docs[1]["fetched_at"] {
		t.Errorf("cached %v then %v, fetched_at %v then %v: want false, true and the same time",
			docs[0]["cached"], docs[1]["cached"], docs[0]["fetched_at"], docs[1]["fetched_at"])
	}
	if n := no.lookups.Load(); n != 1 {
		t.Errorf("upstream lookups = %d, want 1", n)
	}
}

// TestToolParameterErrors checks the rule that parameter problems keep the
// project's envelope and hint rather than an SDK validation message.
func TestToolParameterErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tool string
		args any
		want registry.Error
	}{
		{"limit as a word", "search_company", map[string]any{"name": "equinor", "limit": "ten"},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: `limit must be an integer from 1 to 100; got "ten".`, Hint: "Retry with limit between 1 and 100 (default 10)."}},
		{"limit with a fraction", "search_company", map[string]any{"name": "equinor", "limit": 2.5},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: `limit must be an integer from 1 to 100; got "2.5".`, Hint: "Retry with limit between 1 and 100 (default 10)."}},
		{"limit empty string", "search_company", map[string]any{"name": "equinor", "limit": ""},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: `limit must be an integer from 1 to 100; got "".`, Hint: "Retry with limit between 1 and 100 (default 10)."}},
		{"limit 1000 from the Registry", "search_company", map[string]any{"name": "equinor", "limit": 1000},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: "limit must be an integer from 1 to 100; got 1000.", Hint: "Retry with limit between 1 and 100 (default 10)."}},
		{"limit negative", "search_company", map[string]any{"name": "equinor", "limit": -1},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: "limit must be an integer from 1 to 100; got -1.", Hint: "Retry with limit between 1 and 100 (default 10)."}},
		{"empty name", "search_company", map[string]any{"name": "  "},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: "The search query is missing or empty.", Hint: "Pass a company name or part of one, for example equinor."}},
		{"missing name", "search_company", map[string]any{"country": "GB"},
			registry.Error{Code: registry.CodeBadRequest, Country: "GB", Registry: "companies_house",
				Message: "The search query is missing or empty.", Hint: "Pass a company name or part of one, for example equinor."}},
		{"numeric id", "lookup_company", map[string]any{"id": 923609016},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: "id must be a string.", Hint: `Pass the identifier as a JSON string, for example "923609016", so that leading zeros survive.`}},
		{"numeric country", "validate_company_id", map[string]any{"id": idEquinor, "country": 47},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: `country must be a string such as "NO" or "GB".`, Hint: "Pass a country code from list_countries; the United Kingdom is GB."}},
		{"today as a number", "company_deadlines", map[string]any{"id": idEquinor, "today": 20260115},
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: "today must be a string.", Hint: `Pass today as a string YYYY-MM-DD (for example "2026-01-15"), or null for the current UTC date.`}},
		{"unknown argument", "lookup_company", map[string]any{"id": idEquinor, "country": "gb", "q": "x"},
			registry.Error{Code: registry.CodeBadRequest, Country: "GB", Registry: "companies_house",
				Message: `Unknown argument "q"; this tool takes id, country.`, Hint: "Retry with only the documented arguments."}},
		{"unknown country wins over a bad argument", "search_company", map[string]any{"name": "x", "country": "uk", "limit": "ten"},
			registry.Error{Code: registry.CodeUnsupportedCountry, Country: "UK",
				Message: "UK is not an ISO 3166-1 code: the United Kingdom is GB.",
				Hint:    "Use GB for the United Kingdom; call the countries operation for the full list."}},
		{"argument to list_countries", "list_countries", map[string]any{"country": "NO"},
			registry.Error{Code: registry.CodeBadRequest,
				Message: `Unknown argument "country"; this tool takes no arguments.`, Hint: "Retry with only the documented arguments."}},
		{"arguments not an object", "lookup_company", json.RawMessage(`["923609016"]`),
			registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "brreg",
				Message: "The tool arguments must be a JSON object.", Hint: `Pass the arguments as an object, for example {"id":"923609016","country":"NO"}.`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg, _ := newRegistry(t)
			res, err := connect(t, reg).CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if !res.IsError {
				t.Fatalf("isError false, want true: %s", text(t, res))
			}
			want, _ := json.Marshal(&tc.want)
			if diff := cmp.Diff(string(want), text(t, res)); diff != "" {
				t.Errorf("envelope (-want +got):\n%s", diff)
			}
		})
	}
}

// TestToolLimitLooselyTyped checks that a limit given as a numeric string,
// as some clients send it, is accepted.
func TestToolLimitLooselyTyped(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_company",
		Arguments: map[string]any{"name": "equinor", "limit": "1", "country": nil}})
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %v %s", err, text(t, res))
	}
	other, _ := newRegistry(t)
	want, _ := other.Search(t.Context(), "NO", "equinor", 1)
	b, _ := json.Marshal(want)
	// The tool sends the hint with the lookup named as lookup_company.
	b = ops.SurfaceSearchJSON("NO", b)
	if got := text(t, res); got != string(b) {
		t.Errorf("got %s\nwant %s", got, b)
	}
}

func TestUnknownToolIsProtocolError(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	_, err := connect(t, reg).CallTool(t.Context(), &mcp.CallToolParams{Name: "lookup", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if err == nil || !asWireError(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("err = %v, want a JSON-RPC invalid-params error", err)
	}
}

func asWireError(err error, target **jsonrpc.Error) bool {
	for err != nil {
		if e, ok := err.(*jsonrpc.Error); ok { //nolint:errorlint // this loop is the unwrapping
			*target = e
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// TestResources checks the rules resources: the template, one concrete
// resource per country, Markdown content in any case of the code, and the
// unsupported_country envelope for UK.
func TestResources(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)

	tmpl, err := cs.ListResourceTemplates(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "registry://rules/{country}" ||
		tmpl.ResourceTemplates[0].MIMEType != "text/markdown" {
		t.Errorf("templates = %s", indent(t, tmpl.ResourceTemplates))
	}
	list, err := cs.ListResources(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI+" "+r.MIMEType)
	}
	if diff := cmp.Diff([]string{"registry://rules/GB text/markdown", "registry://rules/NO text/markdown"}, uris); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}

	for _, tc := range []struct{ uri, want string }{
		{"registry://rules/NO", fakeNORules},
		{"registry://rules/no", fakeNORules},
		{"registry://rules/GB", fakeGBRules},
	} {
		rr, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: tc.uri})
		if err != nil {
			t.Fatalf("%s: %v", tc.uri, err)
		}
		got := []string{}
		for _, c := range rr.Contents {
			got = append(got, c.URI, c.MIMEType, c.Text)
		}
		if diff := cmp.Diff([]string{tc.uri, "text/markdown", tc.want}, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.uri, diff)
		}
	}

	_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "registry://rules/UK"})
	_, want := reg.Rules("UK")
	wantEnv, _ := json.Marshal(registry.AsError(want))
	var werr *jsonrpc.Error
	if !asWireError(err, &werr) {
		t.Fatalf("err = %v, want a JSON-RPC error", err)
	}
	if werr.Message != string(wantEnv) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("error %d %s, want %d %s", werr.Code, werr.Message, jsonrpc.CodeInvalidParams, wantEnv)
	}
	if !strings.Contains(werr.Message, `"code":"unsupported_country"`) {
		t.Errorf("error message %s lacks unsupported_country", werr.Message)
	}
}

const (
	fakeNORules = "# Norway\n\nOrganisation numbers have nine digits.\n"
	fakeGBRules = "# United Kingdom\n\nCompany numbers have eight characters.\n"
)

// TestPrompt checks explain_company: its arguments, the default country and
// the text (golden), and the envelope for a missing id and for UK.
func TestPrompt(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	list, err := cs.ListPrompts(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "prompts.golden", indent(t, list.Prompts))

	got, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "explain_company", Arguments: map[string]string{"id": "923 609 016"}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "explain_company.golden", indent(t, got))
	msg := got.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"lookup_company", "company_deadlines", "what", "trading", "VAT", "filings", "notes", `"country":"NO"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("prompt text lacks %q", want)
		}
	}

	gb, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "explain_company", Arguments: map[string]string{"id": "00445790", "country": "gb"}})
	if err != nil {
		t.Fatal(err)
	}
	if msg := gb.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(msg, `{"id":"00445790","country":"GB"}`) {
		t.Errorf("GB prompt text lacks the call arguments: %s", msg)
	}

	for _, tc := range []struct {
		name string
		args map[string]string
		code string
	}{
		{"missing id", map[string]string{"country": "NO"}, "bad_request"},
		{"UK", map[string]string{"id": "00445790", "country": "UK"}, "unsupported_country"},
	} {
		_, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "explain_company", Arguments: tc.args})
		var werr *jsonrpc.Error
		if !asWireError(err, &werr) {
			t.Fatalf("%s: err = %v, want a JSON-RPC error", tc.name, err)
		}
		var e registry.Error
		if err := json.Unmarshal([]byte(werr.Message), &e); err != nil || string(e.Code) != tc.code {
			t.Errorf("%s: message %s, want the %s envelope (%v)", tc.name, werr.Message, tc.code, err)
		}
	}
}

// TestInitialize checks serverInfo (the Registry's version) and the
// instructions the issue requires: list_countries, GB never UK, the envelope.
func TestInitialize(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	init := cs.InitializeResult()
	if init.ServerInfo.Name != mcpserver.ServerName || init.ServerInfo.Version != "1.2.3-test" {
		t.Errorf("serverInfo = %+v", init.ServerInfo)
	}
	for _, want := range []string{"list_countries", "GB, never UK", `{"error":{"code","message","hint","country","registry","details"}}`, "error.hint", "isError"} {
		if !strings.Contains(init.Instructions, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
	caps, _ := json.Marshal(init.Capabilities)
	if c := init.Capabilities; strings.Contains(string(caps), `"logging"`) || c.Tools == nil || c.Resources == nil || c.Prompts == nil {
		t.Errorf("capabilities = %s, want tools, resources and prompts without logging", indent(t, c))
	}
}

func TestNewRejects(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	for name, f := range map[string]func() error{
		"nil registry":   func() error { _, err := mcpserver.New(nil); return err },
		"nil option":     func() error { _, err := mcpserver.New(reg, nil); return err },
		"nil logger":     func() error { _, err := mcpserver.New(reg, mcpserver.WithLogger(nil)); return err },
		"host with port": func() error { _, err := mcpserver.Handler(reg, mcpserver.WithAllowedHosts("a.example:80")); return err },
		"bad origin":     func() error { _, err := mcpserver.Handler(reg, mcpserver.WithTrustedOrigins("not a url")); return err },
		"handler nil":    func() error { _, err := mcpserver.Handler(nil); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestCompletion checks that the country argument of explain_company and
// {country} of the rules template complete to the codes that can answer
// now (GB has no key in these tests, so only NO).
func TestCompletion(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	for _, tc := range []struct {
		name string
		ref  *mcp.CompleteReference
		arg  mcp.CompleteParamsArgument
		want []string
	}{
		{"prompt, empty", &mcp.CompleteReference{Type: "ref/prompt", Name: "explain_company"}, mcp.CompleteParamsArgument{Name: "country"}, []string{"NO"}},
		{"prompt, lower-case prefix", &mcp.CompleteReference{Type: "ref/prompt", Name: "explain_company"}, mcp.CompleteParamsArgument{Name: "country", Value: "n"}, []string{"NO"}},
		{"prompt, no match", &mcp.CompleteReference{Type: "ref/prompt", Name: "explain_company"}, mcp.CompleteParamsArgument{Name: "country", Value: "U"}, []string{}},
		{"template", &mcp.CompleteReference{Type: "ref/resource", URI: "registry://rules/{country}"}, mcp.CompleteParamsArgument{Name: "country", Value: ""}, []string{"NO"}},
		{"prompt id", &mcp.CompleteReference{Type: "ref/prompt", Name: "explain_company"}, mcp.CompleteParamsArgument{Name: "id", Value: "9"}, []string{}},
	} {
		res, err := cs.Complete(t.Context(), &mcp.CompleteParams{Ref: tc.ref, Argument: tc.arg})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, res.Completion.Values); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
