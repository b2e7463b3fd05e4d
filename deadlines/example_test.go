package deadlines_test

import (
	"fmt"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// exampleAS is a duty profile shaped like a private limited company's. A
// country module passes the profile from its own legal-form table (package
// countries/no does); this one is written out for the examples.
func exampleAS() deadlines.NorwegianDuties {
	return deadlines.NorwegianDuties{
		Code: "AS", Label: "private limited company (AS)",
		TaxReturn:                    deadlines.KindDuty{Duty: deadlines.DutyYes, Because: "A private limited company (AS) files its own tax return."},
		ShareholderRegisterStatement: deadlines.KindDuty{Duty: deadlines.DutyYes, Because: "A private limited company (AS) files the statement."},
		GeneralMeeting:               deadlines.KindDuty{Duty: deadlines.DutyYes, Because: "A private limited company (AS) holds an ordinary general meeting."},
		AnnualAccounts:               deadlines.KindDuty{Duty: deadlines.DutyYes, Because: "A private limited company (AS) sends annual accounts."},
	}
}

// A typical Norwegian private limited company with VAT and employees, seen
// on 1 March 2027. VAT term 1 (10 April, a Saturday) rolls to Monday; the
// annual accounts (31 July, also a Saturday) do not, and a note says so.
func ExampleNorway() {
	rep := countrykit.NewReport("NO", "brreg", "923609016", "EKSEMPEL AS")
	rep.LegalFormCode = countrykit.Ptr("AS")
	rep.Status = registry.StatusActive
	rep.VATRegistered = countrykit.Ptr(true)
	rep.EmployeesReported = countrykit.Ptr(true)
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2012, 5, 3))

	out := deadlines.Norway(rep, exampleAS(), registry.NewDate(2027, 3, 1))
	for _, d := range out.Deadlines {
		rolled := ""
		if d.RolledForward {
			rolled = " (rolled from " + d.StatutoryDate.String() + ")"
		}
		fmt.Printf("%s  %-30s %4d days%s\n", d.DueDate, d.Kind, *d.DaysUntil, rolled)
	}
	fmt.Println(out.Notes[1])
	// Output:
	// 2027-03-05  payroll_report                    4 days
	// 2027-04-12  vat_return                       42 days (rolled from 2027-04-10)
	// 2027-05-31  tax_return                       91 days
	// 2027-06-30  general_meeting                 121 days
	// 2027-07-31  annual_accounts                 152 days
	// 2028-01-31  shareholder_register_statement  336 days
	// annual_accounts: 2027-07-31 is a Saturday. The date is fixed by law (regnskapsloven § 8-3: sent before 1 August) and does not move to the next working day; file by Friday 2027-07-30 to be safe.
}

// A sub-unit has no deadlines of its own; the note points to its main unit.
func ExampleNorway_subunit() {
	rep := countrykit.NewReport("NO", "brreg", "974760673", "EKSEMPEL AS AVD BERGEN")
	rep.LegalFormCode = countrykit.Ptr("BEDR")
	rep.IsSubunit = true
	rep.ParentID = countrykit.Ptr("923609016")

	out := deadlines.Norway(rep, deadlines.NorwegianDuties{Code: "BEDR", Label: "sub-unit (BEDR)"}, registry.NewDate(2026, 1, 15))
	fmt.Println(len(out.Deadlines))
	fmt.Println(out.Notes[0])
	// Output:
	// 0
	// This is a sub-unit (underenhet); sub-units have no filing duties of their own. All filing duties rest on the main unit 923609016 (parent_id): ask for its deadlines instead.
}

// A UK company: the confirmation statement's date is published by Companies
// House and used as given; the accounts date is computed from the period
// the register names (9 months after 31 March, month-end rule). The duties
// come from the country module's company-type table (countries/gb); the
// engine keeps no list of company types.
func ExampleUnitedKingdom() {
	duties := deadlines.UKDuties{
		Form:                  "private limited company",
		Accounts:              deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: "Companies Act 2006 s.441"},
		ConfirmationStatement: deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: "Companies Act 2006 s.853A"},
	}
	rep := countrykit.NewReport("GB", "companieshouse", "08957400", "EXAMPLE TRADING LTD")
	rep.LegalFormCode = countrykit.Ptr("ltd")
	rep.Status = registry.StatusActive
	rep.RegisteredAt = countrykit.Ptr(registry.NewDate(2014, 3, 25))
	rep.PublishedDeadlines = []registry.PublishedDeadline{
		{Kind: "annual_accounts", PeriodEnd: countrykit.Ptr(registry.NewDate(2024, 3, 31))},
		{Kind: "confirmation_statement", DueDate: countrykit.Ptr(registry.NewDate(2024, 4, 8)),
			PeriodEnd: countrykit.Ptr(registry.NewDate(2024, 3, 25))},
	}

	out := deadlines.UnitedKingdom(rep, duties, registry.NewDate(2024, 3, 1))
	for _, d := range out.Deadlines {
		fmt.Printf("%s  %-22s %3d days  %s\n", d.DueDate, d.Kind, *d.DaysUntil, strings.SplitN(d.AppliesBecause, ":", 2)[0])
	}
	// Output:
	// 2024-04-08  confirmation_statement  38 days  The date is published by the register and used as given; it does not move for weekends or bank holidays. The filing is owed under Companies Act 2006 s.853A.
	// 2024-12-31  annual_accounts        305 days  Computed
}

