package mcpserver_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/mcpserver"
)

// Identifiers the fake Norwegian module answers; all pass MOD11.
const (
	idEquinor        = "923609016" // a report
	idNotFound       = "974760673" // not_found
	idUpstreamError  = "910000004" // upstream_error
	idRateLimited    = "910000012" // rate_limited with retry_after
	idUpstreamTimout = "910000020" // upstream_timeout
	idDefect         = "910000039" // a plain error: internal_error
	idNotImplemented = "910000047" // not_implemented
	idBadChecksum    = "923609017" // fails MOD11: invalid_id
	idHeld           = "910000071" // answered once fakeNO.held is closed
)

// fixedNow is the clock of every test Registry.
var fixedNow = time.Date(2026, time.January, 15, 9, 30, 0, 0, time.UTC)

// fakeNO is a Norwegian module with canned answers, so that these tests do
// not depend on countries/no.
type fakeNO struct {
	lookups atomic.Int64
	// held, when set before the first lookup, holds a lookup of idHeld
	// until it is closed (the Registry's fetch does not end with its
	// caller's context).
	held chan struct{}
}

var _ registry.Country = (*fakeNO)(nil)

func (f *fakeNO) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country: "NO", Registry: "brreg", Name: "Enhetsregisteret (Brønnøysundregistrene)",
		IDScheme: "organisasjonsnummer", IDExample: "923609016",
		IDDescription: "Nine digits, the ninth a MOD11 check digit.",
		SourceURL:     "https://data.brreg.no/enhetsregisteret/api", License: "NLOD 2.0",
	}
}

func (f *fakeNO) Ready() error { return nil }

func (f *fakeNO) Validate(input string) registry.ValidationResult {
	v := registry.ValidationResult{Country: "NO", Registry: "brreg", IDScheme: countrykit.Ptr("organisasjonsnummer"), Input: input}
	n, p := idcheck.ParseOrgNr(input)
	if p != idcheck.ProblemNone {
		v.Reason = countrykit.Ptr(idcheck.NorwayReason(p))
		v.Hint = countrykit.Ptr(idcheck.NorwayHint(p))
		return v
	}
	v.Valid = true
	v.Normalized = countrykit.Ptr(n.String())
	v.Formatted = countrykit.Ptr(n.Formatted())
	v.Reason = countrykit.Ptr("Nine digits with a correct MOD11 check digit.")
	return v
}

func (f *fakeNO) Lookup(_ context.Context, id string) (*registry.CompanyReport, error) {
	f.lookups.Add(1)
	switch id {
	case idHeld:
		<-f.held
		return nil, &registry.Error{Code: registry.CodeNotFound, Message: "No unit with this organisation number."}
	case idEquinor:
		r := countrykit.NewReport("NO", "brreg", id, "EQUINOR ASA")
		r.IDFormatted = countrykit.Ptr("923 609 016")
		r.IDScheme = countrykit.Ptr("organisasjonsnummer")
		r.LegalFormCode = countrykit.Ptr("ASA")
		r.LegalForm = countrykit.Ptr("Public limited company")
		r.Status = registry.StatusActive
		r.RegisteredAt = registry.NewDate(1995, time.March, 12).Ptr()
		r.FoundedAt = registry.NewDate(1972, time.September, 18).Ptr()
		r.VATRegistered = countrykit.Ptr(true)
		r.VATNumber = countrykit.Ptr("NO923609016MVA")
		r.Employees = countrykit.Ptr(21000)
		r.EmployeesReported = countrykit.Ptr(true)
		r.Registers = map[string]bool{"foretaksregisteret": true}
		r.IndustryCodes = []registry.IndustryCode{{Code: "06.100", Description: countrykit.Ptr("Extraction of crude petroleum <& gas>"), Rank: 1}}
		r.BusinessAddress = &registry.Address{Lines: []string{"Forusbeen 50"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER")}
		r.ShareCapital = countrykit.Ptr(6392018780.0)
		r.Source = countrykit.Ptr("Enhetsregisteret")
		r.Notes = []string{"Deadlines assume a calendar financial year."}
		return r, nil
	case idNotFound:
		return nil, &registry.Error{Code: registry.CodeNotFound, Message: "No unit with this organisation number."}
	case idUpstreamError:
		return nil, &registry.Error{Code: registry.CodeUpstreamError, Message: "Brønnøysund answered 503."}
	case idRateLimited:
		return nil, &registry.Error{Code: registry.CodeRateLimited, Message: "Brønnøysund rate-limited us.",
			Details: map[string]any{"retry_after": 30}}
	case idUpstreamTimout:
		return nil, &registry.Error{Code: registry.CodeUpstreamTimeout, Message: "Brønnøysund did not answer."}
	case idDefect:
		return nil, errors.New("secret internal detail")
	case idNotImplemented:
		return nil, &registry.Error{Code: registry.CodeNotImplemented, Message: "Not offered."}
	}
	return nil, &registry.Error{Code: registry.CodeNotFound, Message: "No unit with this organisation number."}
}

func (f *fakeNO) Search(_ context.Context, query string, limit int) (*registry.SearchResult, error) {
	res := &registry.SearchResult{Country: "NO", Registry: "brreg", Query: query}
	if strings.EqualFold(query, "equinor") {
		for i, name := range []string{"EQUINOR ASA", "EQUINOR ENERGY AS", "EQUINOR NEW ENERGY AS"} {
			if i == limit {
				res.Truncated = true
				break
			}
			h := countrykit.NewHit("NO", "brreg", []string{idEquinor, "910000055", "910000063"}[i], name)
			h.RegisteredAt = registry.NewDate(1995, time.March, 12).Ptr()
			h.Confidence = 0.8
			res.Hits = append(res.Hits, h)
		}
		res.Total = 3
		return res, nil
	}
	res.Hint = countrykit.Ptr("No hits: try a shorter or differently spelled name.")
	return res, nil
}

func (f *fakeNO) Deadlines(rep *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	due := registry.NewDate(today.Year, time.July, 31)
	if due.Before(today) {
		due = registry.NewDate(today.Year+1, time.July, 31)
	}
	days := due.DaysSince(today)
	return &registry.DeadlineReport{
		Country: "NO", Registry: "brreg", CompanyID: rep.ID, CompanyName: countrykit.Ptr(rep.Name), Today: today,
		Deadlines: []registry.Deadline{{
			Country: "NO", Registry: "brreg", Kind: "annual_accounts", Name: "Annual accounts",
			Authority: "Regnskapsregisteret", StatutoryDate: due, DueDate: due, Mandatory: true,
			AppliesBecause: "ASA always files annual accounts.", DaysUntil: &days,
		}},
		Notes: []string{"Deadlines assume a calendar financial year."},
	}, nil
}

// Roles answers a chair, a former member and an audit firm for every
// entity the lookup finds.
func (f *fakeNO) Roles(_ context.Context, rep *registry.CompanyReport) (*registry.RolesReport, error) {
	y, m := 1970, 3
	return &registry.RolesReport{
		Country: "NO", Registry: "brreg", ID: rep.ID, Name: rep.Name,
		Roles: []registry.Role{
			{Group: registry.RoleBoard, RoleCode: "MEDL", Role: "Board member", RoleLocal: countrykit.Ptr("Styremedlem"),
				Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "Former Member <&>"}},
			{Group: registry.RoleAuditor, RoleCode: "REVI", Role: "Auditor", Current: true,
				Holder: registry.RoleHolder{Kind: registry.HolderEntity, Name: "ERNST & YOUNG AS", ID: countrykit.Ptr("976389387"), Country: countrykit.Ptr("NO")}},
			{Group: registry.RoleBoard, RoleCode: "LEDE", Role: "Chair of the board", Current: true,
				Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "Kari Nordmann", BirthYear: &y, BirthMonth: &m, Deceased: countrykit.Ptr(false)}},
		},
		Source: countrykit.Ptr("Enhetsregisteret"), Notes: []string{"The signing rule is registered elsewhere."},
	}, nil
}

