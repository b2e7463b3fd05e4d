package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gjs "github.com/google/jsonschema-go/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// compile compiles a schema document with the santhosh-tekuri validator,
// asserting formats (date, date-time).
func compile(t *testing.T, s *gjs.Schema) *sjs.Schema {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatalf("marshal schema: %v", err)
	}
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("unmarshal schema: %v", err)
	}
	c := sjs.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		t.Fatalf("add resource: %v", err)
	}
	sch, err := c.Compile("mem:///schema.json")
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, b)
	}
	return sch
}

func instance(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return inst
}

// sdkValidate validates with the jsonschema-go package the MCP SDK uses.
func sdkValidate(t *testing.T, s *gjs.Schema, v any) error {
	t.Helper()
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return rs.Validate(m)
}

func fullReport() *registry.CompanyReport {
	d := registry.NewDate(2020, time.March, 4).Ptr()
	fetched := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600))
	addr := &registry.Address{
		Lines: []string{"Forusbeen 50"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER"),
		Municipality: countrykit.Ptr("STAVANGER"), MunicipalityCode: countrykit.Ptr("1103"),
		CountryCode: countrykit.Ptr("NO"), CountryName: countrykit.Ptr("Norge"),
	}
	r := countrykit.NewReport("NO", "brreg", "923609016", "EQUINOR ASA")
	r.IDFormatted = countrykit.Ptr("923 609 016")
	r.IDScheme = countrykit.Ptr("organisasjonsnummer")
	r.PreviousNames = []string{"STATOIL ASA"}
	r.LegalFormCode, r.LegalForm, r.LegalFormLocal = countrykit.Ptr("ASA"), countrykit.Ptr("Public limited company"), countrykit.Ptr("Allmennaksjeselskap")
	r.LimitedLiability, r.HasBoardDuty, r.HasAnnualAccountsDuty = countrykit.Ptr(true), countrykit.Ptr(true), countrykit.Ptr(true)
	r.Status = registry.StatusActive
	r.StatusDetail = countrykit.Ptr("No bankruptcy, liquidation or deletion flag is set.")
	r.RegisteredAt, r.FoundedAt, r.BusinessRegisterRegisteredAt = d, d, d
	r.BankruptcyDate, r.DeregisteredAt, r.VATRegisteredAt = d, d, d
	r.VATRegistered = countrykit.Ptr(true)
	r.VATNumber = countrykit.Ptr("NO923609016MVA")
	r.InBusinessRegister = countrykit.Ptr(true)
	r.Registers = map[string]bool{"foretaksregisteret": true, "frivillighetsregisteret": false}
	r.Employees, r.EmployeesReported = countrykit.Ptr(0), countrykit.Ptr(true)
	r.IndustryCodes = []registry.IndustryCode{{Code: "06.100", Description: countrykit.Ptr("Crude oil"), Scheme: countrykit.Ptr("NACE"), Rank: 1}}
	r.SectorCode, r.Sector = countrykit.Ptr("1120"), countrykit.Ptr("State-owned companies")
	r.Purpose, r.Activity = countrykit.Ptr("Oil."), countrykit.Ptr("Energy.")
	r.ShareCapital, r.ShareCapitalCurrency = countrykit.Ptr(6392018780.0), countrykit.Ptr("NOK")
	r.BusinessAddress, r.PostalAddress = addr, &registry.Address{}
	r.Website, r.Email, r.Phone = countrykit.Ptr("www.equinor.com"), countrykit.Ptr("a@b.no"), countrykit.Ptr("+47 51 99 00 00")
	r.ParentID = countrykit.Ptr("923609016")
	r.InGroup = countrykit.Ptr(true)
	r.LastAnnualAccountsYear = countrykit.Ptr(2024)
	r.PublishedDeadlines = []registry.PublishedDeadline{{Kind: "annual_accounts", DueDate: d, PeriodStart: d, PeriodEnd: d,
		Overdue: countrykit.Ptr(false), Source: countrykit.Ptr("accounts.next_accounts.due_on")}}
	r.Confidence, r.ConfidenceBasis = 1, countrykit.Ptr("exact identifier lookup")
	r.Cached, r.FetchedAt = true, &fetched
	r.Source, r.SourceURL, r.License = countrykit.Ptr("Brønnøysundregistrene"), countrykit.Ptr("https://data.brreg.no/enhetsregisteret/api/enheter/923609016"), countrykit.Ptr("NLOD 2.0")
	r.Notes = []string{"note"}
	return r
}