// The Norwegian public holidays of 2027: Whit Monday falls on Constitution
// Day, 17 May.
func ExampleNorwegianHolidays() {
	for _, h := range deadlines.NorwegianHolidays(2027) {
		fmt.Printf("%s %s  %s (%s)\n", h.Date, h.Date.Weekday().String()[:3], h.Name, h.EnglishName)
	}
	fmt.Println(deadlines.NorwegianWorkingDay(registry.NewDate(2027, 12, 24)))
	// Output:
	// 2027-01-01 Fri  Første nyttårsdag (New Year's Day)
	// 2027-03-25 Thu  Skjærtorsdag (Maundy Thursday)
	// 2027-03-26 Fri  Langfredag (Good Friday)
	// 2027-03-28 Sun  Første påskedag (Easter Sunday)
	// 2027-03-29 Mon  Andre påskedag (Easter Monday)
	// 2027-05-01 Sat  Arbeidernes dag (Labour Day)
	// 2027-05-06 Thu  Kristi himmelfartsdag (Ascension Day)
	// 2027-05-16 Sun  Første pinsedag (Whit Sunday)
	// 2027-05-17 Mon  Grunnlovsdag (Constitution Day)
	// 2027-05-17 Mon  Andre pinsedag (Whit Monday)
	// 2027-12-25 Sat  Første juledag (Christmas Day)
	// 2027-12-26 Sun  Andre juledag (Boxing Day)
	// true
}

// The rules sections are Markdown for the country modules' rules documents.
func ExampleNorwayRules() {
	rules := deadlines.NorwayRules([]deadlines.NorwegianDuties{exampleAS()})
	fmt.Println(strings.SplitN(rules, "\n", 2)[0])
	fmt.Println(strings.Contains(rules, "Andre pinsedag (Whit Monday): Easter Sunday + 50 days"))
	fmt.Println(strings.Contains(rules, "| **no** | AS always |"))
	// Output:
	// ## Deadlines (Norway)
	// true
	// true
}

// BenchmarkNorwayTypicalAS measures one typical report: an AS with VAT and
// employees (all six kinds).
func BenchmarkNorwayTypicalAS(b *testing.B) {
	rep := countrykit.NewReport("NO", "brreg", "923609016", "EKSEMPEL AS")
	rep.LegalFormCode = countrykit.Ptr("AS")
	rep.Status = registry.StatusActive
	rep.VATRegistered = countrykit.Ptr(true)
	rep.EmployeesReported = countrykit.Ptr(true)
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2012, 5, 3))
	today := registry.NewDate(2027, 3, 1)
	b.ReportAllocs()
	for b.Loop() {
		if out := deadlines.Norway(rep, exampleAS(), today); len(out.Deadlines) != 6 {
			b.Fatal(len(out.Deadlines))
		}
	}
}

// BenchmarkUnitedKingdomComputed measures a UK report computed from the
// incorporation date, stepping through 35 years of periods.
func BenchmarkUnitedKingdomComputed(b *testing.B) {
	rep := countrykit.NewReport("GB", "companieshouse", "02578066", "EXAMPLE LTD")
	rep.LegalFormCode = countrykit.Ptr("ltd")
	rep.Status = registry.StatusActive
	rep.RegisteredAt = countrykit.Ptr(registry.NewDate(1991, 1, 30))
	today := registry.NewDate(2026, 3, 15)
	duties := deadlines.UKDuties{
		Form:                  "private limited company",
		Accounts:              deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true},
		ConfirmationStatement: deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true},
	}
	b.ReportAllocs()
	for b.Loop() {
		if out := deadlines.UnitedKingdom(rep, duties, today); len(out.Deadlines) != 2 {
			b.Fatal(len(out.Deadlines))
		}
	}
}
