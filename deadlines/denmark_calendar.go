package deadlines

import (
	"time"

	registry "github.com/companyregistry/registry"
)

// This file is the Danish business calendar: the public holidays
// (helligdage), on which a tax deadline moves to the next weekday, and the
// bank closing days (banklukkedage), which also stop "bank day" rules.

// danishHolidays lists the Danish public holidays (helligdage): Sundays
// and the days below, in calendar order. Store Bededag (the fourth Friday
// after Easter) was one until 2023: the act abolishing it applies from 1
// January 2024.
var danishHolidays = [...]ruledHoliday{
	{rule: ruleFixed, month: time.January, day: 1, name: "Nytårsdag", en: "New Year's Day"},
	{rule: ruleEaster, offset: -3, name: "Skærtorsdag", en: "Maundy Thursday"},
	{rule: ruleEaster, offset: -2, name: "Langfredag", en: "Good Friday"},
	{rule: ruleEaster, offset: 0, name: "Påskedag", en: "Easter Sunday"},
	{rule: ruleEaster, offset: 1, name: "2. påskedag", en: "Easter Monday"},
	{rule: ruleEaster, offset: 26, name: "Store bededag", en: "General Prayer Day", until: 2023},
	{rule: ruleEaster, offset: 39, name: "Kristi himmelfartsdag", en: "Ascension Day"},
	{rule: ruleEaster, offset: 49, name: "Pinsedag", en: "Whit Sunday"},
	{rule: ruleEaster, offset: 50, name: "2. pinsedag", en: "Whit Monday"},
	{rule: ruleFixed, month: time.December, day: 25, name: "Juledag", en: "Christmas Day"},
	{rule: ruleFixed, month: time.December, day: 26, name: "2. juledag", en: "Boxing Day"},
}

// danishBankClosingDays lists the days that are not helligdage but on
// which Danmarks Nationalbank and the banks are closed (banklukkedage).
var danishBankClosingDays = [...]ruledHoliday{
	{rule: ruleEaster, offset: 40, name: "Fredag efter Kristi himmelfartsdag", en: "Friday after Ascension Day"},
	{rule: ruleFixed, month: time.June, day: 5, name: "Grundlovsdag", en: "Constitution Day"},
	{rule: ruleFixed, month: time.December, day: 24, name: "Juleaftensdag", en: "Christmas Eve"},
	{rule: ruleFixed, month: time.December, day: 31, name: "Nytårsaftensdag", en: "New Year's Eve"},
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
func danishRollForward(d registry.Date) registry.Date { return rollForward(d, isDanishBusinessDay) }

// danishRollForwardBank returns d, or the next bank day ("førstkommende
// bankdag").
func danishRollForwardBank(d registry.Date) registry.Date { return rollForward(d, isDanishBankDay) }

// danishLastBankDay returns the last bank day of month m of year y.
func danishLastBankDay(y int, m time.Month) registry.Date {
	return lastBusinessDayBefore(endOfMonth(y, m).AddDays(1), isDanishBankDay)
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

// DanishHolidays returns the Danish public holidays (helligdage) of year
// other than ordinary Sundays, sorted by date, in a fresh slice: New Year's
// Day, Maundy Thursday, Good Friday, Easter Sunday and Monday, Ascension
// Day, Whit Sunday and Monday, Christmas Day and Boxing Day; and, until
// 2023, Store Bededag (abolished as a holiday from 1 January 2024).
// Easter Sunday and Whit Sunday always fall on a Sunday. A tax deadline on
// one of these days, a Saturday or a Sunday moves to the next weekday.
func DanishHolidays(year int) []Holiday { return holidaysOf(danishHolidays[:], year) }

// DanishBankClosingDays returns the days of year that are not holidays
// but on which Danish banks are closed (banklukkedage), sorted by date, in
// a fresh slice: the Friday after Ascension Day, Grundlovsdag (5 June),
// Christmas Eve and New Year's Eve. They stop the rules counted in bank
// days (the acontoskat payment, a large employer's withholding) and are
// business days for the others.
func DanishBankClosingDays(year int) []Holiday { return holidaysOf(danishBankClosingDays[:], year) }

// DanishBusinessDay reports whether d is a business day (hverdag) for
// Danish deadlines: not a Saturday, a Sunday or a day of [DanishHolidays].
func DanishBusinessDay(d registry.Date) bool { return isDanishBusinessDay(normalize(d)) }

// DanishBankDay reports whether d is a Danish bank day: a business day
// that is not a day of [DanishBankClosingDays].
func DanishBankDay(d registry.Date) bool { return isDanishBankDay(normalize(d)) }
