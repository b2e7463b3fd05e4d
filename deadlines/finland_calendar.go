package deadlines

import (
	"slices"
	"time"

	registry "github.com/companyregistry/registry"
)

// This file is the Finnish business calendar of Laki säädettyjen
// määräaikain laskemisesta (150/1930) § 5: the days on which an act due at
// an authority may be done on the next weekday instead.

// finnishHolidayRule says how a Finnish holiday's date is found.
type finnishHolidayRule uint8

const (
	fiFixed          finnishHolidayRule = iota // month and day
	fiEaster                                   // Easter Sunday + offset days
	fiSaturdayFrom                             // the Saturday on or after month/day (a seven-day window)
	fiFridayBeforeSa                           // the Friday before the Saturday on or after month/day
)

// finnishHoliday is one Finnish non-business day other than a weekend.
type finnishHoliday struct {
	rule   finnishHolidayRule
	month  time.Month
	day    int
	offset int
	name   string // Finnish name
	en     string // English name
}

// finnishHolidays lists the fifteen days other than Saturdays and Sundays
// on which a Finnish statutory time limit moves to the next weekday (§ 5 of
// 150/1930: the church holidays, Independence Day, May Day, Christmas Eve
// and Midsummer Eve), in calendar order. New Year's Eve is a bank holiday
// but not in § 5: it is a business day for deadlines.
var finnishHolidays = [...]finnishHoliday{
	{rule: fiFixed, month: time.January, day: 1, name: "Uudenvuodenpäivä", en: "New Year's Day"},
	{rule: fiFixed, month: time.January, day: 6, name: "Loppiainen", en: "Epiphany"},
	{rule: fiEaster, offset: -2, name: "Pitkäperjantai", en: "Good Friday"},
	{rule: fiEaster, offset: 0, name: "Pääsiäispäivä", en: "Easter Sunday"},
	{rule: fiEaster, offset: 1, name: "Toinen pääsiäispäivä", en: "Easter Monday"},
	{rule: fiFixed, month: time.May, day: 1, name: "Vappu", en: "May Day"},
	{rule: fiEaster, offset: 39, name: "Helatorstai", en: "Ascension Day"},
	{rule: fiEaster, offset: 49, name: "Helluntaipäivä", en: "Whit Sunday"},
	{rule: fiFridayBeforeSa, month: time.June, day: 20, name: "Juhannusaatto", en: "Midsummer Eve"},
	{rule: fiSaturdayFrom, month: time.June, day: 20, name: "Juhannuspäivä", en: "Midsummer Day"},
	{rule: fiSaturdayFrom, month: time.October, day: 31, name: "Pyhäinpäivä", en: "All Saints' Day"},
	{rule: fiFixed, month: time.December, day: 6, name: "Itsenäisyyspäivä", en: "Independence Day"},
	{rule: fiFixed, month: time.December, day: 24, name: "Jouluaatto", en: "Christmas Eve"},
	{rule: fiFixed, month: time.December, day: 25, name: "Joulupäivä", en: "Christmas Day"},
	{rule: fiFixed, month: time.December, day: 26, name: "Tapaninpäivä", en: "Boxing Day"},
}

// saturdayOnOrAfter returns the first Saturday on or after d.
func saturdayOnOrAfter(d registry.Date) registry.Date {
	return d.AddDays(mod(int(time.Saturday)-int(d.Weekday()), 7))
}

// date returns the date of h in year y.
func (h finnishHoliday) date(y int, easter registry.Date) registry.Date {
	switch h.rule {
	case fiEaster:
		return easter.AddDays(h.offset)
	case fiSaturdayFrom:
		return saturdayOnOrAfter(registry.Date{Year: y, Month: h.month, Day: h.day})
	case fiFridayBeforeSa:
		return saturdayOnOrAfter(registry.Date{Year: y, Month: h.month, Day: h.day}).AddDays(-1)
	}
	return registry.Date{Year: y, Month: h.month, Day: h.day}
}

// isFinnishHoliday reports whether d (a normalised date) is one of the
// Finnish holidays of § 5 other than a plain Saturday or Sunday.
func isFinnishHoliday(d registry.Date) bool {
	switch d.Month {
	case time.January:
		return d.Day == 1 || d.Day == 6
	case time.May:
		if d.Day == 1 {
			return true
		}
	case time.June:
		// Midsummer Eve is a Friday from 19 to 25 June, Midsummer Day a
		// Saturday from 20 to 26 June.
		switch w := d.Weekday(); {
		case w == time.Friday && d.Day >= 19 && d.Day <= 25,
			w == time.Saturday && d.Day >= 20 && d.Day <= 26:
			return true
		}
	case time.October:
		return d.Day == 31 && d.Weekday() == time.Saturday
	case time.November:
		return d.Day <= 6 && d.Weekday() == time.Saturday
	case time.December:
		return d.Day == 6 || d.Day == 24 || d.Day == 25 || d.Day == 26
	}
	if d.Month < time.March || d.Month > time.June {
		// Good Friday is at the earliest 20 March and Whit Sunday at the
		// latest 13 June.
		return false
	}
	switch d.DaysSince(easterSunday(d.Year)) {
	case -2, 0, 1, 39, 49:
		return true
	}
	return false
}

// isFinnishBusinessDay reports whether d is a weekday (arkipäivä) on which
// a Finnish time limit may end: not a Saturday, not a Sunday and not a
// holiday of § 5.
func isFinnishBusinessDay(d registry.Date) bool {
	if w := d.Weekday(); w == time.Saturday || w == time.Sunday {
		return false
	}
	return !isFinnishHoliday(d)
}

// rollForwardFinland returns d, or the next Finnish business day when d is
// a Saturday, a Sunday or a holiday of § 5 of 150/1930. The longest run of
// such days is four (Good Friday to Easter Monday), so the loop is short.
func rollForwardFinland(d registry.Date) registry.Date {
	for !isFinnishBusinessDay(d) {
		d = d.AddDays(1)
	}
	return d
}

// lastFinnishBusinessDayBefore returns the last Finnish business day
// before d.
func lastFinnishBusinessDayBefore(d registry.Date) registry.Date {
	d = d.AddDays(-1)
	for !isFinnishBusinessDay(d) {
		d = d.AddDays(-1)
	}
	return d
}

// FinnishHolidays returns the fifteen days of year, other than ordinary
// Saturdays and Sundays, on which a Finnish statutory time limit moves to
// the next weekday (Laki säädettyjen määräaikain laskemisesta 150/1930 § 5),
// sorted by date, in a fresh slice: New Year's Day, Epiphany, Good Friday,
// Easter Sunday and Monday, May Day, Ascension Day, Whit Sunday, Midsummer
// Eve and Day, All Saints' Day, Independence Day, Christmas Eve, Christmas
// Day and Boxing Day. Midsummer Day and All Saints' Day always fall on a
// Saturday, Easter and Whit Sunday on a Sunday. New Year's Eve is not
// among them.
func FinnishHolidays(year int) []Holiday {
	e := easterSunday(year)
	out := make([]Holiday, 0, len(finnishHolidays))
	for _, h := range finnishHolidays {
		out = append(out, Holiday{Date: h.date(year, e), Name: h.name, EnglishName: h.en})
	}
	slices.SortStableFunc(out, func(a, b Holiday) int { return a.Date.Compare(b.Date) })
	return out
}

// FinnishBusinessDay reports whether d is a business day for Finnish
// filing deadlines: not a Saturday, a Sunday or a day of [FinnishHolidays].
func FinnishBusinessDay(d registry.Date) bool { return isFinnishBusinessDay(normalize(d)) }
