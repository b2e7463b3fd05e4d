package deadlines

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files from the current output")

// noReport builds an active Norwegian main unit of the given legal form,
// founded long ago, with no VAT registration and nothing known of its
// employees (employees_reported null: a register flag of false would list a
// non-mandatory payroll report, see TestNorwayNoRegisteredEmployees).
func noReport(form string) *registry.CompanyReport {
	rep := countrykit.NewReport("NO", "brreg", "923609016", "EKSEMPEL AS")
	if form != "" {
		rep.LegalFormCode = countrykit.Ptr(form)
	}
	rep.Status = registry.StatusActive
	rep.VATRegistered = countrykit.Ptr(false)
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2001, 3, 14))
	return rep
}

// withFlags sets the VAT flag, and employees_reported true when employees
// is set (else leaves it null).
func withFlags(rep *registry.CompanyReport, vat, employees bool) *registry.CompanyReport {
	rep.VATRegistered = countrykit.Ptr(vat)
	rep.EmployeesReported = nil
	if employees {
		rep.EmployeesReported = countrykit.Ptr(true)
	}
	return rep
}

// brief is the date part of a deadline, for compact table tests.
type brief struct {
	Statutory, Due         string
	Rolled                 bool
	PeriodStart, PeriodEnd string
	DaysUntil              int
}

func briefOf(dl registry.Deadline) brief {
	b := brief{Statutory: dl.StatutoryDate.String(), Due: dl.DueDate.String(), Rolled: dl.RolledForward}
	if dl.PeriodStart != nil {
		b.PeriodStart = dl.PeriodStart.String()
	}
	if dl.PeriodEnd != nil {
		b.PeriodEnd = dl.PeriodEnd.String()
	}
	if dl.DaysUntil != nil {
		b.DaysUntil = *dl.DaysUntil
	}
	return b
}

func find(t *testing.T, out *registry.DeadlineReport, kind string) registry.Deadline {
	t.Helper()
	for _, dl := range out.Deadlines {
		if string(dl.Kind) == kind {
			return dl
		}
	}
	t.Fatalf("no %s deadline in %+v (notes %q)", kind, kinds(out), out.Notes)
	return registry.Deadline{}
}

func kinds(out *registry.DeadlineReport) []string {
	ks := []string{}
	for _, dl := range out.Deadlines {
		ks = append(ks, string(dl.Kind))
	}
	return ks
}

func hasNote(out *registry.DeadlineReport, substr string) bool {
	for _, n := range out.Notes {
		if strings.Contains(n, substr) {
			return true
		}
	}
	return false
}

