package fi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// mapJSON decodes one company written as JSON and maps it.
func mapJSON(t *testing.T, js string) *registry.CompanyReport {
	t.Helper()
	var c company
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	return mapCompany(&c, nokiaID)
}

// The status precedence: an end date, then KONK, SELTILA, SANE (active),
// the registered codes, else unknown. Ended situations do not count.
func TestStatusPrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, js   string
		want       registry.Status
		wantDetail string
	}{
		{"registered", `{"tradeRegisterStatus":"1","status":"2"}`, registry.StatusActive, "Registered"},
		{"status 2 outside the Trade Register", `{"tradeRegisterStatus":"0","status":"2"}`, registry.StatusActive, "Registered"},
		{"unknown codes", `{"tradeRegisterStatus":"4","status":"3"}`, registry.StatusUnknown, "Unrecognised"},
		{"ceased", `{"endDate":"2024-05-31","companySituations":[{"type":"KONK","registrationDate":"2023-01-01"}],"tradeRegisterStatus":"1"}`,
			registry.StatusDissolved, "Ceased on 2024-05-31"},
		{"bankrupt", `{"companySituations":[{"type":"SELTILA"},{"type":"KONK","registrationDate":"2026-03-02"}],"tradeRegisterStatus":"1"}`,
			registry.StatusBankrupt, "Bankruptcy"},
		{"liquidation", `{"companySituations":[{"type":"SELTILA","registrationDate":"2026-01-15"}],"tradeRegisterStatus":"1"}`,
			registry.StatusUnderLiquidation, "Liquidation (selvitystila, SELTILA) since 2026-01-15"},
		{"restructuring", `{"companySituations":[{"type":"SANE","registrationDate":"2025-06-01"}],"tradeRegisterStatus":"1"}`,
			registry.StatusActive, "Active, under restructuring"},
		{"ended bankruptcy", `{"companySituations":[{"type":"KONK","registrationDate":"2020-01-01","endDate":"2021-01-01"}],"tradeRegisterStatus":"1","status":"2"}`,
			registry.StatusActive, "Registered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := mapJSON(t, tt.js)
			if rep.Status != tt.want || !strings.HasPrefix(*rep.StatusDetail, tt.wantDetail) {
				t.Errorf("status %s (%s), want %s (%s...)", rep.Status, *rep.StatusDetail, tt.want, tt.wantDetail)
			}
			if rep.IsActive != (tt.want == registry.StatusActive) {
				t.Errorf("is_active %t with status %s", rep.IsActive, rep.Status)
			}
		})
	}
	if d := mapJSON(t, tests[4].js).BankruptcyDate; d == nil || d.String() != "2026-03-02" {
		t.Errorf("bankruptcy_date %v", d)
	}
}

// Names: the current main name; previous main names newest first, each
// once; parallel and auxiliary names in notes; ended ones left out.
func TestNames(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"names":[
		{"name":"Vanhin Oy","type":"1","endDate":"1990-01-01","version":3},
		{"name":"Uusi Oy","type":"1","version":1},
		{"name":"Vanha Oy","type":"1","endDate":"2000-01-01","version":2},
		{"name":"Vanhin Oy","type":"1","endDate":"1980-01-01","version":4},
		{"name":"Nya Ab","type":"2","version":1},
		{"name":"Old Ltd","type":"2","endDate":"2001-01-01","version":2},
		{"name":"Apu","type":"3","version":1}]}`)
	got := struct {
		Name     string
		Previous []string
		Notes    []string
	}{rep.Name, rep.PreviousNames, rep.Notes}
	want := got
	want.Name, want.Previous = "Uusi Oy", []string{"Vanha Oy", "Vanhin Oy"}
	want.Notes = []string{
		"The register gave no legal form in force for this company, so its liability, board and filing duties are unknown.",
		"The register listed no register entries for this company, so its registers are unknown.",
		"The register's status codes (tradeRegisterStatus \"\", status \"\") are not ones this service recognises, so the status is unknown.",
		"Parallel names (rinnakkaistoiminimet, the name in other languages): Nya Ab.",
		"Auxiliary names (aputoiminimet, names of lines of business): Apu.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if rep.VATRegistered != nil || rep.InBusinessRegister != nil || len(rep.Registers) != 0 {
		t.Errorf("registers without entries: %v %v %v", rep.VATRegistered, rep.InBusinessRegister, rep.Registers)
	}
}

// Registers: entries in force count, ended ones and the pre-registration
// entry do not; VAT from register 6 (type 80 date first).
func TestRegisters(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"registeredEntries":[
		{"register":"1","type":"0","registrationDate":"2010-05-14","endDate":"2010-07-15"},
		{"register":"6","type":"82","registrationDate":"2009-01-01"},
		{"register":"6","type":"80","registrationDate":"2010-05-17"},
		{"register":"7","type":"41","registrationDate":"2010-06-01","endDate":"2020-12-31"},
		{"register":"5","type":"55","registrationDate":"2010-06-01"}]}`)
	wantRegs := map[string]bool{registerTrade: false, registerTaxBasic: false, registerPrepayment: true, registerVAT: true,
		registerEmployer: false, registerInsurancePremium: false}
	if diff := cmp.Diff(wantRegs, rep.Registers); diff != "" {
		t.Errorf("registers (-want +got):\n%s", diff)
	}
	if *rep.InBusinessRegister || rep.BusinessRegisterRegisteredAt != nil {
		t.Errorf("trade register %v %v", *rep.InBusinessRegister, rep.BusinessRegisterRegisteredAt)
	}
	if !*rep.VATRegistered || rep.VATRegisteredAt.String() != "2010-05-17" || *rep.VATNumber != "FI01120389" {
		t.Errorf("VAT %v %v %v", *rep.VATRegistered, rep.VATRegisteredAt, *rep.VATNumber)
	}
}

