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
// 31 December are working days) is written here, with Easter computed by
// the anonymous Gregorian algorithm, rather than taken from
// github.com/rickar/cal/v2/no. That library was checked and its dates are
// right: with aa.Easter and aa.Pentecost added it gives the same holidays as
// this package for every year 1583–4099, the two Sunday holidays it leaves
// out never move a deadline, it has no weekend substitution and it does not
// list 24 or 31 December. It was not used because its holidays are
// exported, mutable package variables (no.Holidays, the *cal.Holiday values
// and cal.DefaultLoc, whose nil value makes every calculation panic), so any
// other package in a program could silently change or break our deadlines;
// because it has no "next working day" function, so the roll-forward loop
// would be ours anyway; because its IsWorkday recomputes every holiday on
// each call (about 0.7 µs); and because it was last released in 2023. The
// twelve holidays take some forty lines here and are tested against the
// research table for 2024–2031 and against an independent Easter
// implementation for 1700–2299.
package deadlines
