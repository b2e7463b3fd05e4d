package catalog_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/ops"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestOperationsWellFormed checks the rules every surface relies on.
func TestOperationsWellFormed(t *testing.T) {
	t.Parallel()
	comps, err := catalog.Components()
	if err != nil {
		t.Fatal(err)
	}
	names, routes, tools := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, op := range append(catalog.Operations(), catalog.ChangeOperations()...) {
		if names[op.Name] || routes[op.Method+" "+op.Pattern] {
			t.Errorf("%s: the name or the route %s %s is taken twice", op.Name, op.Method, op.Pattern)
		}
		names[op.Name], routes[op.Method+" "+op.Pattern] = true, true
		if op.Method != "GET" && op.Method != "POST" && !(op.Changes && (op.Method == "PATCH" || op.Method == "DELETE")) {
			t.Errorf("%s: method %s", op.Name, op.Method)
		}
		if op.Auth && !op.Changes {
			t.Errorf("%s: a token on a route outside change monitoring", op.Name)
		}
		if op.Summary == "" || op.Doc == "" {
			t.Errorf("%s: no summary or doc", op.Name)
		}
		// Every {name} of the pattern is a path parameter, and every path
		// parameter is in the pattern.
		var inPattern []string
		for _, seg := range strings.Split(op.Pattern, "/") {
			if v, ok := strings.CutPrefix(seg, "{"); ok {
				inPattern = append(inPattern, strings.TrimSuffix(v, "}"))
			}
		}
		var pathParams []string
		for _, p := range op.Params {
			if p.In == catalog.InPath {
				pathParams = append(pathParams, p.Name)
			} else if p.In != catalog.InQuery {
				t.Errorf("%s: parameter %s is in %q", op.Name, p.Name, p.In)
			}
			if p.Doc == "" || (p.Schema.Type != "string" && p.Schema.Type != "integer") {
				t.Errorf("%s: parameter %s has no doc or an odd type %q", op.Name, p.Name, p.Schema.Type)
			}
			if p.Arg != nil && (p.Arg.Name == "" || p.Arg.Doc == "") {
				t.Errorf("%s: argument of %s has no name or doc", op.Name, p.Name)
			}
		}
		slices.Sort(inPattern)
		slices.Sort(pathParams)
		if diff := cmp.Diff(inPattern, pathParams); diff != "" {
			t.Errorf("%s: path parameters (-pattern +params):\n%s", op.Name, diff)
		}
		if len(op.PathParams()) != len(pathParams) {
			t.Errorf("%s: PathParams gives %d, want %d", op.Name, len(op.PathParams()), len(pathParams))
		}
		switch {
		case op.Resource:
			if op.Tool != nil || len(op.Params) > 0 || op.Limited {
				t.Errorf("%s: a text resource with a tool, parameters or a rate limit", op.Name)
			}
		case op.SuccessStatus() == 204:
			if op.Tool != nil {
				t.Errorf("%s: a tool without a result", op.Name)
			}
		case op.ContentType == "" && comps[op.Result] == nil:
			t.Errorf("%s: result %q is no schema", op.Name, op.Result)
		}
		if op.Body != "" && (comps[op.Body] == nil || op.BodyExample == "") {
			t.Errorf("%s: body %q is no schema, or has no example", op.Name, op.Body)
		}
		if op.Limited != (op.Cost != "") {
			t.Errorf("%s: limited %v but cost %q", op.Name, op.Limited, op.Cost)
		}
		if op.Tool != nil {
			if tools[op.Tool.Name] || op.Tool.Title == "" || len(op.Tool.Description) < 80 {
				t.Errorf("%s: tool %q is taken twice or lacks a title or a description", op.Name, op.Tool.Name)
			}
			tools[op.Tool.Name] = true
			if op.OutputSchema() == nil {
				t.Errorf("%s: the tool's result %q has no output schema", op.Name, op.Result)
			}
		}
	}
	var listed []string
	for _, op := range append(catalog.Tools(), catalog.ChangeTools()...) {
		listed = append(listed, op.Tool.Name)
	}
	if len(listed) != len(tools) {
		t.Errorf("Tools gives %v, the operations have %d tools", listed, len(tools))
	}
}