// Addresses: c/o, street with building, entrance and apartment, PO box,
// the Finnish post town, the municipality code; a foreign country is kept
// as written.
func TestAddresses(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"addresses":[
		{"type":1,"co":"Tilitoimisto X","street":"Mannerheimintie","buildingNumber":"12","entrance":"B","apartmentNumber":"34","apartmentIdSuffix":"a",
		 "postCode":"00100","postOffices":[{"city":"HELSINGFORS","languageCode":"2","municipalityCode":"091"},{"city":"HELSINKI","languageCode":"1","municipalityCode":"091"}]},
		{"type":2,"street":"Storgatan","buildingNumber":"1","postCode":"11122","postOffices":[{"city":"STOCKHOLM","languageCode":"2"}],"country":"SE"},
		{"type":2,"street":"Ignored","postCode":"1"}]}`)
	want := &registry.Address{Lines: []string{"c/o Tilitoimisto X", "Mannerheimintie 12 B 34a"}, PostalCode: countrykit.Ptr("00100"),
		City: countrykit.Ptr("HELSINKI"), MunicipalityCode: countrykit.Ptr("091"), CountryCode: countrykit.Ptr("FI"), CountryName: countrykit.Ptr("Finland")}
	if diff := cmp.Diff(want, rep.BusinessAddress); diff != "" {
		t.Errorf("street address (-want +got):\n%s", diff)
	}
	wantPostal := &registry.Address{Lines: []string{"Storgatan 1"}, PostalCode: countrykit.Ptr("11122"), City: countrykit.Ptr("STOCKHOLM"),
		CountryName: countrykit.Ptr("SE")}
	if diff := cmp.Diff(wantPostal, rep.PostalAddress); diff != "" {
		t.Errorf("postal address (-want +got):\n%s", diff)
	}
	if mapJSON(t, `{"addresses":[{"type":1,"street":"","postOffices":[]}]}`).BusinessAddress != nil {
		t.Error("an empty address is not null")
	}
}

// The industry scheme follows the code set: TOL 2008 for TOIMI3, TOL 2025
// for TOIMI4; the English description wins, else the Finnish one.
func TestIndustryScheme(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"mainBusinessLine":{"type":"62010","typeCodeSet":"TOIMI3","descriptions":[{"languageCode":"1","description":"Ohjelmistojen suunnittelu"}]}}`)
	want := []registry.IndustryCode{{Code: "62010", Description: countrykit.Ptr("Ohjelmistojen suunnittelu"),
		Scheme: countrykit.Ptr("TOL 2008 (Statistics Finland, NACE Rev. 2; code set TOIMI3)"), Rank: 1}}
	if diff := cmp.Diff(want, rep.IndustryCodes); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A code from the third-party list is used only when the register's own
