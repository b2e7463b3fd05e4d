package dk

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// TestStatusPrecedence checks the mapping of the register's status values
// (a third-party aggregation over the live register, 2025-09-08) and the precedence when several hold: ended first,
// then bankrupt, compulsory dissolution, voluntary liquidation,
// reconstruction (active), active, unknown.
func TestStatusPrecedence(t *testing.T) {
	t.Parallel()
	open := func(v, from string) status { return status{Status: v, Periode: period{GyldigFra: from}} }
	closed := func(v, from, to string) status {
		return status{Status: v, Periode: period{GyldigFra: from, GyldigTil: to}}
	}
	life := []lifespan{{Periode: period{GyldigFra: "2001-01-01"}}}
	for _, tt := range []struct {
		name       string
		statuses   []status
		sammensat  string
		lives      []lifespan
		want       registry.Status
		bankruptcy string
		ended      string
	}{
		{"NORMAL", []status{open("NORMAL", "2001-01-01")}, "", life, registry.StatusActive, "", ""},
		{"AKTIV", []status{open("Aktiv", "2001-01-01")}, "", life, registry.StatusActive, "", ""},
		{"empty list, sammensatStatus Aktiv (2019 recording)", nil, "Aktiv", life, registry.StatusActive, "", ""},
		{"empty list, open lifespan", nil, "", life, registry.StatusActive, "", ""},
		{"nothing at all", nil, "", nil, registry.StatusUnknown, "", ""},
		{"UNDER KONKURS", []status{closed("NORMAL", "2001-01-01", "2025-03-02"), open("UNDER KONKURS", "2025-03-03")}, "NORMAL", life,
			registry.StatusBankrupt, "2025-03-03", ""},
		{"UNDER TVANGSOPLØSNING", []status{open("UNDER TVANGSOPLØSNING", "2024-01-05")}, "", life, registry.StatusUnderCompulsoryLiquidation, "", ""},
		{"UNDER FRIVILLIG LIKVIDATION", []status{open("UNDER FRIVILLIG LIKVIDATION", "2024-01-05")}, "", life, registry.StatusUnderLiquidation, "", ""},
		{"UNDER REKONSTRUKTION", []status{open("UNDER REKONSTRUKTION", "2024-01-05")}, "", life, registry.StatusActive, "", ""},
		{"bankrupt beats liquidation", []status{open("UNDER FRIVILLIG LIKVIDATION", "2024-01-05"), open("UNDER KONKURS", "2024-02-01")}, "", life,
			registry.StatusBankrupt, "2024-02-01", ""},
		{"OPLØST EFTER KONKURS", []status{open("OPLØST EFTER KONKURS", "2024-06-01")}, "", life, registry.StatusDissolved, "", "2024-06-01"},
		{"TVANGSOPLØST", []status{open("TVANGSOPLØST", "2024-06-01")}, "", life, registry.StatusDissolved, "", "2024-06-01"},
		{"SLETTET", []status{open("SLETTET", "2024-06-01")}, "", life, registry.StatusDissolved, "", "2024-06-01"},
		{"sammensatStatus Ophørt", nil, "Ophørt", life, registry.StatusDissolved, "", ""},
		{"ended lifespan beats NORMAL", []status{open("NORMAL", "2001-01-01")}, "", []lifespan{{Periode: period{GyldigFra: "2001-01-01", GyldigTil: "2020-05-31"}}},
			registry.StatusDissolved, "", "2020-05-31"},
		{"UNDER REASSUMERING", []status{open("UNDER REASSUMERING", "2024-01-05")}, "", life, registry.StatusUnknown, "", ""},
		{"UDEN RETSVIRKNING", []status{open("UDEN RETSVIRKNING", "2024-01-05")}, "", life, registry.StatusUnknown, "", ""},
		{"only closed statuses: sammensatStatus counts", []status{closed("UNDER KONKURS", "2020-01-01", "2020-06-01")}, "NORMAL", life,
			registry.StatusActive, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &company{Virksomhedsstatus: tt.statuses, Livsforloeb: tt.lives, Metadata: &metadata{SammensatStatus: tt.sammensat}}
			st := statusOf(c)
			if st.status != tt.want || st.detail == "" {
				t.Errorf("status %q (%s), want %q", st.status, st.detail, tt.want)
			}
			if got := dateString(st.bankruptcy); got != tt.bankruptcy {
				t.Errorf("bankruptcy %q, want %q", got, tt.bankruptcy)
			}
			if got := dateString(st.ended); got != tt.ended {
				t.Errorf("ended %q, want %q", got, tt.ended)
			}
			if tt.want != registry.StatusActive || strings.Contains(tt.name, "REKONSTRUKTION") {
				if len(st.notes) == 0 {
					t.Error("no note")
				}
			}
		})
	}
}

func dateString(d *registry.Date) string {
	if d == nil {
		return ""
	}
	return d.String()
}

