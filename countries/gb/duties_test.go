package gb

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// roundTrip encodes and decodes a report as the Registry's cache does, so
// that Deadlines sees only what the wire carries.
func roundTrip(t *testing.T, rep *registry.CompanyReport) *registry.CompanyReport {
	t.Helper()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var out registry.CompanyReport
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// deadlinesOf maps a profile given as JSON and computes its deadlines on
// today, through the wire form of the report.
func deadlinesOf(t *testing.T, profileJSON, today string) (*registry.CompanyReport, *registry.DeadlineReport) {
	t.Helper()
	rep := roundTrip(t, mapJSON(t, profileJSON))
	day, err := registry.ParseDate(today)
	if err != nil {
		t.Fatal(err)
	}
	out, err := (&Country{}).Deadlines(rep, day)
	if err != nil {
		t.Fatal(err)
	}
	return rep, out
}

func kindsOf(out *registry.DeadlineReport) []string {
	ks := []string{}
	for _, d := range out.Deadlines {
		ks = append(ks, string(d.Kind))
	}
	return ks
}

func hasNote(notes []string, substr string) bool {
	return slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, substr) })
}

// TestDutyFlagsAndDeadlinesAgree is the property of issue 13: for every
// company type in the table, with and without the register's own dates,
// the report's duty flags and the deadline list agree. A true
// has_annual_accounts_duty has a mandatory annual_accounts deadline; a kind
// never appears for a type that does not owe it; mandatory is true exactly
// when the type always owes the filing; a UK establishment has none.
func TestDutyFlagsAndDeadlinesAgree(t *testing.T) {
	t.Parallel()
	law := ukLawDuties()
	for code := range law {
		if _, ok := legalForms[code]; !ok {
			t.Errorf("ukLawDuties names %s, which is not in the table", code)
		}
	}
	const published = `,"accounts":{"next_accounts":{"period_start_on":"2024-11-01","period_end_on":"2025-10-31","due_on":"2026-07-31"}},
		"confirmation_statement":{"next_made_up_to":"2026-10-23","next_due":"2026-11-06"}`
	for _, code := range slices.Sorted(maps.Keys(legalForms)) {
		lf := legalForms[code]
		for _, subtype := range []string{"", subtypeCIC} {
			for _, pub := range []string{"", published} {
				name := code + "/" + subtype + "/published=" + map[bool]string{true: "yes", false: "no"}[pub != ""]
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					rep, out := deadlinesOf(t, `{"company_name":"X","type":"`+code+`","subtype":"`+subtype+`","company_status":"active",
						"date_of_creation":"2019-10-24"`+pub+`}`, "2026-01-15")
					// Independent of the table: what the law says of the
					// common types, written out by hand.
					if want, ok := law[code]; ok {
						got := map[string]bool{}
						for _, d := range out.Deadlines {
							got[string(d.Kind)] = d.Mandatory
						}
						if diff := cmp.Diff(want.kinds, got); diff != "" {
							t.Errorf("kinds and mandatory per %s (-want +got):\n%s", want.source, diff)
						}
					}
					if code == "uk-establishment" {
						if !rep.IsSubunit || len(out.Deadlines) != 0 {
							t.Fatalf("UK establishment: is_subunit %v, deadlines %v", rep.IsSubunit, kindsOf(out))
						}
						return
					}
					flags := map[string]*bool{"annual_accounts": rep.HasAnnualAccountsDuty}
					duties := map[string]deadlines.UKDuty{"annual_accounts": lf.accounts, "confirmation_statement": lf.confirmation}
					got := map[string]registry.Deadline{}
					for _, d := range out.Deadlines {
						got[string(d.Kind)] = d
					}
					for kind, duty := range duties {
						d, listed := got[kind]
						if f := flags[kind]; f != nil && *f && (!listed || !d.Mandatory) {
							t.Errorf("%s: the duty flag is true but the deadline is listed %v, mandatory %v", kind, listed, d.Mandatory)
						}
						if f := flags[kind]; f != nil && !*f && listed {
							t.Errorf("%s: the duty flag is false but the deadline is listed", kind)
						}
						if duty.Level == deadlines.UKDutyNone && listed {
							t.Errorf("%s listed for a type that does not owe it", kind)
						}
						if listed && d.Mandatory != (duty.Level == deadlines.UKDutyAlways) {
							t.Errorf("%s: mandatory %v with duty level %d", kind, d.Mandatory, duty.Level)
						}
						if duty.Level == deadlines.UKDutyAlways && (duty.Computable || pub != "") && !listed {
							t.Errorf("%s: owed always but not listed; notes %q", kind, out.Notes)
						}
					}
					if (rep.HasAnnualAccountsDuty != nil && *rep.HasAnnualAccountsDuty) != (lf.accounts.Level == deadlines.UKDutyAlways) {
						t.Errorf("has_annual_accounts_duty %v with accounts level %d", rep.HasAnnualAccountsDuty, lf.accounts.Level)
					}
				})
			}
		}
	}
}

