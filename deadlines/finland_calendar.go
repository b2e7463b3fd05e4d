package deadlines

import (
	"time"

	registry "github.com/companyregistry/registry"
)

// This file is the Finnish business calendar of Laki säädettyjen
// määräaikain laskemisesta (150/1930) § 5: the days on which an act due at
// an authority may be done on the next weekday instead.

// finnishHolidays lists the fifteen days other than Saturdays and Sundays
// on which a Finnish statutory time limit moves to the next weekday (§ 5 of
// 150/1930: the church holidays, Independence Day, May Day, Christmas Eve
// and Midsummer Eve), in calendar order. New Year's Eve is a bank holiday
// but not in § 5: it is a business day for deadlines.
var finnishHolidays = [...]ruledHoliday{
	{rule: ruleFixed, month: time.January, day: 1, name: "Uudenvuodenpäivä", en: "New Year's Day"},
	{rule: ruleFixed, month: time.January, day: 6, name: "Loppiainen", en: "Epiphany"},
	{rule: ruleEaster, offset: -2, name: "Pitkäperjantai", en: "Good Friday"},
	{rule: ruleEaster, offset: 0, name: "Pääsiäispäivä", en: "Easter Sunday"},
	{rule: ruleEaster, offset: 1, name: "Toinen pääsiäispäivä", en: "Easter Monday"},
	{rule: ruleFixed, month: time.May, day: 1, name: "Vappu", en: "May Day"},
	{rule: ruleEaster, offset: 39, name: "Helatorstai", en: "Ascension Day"},
	{rule: ruleEaster, offset: 49, name: "Helluntaipäivä", en: "Whit Sunday"},
	{rule: ruleFridayBefore, month: time.June, day: 20, name: "Juhannusaatto", en: "Midsummer Eve", before: "Midsummer Day"},
	{rule: ruleSaturdayFrom, month: time.June, day: 20, name: "Juhannuspäivä", en: "Midsummer Day"},
	{rule: ruleSaturdayFrom, month: time.October, day: 31, name: "Pyhäinpäivä", en: "All Saints' Day"},
	{rule: ruleFixed, month: time.December, day: 6, name: "Itsenäisyyspäivä", en: "Independence Day"},
	{rule: ruleFixed, month: time.December, day: 24, name: "Jouluaatto", en: "Christmas Eve"},
	{rule: ruleFixed, month: time.December, day: 25, name: "Joulupäivä", en: "Christmas Day"},
	{rule: ruleFixed, month: time.December, day: 26, name: "Tapaninpäivä", en: "Boxing Day"},
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
func rollForwardFinland(d registry.Date) registry.Date { return rollForward(d, isFinnishBusinessDay) }

// lastFinnishBusinessDayBefore returns the last Finnish business day
// before d.
func lastFinnishBusinessDayBefore(d registry.Date) registry.Date {
	return lastBusinessDayBefore(d, isFinnishBusinessDay)
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
func FinnishHolidays(year int) []Holiday { return holidaysOf(finnishHolidays[:], year) }

// FinnishBusinessDay reports whether d is a business day for Finnish
// filing deadlines: not a Saturday, a Sunday or a day of [FinnishHolidays].
func FinnishBusinessDay(d registry.Date) bool { return isFinnishBusinessDay(normalize(d)) }