// TestNorwayLawTable2024To2031 checks every kind for every period of
// 2024–2031 against the independently generated table of the law.
func TestNorwayLawTable2024To2031(t *testing.T) {
	t.Parallel()
	for _, row := range lawTable2024To2031 {
		t.Run(row.kind+"/"+row.periodEnd, func(t *testing.T) {
			t.Parallel()
			today := d(t, row.today)
			out := norway(withFlags(noReport("AS"), true, true), today)
			got := briefOf(find(t, out, row.kind))
			due := d(t, row.due)
			want := brief{
				Statutory: row.statutory, Due: row.due, Rolled: row.statutory != row.due,
				PeriodStart: row.periodStart, PeriodEnd: row.periodEnd, DaysUntil: due.DaysSince(today),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNorwayNamedCases are the cases the issue names, plus the other
// weekday and holiday cases of no-deadlines.md §2.4. Every expected date and
// weekday was checked with a calendar (Python's datetime).
func TestNorwayNamedCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		form  string
		today string
		kind  string
		want  brief
		note  string // a substring one of the notes must contain
	}{
		{
			name: "VAT term 3 due Sunday 31 August 2025 rolls to Monday 1 September", form: "AS", today: "2025-07-01", kind: kindVATReturn,
			want: brief{"2025-08-31", "2025-09-01", true, "2025-05-01", "2025-06-30", 62},
		},
		{
			name: "March 2026 payroll report: 5 April is Easter Sunday, 6 April Easter Monday, due Tuesday 7 April", form: "AS", today: "2026-04-01", kind: kindPayrollReport,
			want: brief{"2026-04-05", "2026-04-07", true, "2026-03-01", "2026-03-31", 6},
		},
		{
			name: "VAT term 1 of 2031: Maundy Thursday 10 April rolls to Tuesday 15 April", form: "AS", today: "2031-03-01", kind: kindVATReturn,
			want: brief{"2031-04-10", "2031-04-15", true, "2031-01-01", "2031-02-28", 45},
		},
		{
			name: "VAT term 2 of 2030: Whit Monday 10 June rolls to Tuesday 11 June", form: "AS", today: "2030-05-01", kind: kindVATReturn,
			want: brief{"2030-06-10", "2030-06-11", true, "2030-03-01", "2030-04-30", 41},
		},
		{
			name: "tax return for 2025: Sunday 31 May 2026 rolls to Monday 1 June", form: "AS", today: "2026-01-15", kind: kindTaxReturn,
			want: brief{"2026-05-31", "2026-06-01", true, "2025-01-01", "2025-12-31", 137},
		},
		{
			name: "ENK owner's tax return is due 31 May, not 30 April: Saturday 31 May 2025 rolls to Monday 2 June", form: "ENK", today: "2025-03-01", kind: kindTaxReturn,
			want: brief{"2025-05-31", "2025-06-02", true, "2024-01-01", "2024-12-31", 93},
		},
		{
			name: "annual accounts due Saturday 2027-07-31 are not rolled, and a note says so", form: "AS", today: "2027-03-01", kind: kindAnnualAccounts,
			want: brief{"2027-07-31", "2027-07-31", false, "2026-01-01", "2026-12-31", 152},
			note: "annual_accounts: 2027-07-31 is a Saturday",
		},
		{
			name: "general meeting on Saturday 2029-06-30 is not rolled, and a note says so", form: "AS", today: "2029-01-10", kind: kindGeneralMeeting,
			want: brief{"2029-06-30", "2029-06-30", false, "2028-01-01", "2028-12-31", 171},
			note: "general_meeting: 2029-06-30 is a Saturday",
		},
		{
			name: "general meeting on Sunday 2030-06-30 is not rolled", form: "ASA", today: "2030-06-30", kind: kindGeneralMeeting,
			want: brief{"2030-06-30", "2030-06-30", false, "2029-01-01", "2029-12-31", 0},
			note: "general_meeting: 2030-06-30 is a Sunday",
		},
		{
			name: "shareholder register statement: Saturday 31 January 2026 rolls to Monday 2 February", form: "AS", today: "2026-01-02", kind: kindShareholderStmt,
			want: brief{"2026-01-31", "2026-02-02", true, "2025-01-01", "2025-12-31", 31},
		},
		{
			name: "shareholder register statement: Sunday 31 January 2027 rolls to Monday 1 February", form: "ASA", today: "2026-12-01", kind: kindShareholderStmt,
			want: brief{"2027-01-31", "2027-02-01", true, "2026-01-01", "2026-12-31", 62},
		},
		{
			name: "May 2028 payroll report: Whit Monday 5 June rolls to Tuesday 6 June", form: "AS", today: "2028-06-01", kind: kindPayrollReport,
			want: brief{"2028-06-05", "2028-06-06", true, "2028-05-01", "2028-05-31", 5},
		},
		{
			name: "VAT term 1 of 2027: Saturday 10 April rolls to Monday 12 April", form: "AS", today: "2027-03-10", kind: kindVATReturn,
			want: brief{"2027-04-10", "2027-04-12", true, "2027-01-01", "2027-02-28", 33},
		},
		{
			name: "next occurrence: today on the rolled due date still counts (days_until 0)", form: "AS", today: "2026-04-07", kind: kindPayrollReport,
			want: brief{"2026-04-05", "2026-04-07", true, "2026-03-01", "2026-03-31", 0},
		},
		{
			name: "next occurrence: the day after the due date moves to the next month", form: "AS", today: "2026-04-08", kind: kindPayrollReport,
			want: brief{"2026-05-05", "2026-05-05", false, "2026-04-01", "2026-04-30", 27},
		},
		{
			name: "next occurrence: today on the accounts date counts", form: "AS", today: "2026-07-31", kind: kindAnnualAccounts,
			want: brief{"2026-07-31", "2026-07-31", false, "2025-01-01", "2025-12-31", 0},
		},
		{
			name: "next occurrence: the day after the accounts date moves a year", form: "AS", today: "2026-08-01", kind: kindAnnualAccounts,
			want: brief{"2027-07-31", "2027-07-31", false, "2026-01-01", "2026-12-31", 364},
			note: "annual_accounts: 2027-07-31 is a Saturday",
		},
		{
			name: "VAT term 6 is due 10 February of the following year", form: "AS", today: "2026-01-15", kind: kindVATReturn,
			want: brief{"2026-02-10", "2026-02-10", false, "2025-11-01", "2025-12-31", 26},
		},
		{
			name: "December payroll report is due 5 January (2025-01-05 is a Sunday, due Monday 6th)", form: "AS", today: "2025-01-01", kind: kindPayrollReport,
			want: brief{"2025-01-05", "2025-01-06", true, "2024-12-01", "2024-12-31", 5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := norway(withFlags(noReport(tt.form), true, true), d(t, tt.today))
			if diff := cmp.Diff(tt.want, briefOf(find(t, out, tt.kind))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.note != "" && !hasNote(out, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, out.Notes)
			}
		})
	}
}

// TestNorwayWeekendNoteOnlyOnWeekends checks that the fixed-date note
// appears only when the date is on a weekend.
func TestNorwayWeekendNoteOnlyOnWeekends(t *testing.T) {
	t.Parallel()
	out := norway(noReport("AS"), d(t, "2026-03-01")) // accounts 2026-07-31 (Fri), meeting 2026-06-30 (Tue)
	for _, n := range out.Notes {
		if strings.HasPrefix(n, "annual_accounts:") || strings.HasPrefix(n, "general_meeting:") {
			t.Errorf("unexpected weekend note %q", n)
		}
	}
}

// TestNorwaySkipsPeriodsBeforeFounding: a period that ended before the unit
// was founded is skipped (FoundedAt, else RegisteredAt).
func TestNorwaySkipsPeriodsBeforeFounding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		founded        string
		registeredOnly bool
		today          string
		want           map[string]brief
	}{
		{
			name: "AS founded 2025-03-01: the 2024 periods and the Jan-Feb VAT term and February payroll are skipped", founded: "2025-03-01", today: "2025-03-03",
			want: map[string]brief{
				kindPayrollReport:   {"2025-04-05", "2025-04-07", true, "2025-03-01", "2025-03-31", 35},
				kindVATReturn:       {"2025-06-10", "2025-06-10", false, "2025-03-01", "2025-04-30", 99},
				kindTaxReturn:       {"2026-05-31", "2026-06-01", true, "2025-01-01", "2025-12-31", 455},
				kindShareholderStmt: {"2026-01-31", "2026-02-02", true, "2025-01-01", "2025-12-31", 336},
				kindAnnualAccounts:  {"2026-07-31", "2026-07-31", false, "2025-01-01", "2025-12-31", 515},
				kindGeneralMeeting:  {"2026-06-30", "2026-06-30", false, "2025-01-01", "2025-12-31", 484},
			},
		},
		{
			name: "registration date is used when the founding date is missing", founded: "2025-03-01", registeredOnly: true, today: "2025-03-03",
			want: map[string]brief{
				kindPayrollReport: {"2025-04-05", "2025-04-07", true, "2025-03-01", "2025-03-31", 35},
				kindTaxReturn:     {"2026-05-31", "2026-06-01", true, "2025-01-01", "2025-12-31", 455},
			},
		},
		{
			name: "a unit founded on the last day of a period keeps that period", founded: "2025-02-28", today: "2025-03-03",
			want: map[string]brief{
				kindPayrollReport: {"2025-03-05", "2025-03-05", false, "2025-02-01", "2025-02-28", 2},
				kindVATReturn:     {"2025-04-10", "2025-04-10", false, "2025-01-01", "2025-02-28", 38},
			},
		},
		{
			name: "a unit founded after today gets its first periods", founded: "2027-05-10", today: "2026-01-01",
			want: map[string]brief{
				kindPayrollReport: {"2027-06-05", "2027-06-07", true, "2027-05-01", "2027-05-31", 522},
				kindVATReturn:     {"2027-08-31", "2027-08-31", false, "2027-05-01", "2027-06-30", 607},
				kindTaxReturn:     {"2028-05-31", "2028-05-31", false, "2027-01-01", "2027-12-31", 881},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := withFlags(noReport("AS"), true, true)
			rep.FoundedAt = countrykit.Ptr(d(t, tt.founded))
			if tt.registeredOnly {
				rep.RegisteredAt, rep.FoundedAt = rep.FoundedAt, nil
			}
			out := norway(rep, d(t, tt.today))
			for kind, want := range tt.want {
				if diff := cmp.Diff(want, briefOf(find(t, out, kind))); diff != "" {
					t.Errorf("%s (-want +got):\n%s", kind, diff)
				}
			}
		})
	}
}

// TestNorwayLastAnnualAccountsYear: accounts already filed for a year move
// annual_accounts to the following year; older filings change nothing.
func TestNorwayLastAnnualAccountsYear(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		last *int
		want brief
	}{
		{"no filing known", nil, brief{"2026-07-31", "2026-07-31", false, "2025-01-01", "2025-12-31", 152}},
		{"2024 filed: 2025 accounts are next", countrykit.Ptr(2024), brief{"2026-07-31", "2026-07-31", false, "2025-01-01", "2025-12-31", 152}},
		{"2025 already filed: 2026 accounts are next", countrykit.Ptr(2025), brief{"2027-07-31", "2027-07-31", false, "2026-01-01", "2026-12-31", 517}},
		{"an implausible year is ignored (and cannot overflow)", countrykit.Ptr(int(^uint(0) >> 1)), brief{"2026-07-31", "2026-07-31", false, "2025-01-01", "2025-12-31", 152}},
		{"a negative year is ignored", countrykit.Ptr(-3), brief{"2026-07-31", "2026-07-31", false, "2025-01-01", "2025-12-31", 152}},
		{"9997 filed: 9998 accounts are the last writable", countrykit.Ptr(9997), brief{"9999-07-31", "9999-07-31", false, "9998-01-01", "9998-12-31", 2912230}},
		// The accounts of 9999 would be due in 10000, which cannot be
		// written YYYY-MM-DD: left out, with a note (rev-deadlines10,
		// TestReview_DatesStayYYYYMMDD); 9999, the last plausible year,
		// likewise.
		{"9998 filed: the next accounts cannot be written", countrykit.Ptr(9998), brief{}},
		{"9999 filed: likewise", countrykit.Ptr(9999), brief{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := noReport("AS")
			rep.LastAnnualAccountsYear = tt.last
			out := norway(rep, d(t, "2026-03-01"))
			if tt.want == (brief{}) {
				for _, dl := range out.Deadlines {
					if dl.Kind == kindAnnualAccounts {
						t.Errorf("annual_accounts %s is on the wire", dl.DueDate)
					}
				}
				if !slices.Contains(out.Notes, "Deadlines with a date outside the years 0000 to 9999 are left out: dates are written YYYY-MM-DD.") {
					t.Errorf("no note of the deadline left out: %q", out.Notes)
				}
			} else if diff := cmp.Diff(tt.want, briefOf(find(t, out, kindAnnualAccounts))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// The general meeting is not moved by a filing.
			if got := find(t, out, kindGeneralMeeting).DueDate.String(); got != "2026-06-30" {
				t.Errorf("general_meeting due %s, want 2026-06-30", got)
			}
		})
	}
}

// TestNorwayDutyShapes: the engine lists a form-dependent kind as the
// profile says: mandatory for yes, not mandatory for conditional, not at all
// for no or unknown, with a note naming the kinds that are not modelled. The
// duties of the real legal forms are tested with their table in
// countries/no.
func TestNorwayDutyShapes(t *testing.T) {
	t.Parallel()
	yes, cond := KindDuty{Duty: DutyYes, Because: "Yes."}, KindDuty{Duty: DutyConditional, Because: "Maybe."}
	no := KindDuty{Duty: DutyNo}
	tests := []struct {
		name   string
		duties NorwegianDuties
		want   map[string]bool // kind -> mandatory
		note   string
	}{
		{"all yes", profileAll("AS"), map[string]bool{kindAnnualAccounts: true, kindGeneralMeeting: true, kindTaxReturn: true, kindShareholderStmt: true}, ""},
		{"conditional and no", NorwegianDuties{Code: "X", Label: "x (X)", TaxReturn: cond, AnnualAccounts: yes, GeneralMeeting: no, ShareholderRegisterStatement: no},
			map[string]bool{kindTaxReturn: false, kindAnnualAccounts: true}, ""},
		{"some unknown", NorwegianDuties{Code: "X", Label: "x (X)", AnnualAccounts: yes, ShareholderRegisterStatement: no},
			map[string]bool{kindAnnualAccounts: true}, "For a x (X) the tax return and general meeting are not modelled"},
		{"one unknown", NorwegianDuties{Code: "X", Label: "x (X)", AnnualAccounts: yes, ShareholderRegisterStatement: no, TaxReturn: no},
			map[string]bool{kindAnnualAccounts: true}, "For a x (X) the general meeting is not modelled"},
		{"all unknown", profileUnmodelled("KOMM"), map[string]bool{}, "legal form KOMM (annual accounts, tax return"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := noReport(tt.duties.Code)
			out := Norway(rep, tt.duties, d(t, "2026-03-01"))
			got := map[string]bool{}
			for _, dl := range out.Deadlines {
				got[string(dl.Kind)] = dl.Mandatory
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("kinds and mandatory (-want +got):\n%s", diff)
			}
			if tt.note != "" && !hasNote(out, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, out.Notes)
			}
		})
	}
}