// ukLawExpectation is what the law says one company type owes.
type ukLawExpectation struct {
	source string
	kinds  map[string]bool // kind -> mandatory; a kind not named is not listed
}

// ukLawDuties is a hand-written expectation of the filings an active
// company of the common types owes Companies House
// (research/companieshouse.md §5), written from the law and not from the
// module's table.
func ukLawDuties() map[string]ukLawExpectation {
	both := map[string]bool{"annual_accounts": true, "confirmation_statement": true}
	return map[string]ukLawExpectation{
		"ltd": {"Companies Act 2006 ss.441, 442(2)(a) and 853A", both},
		"plc": {"Companies Act 2006 ss.441, 442(2)(b) and 853A", both},
		"llp": {"Companies Act 2006 ss.441 and 853A as applied to LLPs by SI 2008/1911 and SI 2009/1804", both},
		"private-unlimited": {"Companies Act 2006 s.448 (an unlimited company is often exempt from delivering accounts), s.853A",
			map[string]bool{"annual_accounts": false, "confirmation_statement": true}},
		"uk-establishment": {"Companies Act 2006 s.1046 and the Overseas Companies Regulations 2009: the overseas company files, the establishment has no deadlines of its own",
			map[string]bool{}},
	}
}

// has_board_duty and has_annual_accounts_duty come from the company type:
// a company must have directors (Companies Act 2006 s.154) and deliver
// accounts (s.441); an LLP has members, not directors (Limited Liability
// Partnerships Act 2000), and delivers accounts (s.441 as applied by
// SI 2008/1911); an unlimited company may be exempt from delivering accounts
// (s.448); a limited partnership is run by its general partners and
// delivers accounts only when it is a qualifying partnership (Partnerships
// (Accounts) Regulations 2008); an overseas company follows foreign law.
func TestDutyFlagsFromCompanyType(t *testing.T) {
	t.Parallel()
	tr, fa := true, false
	tests := []struct {
		typ             string
		board, accounts *bool
	}{
		{"ltd", &tr, &tr},
		{"plc", &tr, &tr},
		{"private-limited-guarant-nsc", &tr, &tr},
		{"llp", &fa, &tr},
		{"private-unlimited", &tr, nil},
		{"limited-partnership", &fa, nil},
		{"scottish-partnership", &fa, nil},
		{"charitable-incorporated-organisation", &tr, nil},
		{"oversea-company", nil, nil},
		{"registered-overseas-entity", nil, nil},
		{"no-such-type", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			t.Parallel()
			rep := mapJSON(t, `{"company_name":"X","type":"`+tt.typ+`"}`)
			if diff := cmp.Diff([]*bool{tt.board, tt.accounts}, []*bool{rep.HasBoardDuty, rep.HasAnnualAccountsDuty}); diff != "" {
				t.Errorf("[has_board_duty has_annual_accounts_duty] (-want +got):\n%s", diff)
			}
		})
	}
}

