package deadlines_test

// Review rev-deadlines10: every row of the research notes' worked tables,
// computed through the exported API of this package and compared with the
// note. The rows are copied here by hand from the notes (a reviewer's own
// copy, not the testdata copies the engine's tests read).

import (
	"fmt"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

type rv10Row struct{ kind, period, statutory, due string }

type rv10Key struct {
	kind           registry.DeadlineKind
	statutory, due registry.Date
}

func rv10Date(t testing.TB, s string) registry.Date {
	t.Helper()
	tm, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatalf("date %q: %v", s, err)
	}
	return registry.NewDate(tm.Year(), tm.Month(), tm.Day())
}

// rv10Sweep runs f for every today from from to to and collects every
// deadline it lists; it also checks that rolled_forward says whether the
// due date differs from the statutory one, and that nothing is due before
// today.
func rv10Sweep(t *testing.T, from, to string, f func(today registry.Date) *registry.DeadlineReport) map[rv10Key]bool {
	t.Helper()
	seen := map[rv10Key]bool{}
	last := rv10Date(t, to)
	for today := rv10Date(t, from); !today.After(last); today = today.AddDays(1) {
		for _, d := range f(today).Deadlines {
			seen[rv10Key{d.Kind, d.StatutoryDate, d.DueDate}] = true
			if d.RolledForward != (d.DueDate != d.StatutoryDate) {
				t.Errorf("today %s: %s statutory %s due %s rolled_forward %t", today, d.Kind, d.StatutoryDate, d.DueDate, d.RolledForward)
			}
			if d.DueDate.Before(today) {
				t.Errorf("today %s: %s due %s is before today", today, d.Kind, d.DueDate)
			}
		}
	}
	return seen
}

func rv10Check(t *testing.T, seen map[rv10Key]bool, kind string, rows []rv10Row) {
	t.Helper()
	for _, r := range rows {
		k := kind
		if k == "" {
			k = r.kind
		}
		key := rv10Key{registry.DeadlineKind(k), rv10Date(t, r.statutory), rv10Date(t, r.due)}
		if !seen[key] {
			var alt []string
			for s := range seen {
				if s.kind == key.kind && (s.statutory == key.statutory || s.due == key.due) {
					alt = append(alt, fmt.Sprintf("%s→%s", s.statutory, s.due))
				}
			}
			t.Errorf("%s %s: note says statutory %s due %s; engine never lists it (same kind, same date: %v)", k, r.period, r.statutory, r.due, alt)
		}
	}
}

var rv10FIRows = []rv10Row{
	{"employer_contributions", "wages paid 2025-12", "2026-01-12", "2026-01-12"},
	{"vat_return", "2025-11", "2026-01-12", "2026-01-12"},
	{"employer_contributions", "wages paid 2026-01", "2026-02-12", "2026-02-12"},
	{"vat_return", "2025-12", "2026-02-12", "2026-02-12"},
	{"employer_contributions", "wages paid 2026-02", "2026-03-12", "2026-03-12"},
	{"vat_return", "2026-01", "2026-03-12", "2026-03-12"},
	{"employer_contributions", "wages paid 2026-03", "2026-04-12", "2026-04-13"},
	{"vat_return", "2026-02", "2026-04-12", "2026-04-13"},
	{"tax_return", "FY 2025", "2026-04-30", "2026-04-30"},
	{"employer_contributions", "wages paid 2026-04", "2026-05-12", "2026-05-12"},
	{"vat_return", "2026-03", "2026-05-12", "2026-05-12"},
	{"employer_contributions", "wages paid 2026-05", "2026-06-12", "2026-06-12"},
	{"vat_return", "2026-04", "2026-06-12", "2026-06-12"},
	{"general_meeting", "FY 2025", "2026-06-30", "2026-06-30"},
	{"employer_contributions", "wages paid 2026-06", "2026-07-12", "2026-07-13"},
	{"vat_return", "2026-05", "2026-07-12", "2026-07-13"},
	{"employer_contributions", "wages paid 2026-07", "2026-08-12", "2026-08-12"},
	{"vat_return", "2026-06", "2026-08-12", "2026-08-12"},
	{"financial_statements", "FY 2025", "2026-08-31", "2026-08-31"},
	{"employer_contributions", "wages paid 2026-08", "2026-09-12", "2026-09-14"},
	{"vat_return", "2026-07", "2026-09-12", "2026-09-14"},
	{"employer_contributions", "wages paid 2026-09", "2026-10-12", "2026-10-12"},
	{"vat_return", "2026-08", "2026-10-12", "2026-10-12"},
	{"employer_contributions", "wages paid 2026-10", "2026-11-12", "2026-11-12"},
	{"vat_return", "2026-09", "2026-11-12", "2026-11-12"},
	{"employer_contributions", "wages paid 2026-11", "2026-12-12", "2026-12-14"},
	{"vat_return", "2026-10", "2026-12-12", "2026-12-14"},
	{"employer_contributions", "wages paid 2026-12", "2027-01-12", "2027-01-12"},
	{"vat_return", "2026-11", "2027-01-12", "2027-01-12"},
	{"employer_contributions", "wages paid 2027-01", "2027-02-12", "2027-02-12"},
	{"vat_return", "2026-12", "2027-02-12", "2027-02-12"},
	{"employer_contributions", "wages paid 2027-02", "2027-03-12", "2027-03-12"},
	{"vat_return", "2027-01", "2027-03-12", "2027-03-12"},
	{"employer_contributions", "wages paid 2027-03", "2027-04-12", "2027-04-12"},
	{"vat_return", "2027-02", "2027-04-12", "2027-04-12"},
	{"tax_return", "FY 2026", "2027-04-30", "2027-04-30"},
	{"employer_contributions", "wages paid 2027-04", "2027-05-12", "2027-05-12"},
	{"vat_return", "2027-03", "2027-05-12", "2027-05-12"},
	{"employer_contributions", "wages paid 2027-05", "2027-06-12", "2027-06-14"},
	{"vat_return", "2027-04", "2027-06-12", "2027-06-14"},
	{"general_meeting", "FY 2026", "2027-06-30", "2027-06-30"},
	{"employer_contributions", "wages paid 2027-06", "2027-07-12", "2027-07-12"},
	{"vat_return", "2027-05", "2027-07-12", "2027-07-12"},
	{"employer_contributions", "wages paid 2027-07", "2027-08-12", "2027-08-12"},
	{"vat_return", "2027-06", "2027-08-12", "2027-08-12"},
	{"financial_statements", "FY 2026", "2027-08-31", "2027-08-31"},
	{"employer_contributions", "wages paid 2027-08", "2027-09-12", "2027-09-13"},
	{"vat_return", "2027-07", "2027-09-12", "2027-09-13"},
	{"employer_contributions", "wages paid 2027-09", "2027-10-12", "2027-10-12"},
	{"vat_return", "2027-08", "2027-10-12", "2027-10-12"},
	{"employer_contributions", "wages paid 2027-10", "2027-11-12", "2027-11-12"},
	{"vat_return", "2027-09", "2027-11-12", "2027-11-12"},
	{"employer_contributions", "wages paid 2027-11", "2027-12-12", "2027-12-13"},
	{"vat_return", "2027-10", "2027-12-12", "2027-12-13"},
}

