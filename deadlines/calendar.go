package deadlines

import (
	"time"

	registry "github.com/companyregistry/registry"
)

// This file is the Norwegian business calendar. Day arithmetic is the root
// package's ([registry.Date.AddDays], [registry.Date.DaysSince],
// [registry.Date.Weekday]), which works on day numbers and so stays exact for
// far-off years.

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// date builds a Date from a year, a month that may be out of range (it is
// normalised into the year) and a day that must be valid for that month.
func date(y int, m time.Month, d int) registry.Date {
	mi := int(m) - 1
	y += floorDiv(mi, 12)
	mi -= floorDiv(mi, 12) * 12
	return registry.Date{Year: y, Month: time.Month(mi + 1), Day: d}
}

// endOfMonth returns the last day of month m of year y (m may be out of
// range and is normalised).
func endOfMonth(y int, m time.Month) registry.Date {
	first := date(y, m, 1)
	return registry.Date{Year: first.Year, Month: first.Month, Day: first.DaysIn()}
}

// addMonthsUK adds n months to d the way the Companies Act 2006 s.443 counts
// "a period of n months after a date": the same day-number n months later; if
// d is the last day of its month, the last day of the target month; if the
// target month has no such day, its last day.
func addMonthsUK(d registry.Date, n int) registry.Date {
	last := endOfMonth(d.Year, d.Month+time.Month(n))
	if d.Day == d.DaysIn() || d.Day > last.Day {
		return last
	}
	return registry.Date{Year: last.Year, Month: last.Month, Day: d.Day}
}

// easterSunday returns the date of Western (Gregorian) Easter Sunday in year
// y, by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). The law
// defines Easter as the first Sunday after the first full moon on or after
// 21 March; this algorithm is the standard ecclesiastical computation of
// exactly that date.
func easterSunday(y int) registry.Date {
	a := mod(y, 19)
	b, c := floorDiv(y, 100), mod(y, 100)
	d, e := floorDiv(b, 4), mod(b, 4)
	f := floorDiv(b+8, 25)
	g := floorDiv(b-f+1, 3)
	h := mod(19*a+b-d-g+15, 30)
	i, k := floorDiv(c, 4), mod(c, 4)
	l := mod(32+2*e+2*i-h-k, 7)
	m := floorDiv(a+11*h+22*l, 451)
	month := floorDiv(h+l-7*m+114, 31)
	day := mod(h+l-7*m+114, 31) + 1
	return registry.Date{Year: y, Month: time.Month(month), Day: day}
}

func mod(a, b int) int { return a - floorDiv(a, b)*b }

// norwegianHolidays lists the twelve public holidays of helligdagsfredloven
// § 2 and lov 26. april 1947 nr. 1 (1 and 17 May), in calendar order of
// their usual dates. 24 and 31 December are not among them: they are
// ordinary working days for deadlines.
var norwegianHolidays = [...]ruledHoliday{
	{rule: ruleFixed, month: time.January, day: 1, name: "Første nyttårsdag", en: "New Year's Day"},
	{rule: ruleEaster, offset: -3, name: "Skjærtorsdag", en: "Maundy Thursday"},
	{rule: ruleEaster, offset: -2, name: "Langfredag", en: "Good Friday"},
	{rule: ruleEaster, offset: 0, name: "Første påskedag", en: "Easter Sunday"},
	{rule: ruleEaster, offset: 1, name: "Andre påskedag", en: "Easter Monday"},
	{rule: ruleFixed, month: time.May, day: 1, name: "Arbeidernes dag", en: "Labour Day"},
	{rule: ruleEaster, offset: 39, name: "Kristi himmelfartsdag", en: "Ascension Day"},
	{rule: ruleFixed, month: time.May, day: 17, name: "Grunnlovsdag", en: "Constitution Day"},
	{rule: ruleEaster, offset: 49, name: "Første pinsedag", en: "Whit Sunday"},
	{rule: ruleEaster, offset: 50, name: "Andre pinsedag", en: "Whit Monday"},
	{rule: ruleFixed, month: time.December, day: 25, name: "Første juledag", en: "Christmas Day"},
	{rule: ruleFixed, month: time.December, day: 26, name: "Andre juledag", en: "Boxing Day"},
}

// isNorwegianHoliday reports whether d is a Norwegian public holiday.
func isNorwegianHoliday(d registry.Date) bool {
	switch {
	case d.Month == time.January && d.Day == 1,
		d.Month == time.May && (d.Day == 1 || d.Day == 17),
		d.Month == time.December && (d.Day == 25 || d.Day == 26):
		return true
	case d.Month < time.March || d.Month > time.June:
		// Maundy Thursday is at the earliest 19 March and Whit Monday at
		// the latest 14 June.
		return false
	}
	switch d.DaysSince(easterSunday(d.Year)) {
	case -3, -2, 0, 1, 39, 49, 50:
		return true
	}
	return false
}

// isNorwegianWorkingDay reports whether d is a virkedag for deadline
// purposes: not a Saturday (domstolloven § 149 names it), not a Sunday and
// not a public holiday.
func isNorwegianWorkingDay(d registry.Date) bool {
	if w := d.Weekday(); w == time.Saturday || w == time.Sunday {
		return false
	}
	return !isNorwegianHoliday(d)
}

// rollForwardNorway returns d, or the next Norwegian working day when d is a
// Saturday, Sunday or public holiday (domstolloven § 149 via
// skatteforvaltningsloven § 5-5, and a-opplysningsforskriften § 2-1 (5)).
// The longest run of non-working days is five (Maundy Thursday to Easter
// Monday), so the loop is short.
func rollForwardNorway(d registry.Date) registry.Date { return rollForward(d, isNorwegianWorkingDay) }

// Holiday is a public holiday on a given date.
type Holiday struct {
	Date        registry.Date
	Name        string // the local name, e.g. "Andre pinsedag"
	EnglishName string // e.g. "Whit Monday"
}

// NorwegianHolidays returns the twelve public holidays of year that move
// Norwegian filing deadlines (helligdagsfredloven § 2 and lov 26. april 1947
// nr. 1), sorted by date, in a fresh slice. Two may fall on one day, as
// Grunnlovsdag and Andre pinsedag do on 17 May 2027. 24 and 31 December are
// not holidays.
func NorwegianHolidays(year int) []Holiday { return holidaysOf(norwegianHolidays[:], year) }

// NorwegianWorkingDay reports whether d is a working day (virkedag) for
// Norwegian filing deadlines: not a Saturday, a Sunday or a public holiday.
func NorwegianWorkingDay(d registry.Date) bool { return isNorwegianWorkingDay(normalize(d)) }
