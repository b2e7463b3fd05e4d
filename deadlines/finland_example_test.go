package deadlines_test

import (
	"fmt"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// ExampleFinland computes the next deadlines of a calendar-year Oy in the
// VAT and employer registers on 1 April 2026. March's report to the
// Incomes Register, due on Sunday 5 April (Easter Day), moves past Easter
// Monday to Tuesday 7 April; the VAT return and employer contributions due
// on Sunday 12 April move to Monday 13 April.
func ExampleFinland() {
	rep := countrykit.NewReport("FI", "prh", "23365096", "Esimerkki Oy")
	rep.Status = registry.StatusActive
	rep.VATRegistered = countrykit.Ptr(true)
	always := deadlines.KindDuty{Duty: deadlines.DutyYes}
	duties := &deadlines.FinlandDuties{
		Label:          "private limited company (Oy)",
		GeneralMeeting: always, FinancialStatements: always, TaxReturn: always,
		Employer: true,
	}
	out := deadlines.Finland(rep, duties, registry.NewDate(2026, 4, 1))
	for _, d := range out.Deadlines {
		fmt.Printf("%-24s %s  due %s (statutory %s)\n", d.Kind, *d.PeriodLabel, d.DueDate, d.StatutoryDate)
	}
	// Output:
	// employer_separate_report March 2026  due 2026-04-07 (statutory 2026-04-05)
	// employer_contributions   Wages paid in March 2026  due 2026-04-13 (statutory 2026-04-12)
	// vat_return               February 2026  due 2026-04-13 (statutory 2026-04-12)
	// tax_return               Financial year 2025  due 2026-04-30 (statutory 2026-04-30)
	// general_meeting          Financial year 2025  due 2026-06-30 (statutory 2026-06-30)
	// financial_statements     Financial year 2025  due 2026-08-31 (statutory 2026-08-31)
}

// ExampleFinnishHolidays lists the days of 2026, other than ordinary
// weekends, on which a Finnish time limit moves to the next weekday.
func ExampleFinnishHolidays() {
	for _, h := range deadlines.FinnishHolidays(2026) {
		fmt.Println(h.Date, h.Date.Weekday(), h.EnglishName)
	}
	// Output:
	// 2026-01-01 Thursday New Year's Day
	// 2026-01-06 Tuesday Epiphany
	// 2026-04-03 Friday Good Friday
	// 2026-04-05 Sunday Easter Sunday
	// 2026-04-06 Monday Easter Monday
	// 2026-05-01 Friday May Day
	// 2026-05-14 Thursday Ascension Day
	// 2026-05-24 Sunday Whit Sunday
	// 2026-06-19 Friday Midsummer Eve
	// 2026-06-20 Saturday Midsummer Day
	// 2026-10-31 Saturday All Saints' Day
	// 2026-12-06 Sunday Independence Day
	// 2026-12-24 Thursday Christmas Eve
	// 2026-12-25 Friday Christmas Day
	// 2026-12-26 Saturday Boxing Day
}