var rv10DKRows = []rv10Row{
	{"employer_withholding", "pay 2025-12", "2026-01-17", "2026-01-19"},
	{"employer_withholding", "pay 2026-01", "2026-02-10", "2026-02-10"},
	{"vat_return", "2025-H2", "2026-03-01", "2026-03-02"},
	{"employer_withholding", "pay 2026-02", "2026-03-10", "2026-03-10"},
	{"tax_prepayment", "income year 2026", "2026-03-20", "2026-03-20"},
	{"employer_withholding", "pay 2026-03", "2026-04-10", "2026-04-10"},
	{"employer_withholding", "pay 2026-04", "2026-05-10", "2026-05-11"},
	{"employer_withholding", "pay 2026-05", "2026-06-10", "2026-06-10"},
	{"annual_report", "FY 2025", "2026-06-30", "2026-06-30"},
	{"general_meeting", "FY 2025", "2026-06-30", "2026-06-30"},
	{"tax_return", "income year 2025", "2026-06-30", "2026-06-30"},
	{"employer_withholding", "pay 2026-06", "2026-07-10", "2026-07-10"},
	{"employer_withholding", "pay 2026-07", "2026-08-10", "2026-08-10"},
	{"vat_return", "2026-H1", "2026-09-01", "2026-09-01"},
	{"employer_withholding", "pay 2026-08", "2026-09-10", "2026-09-10"},
	{"employer_withholding", "pay 2026-09", "2026-10-10", "2026-10-12"},
	{"employer_withholding", "pay 2026-10", "2026-11-10", "2026-11-10"},
	{"tax_prepayment", "income year 2026", "2026-11-20", "2026-11-20"},
	{"tax_balance", "income year 2025", "2026-11-20", "2026-11-20"},
	{"employer_withholding", "pay 2026-11", "2026-12-10", "2026-12-10"},
	{"employer_withholding", "pay 2026-12", "2027-01-17", "2027-01-18"},
	{"employer_withholding", "pay 2027-01", "2027-02-10", "2027-02-10"},
	{"vat_return", "2026-H2", "2027-03-01", "2027-03-01"},
	{"employer_withholding", "pay 2027-02", "2027-03-10", "2027-03-10"},
	{"tax_prepayment", "income year 2027", "2027-03-20", "2027-03-22"},
	{"employer_withholding", "pay 2027-03", "2027-04-10", "2027-04-12"},
	{"employer_withholding", "pay 2027-04", "2027-05-10", "2027-05-10"},
	{"employer_withholding", "pay 2027-05", "2027-06-10", "2027-06-10"},
	{"annual_report", "FY 2026", "2027-06-30", "2027-06-30"},
	{"general_meeting", "FY 2026", "2027-06-30", "2027-06-30"},
	{"tax_return", "income year 2026", "2027-06-30", "2027-06-30"},
	{"employer_withholding", "pay 2027-06", "2027-07-10", "2027-07-12"},
	{"employer_withholding", "pay 2027-07", "2027-08-10", "2027-08-10"},
	{"vat_return", "2027-H1", "2027-09-01", "2027-09-01"},
	{"employer_withholding", "pay 2027-08", "2027-09-10", "2027-09-10"},
	{"employer_withholding", "pay 2027-09", "2027-10-10", "2027-10-11"},
	{"employer_withholding", "pay 2027-10", "2027-11-10", "2027-11-10"},
	{"tax_prepayment", "income year 2027", "2027-11-20", "2027-11-22"},
	{"tax_balance", "income year 2026", "2027-11-20", "2027-11-22"},
	{"employer_withholding", "pay 2027-11", "2027-12-10", "2027-12-10"},
}