// documents returns real encoded documents of every schema, by schema name.
func documents() map[string][]any {
	today := registry.NewDate(2026, time.January, 15)
	hit := countrykit.NewHit("NO", "brreg", "923609016", "EQUINOR ASA")
	fullHit := hit
	fullHit.LegalFormCode, fullHit.LegalForm = countrykit.Ptr("ASA"), countrykit.Ptr("Public limited company")
	fullHit.Status, fullHit.City, fullHit.Municipality = registry.StatusBankrupt, countrykit.Ptr("OSLO"), countrykit.Ptr("OSLO")
	fullHit.RegisteredAt, fullHit.IsSubunit, fullHit.Confidence = today.Ptr(), true, 0.95
	fullHit.ConfidenceBasis, fullHit.SourceURL = countrykit.Ptr("name equals the query"), countrykit.Ptr("https://example.org/x")
	fetched := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	dl := registry.Deadline{Country: "NO", Registry: "brreg", Kind: "vat_return", Name: "VAT return",
		Authority: "Skatteetaten", StatutoryDate: today, DueDate: today, AppliesBecause: "VAT-registered."}
	fullDL := dl
	fullDL.LocalName, fullDL.RolledForward, fullDL.PeriodLabel = countrykit.Ptr("MVA-melding"), true, countrykit.Ptr("Nov–Dec 2025")
	fullDL.PeriodStart, fullDL.PeriodEnd, fullDL.Recurrence = today.Ptr(), today.Ptr(), registry.RecurrenceBimonthly
	fullDL.Mandatory, fullDL.DaysUntil, fullDL.SourceURL = true, countrykit.Ptr(-3), countrykit.Ptr("https://www.skatteetaten.no/")
	info := registry.CountryInfo{Country: "GB", Registry: "companies_house", Name: "Companies House", IDScheme: "company number",
		IDExample: "00000006", IDDescription: "Eight characters.", SourceURL: "https://api.company-information.service.gov.uk",
		License: "OGL", RequiresAPIKey: true, APIKeyEnv: countrykit.Ptr("COMPANIES_HOUSE_API_KEY")}
	person := registry.RoleHolder{Kind: registry.HolderPerson, Name: "Kari Nordmann", BirthYear: countrykit.Ptr(1970),
		BirthMonth: countrykit.Ptr(1), Nationality: countrykit.Ptr("Norwegian"), CountryOfResidence: countrykit.Ptr("Norway"), Deceased: countrykit.Ptr(false)}
	entity := registry.RoleHolder{Kind: registry.HolderEntity, Name: "ERNST & YOUNG AS", ID: countrykit.Ptr("976389387"),
		Country: countrykit.Ptr("NO"), LegalForm: countrykit.Ptr("Aksjeselskap")}
	chair := registry.Role{Group: registry.RoleBoard, RoleCode: "LEDE", Role: "Chair of the board", RoleLocal: countrykit.Ptr("Styrets leder"),
		Holder: person, AppointedAt: today.Ptr(), Current: true, Notes: []string{"Elected by the employees."}}
	psc := registry.Role{Group: registry.RoleBeneficialOwner, RoleCode: "corporate-entity-person-with-significant-control", Role: "PSC",
		Holder: entity, ResignedAt: today.Ptr(), Control: []string{"The person holds more than 75% of the shares."}}
	return map[string][]any{
		schema.RolesReport: {
			&registry.RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: "EQUINOR ASA"},
			&registry.RolesReport{Country: "GB", Registry: "companieshouse", ID: "SC123456", Name: "X LTD", Roles: []registry.Role{chair, psc},
				Cached: true, FetchedAt: &fetched, Source: countrykit.Ptr("Companies House"), SourceURL: countrykit.Ptr("https://x"),
				License: countrykit.Ptr("OGL"), Notes: []string{"note"}},
		},
		schema.Role:       {chair, psc, registry.Role{Holder: registry.RoleHolder{Kind: registry.HolderPerson}}},
		schema.RoleHolder: {person, entity},
		schema.CompanyReport: {fullReport(), countrykit.NewReport("GB", "companies_house", "SC123456", "X LTD"),
			&registry.CompanyReport{Country: "NO", Registry: "brreg", ID: "1", Name: "N"}},
		schema.Address:           {registry.Address{}, *fullReport().BusinessAddress},
		schema.IndustryCode:      {registry.IndustryCode{Code: "1", Rank: 2}},
		schema.PublishedDeadline: {registry.PublishedDeadline{Kind: "confirmation_statement"}},
		schema.SearchResult: {
			&registry.SearchResult{Country: "NO", Registry: "brreg", Query: "equinor", Hits: []registry.SearchHit{hit, fullHit},
				Total: 12, Truncated: true, FetchedAt: &fetched},
			&registry.SearchResult{Country: "NO", Registry: "brreg", Query: "zzz", Hint: countrykit.Ptr("Try a shorter name.")},
		},
		schema.SearchHit: {hit, fullHit},
		schema.DeadlineReport: {
			&registry.DeadlineReport{Country: "NO", Registry: "brreg", CompanyID: "923609016", Today: today},
			&registry.DeadlineReport{Country: "NO", Registry: "brreg", CompanyID: "923609016", CompanyName: countrykit.Ptr("EQUINOR ASA"),
				Today: today, Deadlines: []registry.Deadline{dl, fullDL}, Notes: []string{"Calendar year assumed."}},
		},
		schema.Deadline: {dl, fullDL},
		schema.ValidationResult: {
			registry.ValidationResult{Country: "NO", Registry: "brreg", Input: "923 609 017", Reason: countrykit.Ptr("Checksum fails."), Hint: countrykit.Ptr("Check it.")},
			registry.ValidationResult{Country: "NO", Registry: "brreg", IDScheme: countrykit.Ptr("organisasjonsnummer"), Input: "923609016",
				Valid: true, Normalized: countrykit.Ptr("923609016"), Formatted: countrykit.Ptr("923 609 016"), Reason: countrykit.Ptr("ok")},
		},
		schema.CountriesResponse: {registry.CountriesResponse{}, registry.CountriesResponse{Countries: []registry.CountryInfo{info}}},
		schema.CountryInfo:       {info},
		schema.HealthResponse:    {registry.HealthResponse{Version: "0.2.0"}, registry.HealthResponse{Status: "ok", Version: "1", Countries: []string{"GB", "NO"}}},
		schema.Error: {
			&registry.Error{Code: registry.CodeNotFound, Message: "Nothing here."},
			&registry.Error{Code: registry.CodeRateLimited, Message: "Slow down.", Hint: "Wait.", Country: "NO", Registry: "brreg",
				Details: map[string]any{"retry_after": 17}},
		},
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	want := []string{"Address", "CompanyReport", "CountriesResponse", "CountryInfo", "Deadline", "DeadlineReport",
		"Error", "HealthResponse", "IndustryCode", "PublishedDeadline", "Role", "RoleHolder", "RolesReport", "SearchHit",
		"SearchResult", "ValidationResult"}
	if diff := cmp.Diff(want, schema.Names()); diff != "" {
		t.Errorf("Names() (-want +got):\n%s", diff)
	}
	if schema.For("Nope") != nil {
		t.Error(`For("Nope") is not nil`)
	}
}

