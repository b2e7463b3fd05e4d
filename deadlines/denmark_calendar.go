package deadlines

import (
	"slices"
	"time"

	registry "github.com/companyregistry/registry"
)

// This file is the Danish business calendar: the public holidays
// (helligdage), on which a tax deadline moves to the next weekday, and the
// bank closing days (banklukkedage), which also stop "bank day" rules.

// danishDay is one Danish non-business day other than a plain weekend: a
// fixed date, or Easter Sunday plus an offset.
type danishDay struct {
	month  time.Month // 0 for a day counted from Easter
	day    int
	offset int
	name   string // Danish name
	en     string // English name
	// until, when not 0, is the last year the day is observed (Store
	// Bededag was abolished from 2024).
	until int
}

// date returns the date of h in year y.
func (h danishDay) date(y int, easter registry.Date) registry.Date {
	if h.month != 0 {
		return registry.Date{Year: y, Month: h.month, Day: h.day}
	}
	return easter.AddDays(h.offset)
}

// danishHolidays lists the Danish public holidays (helligdage): Sundays
// and the days below, in calendar order. Store Bededag (the fourth Friday
// after Easter) was one until 2023: the act abolishing it applies from 1
// January 2024.
var danishHolidays = [...]danishDay{
	{month: time.January, day: 1, name: "Nytårsdag", en: "New Year's Day"},
	{offset: -3, name: "Skærtorsdag", en: "Maundy Thursday"},
	{offset: -2, name: "Langfredag", en: "Good Friday"},
	{offset: 0, name: "Påskedag", en: "Easter Sunday"},
	{offset: 1, name: "2. påskedag", en: "Easter Monday"},
	{offset: 26, name: "Store bededag", en: "General Prayer Day", until: 2023},
	{offset: 39, name: "Kristi himmelfartsdag", en: "Ascension Day"},
	{offset: 49, name: "Pinsedag", en: "Whit Sunday"},
	{offset: 50, name: "2. pinsedag", en: "Whit Monday"},
	{month: time.December, day: 25, name: "Juledag", en: "Christmas Day"},
	{month: time.December, day: 26, name: "2. juledag", en: "Boxing Day"},
}

// danishBankClosingDays lists the days that are not helligdage but on
// which Danmarks Nationalbank and the banks are closed (banklukkedage).
var danishBankClosingDays = [...]danishDay{
	{offset: 40, name: "Fredag efter Kristi himmelfartsdag", en: "Friday after Ascension Day"},
	{month: time.June, day: 5, name: "Grundlovsdag", en: "Constitution Day"},
	{month: time.December, day: 24, name: "Juleaftensdag", en: "Christmas Eve"},
	{month: time.December, day: 31, name: "Nytårsaftensdag", en: "New Year's Eve"},
}

// isDanishHoliday reports whether d (a normalised date) is a Danish public
// holiday other than a plain Sunday.
func isDanishHoliday(d registry.Date) bool {
	switch {
	case d.Month == time.January && d.Day == 1,
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
	case 26:
		return d.Year <= 2023
	}
	return false
}

// isDanishBankClosingDay reports whether d (a normalised date) is a bank
// closing day that is not a holiday.
func isDanishBankClosingDay(d registry.Date) bool {
	switch {
	case d.Month == time.June && d.Day == 5,
		d.Month == time.December && (d.Day == 24 || d.Day == 31):
		return true
	case d.Month < time.April || d.Month > time.June:
		// The Friday after Ascension is from 1 May to 4 June.
		return false
	}
	return d.DaysSince(easterSunday(d.Year)) == 40
}

// danishBankClosingName returns the English name of the bank closing day
// d, or "" when it is not one.
func danishBankClosingName(d registry.Date) string {
	for _, h := range DanishBankClosingDays(d.Year) {
		if h.Date == d {
			return h.EnglishName
		}
	}
	return ""
}