// TestNorwayFlags: VAT returns follow the VAT flag and payroll reports the
// employee flag or count, for any legal form.
func TestNorwayFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		vat       *bool
		reported  *bool
		employees *int
		want      []string
	}{
		{"no flags", countrykit.Ptr(false), nil, nil, []string{}},
		{"no registered employees (not mandatory, see TestNorwayNoRegisteredEmployees)", countrykit.Ptr(false), countrykit.Ptr(false), nil, []string{kindPayrollReport}},
		{"unknown flags", nil, nil, nil, []string{}},
		{"VAT-registered", countrykit.Ptr(true), nil, nil, []string{kindVATReturn}},
		{"employees reported", nil, countrykit.Ptr(true), nil, []string{kindPayrollReport}},
		{"employee count", nil, countrykit.Ptr(false), countrykit.Ptr(12), []string{kindPayrollReport}},
		{"zero employees (not mandatory, see TestNorwayZeroEmployees)", nil, nil, countrykit.Ptr(0), []string{kindPayrollReport}},
		{"both", countrykit.Ptr(true), countrykit.Ptr(true), countrykit.Ptr(7), []string{kindPayrollReport, kindVATReturn}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := noReport("ENK")
			rep.VATRegistered, rep.EmployeesReported, rep.Employees = tt.vat, tt.reported, tt.employees
			out := norway(rep, d(t, "2026-03-20"))
			var got []string
			for _, k := range kinds(out) {
				if k == kindVATReturn || k == kindPayrollReport {
					got = append(got, k)
				}
			}
			if got == nil {
				got = []string{}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("flag-driven kinds (-want +got):\n%s", diff)
			}
			if hasNote(out, "VAT returns assume") != (tt.vat != nil && *tt.vat) {
				t.Errorf("VAT terms note present = %v, want %v", !(tt.vat != nil && *tt.vat), tt.vat != nil && *tt.vat)
			}
		})
	}
}

