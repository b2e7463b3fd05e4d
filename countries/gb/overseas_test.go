package gb

import (
	"encoding/json"
	"testing"

	registry "github.com/companyregistry/registry"
)

// Companies House holds no employee figure for any company (the
// companyProfile resource has no such member; research companieshouse.md
// §2), so employees is null and employees_reported is false, not null
// (spec: employees_reported says "whether the registry holds an employee
// figure at all").
func TestEmployeesReportedIsFalse(t *testing.T) {
	t.Parallel()
	for _, profile := range []string{`{}`, `{"company_name":"X LTD","type":"ltd","company_status":"active"}`} {
		rep := roundTrip(t, mapJSON(t, profile))
		if rep.Employees != nil || rep.EmployeesReported == nil || *rep.EmployeesReported {
			t.Errorf("%s: employees %v employees_reported %v, want null and false", profile, rep.Employees, rep.EmployeesReported)
		}
	}
}

// For a company incorporated abroad, Companies House's date_of_creation is
// the date of its UK registration (research companieshouse.md §2 and the
// prefix table: FC/SF/NF overseas companies, BR UK establishments, OE
// registered overseas entities): registered_at holds it, founded_at is
// null (the profile carries no foreign incorporation date), and a note says
// so. A company formed in the UK keeps both.
func TestOverseasRegistrationDate(t *testing.T) {
	t.Parallel()
	created := registry.NewDate(2010, 6, 1)
	tests := []struct {
		name, id, typ string
		abroad        bool
	}{
		{"FC overseas company", "FC012345", "oversea-company", true},
		{"SF overseas company (Scotland)", "SF000123", "oversea-company", true},
		{"NF overseas company (Northern Ireland)", "NF000456", "oversea-company", true},
		{"BR UK establishment", "BR012345", "uk-establishment", true},
		{"OE registered overseas entity", "OE001962", "registered-overseas-entity", true},
		{"FC prefix, type missing", "FC012345", "", true},
		{"overseas type without the prefix", "00012345", "oversea-company", true},
		{"private limited company", "08957400", "ltd", false},
		{"Scottish company", "SC571653", "ltd", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, _ := json.Marshal(map[string]string{"company_name": "X", "company_number": tt.id, "type": tt.typ,
				"company_status": "active", "date_of_creation": "2010-06-01"})
			var p profile
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			rep := roundTrip(t, mapProfile(tt.id, &p))
			if rep.RegisteredAt == nil || *rep.RegisteredAt != created {
				t.Errorf("registered_at %v, want %v", rep.RegisteredAt, created)
			}
			const note = "company incorporated abroad registered in the UK"
			if tt.abroad {
				if rep.FoundedAt != nil || !hasNote(rep.Notes, note) {
					t.Errorf("founded_at %v, notes %q; want null and a note", rep.FoundedAt, rep.Notes)
				}
				return
			}
			if rep.FoundedAt == nil || *rep.FoundedAt != created || hasNote(rep.Notes, note) {
				t.Errorf("founded_at %v, notes %q; want %v and no note", rep.FoundedAt, rep.Notes, created)
			}
		})
	}
}

// A UK establishment's has_annual_accounts_duty is null, and a note says
// why: the duty is the overseas company's (the Overseas Companies
// Regulations 2009, SI 2009/1801, https://www.legislation.gov.uk/uksi/2009/1801).
func TestEstablishmentAccountsDutyNote(t *testing.T) {
	t.Parallel()
	rep := roundTrip(t, mapJSON(t, `{"company_name":"X","company_number":"BR012345","type":"uk-establishment","company_status":"open"}`))
	if rep.HasAnnualAccountsDuty != nil || !hasNote(rep.Notes, "has_annual_accounts_duty is null because an establishment's accounts duty follows the overseas company's") ||
		!hasNote(rep.Notes, "Overseas Companies Regulations 2009") {
		t.Errorf("has_annual_accounts_duty %v, notes %q", rep.HasAnnualAccountsDuty, rep.Notes)
	}
}
