package deadlines_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// fiDue is what a test checks of one deadline.
type fiDue struct {
	Kind                 registry.DeadlineKind
	Period               string
	Statutory, Due       string
	Rolled, Mandatory    bool
	Recurrence           registry.Recurrence
	AppliesBecauseNonNil bool
}

func fiDueOf(d registry.Deadline) fiDue {
	return fiDue{Kind: d.Kind, Period: *d.PeriodLabel, Statutory: d.StatutoryDate.String(), Due: d.DueDate.String(),
		Rolled: d.RolledForward, Mandatory: d.Mandatory, Recurrence: d.Recurrence, AppliesBecauseNonNil: d.AppliesBecause != ""}
}

func fiFind(out *registry.DeadlineReport, kind registry.DeadlineKind) (registry.Deadline, bool) {
	for _, d := range out.Deadlines {
		if d.Kind == kind {
			return d, true
		}
	}
	return registry.Deadline{}, false
}

// A business partnership (Ay, Ky) files its income tax return for business
// income by 1 April of the year after the tax year, moved to the next
// business day, and always files (research fi-deadlines.md, "Additions":
// "2024: Monday 1 April was Easter Monday, so Tuesday 2 April"; vero.fi
// "Important Dates and Deadlines", the row for business partnerships).
func TestFinlandPartnershipTaxReturn(t *testing.T) {
	t.Parallel()
	ky := countrykit.NewReport("FI", "prh", "23365096", "Esimerkki Ky")
	ky.Status = registry.StatusActive
	ky.FoundedAt = countrykit.Ptr(registry.NewDate(2010, 5, 14))
	duties := &deadlines.FinlandDuties{Label: "limited partnership (Ky)",
		PartnershipTaxReturn: deadlines.KindDuty{Duty: deadlines.DutyYes}}
	tests := []struct {
		today string
		want  fiDue
	}{
		// The research's worked example: 1 April 2024 was Easter Monday.
		{"2024-01-15", fiDue{deadlines.TaxReturn, "Financial year 2023", "2024-04-01", "2024-04-02", true, true, registry.RecurrenceAnnual, true}},
		// On the day itself it is still due.
		{"2024-04-02", fiDue{deadlines.TaxReturn, "Financial year 2023", "2024-04-01", "2024-04-02", true, true, registry.RecurrenceAnnual, true}},
		// 1 April 2026 is a Wednesday: not moved.
		{"2026-01-15", fiDue{deadlines.TaxReturn, "Financial year 2025", "2026-04-01", "2026-04-01", false, true, registry.RecurrenceAnnual, true}},
		// The day after: next year's, 1 April 2027, a Thursday.
		{"2026-04-02", fiDue{deadlines.TaxReturn, "Financial year 2026", "2027-04-01", "2027-04-01", false, true, registry.RecurrenceAnnual, true}},
		// Easter Day 2029 is 1 April and Easter Monday 2 April: Tuesday 3 April.
		{"2029-03-01", fiDue{deadlines.TaxReturn, "Financial year 2028", "2029-04-01", "2029-04-03", true, true, registry.RecurrenceAnnual, true}},
	}
	for _, tt := range tests {
		out := deadlines.Finland(ky, duties, mustDate(t, tt.today))
		d, ok := fiFind(out, deadlines.TaxReturn)
		if !ok {
			t.Errorf("%s: no tax_return in %v", tt.today, out.Deadlines)
			continue
		}
		if diff := cmp.Diff(tt.want, fiDueOf(d)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.today, diff)
		}
	}
	// A company's own corporate return wins: the partnership date is never
	// listed beside it.
	both := &deadlines.FinlandDuties{Label: "x", TaxReturn: deadlines.KindDuty{Duty: deadlines.DutyYes},
		PartnershipTaxReturn: deadlines.KindDuty{Duty: deadlines.DutyYes}}
	out := deadlines.Finland(ky, both, registry.NewDate(2026, 1, 15))
	if d, _ := fiFind(out, deadlines.TaxReturn); d.StatutoryDate != registry.NewDate(2026, 4, 30) {
		t.Errorf("with both duties: %+v", d)
	}
}

// The employer's separate report to the Incomes Register: each month's
// health insurance contribution by the 5th of the next month, also for a
// month without wages, while the company is in the employer register;
// mandatory, and rolled like the payment (research fi-deadlines.md,
// "Additions"; vero.fi "Ilmoittamisen ja maksamisen määräpäivät":
// "Työnantajan sairausvakuutusmaksu ilmoitetaan viimeistään
// palkanmaksukuukautta seuraavan kuukauden 5. päivänä").
func TestFinlandEmployerSeparateReport(t *testing.T) {
	t.Parallel()
	tests := []struct {
		today string
		want  fiDue
	}{
		{"2026-01-15", fiDue{deadlines.EmployerSeparateReport, "January 2026", "2026-02-05", "2026-02-05", false, true, registry.RecurrenceMonthly, true}},
		{"2026-02-05", fiDue{deadlines.EmployerSeparateReport, "January 2026", "2026-02-05", "2026-02-05", false, true, registry.RecurrenceMonthly, true}},
		// 5 April 2026 is Easter Day and 6 April Easter Monday: Tuesday 7 April.
		{"2026-04-01", fiDue{deadlines.EmployerSeparateReport, "March 2026", "2026-04-05", "2026-04-07", true, true, registry.RecurrenceMonthly, true}},
		// 5 September 2026 is a Saturday: Monday 7 September.
		{"2026-09-01", fiDue{deadlines.EmployerSeparateReport, "August 2026", "2026-09-05", "2026-09-07", true, true, registry.RecurrenceMonthly, true}},
		// 5 December 2026 is a Saturday and 6 December Independence Day (a Sunday): Monday 7 December.
		{"2026-12-01", fiDue{deadlines.EmployerSeparateReport, "November 2026", "2026-12-05", "2026-12-07", true, true, registry.RecurrenceMonthly, true}},
		// 5 January 2027 is a Tuesday (Epiphany is the 6th).
		{"2026-12-08", fiDue{deadlines.EmployerSeparateReport, "December 2026", "2027-01-05", "2027-01-05", false, true, registry.RecurrenceMonthly, true}},
	}
	for _, tt := range tests {
		out := deadlines.Finland(fiOy(), fiOyDuties(), mustDate(t, tt.today))
		d, ok := fiFind(out, deadlines.EmployerSeparateReport)
		if !ok {
			t.Errorf("%s: no employer_separate_report", tt.today)
			continue
		}
		if diff := cmp.Diff(tt.want, fiDueOf(d)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.today, diff)
		}
	}
	// Not in the employer register: no report.
	duties := fiOyDuties()
	duties.Employer = false
	if _, ok := fiFind(deadlines.Finland(fiOy(), duties, registry.NewDate(2026, 1, 15)), deadlines.EmployerSeparateReport); ok {
		t.Error("a company outside the employer register has a separate report")
	}
}