// TestNorwayEmpty: the cases that get no deadlines, each with a note that
// says why, plus the calendar-year note.
func TestNorwayEmpty(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*registry.CompanyReport)
		note string
	}{
		{"bankrupt", func(r *registry.CompanyReport) { r.Status = registry.StatusBankrupt }, "bankrupt"},
		{"deleted", func(r *registry.CompanyReport) { r.Status = registry.StatusDeleted }, "deleted"},
		{"deleted AS: the shareholder register statement for the last year is mentioned", func(r *registry.CompanyReport) { r.Status = registry.StatusDeleted },
			"still files the shareholder register statement"},
		{"compulsorily liquidated", func(r *registry.CompanyReport) { r.Status = registry.StatusUnderCompulsoryLiquidation }, "compulsory liquidation"},
		{"dissolved", func(r *registry.CompanyReport) { r.Status = registry.StatusDissolved }, "dissolved"},
		{"sub-unit points to parent_id", func(r *registry.CompanyReport) {
			r.IsSubunit, r.LegalFormCode, r.ParentID = true, countrykit.Ptr("BEDR"), countrykit.Ptr("923609016")
		}, "the main unit 923609016 (parent_id)"},
		{"sub-unit form AAFY without a parent", func(r *registry.CompanyReport) { r.LegalFormCode = countrykit.Ptr("AAFY") }, "sub-unit (underenhet)"},
		{"unknown legal form (null)", func(r *registry.CompanyReport) { r.LegalFormCode = nil }, "legal form is unknown"},
		{"unknown legal form (not a brreg code)", func(r *registry.CompanyReport) { r.LegalFormCode = countrykit.Ptr("XYZ") }, "XYZ is not one Enhetsregisteret publishes"},
		{"unclassified legal form without flags", func(r *registry.CompanyReport) {
			r.LegalFormCode, r.LegalForm, r.VATRegistered, r.EmployeesReported = countrykit.Ptr("KOMM"), countrykit.Ptr("Municipality"), countrykit.Ptr(false), nil
		}, "No filing obligation could be derived"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := withFlags(noReport("AS"), true, true)
			tt.edit(rep)
			out := norway(rep, d(t, "2026-03-01"))
			if out.Deadlines == nil || len(out.Deadlines) != 0 {
				t.Errorf("deadlines = %#v, want an empty non-nil list", out.Deadlines)
			}
			if !hasNote(out, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, out.Notes)
			}
			if !hasNote(out, "calendar year") {
				t.Errorf("no calendar-year note in %q", out.Notes)
			}
		})
	}
}

