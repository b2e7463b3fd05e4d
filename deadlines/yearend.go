package deadlines

import (
	"strconv"
	"time"

	registry "github.com/companyregistry/registry"
)

// yearEnd is the end of a financial year as a register gives it: a month
// and a day, without a year. monthEnd marks a year that ends on the last
// day of its month, whatever the month's length in a given year, so that
// a February year end is 28 February in a common year and 29 February in
// a leap year; day is then the month's longest length and is not used.
type yearEnd struct {
	month    time.Month
	day      int
	monthEnd bool
}

// calendarYearEnd returns 31 December, the end of a calendar financial
// year.
func calendarYearEnd() yearEnd { return yearEnd{month: time.December, day: 31, monthEnd: true} }

// newYearEnd reads a month and a day. ok is false when they are no day of
// any year (a month out of range, day 0, 30 February). A day that is the
// last day of its month in some year is the month end: 30 for April, 31
// for December, 28 or 29 for February. A register that gives 28 February
// read off a common year's report, or 29 February off a leap year's,
// means the last day of February; the month-end convention of the
// Nordic deadline tables (30 June → 31 January; 28/29 February + 6 months
// = 31 August) then holds in every year.
func newYearEnd(m time.Month, d int) (yearEnd, bool) {
	if m < time.January || m > time.December || d < 1 {
		return yearEnd{}, false
	}
	longest := registry.Date{Year: 2000, Month: m, Day: 1}.DaysIn() // 2000 is a leap year
	shortest := registry.Date{Year: 2001, Month: m, Day: 1}.DaysIn()
	if d > longest {
		return yearEnd{}, false
	}
	if d >= shortest {
		return yearEnd{month: m, day: longest, monthEnd: true}, true
	}
	return yearEnd{month: m, day: d}, true
}

// in returns the end of the financial year that ends in year y.
func (e yearEnd) in(y int) registry.Date {
	last := endOfMonth(y, e.month)
	if e.monthEnd {
		return last
	}
	return registry.Date{Year: last.Year, Month: last.Month, Day: min(e.day, last.Day)}
}

// isCalendar reports whether the year ends on 31 December.
func (e yearEnd) isCalendar() bool { return e.month == time.December && e.monthEnd }

// String writes the year end for a note: "31 December", "15 June", or for
// February's end "the last day of February (28 February, 29 in a leap
// year)".
func (e yearEnd) String() string {
	if e.monthEnd && e.month == time.February {
		return "the last day of February (28 February, 29 in a leap year)"
	}
	return strconv.Itoa(e.day) + " " + e.month.String()
}