var rv10SERows = []rv10Row{
	{"employer_declaration", "pay 2025-12", "2026-01-17", "2026-01-19"},
	{"employer_declaration", "pay 2026-01", "2026-02-12", "2026-02-12"},
	{"vat_return", "2025-Q4", "2026-02-12", "2026-02-12"},
	{"employer_declaration", "pay 2026-02", "2026-03-12", "2026-03-12"},
	{"employer_declaration", "pay 2026-03", "2026-04-12", "2026-04-13"},
	{"employer_declaration", "pay 2026-04", "2026-05-12", "2026-05-12"},
	{"vat_return", "2026-Q1", "2026-05-12", "2026-05-12"},
	{"employer_declaration", "pay 2026-05", "2026-06-12", "2026-06-12"},
	{"general_meeting", "FY 2025", "2026-06-30", "2026-06-30"},
	{"employer_declaration", "pay 2026-06", "2026-07-12", "2026-07-13"},
	{"annual_accounts", "FY 2025", "2026-07-31", "2026-07-31"},
	{"tax_return", "FY 2025", "2026-08-01", "2026-08-03"},
	{"employer_declaration", "pay 2026-07", "2026-08-17", "2026-08-17"},
	{"vat_return", "2026-Q2", "2026-08-17", "2026-08-17"},
	{"employer_declaration", "pay 2026-08", "2026-09-12", "2026-09-14"},
	{"employer_declaration", "pay 2026-09", "2026-10-12", "2026-10-12"},
	{"employer_declaration", "pay 2026-10", "2026-11-12", "2026-11-12"},
	{"vat_return", "2026-Q3", "2026-11-12", "2026-11-12"},
	{"employer_declaration", "pay 2026-11", "2026-12-12", "2026-12-14"},
	{"employer_declaration", "pay 2026-12", "2027-01-17", "2027-01-18"},
	{"employer_declaration", "pay 2027-01", "2027-02-12", "2027-02-12"},
	{"vat_return", "2026-Q4", "2027-02-12", "2027-02-12"},
	{"employer_declaration", "pay 2027-02", "2027-03-12", "2027-03-12"},
	{"employer_declaration", "pay 2027-03", "2027-04-12", "2027-04-12"},
	{"employer_declaration", "pay 2027-04", "2027-05-12", "2027-05-12"},
	{"vat_return", "2027-Q1", "2027-05-12", "2027-05-12"},
	{"employer_declaration", "pay 2027-05", "2027-06-12", "2027-06-14"},
	{"general_meeting", "FY 2026", "2027-06-30", "2027-06-30"},
	{"employer_declaration", "pay 2027-06", "2027-07-12", "2027-07-12"},
	{"annual_accounts", "FY 2026", "2027-07-31", "2027-08-02"},
	{"tax_return", "FY 2026", "2027-08-01", "2027-08-02"},
	{"employer_declaration", "pay 2027-07", "2027-08-17", "2027-08-17"},
	{"vat_return", "2027-Q2", "2027-08-17", "2027-08-17"},
	{"employer_declaration", "pay 2027-08", "2027-09-12", "2027-09-13"},
	{"employer_declaration", "pay 2027-09", "2027-10-12", "2027-10-12"},
	{"employer_declaration", "pay 2027-10", "2027-11-12", "2027-11-12"},
	{"vat_return", "2027-Q3", "2027-11-12", "2027-11-12"},
	{"employer_declaration", "pay 2027-11", "2027-12-12", "2027-12-13"},
}

var rv10FRRows = []rv10Row{
	{"dsn", "2025-12", "2026-01-15", "2026-01-15"},
	{"vat_return", "2025-12", "2026-01-21", "2026-01-21"},
	{"dsn", "2026-01", "2026-02-15", "2026-02-16"},
	{"vat_return", "2026-01", "2026-02-21", "2026-02-23"},
	{"corporate_tax_instalment", "FY 2026 no. 1", "2026-03-15", "2026-03-16"},
	{"dsn", "2026-02", "2026-03-15", "2026-03-16"},
	{"vat_return", "2026-02", "2026-03-21", "2026-03-23"},
	{"dsn", "2026-03", "2026-04-15", "2026-04-15"},
	{"vat_return", "2026-03", "2026-04-21", "2026-04-21"},
	{"tax_return", "FY 2025", "2026-05-05", "2026-05-05"},
	{"corporate_tax_balance", "FY 2025", "2026-05-15", "2026-05-15"},
	{"dsn", "2026-04", "2026-05-15", "2026-05-15"},
	{"vat_return", "2026-04", "2026-05-21", "2026-05-21"},
	{"corporate_tax_instalment", "FY 2026 no. 2", "2026-06-15", "2026-06-15"},
	{"dsn", "2026-05", "2026-06-15", "2026-06-15"},
	{"vat_return", "2026-05", "2026-06-21", "2026-06-22"},
	{"general_meeting", "FY 2025", "2026-06-30", "2026-06-30"},
	{"dsn", "2026-06", "2026-07-15", "2026-07-15"},
	{"vat_return", "2026-06", "2026-07-21", "2026-07-21"},
	{"accounts_filing", "FY 2025", "2026-07-31", "2026-07-31"},
	{"dsn", "2026-07", "2026-08-15", "2026-08-17"},
	{"vat_return", "2026-07", "2026-08-21", "2026-08-21"},
	{"accounts_filing_electronic", "FY 2025", "2026-08-31", "2026-08-31"},
	{"corporate_tax_instalment", "FY 2026 no. 3", "2026-09-15", "2026-09-15"},
	{"dsn", "2026-08", "2026-09-15", "2026-09-15"},
	{"vat_return", "2026-08", "2026-09-21", "2026-09-21"},
	{"dsn", "2026-09", "2026-10-15", "2026-10-15"},
	{"vat_return", "2026-09", "2026-10-21", "2026-10-21"},
	{"dsn", "2026-10", "2026-11-15", "2026-11-16"},
	{"vat_return", "2026-10", "2026-11-21", "2026-11-23"},
	{"cfe", "2026", "2026-12-15", "2026-12-15"},
	{"corporate_tax_instalment", "FY 2026 no. 4", "2026-12-15", "2026-12-15"},
	{"dsn", "2026-11", "2026-12-15", "2026-12-15"},
	{"vat_return", "2026-11", "2026-12-21", "2026-12-21"},
	{"dsn", "2026-12", "2027-01-15", "2027-01-15"},
	{"vat_return", "2026-12", "2027-01-21", "2027-01-21"},
	{"dsn", "2027-01", "2027-02-15", "2027-02-15"},
	{"vat_return", "2027-01", "2027-02-21", "2027-02-22"},
	{"corporate_tax_instalment", "FY 2027 no. 1", "2027-03-15", "2027-03-15"},
	{"dsn", "2027-02", "2027-03-15", "2027-03-15"},
	{"vat_return", "2027-02", "2027-03-21", "2027-03-22"},
	{"dsn", "2027-03", "2027-04-15", "2027-04-15"},
	{"vat_return", "2027-03", "2027-04-21", "2027-04-21"},
	{"tax_return", "FY 2026", "2027-05-04", "2027-05-04"},
	{"corporate_tax_balance", "FY 2026", "2027-05-15", "2027-05-18"},
	{"dsn", "2027-04", "2027-05-15", "2027-05-18"},
	{"vat_return", "2027-04", "2027-05-21", "2027-05-21"},
	{"corporate_tax_instalment", "FY 2027 no. 2", "2027-06-15", "2027-06-15"},
	{"dsn", "2027-05", "2027-06-15", "2027-06-15"},
	{"vat_return", "2027-05", "2027-06-21", "2027-06-21"},
	{"general_meeting", "FY 2026", "2027-06-30", "2027-06-30"},
	{"dsn", "2027-06", "2027-07-15", "2027-07-15"},
	{"vat_return", "2027-06", "2027-07-21", "2027-07-21"},
	{"accounts_filing", "FY 2026", "2027-07-31", "2027-07-31"},
	{"dsn", "2027-07", "2027-08-15", "2027-08-16"},
	{"vat_return", "2027-07", "2027-08-21", "2027-08-23"},
	{"accounts_filing_electronic", "FY 2026", "2027-08-31", "2027-08-31"},
	{"corporate_tax_instalment", "FY 2027 no. 3", "2027-09-15", "2027-09-15"},
	{"dsn", "2027-08", "2027-09-15", "2027-09-15"},
	{"vat_return", "2027-08", "2027-09-21", "2027-09-21"},
	{"dsn", "2027-09", "2027-10-15", "2027-10-15"},
	{"vat_return", "2027-09", "2027-10-21", "2027-10-21"},
	{"dsn", "2027-10", "2027-11-15", "2027-11-15"},
	{"vat_return", "2027-10", "2027-11-21", "2027-11-22"},
	{"cfe", "2027", "2027-12-15", "2027-12-15"},
	{"corporate_tax_instalment", "FY 2027 no. 4", "2027-12-15", "2027-12-15"},
	{"dsn", "2027-11", "2027-12-15", "2027-12-15"},
	{"vat_return", "2027-11", "2027-12-21", "2027-12-21"},
}