// TestOperationHelpers pins the derived views of one operation.
func TestOperationHelpers(t *testing.T) {
	t.Parallel()
	op, ok := catalog.Lookup("searchCompanies")
	if !ok {
		t.Fatal("no searchCompanies")
	}
	var rest []string
	for _, p := range op.RESTParams() {
		rest = append(rest, string(p.In)+":"+p.Name)
	}
	if diff := cmp.Diff([]string{"path:country", "query:q", "query:limit"}, rest); diff != "" {
		t.Errorf("RESTParams (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"name", "country", "limit"}, op.ArgNames()); diff != "" {
		t.Errorf("ArgNames (-want +got):\n%s", diff)
	}
	if got, want := op.Signature(), `search_company(name, country="NO", limit=10)`; got != want {
		t.Errorf("Signature = %s, want %s", got, want)
	}
	ics, _ := catalog.Lookup("companyDeadlinesICS")
	if ics.MediaType() != "text/calendar" || op.MediaType() != "application/json" {
		t.Errorf("media types %q, %q", ics.MediaType(), op.MediaType())
	}
	if _, ok := catalog.Lookup("nope"); ok {
		t.Error("Lookup found an unknown operation")
	}
}

func countries() []registry.CountryInfo {
	env := "ZZ_API_KEY"
	return []registry.CountryInfo{
		{Country: "YY", Registry: "yyreg", Name: "Ystan", IDScheme: "ynr", IDExample: "Y1", IDDescription: "One letter, one digit.",
			RequiresAPIKey: true, APIKeyEnv: &env},
		{Country: "ZZ", Registry: "zzreg", Name: "Zedland", IDScheme: "znr", IDExample: "123456", IDDescription: "Six digits."},
	}
}

// TestRenderGoldens pins the texts of deployments the REST goldens do not
// show: without MCP, without a rate limit, with a shared limiter, without
// countries.
func TestRenderGoldens(t *testing.T) {
	t.Parallel()
	rules := map[string]string{
		"YY": "# Ystan\n\n## Identifier\n\n```\n# not a heading\n```\nText.\n",
		"ZZ": "# Zedland\n\nRules.",
	}
	for name, in := range map[string]catalog.TextInputs{
		"nomcp":   {BaseURL: "https://r.example", Version: "9.9.9", Countries: countries(), Rules: rules, RateLimit: 30},
		"shared":  {BaseURL: "https://r.example", MCPURL: "https://r.example/mcp", Version: "9.9.9", Countries: countries(), Rules: rules, RateLimit: 7, Shared: true},
		"nolimit": {BaseURL: "{{BASE_URL}}", MCPURL: "{{BASE_URL}}/mcp", Version: "9.9.9", Countries: countries(), Rules: rules},
		"empty":   {BaseURL: "https://r.example", Version: "0"},
		"changes": {BaseURL: "https://r.example", MCPURL: "https://r.example/mcp", Version: "9.9.9", Countries: countries(), Rules: rules,
			RateLimit: 60, Changes: true},
	} {
		for _, text := range []string{catalog.LLMSTxt, catalog.LLMSFullTxt} {
			got, err := catalog.Render(text, in)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+"."+text+".golden", got)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	if _, err := catalog.Render(catalog.LLMSFullTxt, catalog.TextInputs{Countries: countries()}); err == nil {
		t.Error("no error for a country without rules")
	}
	if _, err := catalog.Render("nope.txt", catalog.TextInputs{}); err == nil {
		t.Error("no error for an unknown text")
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// TestExplainCompanyText: the prompt's text carries its inputs and names
// the tools of the catalogue it asks for.
func TestExplainCompanyText(t *testing.T) {
	t.Parallel()
	got, err := catalog.ExplainCompanyText("923609016", "NO", `{"id":"923609016","country":"NO"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "Explain the company with identifier 923609016 in country NO to someone") ||
		!strings.Contains(got, `1. Call lookup_company with {"id":"923609016","country":"NO"}.`) {
		t.Errorf("text:\n%s", got)
	}
	for _, name := range []string{"lookupCompany", "companyDeadlines", "companyRoles", "searchCompanies"} {
		op, _ := catalog.Lookup(name)
		if !strings.Contains(got, op.Tool.Name) {
			t.Errorf("the prompt does not name %s", op.Tool.Name)
		}
	}
}

// TestSurfaceTextNamesTheCatalogue: the library's neutral phrases become
// the catalogue's route and tool names.
func TestSurfaceTextNamesTheCatalogue(t *testing.T) {
	t.Parallel()
	search, _ := catalog.Lookup("searchCompanies")
	validate, _ := catalog.Lookup("validateCompanyID")
	route := search.Method + " " + strings.Replace(search.Pattern, "{country}", "NO", 1)
	if got := ops.SurfaceText("NO", ops.PhraseSearch); !strings.Contains(got, search.Tool.Name+" ("+route+"?") {
		t.Errorf("SurfaceText(search) = %q; want the tool %s and the route %s", got, search.Tool.Name, route)
	}
	if got := ops.SurfaceText("NO", ops.PhraseValidate); !strings.HasPrefix(got, validate.Tool.Name+" ") {
		t.Errorf("SurfaceText(validate) = %q; want the tool %s", got, validate.Tool.Name)
	}
}