// The register publishes employees as counts and intervals in four series:
// the newest figure counts; an exact count is employees, an interval alone
// leaves it null; employees_reported says whether any figure exists.
func TestEmployees(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		c        company
		want     *int
		reported bool
		note     string
	}{
		{"none", company{}, nil, false, ""},
		{"exact monthly beats an older yearly", company{
			Aarsbeskaeftigelse:  []employment{emp(2022, 0, 0, 9, "ANTAL_5_9")},
			ErstMaanedsbeskaeft: []employment{emp(2023, 0, 12, 28, "ANTAL_20_49")},
		}, countrykit.Ptr(28), true, "Employees: 28 in December 2023, the newest figure in the register (interval 20–49)."},
		{"interval only", company{
			Kvartalsbeskaeftigelse: []employment{emp(2024, 2, 0, -1, "ANTAL_50_99")},
		}, nil, true, "Employees: the register gives only an interval, 50–99, for Q2 2024, so employees is null."},
		{"a newer interval beats an older count", company{
			Maanedsbeskaeftigelse: []employment{emp(2019, 0, 9, 12, "ANTAL_10_19")},
			ErstMaanedsbeskaeft:   []employment{emp(2024, 0, 1, -1, "ANTAL_1000_999999")},
		}, nil, true, "Employees: the register gives only an interval, 1000–999999, for January 2024, so employees is null."},
		{"zero is a figure", company{Aarsbeskaeftigelse: []employment{emp(2023, 0, 0, 0, "ANTAL_0_0")}}, countrykit.Ptr(0), true,
			"Employees: 0 in the year 2023, the newest figure in the register (interval 0–0)."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := countrykit.NewReport("DK", "cvr", apsID, "X")
			mapEmployees(r, &tt.c)
			if diff := cmp.Diff(tt.want, r.Employees); diff != "" {
				t.Errorf("employees (-want +got):\n%s", diff)
			}
			if r.EmployeesReported == nil || *r.EmployeesReported != tt.reported {
				t.Errorf("employees_reported %v, want %t", r.EmployeesReported, tt.reported)
			}
			if tt.note != "" && !slices.Contains(r.Notes, tt.note) {
				t.Errorf("notes %q lack %q", r.Notes, tt.note)
			}
		})
	}
}

// emp builds one employment figure; a count below 0 is missing.
func emp(year, quarter, month, count int64, interval string) employment {
	var e employment
	e.Aar.Value, e.Aar.Set = year, true
	if quarter > 0 {
		e.Kvartal.Value, e.Kvartal.Set = quarter, true
	}
	if month > 0 {
		e.Maaned.Value, e.Maaned.Set = month, true
	}
	if count >= 0 {
		e.AntalAnsatte.Value, e.AntalAnsatte.Set = count, true
	}
	e.IntervalKodeAntalAnsatte = interval
	return e
}