var rv10DKVATQuarterly = []rv10Row{
	{"vat_return", "2025-Q4", "2026-03-01", "2026-03-02"},
	{"vat_return", "2026-Q1", "2026-06-01", "2026-06-01"},
	{"vat_return", "2026-Q2", "2026-09-01", "2026-09-01"},
	{"vat_return", "2026-Q3", "2026-12-01", "2026-12-01"},
	{"vat_return", "2026-Q4", "2027-03-01", "2027-03-01"},
	{"vat_return", "2027-Q1", "2027-06-01", "2027-06-01"},
	{"vat_return", "2027-Q2", "2027-09-01", "2027-09-01"},
	{"vat_return", "2027-Q3", "2027-12-01", "2027-12-01"},
}

var rv10DKVATMonthly = []rv10Row{
	{"vat_return", "2025-12", "2026-01-25", "2026-01-26"},
	{"vat_return", "2026-01", "2026-02-25", "2026-02-25"},
	{"vat_return", "2026-02", "2026-03-25", "2026-03-25"},
	{"vat_return", "2026-03", "2026-04-25", "2026-04-27"},
	{"vat_return", "2026-04", "2026-05-25", "2026-05-26"},
	{"vat_return", "2026-05", "2026-06-25", "2026-06-25"},
	{"vat_return", "2026-06", "2026-08-17", "2026-08-17"},
	{"vat_return", "2026-07", "2026-08-25", "2026-08-25"},
	{"vat_return", "2026-08", "2026-09-25", "2026-09-25"},
	{"vat_return", "2026-09", "2026-10-25", "2026-10-26"},
	{"vat_return", "2026-10", "2026-11-25", "2026-11-25"},
	{"vat_return", "2026-11", "2026-12-25", "2026-12-28"},
	{"vat_return", "2026-12", "2027-01-25", "2027-01-25"},
	{"vat_return", "2027-01", "2027-02-25", "2027-02-25"},
	{"vat_return", "2027-02", "2027-03-25", "2027-03-30"},
	{"vat_return", "2027-03", "2027-04-25", "2027-04-26"},
	{"vat_return", "2027-04", "2027-05-25", "2027-05-25"},
	{"vat_return", "2027-05", "2027-06-25", "2027-06-25"},
	{"vat_return", "2027-06", "2027-08-17", "2027-08-17"},
	{"vat_return", "2027-07", "2027-08-25", "2027-08-25"},
	{"vat_return", "2027-08", "2027-09-25", "2027-09-27"},
	{"vat_return", "2027-09", "2027-10-25", "2027-10-25"},
	{"vat_return", "2027-10", "2027-11-25", "2027-11-25"},
	{"vat_return", "2027-11", "2027-12-25", "2027-12-27"},
}

var rv10Yes = deadlines.KindDuty{Duty: deadlines.DutyYes}
var rv10Cond = deadlines.KindDuty{Duty: deadlines.DutyConditional}

func rv10Report(country, reg, id, form string, founded registry.Date) *registry.CompanyReport {
	rep := countrykit.NewReport(country, reg, id, "Review Test")
	rep.LegalFormCode = countrykit.Ptr(form)
	rep.Status = registry.StatusActive
	rep.FoundedAt = countrykit.Ptr(founded)
	rep.RegisteredAt = countrykit.Ptr(founded)
	return rep
}

func rv10FI() (*registry.CompanyReport, *deadlines.FinlandDuties) {
	rep := rv10Report("FI", "prh", "23365096", "16", registry.NewDate(2005, 2, 1))
	rep.VATRegistered = countrykit.Ptr(true)
	return rep, &deadlines.FinlandDuties{Code: "16", Label: "private limited company (Oy)",
		GeneralMeeting: rv10Yes, FinancialStatements: rv10Yes, TaxReturn: rv10Yes, Employer: true}
}

func rv10DK(period deadlines.DanishVATPeriod) (*registry.CompanyReport, *deadlines.DenmarkDuties) {
	rep := rv10Report("DK", "cvr", "41774037", "80", registry.NewDate(2010, 3, 2))
	return rep, &deadlines.DenmarkDuties{Code: "80", Label: "private limited company (ApS)",
		AnnualReport: rv10Yes, GeneralMeeting: rv10Yes, TaxReturn: rv10Yes,
		TaxPrepayment: rv10Cond, TaxBalance: rv10Cond, VAT: rv10Cond, Employer: rv10Cond,
		YearEndMonth: time.December, YearEndDay: 31, VATPeriod: period}
}