// TestNorwayStatusesThatKeepDuties: voluntary liquidation keeps the duties
// (with a note), and an unknown status is computed as active (with a note).
func TestNorwayStatusesThatKeepDuties(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status registry.Status
		note   string
	}{
		{registry.StatusUnderLiquidation, "voluntary liquidation"},
		{registry.StatusUnknown, "status is unknown"},
		{"", "status is unknown"},
		{registry.StatusActive, ""},
	} {
		t.Run(string(tt.status), func(t *testing.T) {
			t.Parallel()
			rep := noReport("AS")
			rep.Status = tt.status
			out := norway(rep, d(t, "2026-03-01"))
			if len(out.Deadlines) != 4 {
				t.Errorf("got kinds %v, want the four AS kinds", kinds(out))
			}
			if tt.note != "" && !hasNote(out, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, out.Notes)
			}
		})
	}
}

// TestNorwayUnclassifiedFormWithFlags: a recognised legal form whose own
// duties are not modelled still gets the flag-driven duties, with a note; a
// form the module does not recognise (the zero profile) gets none.
func TestNorwayUnclassifiedFormWithFlags(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"KOMM", "STAT"} {
		out := norway(withFlags(noReport(code), true, false), d(t, "2026-03-01"))
		if diff := cmp.Diff([]string{kindVATReturn}, kinds(out)); diff != "" {
			t.Errorf("%s kinds (-want +got):\n%s", code, diff)
		}
		if !hasNote(out, "legal form "+code) {
			t.Errorf("%s: no unclassified-form note in %q", code, out.Notes)
		}
	}
	out := Norway(withFlags(noReport("KOMM"), true, false), NorwegianDuties{}, d(t, "2026-03-01"))
	if len(out.Deadlines) != 0 || !hasNote(out, "not one Enhetsregisteret publishes") {
		t.Errorf("an unrecognised form got deadlines %v, notes %q", kinds(out), out.Notes)
	}
}