// TestRealDocumentsValidate is the contract between the Go types and the
// schemas: every encoded document validates, with both the santhosh-tekuri
// validator (formats asserted) and the jsonschema-go validator of the MCP SDK.
func TestRealDocumentsValidate(t *testing.T) {
	t.Parallel()
	for name, docs := range documents() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := schema.For(name)
			sch := compile(t, s)
			for i, d := range docs {
				if err := sch.Validate(instance(t, d)); err != nil {
					t.Errorf("document %d does not validate: %v", i, err)
				}
				if err := sdkValidate(t, schema.For(name), d); err != nil {
					t.Errorf("document %d does not validate with jsonschema-go: %v", i, err)
				}
			}
		})
	}
}

func TestEveryNameHasDocuments(t *testing.T) {
	t.Parallel()
	docs := documents()
	for _, n := range schema.Names() {
		if len(docs[n]) == 0 {
			t.Errorf("no sample documents for %s", n)
		}
	}
}

// TestEveryFieldRequired checks that every property of every object is
// required and that no unknown property is allowed (every field is always
// present on the wire; "Unknown properties are not allowed").
func TestEveryFieldRequired(t *testing.T) {
	t.Parallel()
	var walk func(path string, s *gjs.Schema)
	walk = func(path string, s *gjs.Schema) {
		if s == nil {
			return
		}
		if len(s.Properties) > 0 && path != "Error.error.details" {
			var props []string
			for p := range s.Properties {
				props = append(props, p)
			}
			req := slices.Clone(s.Required)
			slices.Sort(props)
			slices.Sort(req)
			if diff := cmp.Diff(props, req); diff != "" {
				t.Errorf("%s: required differs from properties (-props +required):\n%s", path, diff)
			}
			if s.AdditionalProperties == nil || s.AdditionalProperties.Not == nil {
				t.Errorf("%s: additionalProperties is not false", path)
			}
		}
		for p, ps := range s.Properties {
			walk(path+"."+p, ps)
		}
		walk(path+"[]", s.Items)
	}
	for _, n := range schema.Names() {
		walk(n, schema.For(n))
	}
}