func rv10SE() (*registry.CompanyReport, *deadlines.SwedishDuties) {
	rep := rv10Report("SE", "bolagsverket", "5567223705", "AB", registry.NewDate(2001, 4, 2))
	return rep, &deadlines.SwedishDuties{Code: "AB", Label: "limited company (aktiebolag, AB)",
		GeneralMeeting: rv10Yes, AnnualReport: rv10Yes, TaxReturn: rv10Yes, TaxForm: "INK2",
		TaxRegistered: deadlines.DutyYes}
}

func rv10FR() (*registry.CompanyReport, *deadlines.FranceDuties) {
	rep := rv10Report("FR", "sirene", "302474648", "5710", registry.NewDate(1995, 6, 1))
	return rep, &deadlines.FranceDuties{Code: "5710", Label: "simplified joint-stock company (SAS)",
		GeneralMeeting: rv10Cond, AccountsFiling: rv10Yes, CorporateTax: rv10Yes, CorporateTaxInstalments: rv10Cond,
		VAT: rv10Cond, VATColumn: deadlines.FrenchVATCompany, CFE: rv10Cond,
		Departement: "69", Employer: deadlines.DutyYes, HeadcountBand: "11", VATRegistered: true}
}

// TestReview_WorkedTables checks every row of the four worked tables of
// fi-, dk-, se- and fr-deadlines.md (and the alternative VAT schedules of
// the Danish note) against the public API.
func TestReview_WorkedTables(t *testing.T) {
	t.Parallel()
	t.Run("FI", func(t *testing.T) {
		t.Parallel()
		rep, du := rv10FI()
		rv10Check(t, rv10Sweep(t, "2025-12-01", "2027-12-31", func(d registry.Date) *registry.DeadlineReport { return deadlines.Finland(rep, du, d) }), "", rv10FIRows)
	})
	t.Run("DK", func(t *testing.T) {
		t.Parallel()
		rep, du := rv10DK(deadlines.DanishVATHalfYearly)
		rv10Check(t, rv10Sweep(t, "2025-12-01", "2027-12-31", func(d registry.Date) *registry.DeadlineReport { return deadlines.Denmark(rep, du, d) }), "", rv10DKRows)
	})
	t.Run("DK quarterly VAT", func(t *testing.T) {
		t.Parallel()
		rep, du := rv10DK(deadlines.DanishVATQuarterly)
		rv10Check(t, rv10Sweep(t, "2025-12-01", "2027-12-31", func(d registry.Date) *registry.DeadlineReport { return deadlines.Denmark(rep, du, d) }), "", rv10DKVATQuarterly)
	})
	t.Run("DK monthly VAT", func(t *testing.T) {
		t.Parallel()
		rep, du := rv10DK(deadlines.DanishVATMonthly)
		rv10Check(t, rv10Sweep(t, "2025-12-01", "2027-12-31", func(d registry.Date) *registry.DeadlineReport { return deadlines.Denmark(rep, du, d) }), "", rv10DKVATMonthly)
	})
	t.Run("DK large employer", func(t *testing.T) {
		t.Parallel()
		rep, du := rv10DK(deadlines.DanishVATHalfYearly)
		du.LargeEmployer = true
		var rows []rv10Row
		for _, s := range []string{"2026-01-30", "2026-02-27", "2026-03-31", "2026-04-30", "2026-05-29", "2026-06-30", "2026-07-31",
			"2026-08-31", "2026-09-30", "2026-10-30", "2026-11-30", "2026-12-30",
			"2027-01-29", "2027-02-26", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30", "2027-07-30", "2027-08-31",
			"2027-09-30", "2027-10-29", "2027-11-30", "2027-12-30"} {
			rows = append(rows, rv10Row{"employer_withholding", "pay month of " + s, s, s})
		}
		seen := rv10Sweep(t, "2025-12-01", "2027-12-31", func(d registry.Date) *registry.DeadlineReport { return deadlines.Denmark(rep, du, d) })
		// The due date is what the note gives; the statutory date may be
		// reported as the month end, so match on the due date only.
		for _, r := range rows {
			found := false
			for k := range seen {
				if k.kind == deadlines.EmployerWithholding && k.due == rv10Date(t, r.due) {
					found = true
				}
			}
			if !found {
				t.Errorf("large employer: no withholding due %s", r.due)
			}
		}
	})
	t.Run("SE", func(t *testing.T) {
		t.Parallel()
		rep, du := rv10SE()
		rv10Check(t, rv10Sweep(t, "2025-12-01", "2027-12-31", func(d registry.Date) *registry.DeadlineReport { return deadlines.Sweden(rep, du, d) }), "", rv10SERows)
	})
	t.Run("FR", func(t *testing.T) {
		t.Parallel()
		rep, du := rv10FR()
		rv10Check(t, rv10Sweep(t, "2025-12-01", "2027-12-31", func(d registry.Date) *registry.DeadlineReport { return deadlines.France(rep, du, d) }), "", rv10FRRows)
	})
}

// rv10Next returns the deadline of kind that f lists on today, or fails.
func rv10Next(t *testing.T, out *registry.DeadlineReport, kind registry.DeadlineKind) (registry.Deadline, bool) {
	t.Helper()
	for _, d := range out.Deadlines {
		if d.Kind == kind {
			return d, true
		}
	}
	return registry.Deadline{}, false
}

type rv10Probe struct {
	name              string
	run               func(today registry.Date) *registry.DeadlineReport
	today             string
	kind              registry.DeadlineKind
	wantStat, wantDue string
}

