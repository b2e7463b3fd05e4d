package ical_test

import (
	"os"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/ical"
)

// A calendar feed of one deadline. In a program the report comes from
// [registry.Registry.Deadlines]; the output has CRLF line ends, shown here
// without the CR.
func ExampleWrite() {
	name := "EKSEMPEL AS"
	rep := &registry.DeadlineReport{
		Country: "NO", Registry: "brreg", CompanyID: "923609016", CompanyName: &name,
		Today: registry.NewDate(2026, 1, 15),
		Deadlines: []registry.Deadline{{
			Country: "NO", Registry: "brreg", Kind: "tax_return", Name: "Tax return", Authority: "the Tax Administration",
			StatutoryDate: registry.NewDate(2026, 5, 31), DueDate: registry.NewDate(2026, 6, 1), RolledForward: true,
			PeriodEnd: registry.NewDate(2025, 12, 31).Ptr(), Recurrence: registry.RecurrenceAnnual, Mandatory: true,
			AppliesBecause: "Every AS files one (skatteforvaltningsloven § 8-2).",
		}},
	}
	var b strings.Builder
	if err := ical.Write(&b, rep); err != nil {
		panic(err)
	}
	_, _ = os.Stdout.WriteString(strings.ReplaceAll(b.String(), "\r\n", "\n"))
	// Output:
	// BEGIN:VCALENDAR
	// VERSION:2.0
	// PRODID:-//companyregistry//filing deadlines//EN
	// CALSCALE:GREGORIAN
	// METHOD:PUBLISH
	// X-WR-CALNAME:EKSEMPEL AS: filing deadlines
	// X-WR-CALDESC:Statutory filing deadlines of EKSEMPEL AS (NO 923609016)\, com
	//  puted on 2026-01-15.
	// BEGIN:VEVENT
	// UID:NO-923609016-tax_return-2025-12-31@companyregistry
	// DTSTAMP:20260115T000000Z
	// DTSTART;VALUE=DATE:20260601
	// DTEND;VALUE=DATE:20260602
	// SUMMARY:Tax return: EKSEMPEL AS
	// DESCRIPTION:Tax return\, due 2026-06-01.\nFiled with: the Tax Administratio
	//  n.\nLegal basis: Every AS files one (skatteforvaltningsloven § 8-2).\nThe
	//   statutory date 2026-05-31 is not a working day\; the due date is the next
	//   one.\nKind: tax_return\; recurrence: annual.
	// CATEGORIES:tax_return
	// TRANSP:TRANSPARENT
	// END:VEVENT
	// END:VCALENDAR
}