// TestRejects shows that the hand tightening bites: each mutation of a valid
// document breaks one rule of the interface.
func TestRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		doc    any
		mutate func(m map[string]any)
	}{
		{"confidence above 1", schema.CompanyReport, fullReport(), func(m map[string]any) { m["confidence"] = 1.5 }},
		{"confidence below 0", schema.CompanyReport, fullReport(), func(m map[string]any) { m["confidence"] = -0.1 }},
		{"employees negative", schema.CompanyReport, fullReport(), func(m map[string]any) { m["employees"] = -1 }},
		{"employees fractional", schema.CompanyReport, fullReport(), func(m map[string]any) { m["employees"] = 1.5 }},
		{"unknown property", schema.CompanyReport, fullReport(), func(m map[string]any) { m["extra"] = 1 }},
		{"missing nullable field", schema.CompanyReport, fullReport(), func(m map[string]any) { delete(m, "website") }},
		{"empty string is not null for a required string", schema.CompanyReport, fullReport(), func(m map[string]any) { m["name"] = "" }},
		{"list null", schema.CompanyReport, fullReport(), func(m map[string]any) { m["notes"] = nil }},
		{"map null", schema.CompanyReport, fullReport(), func(m map[string]any) { m["registers"] = nil }},
		{"registers value not boolean", schema.CompanyReport, fullReport(), func(m map[string]any) { m["registers"] = map[string]any{"x": "yes"} }},
		{"status outside enum", schema.CompanyReport, fullReport(), func(m map[string]any) { m["status"] = "alive" }},
		{"date not a date", schema.CompanyReport, fullReport(), func(m map[string]any) { m["founded_at"] = "2025-02-30" }},
		{"date with time", schema.CompanyReport, fullReport(), func(m map[string]any) { m["founded_at"] = "2025-02-03T00:00:00Z" }},
		{"fetched_at not a timestamp", schema.CompanyReport, fullReport(), func(m map[string]any) { m["fetched_at"] = "2025-02-03" }},
		{"country lower case", schema.CompanyReport, fullReport(), func(m map[string]any) { m["country"] = "no" }},
		{"id with spaces", schema.CompanyReport, fullReport(), func(m map[string]any) { m["id"] = "923 609 016" }},
		{"rank 0", schema.IndustryCode, registry.IndustryCode{Code: "1", Rank: 1}, func(m map[string]any) { m["rank"] = 0 }},
		{"address unknown property", schema.Address, registry.Address{}, func(m map[string]any) { m["street"] = "x" }},
		{"total negative", schema.SearchResult, registry.SearchResult{Country: "NO", Registry: "brreg", Query: "q"}, func(m map[string]any) { m["total"] = -1 }},
		{"hits null", schema.SearchResult, registry.SearchResult{Country: "NO", Registry: "brreg", Query: "q"}, func(m map[string]any) { m["hits"] = nil }},
		{"recurrence outside enum", schema.Deadline, documents()[schema.Deadline][0], func(m map[string]any) { m["recurrence"] = "weekly" }},
		{"deadlines a bare list", schema.DeadlineReport, documents()[schema.DeadlineReport][0], func(m map[string]any) { m["deadlines"] = map[string]any{} }},
		{"error code outside the nine", schema.Error, &registry.Error{Code: registry.CodeNotFound, Message: "m"}, func(m map[string]any) { m["error"].(map[string]any)["code"] = "gone" }},
		{"error without hint", schema.Error, &registry.Error{Code: registry.CodeNotFound, Message: "m"}, func(m map[string]any) { delete(m["error"].(map[string]any), "hint") }},
		{"retry_after negative", schema.Error, &registry.Error{Code: registry.CodeRateLimited, Message: "m"}, func(m map[string]any) {
			m["error"].(map[string]any)["details"] = map[string]any{"retry_after": -1}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			sch := compile(t, schema.For(tt.schema))
			if err := sch.Validate(instance(t, m)); err != nil {
				t.Fatalf("unmutated document is invalid: %v", err)
			}
			tt.mutate(m)
			if err := sch.Validate(instance(t, m)); err == nil {
				t.Errorf("mutated document validates; want a failure")
			}
		})
	}
}