func rv10RunProbes(t *testing.T, probes []rv10Probe) {
	t.Helper()
	for _, p := range probes {
		out := p.run(rv10Date(t, p.today))
		d, ok := rv10Next(t, out, p.kind)
		if !ok {
			t.Errorf("%s (today %s): no %s listed; notes %q", p.name, p.today, p.kind, out.Notes)
			continue
		}
		if d.StatutoryDate.String() != p.wantStat || d.DueDate.String() != p.wantDue {
			t.Errorf("%s (today %s): %s statutory %s due %s, the note gives %s → %s", p.name, p.today, p.kind, d.StatutoryDate, d.DueDate, p.wantStat, p.wantDue)
		}
	}
}

func rv10NO() (*registry.CompanyReport, deadlines.NorwegianDuties) {
	rep := rv10Report("NO", "brreg", "923609016", "AS", registry.NewDate(2000, 1, 10))
	rep.VATRegistered = countrykit.Ptr(true)
	rep.Employees = countrykit.Ptr(12)
	rep.EmployeesReported = countrykit.Ptr(true)
	return rep, deadlines.NorwegianDuties{Code: "AS", Label: "private limited company (AS)",
		TaxReturn: rv10Yes, ShareholderRegisterStatement: rv10Yes, GeneralMeeting: rv10Yes, AnnualAccounts: rv10Yes}
}

// TestReview_NorwayNoteCases checks the dated cases of no-deadlines.md
// §§ 1.1, 2.1, 2.4 and 6.
func TestReview_NorwayNoteCases(t *testing.T) {
	t.Parallel()
	rep, du := rv10NO()
	no := func(d registry.Date) *registry.DeadlineReport { return deadlines.Norway(rep, du, d) }
	rv10RunProbes(t, []rv10Probe{
		{"a-melding May 2028, Whit Monday", no, "2028-05-06", deadlines.PayrollReport, "2028-06-05", "2028-06-06"},
		{"VAT term 2 2030, Whit Monday", no, "2030-04-11", deadlines.VATReturn, "2030-06-10", "2030-06-11"},
		{"VAT term 1 2031, Maundy Thursday", no, "2031-02-11", deadlines.VATReturn, "2031-04-10", "2031-04-15"},
		{"VAT term 1 2034, Easter Monday", no, "2034-02-11", deadlines.VATReturn, "2034-04-10", "2034-04-11"},
		{"tax return 2057, Ascension", no, "2057-02-01", deadlines.TaxReturn, "2057-05-31", "2057-06-01"},
		{"a-melding March 2026, Easter", no, "2026-03-06", deadlines.PayrollReport, "2026-04-05", "2026-04-07"},
		{"VAT term 1 2027, Saturday", no, "2027-02-11", deadlines.VATReturn, "2027-04-10", "2027-04-12"},
		{"VAT term 3 2025, Sunday", no, "2025-06-11", deadlines.VATReturn, "2025-08-31", "2025-09-01"},
		{"VAT 2020 term 1", no, "2020-02-11", deadlines.VATReturn, "2020-04-10", "2020-04-14"},
		{"VAT 2020 term 4", no, "2020-09-01", deadlines.VATReturn, "2020-10-10", "2020-10-12"},
		{"VAT 2026 term 4", no, "2026-09-01", deadlines.VATReturn, "2026-10-10", "2026-10-12"},
		{"a-melding 2020 April", no, "2020-03-06", deadlines.PayrollReport, "2020-04-05", "2020-04-06"},
		{"a-melding 2020 July", no, "2020-06-06", deadlines.PayrollReport, "2020-07-05", "2020-07-06"},
		{"a-melding 2020 September", no, "2020-08-06", deadlines.PayrollReport, "2020-09-05", "2020-09-07"},
		{"a-melding navikt fixture", no, "2024-09-06", deadlines.PayrollReport, "2024-10-05", "2024-10-07"},
		{"tax return 2025", no, "2025-02-01", deadlines.TaxReturn, "2025-05-31", "2025-06-02"},
		{"tax return 2026", no, "2026-02-01", deadlines.TaxReturn, "2026-05-31", "2026-06-01"},
		{"RF-1086 2026", no, "2025-12-01", deadlines.ShareholderRegisterStatement, "2026-01-31", "2026-02-02"},
		{"RF-1086 2027", no, "2026-12-01", deadlines.ShareholderRegisterStatement, "2027-01-31", "2027-02-01"},
		{"annual accounts 2027 Saturday, not rolled", no, "2027-01-01", deadlines.AnnualAccounts, "2027-07-31", "2027-07-31"},
		{"general meeting 2029 Saturday, not rolled", no, "2029-01-01", deadlines.GeneralMeeting, "2029-06-30", "2029-06-30"},
		{"general meeting 2030 Sunday, not rolled", no, "2030-01-01", deadlines.GeneralMeeting, "2030-06-30", "2030-06-30"},
		{"24 December is a working day", no, "2026-11-06", deadlines.VATReturn, "2026-12-10", "2026-12-10"},
	})
}

func rv10UK(public bool) deadlines.UKDuties {
	u := deadlines.UKDuties{Form: "private limited company",
		Accounts:              deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: "Companies Act 2006 s.441"},
		ConfirmationStatement: deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: "Companies Act 2006 s.853A"}}
	if public {
		u.Form, u.Public = "public limited company", true
	}
	return u
}

// TestReview_UKNoteCases checks the dated cases of companieshouse.md § 5
// that can be computed from an incorporation date (no published date).
func TestReview_UKNoteCases(t *testing.T) {
	t.Parallel()
	gb := func(inc string, public bool) func(registry.Date) *registry.DeadlineReport {
		rep := rv10Report("GB", "companieshouse", "12279804", "ltd", rv10Date(t, inc))
		return func(d registry.Date) *registry.DeadlineReport { return deadlines.UnitedKingdom(rep, rv10UK(public), d) }
	}
	rv10RunProbes(t, []rv10Probe{
		{"12279804 first accounts, Saturday, not rolled", gb("2019-10-24", false), "2020-01-01", deadlines.AnnualAccounts, "2021-07-24", "2021-07-24"},
		{"12279804 first confirmation statement", gb("2019-10-24", false), "2020-01-01", deadlines.ConfirmationStatement, "2020-11-06", "2020-11-06"},
		{"first accounts to the exact day", gb("2011-01-01", false), "2011-02-01", deadlines.AnnualAccounts, "2012-10-01", "2012-10-01"},
		{"private, period end 31 Jan", gb("2011-01-01", false), "2022-11-01", deadlines.AnnualAccounts, "2023-10-31", "2023-10-31"},
		{"public, period end 31 Dec (first 18 months)", gb("2000-12-05", true), "2027-01-01", deadlines.AnnualAccounts, "2027-06-30", "2027-06-30"},
		{"private, period end 31 Mar", gb("2015-03-10", false), "2024-04-01", deadlines.AnnualAccounts, "2024-12-31", "2024-12-31"},
		{"incorporated 29 Feb, month-end rule (s.443)", gb("2024-02-29", false), "2026-01-01", deadlines.AnnualAccounts, "2026-11-30", "2026-11-30"},
	})
}

