package deadlines

import (
	"time"

	registry "github.com/companyregistry/registry"
)

// This file is the Swedish business calendar of lag (1930:173) om
// beräkning av lagstadgad tid, 2 §: a time limit that ends on a Saturday,
// a Sunday, another allmän helgdag (lag 1989:253), midsommarafton,
// julafton or nyårsafton ends on the next weekday (vardag) instead.

// swedishHolidays lists the thirteen allmänna helgdagar of lag (1989:253)
// 1–2 §§ and the three eves that 1930:173 2 § adds, in calendar order.
// Annandag pingst is no longer a holiday (lag 2004:1320 put nationaldagen
// in its place); the other eves (trettondagsafton, skärtorsdagen,
// valborgsmässoafton, allhelgonaafton) are business days.
var swedishHolidays = [...]ruledHoliday{
	{rule: ruleFixed, month: time.January, day: 1, name: "Nyårsdagen", en: "New Year's Day"},
	{rule: ruleFixed, month: time.January, day: 6, name: "Trettondedag jul", en: "Epiphany"},
	{rule: ruleEaster, offset: -2, name: "Långfredagen", en: "Good Friday"},
	{rule: ruleEaster, offset: 0, name: "Påskdagen", en: "Easter Sunday"},
	{rule: ruleEaster, offset: 1, name: "Annandag påsk", en: "Easter Monday"},
	{rule: ruleFixed, month: time.May, day: 1, name: "Första maj", en: "May Day"},
	{rule: ruleEaster, offset: 39, name: "Kristi himmelsfärdsdag", en: "Ascension Day"},
	{rule: ruleEaster, offset: 49, name: "Pingstdagen", en: "Whit Sunday"},
	{rule: ruleFixed, month: time.June, day: 6, name: "Nationaldagen", en: "National Day"},
	{rule: ruleFridayBefore, month: time.June, day: 20, name: "Midsommarafton", en: "Midsummer Eve", before: "midsommardagen", eve: true},
	{rule: ruleSaturdayFrom, month: time.June, day: 20, name: "Midsommardagen", en: "Midsummer Day"},
	{rule: ruleSaturdayFrom, month: time.October, day: 31, name: "Alla helgons dag", en: "All Saints' Day"},
	{rule: ruleFixed, month: time.December, day: 24, name: "Julafton", en: "Christmas Eve", eve: true},
	{rule: ruleFixed, month: time.December, day: 25, name: "Juldagen", en: "Christmas Day"},
	{rule: ruleFixed, month: time.December, day: 26, name: "Annandag jul", en: "Boxing Day"},
	{rule: ruleFixed, month: time.December, day: 31, name: "Nyårsafton", en: "New Year's Eve", eve: true},
}

// isSwedishHoliday reports whether d (a normalised date) is one of the
// days of swedishHolidays.
func isSwedishHoliday(d registry.Date) bool {
	switch d.Month {
	case time.January:
		return d.Day == 1 || d.Day == 6
	case time.May:
		if d.Day == 1 {
			return true
		}
	case time.June:
		// Midsommarafton is a Friday from 19 to 25 June, midsommardagen a
		// Saturday from 20 to 26 June.
		switch w := d.Weekday(); {
		case d.Day == 6,
			w == time.Friday && d.Day >= 19 && d.Day <= 25,
			w == time.Saturday && d.Day >= 20 && d.Day <= 26:
			return true
		}
	case time.October:
		return d.Day == 31 && d.Weekday() == time.Saturday
	case time.November:
		return d.Day <= 6 && d.Weekday() == time.Saturday
	case time.December:
		return d.Day == 24 || d.Day == 25 || d.Day == 26 || d.Day == 31
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

// isSwedishBusinessDay reports whether d is a vardag on which a Swedish
// statutory time limit may end: not a Saturday, a Sunday or a day of
// swedishHolidays.
func isSwedishBusinessDay(d registry.Date) bool {
	if w := d.Weekday(); w == time.Saturday || w == time.Sunday {
		return false
	}
	return !isSwedishHoliday(d)
}

// rollForwardSweden returns d, or the next Swedish business day when d is
// not one (1930:173 2 §). The longest run of non-business days is four
// (Good Friday to Easter Monday; julafton on a Thursday to the Sunday), so
// the loop is short.
func rollForwardSweden(d registry.Date) registry.Date { return rollForward(d, isSwedishBusinessDay) }

// SwedishHolidays returns the sixteen days of year, other than ordinary
// Saturdays and Sundays, on which a Swedish statutory time limit moves to
// the next weekday (lag 1930:173 2 §): the thirteen allmänna helgdagar of
// lag (1989:253) and midsommarafton, julafton and nyårsafton, sorted by
// date, in a fresh slice. Påskdagen and pingstdagen are always Sundays,
// midsommardagen and alla helgons dag always Saturdays.
func SwedishHolidays(year int) []Holiday { return holidaysOf(swedishHolidays[:], year) }

// SwedishBusinessDay reports whether d is a business day (vardag) for
// Swedish filing deadlines: not a Saturday, a Sunday or a day of
// [SwedishHolidays].
func SwedishBusinessDay(d registry.Date) bool { return isSwedishBusinessDay(normalize(d)) }