// TestComponentsResolve compiles the components as an OpenAPI-style
// document and validates the same real documents through the $refs.
func TestComponentsResolve(t *testing.T) {
	t.Parallel()
	doc := map[string]any{"components": map[string]any{"schemas": schema.Components()}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"$ref":"#/components/schemas/Address"`) {
		t.Errorf("components do not reference Address by $ref")
	}
	parsed, err := sjs.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := sjs.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem:///openapi.json", parsed); err != nil {
		t.Fatal(err)
	}
	for name, docs := range documents() {
		sch, err := c.Compile("mem:///openapi.json#/components/schemas/" + name)
		if err != nil {
			t.Fatalf("compile %s: %v", name, err)
		}
		for i, d := range docs {
			if err := sch.Validate(instance(t, d)); err != nil {
				t.Errorf("%s document %d does not validate through the components: %v", name, i, err)
			}
		}
	}
}

// TestFreshCopies checks that a caller changing a returned schema does not
// change what the next caller gets.
func TestFreshCopies(t *testing.T) {
	t.Parallel()
	a := schema.For(schema.CompanyReport)
	a.Properties["confidence"].Maximum = nil
	a.Properties["business_address"].Properties["lines"].Type = "string"
	c := schema.Components()
	c[schema.SearchHit].Properties["id"].Pattern = ""
	b := schema.For(schema.CompanyReport)
	if b.Properties["confidence"].Maximum == nil || b.Properties["business_address"].Properties["lines"].Type != "array" {
		t.Error("For returned a shared schema")
	}
	if schema.Components()[schema.SearchHit].Properties["id"].Pattern == "" {
		t.Error("Components returned a shared schema")
	}
}

// outputs returns the Output schema of every name.
func outputs() map[string]*gjs.Schema {
	m := map[string]*gjs.Schema{}
	for _, n := range schema.Names() {
		m[n] = schema.Output(n)
	}
	return m
}

// TestGolden pins every schema as JSON. Review testdata/*.golden by eye
// after -update.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		v    any
	}{
		{"components.golden", schema.Components()},
		{"companyreport.golden", schema.For(schema.CompanyReport)},
		{"outputs.golden", outputs()},
	} {
		got, err := json.MarshalIndent(tc.v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", tc.file)
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}