// TestReview_DenmarkNoteCases checks the Danish note's non-calendar
// examples, its first-period example and skattekontrolloven § 13's
// day-before rule for the tax return.
func TestReview_DenmarkNoteCases(t *testing.T) {
	t.Parallel()
	dk := func(m time.Month, day int, mod func(*deadlines.DenmarkDuties)) func(registry.Date) *registry.DeadlineReport {
		rep, du := rv10DK(deadlines.DanishVATHalfYearly)
		du.YearEndMonth, du.YearEndDay = m, day
		if mod != nil {
			mod(du)
		}
		return func(d registry.Date) *registry.DeadlineReport { return deadlines.Denmark(rep, du, d) }
	}
	first := func(du *deadlines.DenmarkDuties) {
		du.FirstPeriodStart = countrykit.Ptr(registry.NewDate(2020, 10, 18))
		du.FirstPeriodEnd = countrykit.Ptr(registry.NewDate(2021, 12, 31))
	}
	rv10RunProbes(t, []rv10Probe{
		{"year end 30 June: annual report", dk(time.June, 30, nil), "2026-07-01", deadlines.AnnualReport, "2026-12-31", "2026-12-31"},
		{"year end 30 June: tax return, SKL § 13", dk(time.June, 30, nil), "2026-07-01", deadlines.TaxReturn, "2026-12-31", "2027-01-04"},
		{"year end 31 March: tax return 1 September", dk(time.March, 31, nil), "2026-04-01", deadlines.TaxReturn, "2026-09-01", "2026-09-01"},
		{"year end 31 March: annual report", dk(time.March, 31, nil), "2026-04-01", deadlines.AnnualReport, "2026-09-30", "2026-09-30"},
		{"year end 28 Feb 2026: annual report 31 Aug", dk(time.February, 28, nil), "2026-03-01", deadlines.AnnualReport, "2026-08-31", "2026-08-31"},
		{"year end 29 Feb 2028: annual report 31 Aug", dk(time.February, 28, nil), "2028-03-01", deadlines.AnnualReport, "2028-08-31", "2028-08-31"},
		{"year end 28 Feb: tax return 1 September (§ 12 stk. 2)", dk(time.February, 28, nil), "2026-03-01", deadlines.TaxReturn, "2026-09-01", "2026-09-01"},
		{"first period 2020-10-18 → 2021-12-31", dk(time.December, 31, first), "2021-06-01", deadlines.AnnualReport, "2022-06-30", "2022-06-30"},
		{"tax return on a Friday moves to Monday (day-before rule)", dk(time.December, 31, nil), "2028-01-01", deadlines.TaxReturn, "2028-06-30", "2028-07-03"},
		{"tax return 1 Sept 2028 Friday moves to Monday", dk(time.March, 31, nil), "2028-04-01", deadlines.TaxReturn, "2028-09-01", "2028-09-04"},
		{"tax return on a Saturday", dk(time.December, 31, nil), "2029-01-01", deadlines.TaxReturn, "2029-06-30", "2029-07-02"},
		{"annual report on a Saturday is not moved", dk(time.December, 31, nil), "2029-01-01", deadlines.AnnualReport, "2029-06-30", "2029-06-30"},
		{"general meeting on a Sunday is not moved", dk(time.December, 31, nil), "2030-01-01", deadlines.GeneralMeeting, "2030-06-30", "2030-06-30"},
		{"VAT H2 2019 → 2 March 2020", dk(time.December, 31, nil), "2019-12-01", deadlines.VATReturn, "2020-03-01", "2020-03-02"},
		{"tax return the day before Maundy Thursday (SKL § 13)", dk(time.September, 30, nil), "2020-10-01", deadlines.TaxReturn, "2021-03-31", "2021-04-06"},
		{"withholding Dec 2018 → 17 Jan 2019", dk(time.December, 31, nil), "2019-01-01", deadlines.EmployerWithholding, "2019-01-17", "2019-01-17"},
		{"withholding Jan 2019 → 11 Feb", dk(time.December, 31, nil), "2019-01-18", deadlines.EmployerWithholding, "2019-02-10", "2019-02-11"},
	})
}

// TestReview_SwedenNoteCases checks the Swedish note's non-calendar example
// and the third-party Bolagsverket dates it reproduces.
func TestReview_SwedenNoteCases(t *testing.T) {
	t.Parallel()
	se := func(m time.Month, day int) func(registry.Date) *registry.DeadlineReport {
		rep, du := rv10SE()
		du.YearEndMonth, du.YearEndDay = m, day
		return func(d registry.Date) *registry.DeadlineReport { return deadlines.Sweden(rep, du, d) }
	}
	rv10RunProbes(t, []rv10Probe{
		{"year end 30 June 2026: Bolagsverket", se(time.June, 30), "2026-07-01", deadlines.AnnualAccounts, "2027-01-31", "2027-02-01"},
		{"year end 30 June 2026: INK2 digital", se(time.June, 30), "2026-07-01", deadlines.TaxReturn, "2027-01-15", "2027-01-15"},
		{"year end 31 Dec 2020 → Mon 2 Aug 2021", se(time.December, 31), "2021-01-01", deadlines.AnnualAccounts, "2021-07-31", "2021-08-02"},
		{"year end 31 May 2021 → Mon 3 Jan 2022", se(time.May, 31), "2021-06-01", deadlines.AnnualAccounts, "2021-12-31", "2022-01-03"},
		{"year end 30 June 2021 → Mon 31 Jan 2022", se(time.June, 30), "2021-07-01", deadlines.AnnualAccounts, "2022-01-31", "2022-01-31"},
		{"personal-style Saturday: AGD Jan 2026 → 19 Jan", se(time.December, 31), "2026-01-01", deadlines.EmployerDeclaration, "2026-01-17", "2026-01-19"},
	})
}

