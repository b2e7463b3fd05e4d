package gb

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// mapJSON decodes a profile and maps it for company 12345678.
func mapJSON(t testing.TB, s string) *registry.CompanyReport {
	t.Helper()
	var p profile
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return mapProfile("12345678", &p)
}

// Status comes from company_status; administration, receivership, a
// voluntary arrangement and insolvency proceedings are not active (status
// unknown, see statusRules) and status_detail names the procedure; the
// exact upstream status and company_status_detail go into status_detail.
func TestStatusMapping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status, detail string
		want           registry.Status
		wantDetail     string
		wantNote       string
	}{
		{"active", "", registry.StatusActive, `Companies House company_status is "active" (Active).`, ""},
		{"dissolved", "", registry.StatusDissolved, `Companies House company_status is "dissolved" (Dissolved).`, ""},
		{"liquidation", "", registry.StatusUnderLiquidation, `Companies House company_status is "liquidation" (Liquidation).`, ""},
		{"removed", "", registry.StatusDeleted, `Companies House company_status is "removed" (Removed).`, "removed from the Register of Overseas Entities"},
		{"converted-closed", "", registry.StatusDeleted, `Companies House company_status is "converted-closed" (Converted / Closed).`, "closed this record"},
		{"closed", "", registry.StatusDeleted, `Companies House company_status is "closed" (Closed).`, "is closed"},
		{"registered", "", registry.StatusActive, `Companies House company_status is "registered" (Registered).`, ""},
		{"open", "", registry.StatusActive, `Companies House company_status is "open" (Open).`, ""},
		{"administration", "", registry.StatusUnknown, `Companies House company_status is "administration" (In Administration), an insolvency procedure that does not end the company or its filing duties.`, "in administration"},
		{"receivership", "", registry.StatusUnknown, `Companies House company_status is "receivership" (Receiver Action), an insolvency procedure that does not end the company or its filing duties.`, "receiver"},
		{"voluntary-arrangement", "", registry.StatusUnknown, `Companies House company_status is "voluntary-arrangement" (Voluntary Arrangement), an insolvency procedure that does not end the company or its filing duties.`, "voluntary arrangement"},
		{"insolvency-proceedings", "", registry.StatusUnknown, `Companies House company_status is "insolvency-proceedings" (Insolvency Proceedings), an insolvency procedure that does not end the company or its filing duties.`, "insolvency proceedings"},
		{"", "", registry.StatusUnknown, "Companies House gives no company_status for this company.", ""},
		{"frozen", "", registry.StatusUnknown, `Companies House company_status is "frozen", which this service does not know.`, ""},
		{"active", "active-proposal-to-strike-off", registry.StatusActive,
			`Companies House company_status is "active" (Active); company_status_detail is "active-proposal-to-strike-off" (Active proposal to strike off).`, "strike the company off"},
		{"dissolved", "petition-to-restore-dissolved", registry.StatusDissolved,
			`Companies House company_status is "dissolved" (Dissolved); company_status_detail is "petition-to-restore-dissolved" (Petition to restore dissolved).`, "restore"},
		{"active", "something-new", registry.StatusActive,
			`Companies House company_status is "active" (Active); company_status_detail is "something-new".`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.status+"/"+tt.detail, func(t *testing.T) {
			t.Parallel()
			b, _ := json.Marshal(map[string]string{"company_status": tt.status, "company_status_detail": tt.detail})
			rep := mapJSON(t, string(b))
			if rep.Status != tt.want {
				t.Errorf("status = %q, want %q", rep.Status, tt.want)
			}
			if rep.StatusDetail == nil || *rep.StatusDetail != tt.wantDetail {
				t.Errorf("status_detail = %v, want %q", rep.StatusDetail, tt.wantDetail)
			}
			if tt.wantNote != "" && !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, tt.wantNote) }) {
				t.Errorf("notes %q lack %q", rep.Notes, tt.wantNote)
			}
		})
	}
}