func (f *fakeNO) Rules() string { return "# Norway\n\nOrganisation numbers have nine digits.\n" }

// fakeGB is a UK module without its credential: offline validation only.
type fakeGB struct{}

var _ registry.Country = fakeGB{}

func (fakeGB) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country: "GB", Registry: "companies_house", Name: "Companies House",
		IDScheme: "company registration number", IDExample: "00445790",
		IDDescription: "Eight characters.", SourceURL: "https://api.company-information.service.gov.uk",
		License: "Crown copyright", RequiresAPIKey: true, APIKeyEnv: countrykit.Ptr("COMPANIES_HOUSE_API_KEY"),
	}
}

func (fakeGB) Ready() error {
	return &registry.Error{Code: registry.CodeUpstreamError, Message: "No Companies House API key is configured.",
		Hint: "The operator must set COMPANIES_HOUSE_API_KEY."}
}

func (fakeGB) Validate(input string) registry.ValidationResult {
	v := registry.ValidationResult{Country: "GB", Registry: "companies_house", IDScheme: countrykit.Ptr("company registration number"), Input: input}
	n, p := idcheck.ParseCompanyNumber(input)
	if p != idcheck.ProblemNone {
		v.Reason = countrykit.Ptr(idcheck.UKReason(p))
		v.Hint = countrykit.Ptr(idcheck.UKHint(p))
		return v
	}
	v.Valid = true
	v.Normalized = countrykit.Ptr(n.String())
	return v
}

func (fakeGB) Lookup(context.Context, string) (*registry.CompanyReport, error) {
	panic("not ready: never called")
}

func (fakeGB) Search(context.Context, string, int) (*registry.SearchResult, error) {
	panic("not ready: never called")
}

func (fakeGB) Deadlines(*registry.CompanyReport, registry.Date) (*registry.DeadlineReport, error) {
	panic("not ready: never called")
}

func (fakeGB) Rules() string { return "# United Kingdom\n\nCompany numbers have eight characters.\n" }

// newRegistry returns a Registry over the fakes with a fixed clock.
func newRegistry(t testing.TB) (*registry.Registry, *fakeNO) {
	t.Helper()
	no := &fakeNO{}
	reg, err := registry.New([]registry.Country{no, fakeGB{}},
		registry.WithClock(func() time.Time { return fixedNow }), registry.WithRetryPause(0), registry.WithVersion("1.2.3-test"))
	if err != nil {
		t.Fatal(err)
	}
	return reg, no
}

// connect returns a client session to a server over reg, in memory.
func connect(t testing.TB, reg *registry.Registry, opts ...mcpserver.Option) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}