// TestReview_FinlandFranceNoteCases checks the fixed dates that must not
// move and the French calendar-year table of fr-deadlines.md § 6.
func TestReview_FinlandFranceNoteCases(t *testing.T) {
	t.Parallel()
	firep, fidu := rv10FI()
	fi := func(d registry.Date) *registry.DeadlineReport { return deadlines.Finland(firep, fidu, d) }
	frrep, frdu := rv10FR()
	fr := func(d registry.Date) *registry.DeadlineReport { return deadlines.France(frrep, frdu, d) }
	paris := *frdu
	paris.Code, paris.Departement, paris.VATColumn = "5599", "75", deadlines.FrenchVATSA
	big := *frdu
	big.HeadcountBand = "21"
	frParis := func(d registry.Date) *registry.DeadlineReport {
		rep := rv10Report("FR", "sirene", "552032534", "5599", registry.NewDate(1995, 6, 1))
		return deadlines.France(rep, &paris, d)
	}
	frBig := func(d registry.Date) *registry.DeadlineReport { return deadlines.France(frrep, &big, d) }
	probes := []rv10Probe{
		{"FI financial statements 31 Aug 2030 Saturday, not moved", fi, "2030-07-01", deadlines.FinancialStatements, "2030-08-31", "2030-08-31"},
		{"FI general meeting 30 June 2029 Saturday, not moved", fi, "2029-01-01", deadlines.GeneralMeeting, "2029-06-30", "2029-06-30"},
		{"FI tax return 30 April 2028 Sunday moves", fi, "2028-01-01", deadlines.TaxReturn, "2028-04-30", "2028-05-02"},
		{"FI VAT on Midsummer Eve? 12 Jun 2026 Fri", fi, "2026-05-13", deadlines.VATReturn, "2026-06-12", "2026-06-12"},
		{"FR accounts filing paper 31 July 2027 Saturday, not moved", fr, "2027-01-01", deadlines.FrenchAccountsFiling, "2027-07-31", "2027-07-31"},
		{"FR Paris SA CA3 23 May 2026 → 26 May", frParis, "2026-04-24", deadlines.VATReturn, "2026-05-23", "2026-05-26"},
		{"FR Paris SA CA3 23 Aug 2026 → 24 Aug", frParis, "2026-07-24", deadlines.VATReturn, "2026-08-23", "2026-08-24"},
		{"FR DSN 5th 5 Apr 2026 → 7 Apr", frBig, "2026-03-06", deadlines.FrenchDSN, "2026-04-05", "2026-04-07"},
		{"FR DSN 5th 5 Jul 2026 → 6 Jul", frBig, "2026-06-06", deadlines.FrenchDSN, "2026-07-05", "2026-07-06"},
		{"FR DSN 5th 5 Sep 2026 → 7 Sep", frBig, "2026-08-06", deadlines.FrenchDSN, "2026-09-05", "2026-09-07"},
		{"FR DSN 5th 5 Dec 2026 → 7 Dec", frBig, "2026-11-06", deadlines.FrenchDSN, "2026-12-05", "2026-12-07"},
	}
	for _, y := range []struct{ year, liasse, solde string }{
		{"2025", "2025-05-05", "2025-05-15"}, {"2026", "2026-05-05", "2026-05-15"}, {"2027", "2027-05-04", "2027-05-18"},
		{"2028", "2028-05-03", "2028-05-15"}, {"2029", "2029-05-03", "2029-05-15"}, {"2030", "2030-05-03", "2030-05-15"},
		{"2031", "2031-05-05", "2031-05-15"},
	} {
		solStat := y.year + "-05-15"
		probes = append(probes,
			rv10Probe{"FR liasse " + y.year, fr, y.year + "-01-02", deadlines.TaxReturn, y.liasse, y.liasse},
			rv10Probe{"FR 2572 " + y.year, fr, y.year + "-01-02", deadlines.FrenchCorporateTaxBalance, solStat, y.solde})
	}
	rv10RunProbes(t, probes)
}

// TestReview_DatesStayYYYYMMDD: the REST and MCP layers accept any today
// that registry.ParseDate accepts, up to 9999-12-31, and the interface
// says every date is YYYY-MM-DD. A today late in 9999 makes the engines
// answer next occurrences in year 10000, written "10000-01-05", which
// ParseDate (and any client reading YYYY-MM-DD) rejects. The answer should
// stay within the writable years, or be empty with a note, as an
// implausible today already is.
func TestReview_DatesStayYYYYMMDD(t *testing.T) {
	t.Parallel()
	today := registry.NewDate(9999, 12, 31)
	if _, err := registry.ParseDate(today.String()); err != nil {
		t.Fatalf("today %s is not accepted by ParseDate: %v", today, err)
	}
	norep, nodu := rv10NO()
	dkrep, dkdu := rv10DK(deadlines.DanishVATHalfYearly)
	gbrep := rv10Report("GB", "companieshouse", "12279804", "ltd", registry.NewDate(2019, 10, 24))
	for name, out := range map[string]*registry.DeadlineReport{
		"NO": deadlines.Norway(norep, nodu, today),
		"DK": deadlines.Denmark(dkrep, dkdu, today),
		"GB": deadlines.UnitedKingdom(gbrep, rv10UK(false), today),
	} {
		for _, d := range out.Deadlines {
			for _, s := range []string{d.StatutoryDate.String(), d.DueDate.String()} {
				if _, err := registry.ParseDate(s); err != nil {
					t.Errorf("%s %s: date %q on the wire is not YYYY-MM-DD: %v", name, d.Kind, s, err)
				}
			}
		}
	}
}