// TestNorwayZeroEmployees (issue 13): a published count of zero employees
// lists the payroll report as not mandatory, with a note that board fees
// may still need one (a-opplysningsforskriften § 2-1).
func TestNorwayZeroEmployees(t *testing.T) {
	t.Parallel()
	for _, reported := range []*bool{nil, countrykit.Ptr(true), countrykit.Ptr(false)} {
		rep := noReport("AS")
		rep.Employees, rep.EmployeesReported = countrykit.Ptr(0), reported
		out := norway(rep, d(t, "2026-03-20"))
		dl := find(t, out, kindPayrollReport)
		if dl.Mandatory || !strings.Contains(dl.AppliesBecause, "board fees") || !strings.Contains(dl.AppliesBecause, "§ 2-1") {
			t.Errorf("payroll report mandatory %t, applies_because %q", dl.Mandatory, dl.AppliesBecause)
		}
		if !hasNote(out, "board fees") {
			t.Errorf("no board-fee note in %q", out.Notes)
		}
	}
	rep := noReport("AS")
	rep.Employees = countrykit.Ptr(3)
	if dl := find(t, norway(rep, d(t, "2026-03-20")), kindPayrollReport); !dl.Mandatory {
		t.Error("three employees: the payroll report is not mandatory")
	}
}