// Finnish label agrees; otherwise the register's labels are kept and the
// duties are unknown.
func TestLegalFormLabelGuard(t *testing.T) {
	t.Parallel()
	ok := mapJSON(t, `{"companyForms":[{"type":"14","version":1,"descriptions":[{"languageCode":"1","description":"Osuuskunta"},{"languageCode":"3","description":"Co-operative"}]}]}`)
	if *ok.LegalForm != "Co-operative" || ok.HasAnnualAccountsDuty == nil || !*ok.HasAnnualAccountsDuty {
		t.Errorf("matching label: %v %v", *ok.LegalForm, ok.HasAnnualAccountsDuty)
	}
	bad := mapJSON(t, `{"companyForms":[{"type":"14","version":1,"descriptions":[{"languageCode":"1","description":"Osuuspankki"},{"languageCode":"3","description":"Cooperative bank"}]}]}`)
	if *bad.LegalForm != "Cooperative bank" || bad.LimitedLiability != nil || bad.HasAnnualAccountsDuty != nil {
		t.Errorf("mismatching label: %v %v %v", *bad.LegalForm, bad.LimitedLiability, bad.HasAnnualAccountsDuty)
	}
	if !strings.Contains(strings.Join(bad.Notes, " "), "not in this service's table") {
		t.Errorf("no note: %q", bad.Notes)
	}
	if d := dutiesOf(bad); d.Label != "" {
		t.Errorf("duties of a mismatching label: %+v", d)
	}
	// The form in force is the one without an end date.
	rep := mapJSON(t, `{"companyForms":[{"type":"16","version":2,"endDate":"1997-08-31"},{"type":"17","version":1}]}`)
	if *rep.LegalFormCode != "17" || *rep.LegalForm != "Public limited company" {
		t.Errorf("form in force: %v %v", *rep.LegalFormCode, *rep.LegalForm)
	}
}

// One owner: for every row of the legal-form table, the report's duty
// flags and the deadline list agree. A form that files its financial
// statements whatever its size has a mandatory financial_statements
// deadline; a form without that duty never has a mandatory one; the kinds
// are exactly those the row names.
func TestFormsDutiesAgreeWithDeadlines(t *testing.T) {
	t.Parallel()
	for _, f := range legalForms() {
		t.Run(f.Abbr, func(t *testing.T) {
			t.Parallel()
			rep := countrykit.NewReport(countryCode, registrySlug, nokiaID, "Esimerkki")
			rep.Status = registry.StatusActive
			rep.LegalFormCode, rep.LegalFormLocal = countrykit.Ptr(f.Code), countrykit.Ptr(f.Finnish)
			rep.HasAnnualAccountsDuty = f.AccountsDuty.Ptr()
			out := deadlines.Finland(rep, dutiesOf(rep), registry.NewDate(2026, 11, 24))
			kinds := map[registry.DeadlineKind]bool{}
			for _, d := range out.Deadlines {
				kinds[d.Kind] = d.Mandatory
			}
			mandatoryFS, hasFS := kinds[deadlines.FinancialStatements]
			if rep.HasAnnualAccountsDuty != nil && *rep.HasAnnualAccountsDuty != (hasFS && mandatoryFS) {
				t.Errorf("accounts duty %v but financial_statements present %t mandatory %t", *rep.HasAnnualAccountsDuty, hasFS, mandatoryFS)
			}
			if rep.HasAnnualAccountsDuty == nil && mandatoryFS {
				t.Error("unknown accounts duty but a mandatory financial_statements deadline")
			}
			want := map[registry.DeadlineKind]bool{}
			if d := f.Deadlines; d != nil {
				for k, duty := range map[registry.DeadlineKind]deadlines.KindDuty{
					deadlines.GeneralMeeting: d.GeneralMeeting, deadlines.FinancialStatements: d.FinancialStatements, deadlines.TaxReturn: d.TaxReturn} {
					if duty.Duty.Applies() {
						want[k] = duty.Duty == deadlines.DutyYes
					}
				}
				if _, ok := want[deadlines.TaxReturn]; !ok && d.PartnershipTaxReturn.Duty.Applies() {
					want[deadlines.TaxReturn] = d.PartnershipTaxReturn.Duty == deadlines.DutyYes
				}
			}
			if diff := cmp.Diff(want, kinds); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if f.Code == "" || f.Abbr == "" || f.Finnish == "" || f.English == "" || f.Basis == "" {
				t.Errorf("incomplete row %+v", f)
			}
		})
	}
}

// An employer-register entry in the report gives employer contributions
// and the mandatory separate report to the Incomes Register, whatever the
// legal form.
func TestDeadlinesEmployerFromRegisters(t *testing.T) {
	t.Parallel()
	rep := countrykit.NewReport(countryCode, registrySlug, nokiaID, "Esimerkki")
	rep.Status = registry.StatusActive
	rep.LegalFormCode = countrykit.Ptr("99")
	rep.Registers[registerEmployer] = true
	out, err := newTestCountry(t, nil).Deadlines(rep, registry.NewDate(2026, 11, 24))
	if err != nil {
		t.Fatal(err)
	}
	got := map[registry.DeadlineKind]bool{}
	for _, d := range out.Deadlines {
		got[d.Kind] = d.Mandatory
	}
	want := map[registry.DeadlineKind]bool{deadlines.EmployerContributions: true, deadlines.EmployerSeparateReport: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kinds and mandatory (-want +got):\n%s", diff)
	}
}