// Data Companies House omits becomes null (or an empty list), never "".
func TestAbsentDataIsNull(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"company_name":"X LTD","registered_office_address":{"address_line_1":"","locality":" "},
		"accounts":{"accounting_reference_date":{"day":"","month":""},"last_accounts":{"type":"null"},"next_accounts":{}},
		"confirmation_statement":{},"sic_codes":[""],"previous_company_names":[{"name":""}],"type":""}`)
	want := countrykit.NewReport("GB", "companieshouse", "12345678", "X LTD")
	want.IDScheme = countrykit.Ptr("company registration number")
	want.StatusDetail = countrykit.Ptr("Companies House gives no company_status for this company.")
	want.ConfidenceBasis = countrykit.Ptr("Exact company number lookup at Companies House.")
	want.Source = countrykit.Ptr("Companies House")
	want.SourceURL = countrykit.Ptr("https://find-and-update.company-information.service.gov.uk/company/12345678")
	want.License = countrykit.Ptr("Open Government Licence v3.0 (Crown copyright)")
	// Companies House never holds an employee figure: known to be no.
	want.EmployeesReported = countrykit.Ptr(false)
	if diff := cmp.Diff(want, rep); diff != "" {
		t.Errorf("report mismatch (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `""`) {
		t.Errorf("report holds an empty string: %s", b)
	}
}

// The accounting reference date arrives as strings ("03"); numbers are
// accepted too, and nonsense is ignored.
func TestAccountingReferenceDate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ard, want string
	}{
		{`{"day":"31","month":"03"}`, "31 March"},
		{`{"day":31,"month":3}`, "31 March"},
		{`{"day":"29","month":"02"}`, "29 February"},
		{`{"day":"31","month":"04"}`, ""},
		{`{"day":"x","month":"03"}`, ""},
		{`{"day":{},"month":[]}`, ""},
		{`{"day":null,"month":"12"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.ard, func(t *testing.T) {
			t.Parallel()
			rep := mapJSON(t, `{"accounts":{"accounting_reference_date":`+tt.ard+`}}`)
			var got string
			for _, n := range rep.Notes {
				if s, ok := strings.CutPrefix(n, "The accounting reference date (the end of the financial year) is "); ok {
					got = strings.TrimSuffix(s, ".")
				}
			}
			if got != tt.want {
				t.Errorf("reference date %q, want %q", got, tt.want)
			}
		})
	}
}

// previous_names is newest first, whatever the upstream order.
func TestPreviousNamesNewestFirst(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"previous_company_names":[
		{"name":"OLDEST LTD","effective_from":"1990-01-01","ceased_on":"1995-01-01"},
		{"name":"UNDATED LTD"},
		{"name":"NEWEST LTD","effective_from":"2000-01-01","ceased_on":"2010-06-30"},
		{"name":"MIDDLE LTD","effective_from":"1995-01-01","ceased_on":"2000-01-01"}]}`)
	want := []string{"NEWEST LTD", "MIDDLE LTD", "OLDEST LTD", "UNDATED LTD"}
	if diff := cmp.Diff(want, rep.PreviousNames); diff != "" {
		t.Errorf("previous names (-want +got):\n%s", diff)
	}
}

// limited_liability is true for limited forms, false for unlimited ones and
// null where it depends; the legal form's English label comes from the
// enumerations.
func TestLegalFormLiability(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ       string
		wantLabel *string
		want      *bool
	}{
		{"ltd", countrykit.Ptr("Private limited company"), countrykit.Ptr(true)},
		{"plc", countrykit.Ptr("Public limited company"), countrykit.Ptr(true)},
		{"llp", countrykit.Ptr("Limited liability partnership"), countrykit.Ptr(true)},
		{"private-unlimited", countrykit.Ptr("Private unlimited company"), countrykit.Ptr(false)},
		{"limited-partnership", countrykit.Ptr("Limited partnership"), countrykit.Ptr(false)},
		{"oversea-company", countrykit.Ptr("Overseas company"), nil},
		{"brand-new-type", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			t.Parallel()
			rep := mapJSON(t, `{"type":"`+tt.typ+`"}`)
			if diff := cmp.Diff(tt.wantLabel, rep.LegalForm); diff != "" {
				t.Errorf("legal_form (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, rep.LimitedLiability); diff != "" {
				t.Errorf("limited_liability (-want +got):\n%s", diff)
			}
			if *rep.LegalFormCode != tt.typ {
				t.Errorf("legal_form_code = %q, want %q", *rep.LegalFormCode, tt.typ)
			}
			if tt.wantLabel == nil && !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, tt.typ) }) {
				t.Errorf("notes %q do not name the unknown type", rep.Notes)
			}
		})
	}
}

// Notes carry the caveats: insolvency history, a registered office in
// dispute or undeliverable, and a subtype.
func TestNotes(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"has_insolvency_history":true,"registered_office_is_in_dispute":true,
		"undeliverable_registered_office_address":true,"subtype":"community-interest-company"}`)
	want := []string{
		"Companies House lists the subtype Community Interest Company (CIC).",
		noteCIC34,
		"Companies House records an insolvency history for this company; see the insolvency section of the company page.",
		"The registered office address is in dispute at Companies House.",
		"Companies House marks the registered office address as undeliverable: post sent there has been returned.",
	}
	if diff := cmp.Diff(want, rep.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// TestInsolvencyNoteAgreesWithRegisters (issue 13, review D5): the
// insolvency note follows has_insolvency_history, the same field that fills
// registers["insolvency"]; only when the profile lacks it does the
// deprecated has_been_liquidated or the links.insolvency link speak, and a
// link is worded as a link (research/companieshouse.md §2: links.insolvency
// is "present only when applicable", has_insolvency_history is the
// profile's own answer).
func TestInsolvencyNoteAgreesWithRegisters(t *testing.T) {
	t.Parallel()
	const (
		history = "Companies House records an insolvency history for this company; see the insolvency section of the company page."
		link    = "Companies House links to an insolvency record for this company (the profile does not say has_insolvency_history); see the insolvency section of the company page."
		liq     = "Companies House records that this company has been liquidated; see the insolvency section of the company page."
	)
	tests := []struct {
		body     string
		register *bool // registers["insolvency"], nil when absent
		note     string
	}{
		{`{"has_insolvency_history":true}`, countrykit.Ptr(true), history},
		{`{"has_insolvency_history":true,"links":{"insolvency":"/company/X/insolvency"}}`, countrykit.Ptr(true), history},
		{`{"has_insolvency_history":false,"links":{"insolvency":"/company/X/insolvency"}}`, countrykit.Ptr(false), ""},
		{`{"has_insolvency_history":false,"has_been_liquidated":true}`, countrykit.Ptr(false), ""},
		{`{"links":{"insolvency":"/company/X/insolvency"}}`, nil, link},
		{`{"has_been_liquidated":true,"links":{"insolvency":"/company/X/insolvency"}}`, nil, liq},
		{`{}`, nil, ""},
	}
	for _, tt := range tests {
		rep := mapJSON(t, tt.body)
		var reg *bool
		if v, ok := rep.Registers["insolvency"]; ok {
			reg = &v
		}
		var got string
		for _, n := range rep.Notes {
			if strings.Contains(n, "insolvency section") {
				got = n
			}
		}
		if diff := cmp.Diff(struct {
			Register *bool
			Note     string
		}{tt.register, tt.note}, struct {
			Register *bool
			Note     string
		}{reg, got}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.body, diff)
		}
	}
}