// An overdue confirmation statement or accounts stays in the period the
// register names (Companies Act 2006 s.853A: 14 days after the review
// period; s.442: 9 months after the accounting reference period): a company
// whose review period ended 2025-03-31 owes the statement on 2025-04-14,
// and on 2025-05-02 that is overdue, not "due 2026-04-14".
func TestOverdueStaysInNamedPeriod(t *testing.T) {
	t.Parallel()
	_, out := deadlinesOf(t, `{"company_name":"X","type":"ltd","company_status":"active","date_of_creation":"2014-04-01",
		"confirmation_statement":{"next_made_up_to":"2025-03-31","overdue":true},
		"accounts":{"next_accounts":{"period_start_on":"2023-07-01","period_end_on":"2024-06-30","overdue":true}}}`, "2025-05-02")
	want := map[string]string{"confirmation_statement": "2025-04-14 -18", "annual_accounts": "2025-03-31 -32"}
	got := map[string]string{}
	for _, d := range out.Deadlines {
		got[string(d.Kind)] = d.DueDate.String() + " " + strconv.Itoa(*d.DaysUntil)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, n := range []string{"confirmation_statement is overdue", "annual_accounts is overdue"} {
		if !hasNote(out.Notes, n) {
			t.Errorf("no note %q in %q", n, out.Notes)
		}
	}
}

// Administration, receivership and a voluntary arrangement keep the duties
// to deliver accounts and confirmation statements (Companies Act 2006
// ss. 441, 442 and 853A make no exception): the published dates are carried
// with a note naming the procedure; status is unknown (Companies House does
// not call the company active, and the interface has no status for the
// procedure), is_active false and status_detail names it. Dissolution,
// removal or closure and liquidation end the list.
func TestProceduresKeepDeadlines(t *testing.T) {
	t.Parallel()
	const dates = `,"accounts":{"next_accounts":{"period_end_on":"2025-12-31","due_on":"2026-09-30"}},
		"confirmation_statement":{"next_made_up_to":"2026-03-01","next_due":"2026-03-15"}`
	tests := []struct {
		status   string
		want     registry.Status
		kinds    []string
		note     string
		detailOf string
	}{
		{"administration", registry.StatusUnknown, []string{"confirmation_statement", "annual_accounts"}, "The company is in administration", "administration"},
		{"receivership", registry.StatusUnknown, []string{"confirmation_statement", "annual_accounts"}, "The company is in receivership", "receivership"},
		{"voluntary-arrangement", registry.StatusUnknown, []string{"confirmation_statement", "annual_accounts"}, "The company is in a voluntary arrangement", "voluntary-arrangement"},
		{"insolvency-proceedings", registry.StatusUnknown, []string{"confirmation_statement", "annual_accounts"}, "The company is in insolvency proceedings", "insolvency-proceedings"},
		{"liquidation", registry.StatusUnderLiquidation, []string{}, "in liquidation", "liquidation"},
		{"dissolved", registry.StatusDissolved, []string{}, "dissolved", "dissolved"},
		{"converted-closed", registry.StatusDeleted, []string{}, "removed from the register or closed", "converted-closed"},
		{"removed", registry.StatusDeleted, []string{}, "removed from the register or closed", "removed"},
		{"closed", registry.StatusDeleted, []string{}, "removed from the register or closed", "closed"},
	}
	for _, tt := range tests {
		t.Run(tt.status, func(t *testing.T) {
			t.Parallel()
			rep, out := deadlinesOf(t, `{"company_name":"X","type":"ltd","company_status":"`+tt.status+`","date_of_creation":"2010-03-01"`+dates+`}`, "2026-01-15")
			if rep.Status != tt.want || rep.IsActive != (tt.want == registry.StatusActive) {
				t.Errorf("status %q is_active %v, want %q", rep.Status, rep.IsActive, tt.want)
			}
			if rep.StatusDetail == nil || !strings.Contains(*rep.StatusDetail, `"`+tt.detailOf+`"`) {
				t.Errorf("status_detail %v does not name %q", rep.StatusDetail, tt.detailOf)
			}
			if diff := cmp.Diff(tt.kinds, kindsOf(out)); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			for _, d := range out.Deadlines {
				if !strings.HasPrefix(d.AppliesBecause, "The date is published") || !d.Mandatory {
					t.Errorf("%s: not the published date: %q", d.Kind, d.AppliesBecause)
				}
			}
			if !hasNote(out.Notes, tt.note) {
				t.Errorf("no note %q in %q", tt.note, out.Notes)
			}
		})
	}
}

// The mapping and the deadline duties agree on every company_status:
// companyStatusOf reads back exactly what mapStatus wrote.
func TestCompanyStatusRoundTrip(t *testing.T) {
	t.Parallel()
	for status := range statusRules {
		for _, detail := range []string{"", "active-proposal-to-strike-off"} {
			rep := mapJSON(t, `{"company_status":"`+status+`","company_status_detail":"`+detail+`"}`)
			if got := companyStatusOf(rep.StatusDetail); got != status {
				t.Errorf("companyStatusOf(%q) = %q, want %q", *rep.StatusDetail, got, status)
			}
		}
	}
	for _, s := range []string{"", "frozen"} {
		rep := mapJSON(t, `{"company_status":"`+s+`"}`)
		if _, ok := statusRules[companyStatusOf(rep.StatusDetail)]; ok {
			t.Errorf("status %q read back as a known status", s)
		}
	}
	if companyStatusOf(nil) != "" {
		t.Error("companyStatusOf(nil) is not empty")
	}
}

// A UK establishment (BR…) is a branch of an overseas company: is_subunit
// true, parent_id the overseas company's number from
// branch_company_details, no deadlines of its own and a note pointing to
// the parent (Companies Act 2006 Part 34 and the Overseas Companies
// Regulations 2009: the overseas company delivers the accounts).
func TestUKEstablishment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, profile string
		parent        *string
		note          string
	}{
		{"with parent", `{"company_name":"X","company_number":"BR012345","type":"uk-establishment","company_status":"open",
			"branch_company_details":{"parent_company_number":"fc 12345","parent_company_name":"X SA","business_activity":"Trading"}}`,
			ptr("FC012345"), "overseas company FC012345 (parent_id)"},
		{"without parent", `{"company_name":"X","company_number":"BR012345","type":"uk-establishment","company_status":"open"}`,
			nil, "names no parent company number"},
		{"malformed parent", `{"company_name":"X","type":"uk-establishment","company_status":"open","branch_company_details":{"parent_company_number":"??"}}`,
			nil, "names no parent company number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var p profile
			if err := json.Unmarshal([]byte(tt.profile), &p); err != nil {
				t.Fatal(err)
			}
			rep := roundTrip(t, mapProfile("BR012345", &p))
			if !rep.IsSubunit || !cmp.Equal(tt.parent, rep.ParentID) {
				t.Errorf("is_subunit %v parent_id %v, want true %v", rep.IsSubunit, rep.ParentID, tt.parent)
			}
			out, err := (&Country{}).Deadlines(rep, registry.NewDate(2026, 1, 15))
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Deadlines) != 0 || !hasNote(out.Notes, "UK establishment") {
				t.Errorf("deadlines %v notes %q", kindsOf(out), out.Notes)
			}
			if !hasNote(rep.Notes, tt.note) && !hasNote(out.Notes, tt.note) {
				t.Errorf("no note %q in %q / %q", tt.note, rep.Notes, out.Notes)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// A search hit of a UK establishment is a sub-unit, as its report is.
func TestSearchHitOfUKEstablishment(t *testing.T) {
	t.Parallel()
	var page searchPage
	if err := json.Unmarshal([]byte(`{"total_results":2,"items":[
		{"company_number":"BR012345","title":"X SA","company_type":"uk-establishment","company_status":"open"},
		{"company_number":"00002065","title":"X LIMITED","company_type":"ltd","company_status":"active"}]}`), &page); err != nil {
		t.Fatal(err)
	}
	res := mapSearch("x", 10, &page)
	got := map[string]bool{}
	for _, h := range res.Hits {
		got[h.ID] = h.IsSubunit
	}
	if diff := cmp.Diff(map[string]bool{"BR012345": true, "00002065": false}, got); diff != "" {
		t.Errorf("is_subunit by id (-want +got):\n%s", diff)
	}
}

// A community interest company shows its subtype in legal_form without
// losing the company type, and the accounts carry the CIC report (form
// CIC34, Companies (Audit, Investigations and Community Enterprise) Act
// 2004 s.34).
func TestCommunityInterestCompany(t *testing.T) {
	t.Parallel()
	rep, out := deadlinesOf(t, `{"company_name":"X CIC","type":"ltd","subtype":"community-interest-company","company_status":"active",
		"date_of_creation":"2019-10-24"}`, "2020-03-01")
	if rep.LegalForm == nil || *rep.LegalForm != "Private limited company (community interest company)" || *rep.LegalFormCode != "ltd" {
		t.Errorf("legal_form %v, legal_form_code %v", rep.LegalForm, rep.LegalFormCode)
	}
	if !hasNote(rep.Notes, "CIC34") {
		t.Errorf("report notes lack CIC34: %q", rep.Notes)
	}
	for _, d := range out.Deadlines {
		if got := strings.Contains(d.AppliesBecause, "CIC34"); got != (d.Kind == "annual_accounts") {
			t.Errorf("%s: CIC34 in applies_because %v", d.Kind, got)
		}
	}
	plain, _ := deadlinesOf(t, `{"company_name":"X","type":"ltd","company_status":"active","date_of_creation":"2019-10-24"}`, "2020-03-01")
	if *plain.LegalForm != "Private limited company" || hasNote(plain.Notes, "CIC34") {
		t.Errorf("a plain ltd: legal_form %q notes %q", *plain.LegalForm, plain.Notes)
	}
}

// registers holds what the profile states for sure: charges from
// has_charges, insolvency from has_insolvency_history; a link to the
// resource alone says nothing (the Companies House profile specification
// marks links.charges and links.insolvency as present only when
// applicable, but the facts are the booleans).
func TestRegisters(t *testing.T) {
	t.Parallel()
	tests := []struct {
		profile string
		want    map[string]bool
	}{
		{`{"has_charges":true,"has_insolvency_history":false}`, map[string]bool{"charges": true, "insolvency": false}},
		{`{"has_charges":false,"has_insolvency_history":true}`, map[string]bool{"charges": false, "insolvency": true}},
		{`{"links":{"charges":"/company/X/charges","insolvency":"/company/X/insolvency"}}`, map[string]bool{}},
		{`{}`, map[string]bool{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, mapJSON(t, tt.profile).Registers); diff != "" {
			t.Errorf("%s: registers (-want +got):\n%s", tt.profile, diff)
		}
	}
}

// Validation accepts what people type (issue 13): hyphens, dots, spaces and
// lower-case prefixes; the normalized form is the 8-character number
// (Companies House, Uniform Resource Identifiers Customer Guide: the company
// number is eight characters). A two-letter prefix that is not on the
// published prefix list is rejected: Companies House issues no number with
// it (see doc/decisions.md).
func TestValidateWhatPeopleType(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"0044-5790":     "00445790",
		"00.445.790":    "00445790",
		"00 445 790":    "00445790",
		"445790":        "00445790",
		"sc 294 759":    "SC294759",
		"oc-123.456":    "OC123456",
		"br\u201312345": "BR012345",
	} {
		v := c.Validate(in)
		if !v.Valid || v.Normalized == nil || *v.Normalized != want {
			t.Errorf("Validate(%q) = valid %v normalized %v, want %s", in, v.Valid, v.Normalized, want)
		}
	}
	for _, in := range []string{"QQ123456", "xx-445790"} {
		if v := c.Validate(in); v.Valid || v.Hint == nil || !strings.Contains(*v.Hint, "prefix") {
			t.Errorf("Validate(%q) = valid %v hint %v, want invalid with a hint on the prefix", in, v.Valid, v.Hint)
		}
	}
}