func TestIntervalAndMonthDay(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"ANTAL_20_49": "20–49", "ANTAL_1_1": "1–1", "ANTAL_1000_": "1000 or more", "X": "X", "": ""} {
		if got := intervalText(in); got != want {
			t.Errorf("intervalText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, ok := range map[string]bool{"--12-31": true, "--02-29": true, "--02-30": false, "--13-01": false, "--00-10": false,
		"12-31": false, "--1-31": false, " --06-30 ": true, "--06-3x": false} {
		if _, _, got := parseMonthDay(in); got != ok {
			t.Errorf("parseMonthDay(%q) ok = %t, want %t", in, got, ok)
		}
	}
}

// The financial year the register gives reaches the deadlines through the
// report's notes, also after the report went through JSON (the cache): a
// company whose year ends 30 June has its annual report due 31 December.
// A report without the note (one a caller built) gets the calendar year.
func TestFinancialYearSurvivesJSON(t *testing.T) {
	t.Parallel()
	var ans searchAnswer
	if err := json.Unmarshal(recording(t, enkFile), &ans); err != nil {
		t.Fatal(err)
	}
	rep := mapCompany(ans.companies()[0], enkID)
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back registry.CompanyReport
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	d := dutiesOf(&back)
	if d.YearEndMonth != time.June || d.YearEndDay != 30 || dateString(d.FirstPeriodStart) != "2019-03-01" || dateString(d.FirstPeriodEnd) != "2020-06-30" {
		t.Errorf("duties %+v", d)
	}
	// An ApS with the same notes: the annual report follows the June year.
	back.LegalFormCode = countrykit.Ptr("80")
	out := deadlinesOf(t, &back, registry.NewDate(2026, 7, 1))
	if got := out["annual_report"]; got != "2026-12-31" {
		t.Errorf("annual_report due %s, want 2026-12-31", got)
	}
	back.Notes = nil
	out = deadlinesOf(t, &back, registry.NewDate(2026, 7, 1))
	if got := out["annual_report"]; got != "2027-06-30" {
		t.Errorf("without the note: annual_report due %s, want 2027-06-30", got)
	}
}

// deadlinesOf returns the due date of each kind the module computes.
func deadlinesOf(t *testing.T, rep *registry.CompanyReport, today registry.Date) map[string]string {
	t.Helper()
	out, err := (&Country{}).Deadlines(rep, today)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, d := range out.Deadlines {
		m[string(d.Kind)] = d.DueDate.String()
	}
	return m
}

// A sole proprietorship is a person's data: its report and roles say so,
// and the owner's private address and identifiers never appear, in the
// lookup, the roles or the search.
func TestSoleProprietorshipPersonalData(t *testing.T) {
	t.Parallel()
	fake := newFakeCVR(t, map[string]string{enkID: enkFile}, enkFile)
	reg := newTestRegistry(t, fake)
	rep, err := reg.Lookup(t.Context(), "DK", enkID)
	if err != nil {
		t.Fatal(err)
	}
	roles, err := reg.Roles(t.Context(), "DK", enkID)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := reg.Search(t.Context(), "DK", "synthetic", 10)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal([]any{rep, roles, hits})
	for _, private := range []string{"Privatvej", "Privatby", "PRIVATKOMMUNE", "9999", "4999999901", "12345678"} {
		if strings.Contains(string(all), private) {
			t.Errorf("the answers hold %q", private)
		}
	}
	if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "personal data") }) ||
		!slices.ContainsFunc(roles.Notes, func(n string) bool { return strings.Contains(n, "personal data") }) {
		t.Errorf("no personal-data note: %q / %q", rep.Notes, roles.Notes)
	}
	if len(roles.Roles) != 1 || roles.Roles[0].Group != registry.RoleOwner || roles.Roles[0].Holder.Kind != registry.HolderPerson ||
		roles.Roles[0].Holder.BirthYear != nil || roles.Roles[0].Holder.ID != nil {
		t.Errorf("roles %+v", roles.Roles)
	}
	if rep.Phone != nil {
		t.Errorf("the secret phone number is shown: %v", *rep.Phone)
	}
}

// mapAddress writes a Danish address: street, number and letter, floor and
// door; a range of numbers; c/o, post box and locality; the municipality
// code with three digits; a foreign country code as given.
func TestMapAddress(t *testing.T) {
	t.Parallel()
	a := address{Vejnavn: "Hovedgaden", Etage: "2", Sidedoer: "th", BogstavFra: "A", Conavn: "Firma A/S", Bynavn: "Strib",
		Postdistrikt: "Middelfart", Landekode: "DK", Kommune: &municipality{KommuneNavn: "MIDDELFART"}}
	a.HusnummerFra.Value, a.HusnummerFra.Set = 10, true
	a.HusnummerTil.Value, a.HusnummerTil.Set = 14, true
	a.Postnummer.Value, a.Postnummer.Set = 5500, true
	a.Kommune.KommuneKode.Value, a.Kommune.KommuneKode.Set = 61, true
	want := &registry.Address{Lines: []string{"c/o Firma A/S", "Hovedgaden 10A-14, 2. th.", "Strib"}, PostalCode: countrykit.Ptr("5500"),
		City: countrykit.Ptr("Middelfart"), Municipality: countrykit.Ptr("MIDDELFART"), MunicipalityCode: countrykit.Ptr("061"),
		CountryCode: countrykit.Ptr("DK"), CountryName: countrykit.Ptr("Denmark")}
	if diff := cmp.Diff(want, mapAddress(&a)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	foreign := address{Fritekst: "10 Downing Street, London", Landekode: "GB"}
	if got := mapAddress(&foreign); got == nil || *got.CountryCode != "GB" || got.CountryName != nil || got.Lines[0] != "10 Downing Street, London" {
		t.Errorf("foreign: %+v", got)
	}
	if got := mapAddress(&address{}); got != nil {
		t.Errorf("empty: %+v", got)
	}
}

// Every legal form of the table has labels and a basis; a form with
// deadlines has a label for sentences; a form without them says why in a
// note. The recordings' codes are in the table.
func TestLegalFormTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, f := range legalForms() {
		if seen[f.Code] || f.Code == "" || f.Abbr == "" || f.Danish == "" || f.English == "" || f.Basis == "" {
			t.Errorf("row %+v", f)
		}
		seen[f.Code] = true
		switch {
		case f.Deadlines != nil && f.Deadlines.Label == "":
			t.Errorf("%s: deadlines without a label", f.Code)
		case f.Deadlines == nil && f.Note == "":
			t.Errorf("%s: no deadlines and no note saying why", f.Code)
		}
	}
	for _, code := range []string{"10", "40", "60", "80", "90", "280"} {
		if !seen[code] {
			t.Errorf("code %s missing", code)
		}
	}
}
