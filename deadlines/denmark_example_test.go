package deadlines_test

import (
	"fmt"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// ExampleDenmark computes the next deadlines of an ApS whose financial year
// ends on 30 June, as the register gives it, on 1 December 2026. The tax
// return due on Thursday 31 December is in time on Monday 4 January 2027
// (skattekontrolloven § 13: the next day is a holiday); the annual report
// does not move. VAT and employer withholding are assumptions.
func ExampleDenmark() {
	rep := countrykit.NewReport("DK", "cvr", "41774037", "Eksempel ApS")
	rep.Status = registry.StatusActive
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2015, 3, 2))
	yes := deadlines.KindDuty{Duty: deadlines.DutyYes}
	maybe := deadlines.KindDuty{Duty: deadlines.DutyConditional}
	duties := &deadlines.DenmarkDuties{
		Code: "80", Label: "private limited company (ApS)",
		AnnualReport: yes, GeneralMeeting: yes, TaxReturn: yes, VAT: maybe, Employer: maybe,
		YearEndMonth: time.June, YearEndDay: 30,
	}
	out := deadlines.Denmark(rep, duties, registry.NewDate(2026, 12, 1))
	for _, d := range out.Deadlines {
		fmt.Printf("%-20s %-50s due %s (statutory %s, mandatory %t)\n", d.Kind, *d.PeriodLabel, d.DueDate, d.StatutoryDate, d.Mandatory)
	}
	// Output:
	// employer_withholding Pay month November 2026                            due 2026-12-10 (statutory 2026-12-10, mandatory false)
	// annual_report        Financial year 2025-07-01 to 2026-06-30            due 2026-12-31 (statutory 2026-12-31, mandatory true)
	// general_meeting      Financial year 2025-07-01 to 2026-06-30            due 2026-12-31 (statutory 2026-12-31, mandatory true)
	// tax_return           Income year 2025-07-01 to 2026-06-30               due 2027-01-04 (statutory 2026-12-31, mandatory true)
	// vat_return           H2 2026                                            due 2027-03-01 (statutory 2027-03-01, mandatory false)
}

// ExampleDanishHolidays lists the Danish holidays of 2026 other than
// ordinary Sundays, and the bank closing days.
func ExampleDanishHolidays() {
	for _, h := range deadlines.DanishHolidays(2026) {
		fmt.Println(h.Date, h.Date.Weekday(), h.Name)
	}
	for _, h := range deadlines.DanishBankClosingDays(2026) {
		fmt.Println(h.Date, h.Date.Weekday(), h.Name, "(bank closing day)")
	}
	// Output:
	// 2026-01-01 Thursday Nytårsdag
	// 2026-04-02 Thursday Skærtorsdag
	// 2026-04-03 Friday Langfredag
	// 2026-04-05 Sunday Påskedag
	// 2026-04-06 Monday 2. påskedag
	// 2026-05-14 Thursday Kristi himmelfartsdag
	// 2026-05-24 Sunday Pinsedag
	// 2026-05-25 Monday 2. pinsedag
	// 2026-12-25 Friday Juledag
	// 2026-12-26 Saturday 2. juledag
	// 2026-05-15 Friday Fredag efter Kristi himmelfartsdag (bank closing day)
	// 2026-06-05 Friday Grundlovsdag (bank closing day)
	// 2026-12-24 Thursday Juleaftensdag (bank closing day)
	// 2026-12-31 Thursday Nytårsaftensdag (bank closing day)
}
