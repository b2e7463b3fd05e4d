// Package deadlines computes statutory filing deadlines for Norway and the
// United Kingdom from a [registry.CompanyReport] and a given day. It is the
// engine behind the deadlines operation of the country modules: [Norway] and
// [UnitedKingdom] return a [registry.DeadlineReport], and [NorwayRules] and
// [UnitedKingdomRules] describe the rules for the modules' rules documents.
//
// The package is pure: no I/O, no clock and no package-level mutable state;
// the same report and day always give the same output. Dates are civil
// dates ([registry.Date]) handled as day numbers, so no time zone is
// involved.
//
// # Norwegian public holidays
//
// The Norwegian business calendar (Saturdays, Sundays and the public
// holidays of helligdagsfredloven § 2 and lov 26. april 1947 nr. 1; 24 and
// 31 December are working days), exported as [NorwegianHolidays] and
// [NorwegianWorkingDay], is computed here, with Easter by the anonymous
// Gregorian algorithm, and tested against the published holidays of
// 2024–2031 and an independent Easter implementation for 1700–2299.
package deadlines