// isDanishBusinessDay reports whether d is a weekday (hverdag) on which a
// Danish tax deadline may end: not a Saturday, a Sunday or a holiday.
func isDanishBusinessDay(d registry.Date) bool {
	if w := d.Weekday(); w == time.Saturday || w == time.Sunday {
		return false
	}
	return !isDanishHoliday(d)
}

// isDanishBankDay reports whether d is a bank day: a business day that is
// not a bank closing day.
func isDanishBankDay(d registry.Date) bool {
	return isDanishBusinessDay(d) && !isDanishBankClosingDay(d)
}

// danishRollForward returns d, or the next Danish business day when d is a
// Saturday, a Sunday or a holiday ("lørdag, søndag eller helligdag →
// nærmest følgende hverdag"). The longest run of such days is five
// (Maundy Thursday to Easter Monday), so the loop is short.
func danishRollForward(d registry.Date) registry.Date {
	for !isDanishBusinessDay(d) {
		d = d.AddDays(1)
	}
	return d
}

// danishRollForwardBank returns d, or the next bank day ("førstkommende
// bankdag").
func danishRollForwardBank(d registry.Date) registry.Date {
	for !isDanishBankDay(d) {
		d = d.AddDays(1)
	}
	return d
}

// danishLastBankDay returns the last bank day of month m of year y.
func danishLastBankDay(y int, m time.Month) registry.Date {
	d := endOfMonth(y, m)
	for !isDanishBankDay(d) {
		d = d.AddDays(-1)
	}
	return d
}

// danishTaxReturnDue applies skattekontrolloven § 13 to the statutory
// date of a tax return: when it falls on, or on the day before, a
// Saturday, a Sunday or a holiday, the information is in time on the first
// business day after it (by 09:00).
func danishTaxReturnDue(stat registry.Date) registry.Date {
	if isDanishBusinessDay(stat) && isDanishBusinessDay(stat.AddDays(1)) {
		return stat
	}
	return danishRollForward(stat.AddDays(1))
}

// danishDays returns the days of list observed in year, sorted by date.
func danishDays(list []danishDay, year int) []Holiday {
	e := easterSunday(year)
	out := make([]Holiday, 0, len(list))
	for _, h := range list {
		if h.until != 0 && year > h.until {
			continue
		}
		out = append(out, Holiday{Date: h.date(year, e), Name: h.name, EnglishName: h.en})
	}
	slices.SortStableFunc(out, func(a, b Holiday) int { return a.Date.Compare(b.Date) })
	return out
}

// DanishHolidays returns the Danish public holidays (helligdage) of year
// other than ordinary Sundays, sorted by date, in a fresh slice: New Year's
// Day, Maundy Thursday, Good Friday, Easter Sunday and Monday, Ascension
// Day, Whit Sunday and Monday, Christmas Day and Boxing Day; and, until
// 2023, Store Bededag (abolished as a holiday from 1 January 2024).
// Easter Sunday and Whit Sunday always fall on a Sunday. A tax deadline on
// one of these days, a Saturday or a Sunday moves to the next weekday.
func DanishHolidays(year int) []Holiday { return danishDays(danishHolidays[:], year) }

// DanishBankClosingDays returns the days of year that are not holidays
// but on which Danish banks are closed (banklukkedage), sorted by date, in
// a fresh slice: the Friday after Ascension Day, Grundlovsdag (5 June),
// Christmas Eve and New Year's Eve. They stop the rules counted in bank
// days (the acontoskat payment, a large employer's withholding) and are
// business days for the others.
func DanishBankClosingDays(year int) []Holiday { return danishDays(danishBankClosingDays[:], year) }

// DanishBusinessDay reports whether d is a business day (hverdag) for
// Danish deadlines: not a Saturday, a Sunday or a day of [DanishHolidays].
func DanishBusinessDay(d registry.Date) bool { return isDanishBusinessDay(normalize(d)) }

// DanishBankDay reports whether d is a Danish bank day: a business day
// that is not a day of [DanishBankClosingDays].
func DanishBankDay(d registry.Date) bool { return isDanishBankDay(normalize(d)) }