// The registers are read by their code (research fi-deadlines.md,
// "Additions": 1 Trade Register, 4 the Tax Administration's basic data, 5
// prepayment, 6 VAT, 7 employer, 8 insurance premium tax; "Read the code,
// never the description text"): an entry with register 7 and any wording
// is the employer register and makes the separate report to the Incomes
// Register mandatory; an entry whose text says employer register under
// another code is not.
func TestRegistersByCode(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"companyForms":[{"type":"16","descriptions":[{"languageCode":"1","description":"Osakeyhtiö"}]}],
		"tradeRegisterStatus":"1","registeredEntries":[
		{"register":"7","type":"41","registrationDate":"2010-06-01","descriptions":[{"languageCode":"3","description":"Something new"}]},
		{"register":"4","type":"1","registrationDate":"2010-06-01"},
		{"register":8,"type":"1","registrationDate":"2011-01-01"}]}`)
	want := map[string]bool{registerTrade: false, registerTaxBasic: true, registerPrepayment: false, registerVAT: false,
		registerEmployer: true, registerInsurancePremium: true}
	if diff := cmp.Diff(want, rep.Registers); diff != "" {
		t.Errorf("registers (-want +got):\n%s", diff)
	}
	out := deadlines.Finland(rep, dutiesOf(rep), registry.NewDate(2026, 1, 15))
	d, ok := fiDeadline(out, deadlines.EmployerSeparateReport)
	if !ok || !d.Mandatory || d.DueDate != registry.NewDate(2026, 2, 5) {
		t.Errorf("employer_separate_report %+v (found %v), want mandatory, due 2026-02-05", d, ok)
	}

	textOnly := mapJSON(t, `{"registeredEntries":[{"register":"9","type":"41","registrationDate":"2010-06-01",
		"descriptions":[{"languageCode":"1","description":"Työnantajarekisteri"},{"languageCode":"3","description":"Employer register"}]}]}`)
	if textOnly.Registers[registerEmployer] {
		t.Error("an entry was read as the employer register by its text")
	}
	if _, ok := fiDeadline(deadlines.Finland(textOnly, dutiesOf(textOnly), registry.NewDate(2026, 1, 15)), deadlines.EmployerSeparateReport); ok {
		t.Error("a separate report for a company outside register 7")
	}
}

func fiDeadline(out *registry.DeadlineReport, kind registry.DeadlineKind) (registry.Deadline, bool) {
	for _, d := range out.Deadlines {
		if d.Kind == kind {
			return d, true
		}
	}
	return registry.Deadline{}, false
}

// A partnership (Ay, Ky) of the legal-form table has a mandatory tax return
// due on 1 April (research fi-deadlines.md, "Additions").
func TestPartnershipTaxReturnFromTheTable(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"5", "13"} {
		f, _ := lookupForm(code, "")
		rep := countrykit.NewReport(countryCode, registrySlug, nokiaID, "Esimerkki")
		rep.Status = registry.StatusActive
		rep.LegalFormCode, rep.LegalFormLocal = countrykit.Ptr(code), countrykit.Ptr(f.Finnish)
		d, ok := fiDeadline(deadlines.Finland(rep, dutiesOf(rep), registry.NewDate(2024, 1, 15)), deadlines.TaxReturn)
		if !ok || !d.Mandatory || d.StatutoryDate != registry.NewDate(2024, 4, 1) || d.DueDate != registry.NewDate(2024, 4, 2) {
			t.Errorf("%s: tax_return %+v (found %v), want mandatory, 1 April 2024 moved to 2 April", f.Abbr, d, ok)
		}
	}
}

// A sole trader's report says its data is personal data.
func TestSoleTraderNote(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"companyForms":[{"type":"26","version":1,"descriptions":[{"languageCode":"1","description":"Yksityinen elinkeinonharjoittaja"}]}]}`)
	if !strings.Contains(strings.Join(rep.Notes, " "), "personal data") {
		t.Errorf("no personal-data note: %q", rep.Notes)
	}
	if strings.Contains(strings.Join(mapJSON(t, `{"companyForms":[{"type":"16"}]}`).Notes, " "), "personal data") {
		t.Error("a limited company gets the personal-data note")
	}
}