// TestNorwayNoRegisteredEmployees (issue 13, review D3): the live register
// says "no registered employees" with harRegistrertAntallAnsatte false (it
// never publishes a count of 0, research/brreg.md §"harRegistrertAntallAnsatte"
// and pitfall 4), which maps to employees null and employees_reported
// false. It is treated like a count of zero: the payroll report (a-melding,
// a-opplysningsforskriften § 2-1 (1): due the 5th of the next month, moved
// to the next working day by § 2-1 (5); research/no-deadlines.md §1.3) is
// listed with mandatory false and the board-fee note.
func TestNorwayNoRegisteredEmployees(t *testing.T) {
	t.Parallel()
	rep := noReport("AS")
	rep.FoundedAt = countrykit.Ptr(d(t, "2001-11-24"))
	rep.EmployeesReported = countrykit.Ptr(false)
	out := norway(rep, d(t, "2026-11-24"))
	dl := find(t, out, kindPayrollReport)
	// November 2026: 5 December 2026 is a Saturday, so the report is due
	// Monday 7 December.
	if diff := cmp.Diff(brief{"2026-12-05", "2026-12-07", true, "2026-11-01", "2026-11-30", 13}, briefOf(dl)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if dl.Mandatory || deref(dl.PeriodLabel) != "November 2026" || !strings.Contains(dl.AppliesBecause, "no registered employees") ||
		!strings.Contains(dl.AppliesBecause, "board fees") {
		t.Errorf("payroll report mandatory %t, period %q, applies_because %q", dl.Mandatory, deref(dl.PeriodLabel), dl.AppliesBecause)
	}
	if !hasNote(out, "no registered employees, so the monthly payroll report (a-melding) is not mandatory") || !hasNote(out, "board fees") {
		t.Errorf("no board-fee note in %q", out.Notes)
	}
	// A count (even a hidden one, 0-4) keeps the report mandatory; nothing
	// known of employees lists none.
	rep.EmployeesReported = countrykit.Ptr(true)
	if dl := find(t, norway(rep, d(t, "2026-11-24")), kindPayrollReport); !dl.Mandatory {
		t.Error("employees reported: the payroll report is not mandatory")
	}
	rep.EmployeesReported = nil
	if slices.Contains(kinds(norway(rep, d(t, "2026-11-24"))), kindPayrollReport) {
		t.Error("nothing known of employees: a payroll report was listed")
	}
}

// TestNorwayVATFromRegistration (issue 13): VAT returns start with the term
// in which the registration took effect (skatteforvaltningsloven § 8-3: the
// duty lies on registered units); a term that ended before vat_registered_at
// gets no return.
func TestNorwayVATFromRegistration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, registered, today string
		want                    brief
	}{
		{"registered long ago: the current term", "2010-05-04", "2026-03-01",
			brief{"2026-04-10", "2026-04-10", false, "2026-01-01", "2026-02-28", 40}},
		{"registered in March: term 1 (Jan-Feb, due 10 April) is skipped", "2026-03-15", "2026-03-20",
			brief{"2026-06-10", "2026-06-10", false, "2026-03-01", "2026-04-30", 82}},
		{"registered on the last day of term 1: term 1 is due", "2026-02-28", "2026-03-20",
			brief{"2026-04-10", "2026-04-10", false, "2026-01-01", "2026-02-28", 21}},
		{"registered in the future: its first term", "2026-09-01", "2026-03-20",
			brief{"2026-12-10", "2026-12-10", false, "2026-09-01", "2026-10-31", 265}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := withFlags(noReport("AS"), true, false)
			rep.VATRegisteredAt = countrykit.Ptr(d(t, tt.registered))
			if diff := cmp.Diff(tt.want, briefOf(find(t, norway(rep, d(t, tt.today)), kindVATReturn))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNorwayNames checks the names, local names, authorities and sources
// per kind, and that a profile's own name, local name and source win.
func TestNorwayNames(t *testing.T) {
	t.Parallel()
	type names struct{ Name, Local, Authority, Source string }
	get := func(dl registry.Deadline) names {
		return names{dl.Name, deref(dl.LocalName), dl.Authority, deref(dl.SourceURL)}
	}
	as := norway(withFlags(noReport("AS"), true, true), d(t, "2026-03-01"))
	want := map[string]names{
		kindVATReturn:       {"VAT return", "mva-melding", authSkatteetaten, srcVAT},
		kindPayrollReport:   {"Payroll report", "a-melding", authSkatteetaten, srcPayroll},
		kindTaxReturn:       {"Tax return", "skattemelding", authSkatteetaten, srcTaxReturn},
		kindShareholderStmt: {"Shareholder register statement", "aksjonærregisteroppgave", authSkatteetaten, srcShareholder},
		kindAnnualAccounts:  {"Annual accounts", "årsregnskap", authRegnskaps, srcAccounts},
		kindGeneralMeeting:  {"Ordinary general meeting", "ordinær generalforsamling", authMeeting, "https://example.test/meeting"},
	}
	for kind, w := range want {
		if diff := cmp.Diff(w, get(find(t, as, kind))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", kind, diff)
		}
	}
	p := profileAll("X")
	p.GeneralMeeting = KindDuty{Duty: DutyYes, Because: "Annual meeting.", Name: "Ordinary annual meeting", LocalName: "ordinært årsmøte", SourceURL: "https://example.test/sa"}
	p.TaxReturn.LocalName = "selskapsmelding"
	out := Norway(noReport("X"), p, d(t, "2026-03-01"))
	if diff := cmp.Diff(names{"Ordinary annual meeting", "ordinært årsmøte", authMeeting, "https://example.test/sa"}, get(find(t, out, kindGeneralMeeting))); diff != "" {
		t.Errorf("own meeting names (-want +got):\n%s", diff)
	}
	if got := deref(find(t, out, kindTaxReturn).LocalName); got != "selskapsmelding" {
		t.Errorf("tax return local name %q, want selskapsmelding", got)
	}
}

// TestNorwayReportFields checks the report's own fields and nil input.
func TestNorwayReportFields(t *testing.T) {
	t.Parallel()
	out := norway(noReport("AS"), d(t, "2026-03-01"))
	if out.Country != "NO" || out.Registry != "brreg" || out.CompanyID != "923609016" ||
		deref(out.CompanyName) != "EKSEMPEL AS" || out.Today != d(t, "2026-03-01") {
		t.Errorf("report header %+v", out)
	}
	nilOut := norway(nil, d(t, "2026-03-01"))
	if nilOut == nil || nilOut.Deadlines == nil || len(nilOut.Deadlines) != 0 || nilOut.Country != "NO" || len(nilOut.Notes) == 0 {
		t.Errorf("norway(nil) = %+v", nilOut)
	}
	rep := noReport("AS")
	rep.Name = ""
	if norway(rep, d(t, "2026-03-01")).CompanyName != nil {
		t.Error("empty name should be null")
	}
}

// TestNorwayFoundedOnOrAfterJuly: a note warns that the first accounts may
// be for an 18-month year.
func TestNorwayFoundedOnOrAfterJuly(t *testing.T) {
	t.Parallel()
	rep := noReport("AS")
	rep.FoundedAt = countrykit.Ptr(d(t, "2025-09-15"))
	out := norway(rep, d(t, "2025-10-01"))
	if !hasNote(out, "on or after 1 July") {
		t.Errorf("no first-year note in %q", out.Notes)
	}
	if hasNote(norway(noReport("AS"), d(t, "2025-10-01")), "on or after 1 July") {
		t.Error("first-year note for an old company")
	}
}

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestNormalizeBeforePlausible (issue 13, review nit 4): a date that is in
// range as given but not once normalized (9999-13-01 is 10000-01-01) is
// ignored like any date outside the years a report can carry, so a VAT
// registration "in year 10000" does not push the VAT return (skatteforvaltningsforskriften
// § 8-3-10) past year 9999, and an incorporation date of 9999-12-32 gives no
// computed UK dates.
func TestNormalizeBeforePlausible(t *testing.T) {
	t.Parallel()
	rep := withFlags(noReport("AS"), true, false)
	rep.VATRegisteredAt = &registry.Date{Year: 9999, Month: 13, Day: 1}
	dl := find(t, norway(rep, d(t, "2026-03-01")), kindVATReturn)
	if diff := cmp.Diff(brief{"2026-04-10", "2026-04-10", false, "2026-01-01", "2026-02-28", 40}, briefOf(dl)); diff != "" {
		t.Errorf("VAT return (-want +got):\n%s", diff)
	}
	uk := ukReport(t, "ltd", "")
	uk.RegisteredAt = &registry.Date{Year: 9999, Month: 12, Day: 32}
	if out := UnitedKingdom(uk, ukPrivate(), d(t, "2026-03-01")); len(out.Deadlines) != 0 || !hasNote(out, "no incorporation date") {
		t.Errorf("UK deadlines from 9999-12-32: %v, notes %q", kinds(out), out.Notes)
	}
}
