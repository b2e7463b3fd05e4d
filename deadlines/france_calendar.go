package deadlines

import (
	"time"

	registry "github.com/companyregistry/registry"
)

// This file is the French business calendar: Saturdays, Sundays and the
// eleven fêtes légales of Code du travail art. L3133-1, the days that move
// a French tax or social deadline to the next business day (CIBS art.
// D171-5: "le premier jour suivant qui n'est ni un samedi, ni un dimanche,
// ni le jour d'une fête légale prévue à l'article L. 3133-1 du code du
// travail").

// frenchHolidays lists the eleven fêtes légales of Code du travail art.
// L3133-1 (1° to 11°), in calendar order of their usual dates. Alsace-Moselle's
// Good Friday and 26 December (L3134-13) and the overseas days (L3422-2)
// are not national and are not among them.
var frenchHolidays = [...]ruledHoliday{
	{rule: ruleFixed, month: time.January, day: 1, name: "Jour de l'an", en: "New Year's Day"},
	{rule: ruleEaster, offset: 1, name: "Lundi de Pâques", en: "Easter Monday"},
	{rule: ruleFixed, month: time.May, day: 1, name: "Fête du Travail", en: "Labour Day"},
	{rule: ruleFixed, month: time.May, day: 8, name: "Victoire 1945", en: "Victory in Europe Day"},
	{rule: ruleEaster, offset: 39, name: "Ascension", en: "Ascension Day"},
	{rule: ruleEaster, offset: 50, name: "Lundi de Pentecôte", en: "Whit Monday"},
	{rule: ruleFixed, month: time.July, day: 14, name: "Fête nationale", en: "Bastille Day"},
	{rule: ruleFixed, month: time.August, day: 15, name: "Assomption", en: "Assumption Day"},
	{rule: ruleFixed, month: time.November, day: 1, name: "Toussaint", en: "All Saints' Day"},
	{rule: ruleFixed, month: time.November, day: 11, name: "Armistice 1918", en: "Armistice Day"},
	{rule: ruleFixed, month: time.December, day: 25, name: "Noël", en: "Christmas Day"},
}

// frIsHoliday reports whether d (a normalised date) is a fête légale
// of L3133-1.
func frIsHoliday(d registry.Date) bool {
	switch {
	case d.Month == time.January && d.Day == 1,
		d.Month == time.May && (d.Day == 1 || d.Day == 8),
		d.Month == time.July && d.Day == 14,
		d.Month == time.August && d.Day == 15,
		d.Month == time.November && (d.Day == 1 || d.Day == 11),
		d.Month == time.December && d.Day == 25:
		return true
	case d.Month < time.March || d.Month > time.June:
		// Easter Monday is at the earliest 23 March and Whit Monday at the
		// latest 14 June.
		return false
	}
	switch d.DaysSince(easterSunday(d.Year)) {
	case 1, 39, 50:
		return true
	}
	return false
}

// frIsBusinessDay reports whether d is neither a Saturday, a Sunday nor
// a fête légale of L3133-1.
func frIsBusinessDay(d registry.Date) bool {
	if w := d.Weekday(); w == time.Saturday || w == time.Sunday {
		return false
	}
	return !frIsHoliday(d)
}

// frRollForward returns d, or the first following day that is neither a
// Saturday, a Sunday nor a fête légale (CIBS art. D171-5). The longest run
// of such days is four (a holiday on a Friday or a Monday next to a
// weekend, as 15 August 2026 and 17 May 2027), so the loop is short.
func frRollForward(d registry.Date) registry.Date { return rollForward(d, frIsBusinessDay) }

// frenchSecondWorkingDayAfterMay1 returns "le deuxième jour ouvré suivant le
// premier mai" of year y (CGI ann. III art. 344 I-0 bis): the second
// French business day after 1 May.
func frenchSecondWorkingDayAfterMay1(y int) registry.Date {
	d := registry.Date{Year: y, Month: time.May, Day: 1}
	for n := 0; n < 2; {
		d = d.AddDays(1)
		if frIsBusinessDay(d) {
			n++
		}
	}
	return d
}

// FrenchHolidays returns the eleven fêtes légales of year (Code du travail
// art. L3133-1), sorted by date, in a fresh slice: New Year's Day, Easter
// Monday, 1 and 8 May, Ascension Day, Whit Monday, 14 July, 15 August,
// 1 and 11 November and Christmas Day. Whit Monday is one even where it is
// worked as the journée de solidarité. With Saturdays and Sundays they are
// the days that move a French tax or social deadline ([FrenchBusinessDay]).
func FrenchHolidays(year int) []Holiday { return holidaysOf(frenchHolidays[:], year) }

// FrenchBusinessDay reports whether d is a business day for French filing
// deadlines: not a Saturday, a Sunday or a day of [FrenchHolidays].
func FrenchBusinessDay(d registry.Date) bool { return frIsBusinessDay(normalize(d)) }