// Without next_accounts, the deprecated accounts.next_due is published, and
// a published deadline keeps the register's overdue flag and source.
func TestPublishedDeadlinesFallBackToNextDue(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"accounts":{"next_due":"2024-12-31","next_made_up_to":"2024-03-31","overdue":true},
		"confirmation_statement":{"next_due":"2024-04-08","next_made_up_to":"2024-03-25"}}`)
	want := []registry.PublishedDeadline{
		{Kind: "annual_accounts", DueDate: registry.NewDate(2024, 12, 31).Ptr(), PeriodEnd: registry.NewDate(2024, 3, 31).Ptr(),
			Overdue: countrykit.Ptr(true), Source: countrykit.Ptr("companieshouse:accounts.next_due")},
		{Kind: "confirmation_statement", DueDate: registry.NewDate(2024, 4, 8).Ptr(), PeriodEnd: registry.NewDate(2024, 3, 25).Ptr(),
			Source: countrykit.Ptr("companieshouse:confirmation_statement")},
	}
	if diff := cmp.Diff(want, rep.PublishedDeadlines); diff != "" {
		t.Errorf("published deadlines (-want +got):\n%s", diff)
	}
}

// The address maps premises, lines, post town, region and country; a house
// number joins the first line, care_of and PO box come first.
func TestAddressMapping(t *testing.T) {
	t.Parallel()
	rep := mapJSON(t, `{"jurisdiction":"scotland","registered_office_address":{"care_of":"ACME AGENTS","po_box":"123",
		"premises":"74 ","address_line_1":"Lairgate","address_line_2":"Old Town","locality":"Beverley","region":"East Yorkshire","postal_code":"HU17 8EU"}}`)
	want := &registry.Address{
		Lines:        []string{"c/o ACME AGENTS", "PO Box 123", "74 Lairgate", "Old Town"},
		PostalCode:   countrykit.Ptr("HU17 8EU"),
		City:         countrykit.Ptr("Beverley"),
		Municipality: countrykit.Ptr("East Yorkshire"),
		CountryCode:  countrykit.Ptr("GB"),
	}
	if diff := cmp.Diff(want, rep.BusinessAddress); diff != "" {
		t.Errorf("address (-want +got):\n%s", diff)
	}
}
