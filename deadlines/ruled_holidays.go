package deadlines

import (
	"fmt"
	"slices"
	"time"

	registry "github.com/companyregistry/registry"
)

// Every calendar of the package lists its holidays as rules (a fixed day,
// an offset from Easter, and in Finland and Sweden the Saturday of a
// seven-day window or the Friday before it), which give each year's dates
// and describe themselves in the rules documents.

// holidayRule says how a holiday's date is found in a year.
type holidayRule uint8

const (
	ruleFixed        holidayRule = iota // month and day
	ruleEaster                          // Easter Sunday + offset days
	ruleSaturdayFrom                    // the Saturday on or after month/day (a seven-day window)
	ruleFridayBefore                    // the Friday before the Saturday on or after month/day
)

// ruledHoliday is one holiday of a calendar of rules.
type ruledHoliday struct {
	rule   holidayRule
	month  time.Month
	day    int
	offset int
	name   string // the local name
	en     string // the English name
	// before names the Saturday a ruleFridayBefore day precedes, for its
	// description ("Midsummer Day").
	before string
	eve    bool // Sweden: not an allmän helgdag, but named by 1930:173 2 §
	// until, when not 0, is the last year the day is observed (Denmark's
	// Store Bededag was abolished from 2024).
	until int
}

// saturdayOnOrAfter returns the first Saturday on or after d.
func saturdayOnOrAfter(d registry.Date) registry.Date {
	return d.AddDays(mod(int(time.Saturday)-int(d.Weekday()), 7))
}

// date returns the date of h in year y, whose Easter Sunday is easter.
func (h ruledHoliday) date(y int, easter registry.Date) registry.Date {
	switch h.rule {
	case ruleEaster:
		return easter.AddDays(h.offset)
	case ruleSaturdayFrom:
		return saturdayOnOrAfter(registry.Date{Year: y, Month: h.month, Day: h.day})
	case ruleFridayBefore:
		return saturdayOnOrAfter(registry.Date{Year: y, Month: h.month, Day: h.day}).AddDays(-1)
	}
	return registry.Date{Year: y, Month: h.month, Day: h.day}
}

// describe returns the rule of h in English, for a rules document.
func (h ruledHoliday) describe() string {
	// last is the last day of the seven-day window from first.
	last := func(first int) string {
		return registry.Date{Year: 2001, Month: h.month, Day: first}.AddDays(6).Time().Format("2 January")
	}
	switch h.rule {
	case ruleEaster:
		switch {
		case h.offset < 0:
			return fmt.Sprintf("Easter Sunday − %d days", -h.offset)
		case h.offset == 0:
			return "the first Sunday after the first full moon on or after 21 March"
		case h.offset == 1:
			return "Easter Sunday + 1 day"
		}
		return fmt.Sprintf("Easter Sunday + %d days", h.offset)
	case ruleSaturdayFrom:
		return fmt.Sprintf("the Saturday from %d %s to %s", h.day, h.month, last(h.day))
	case ruleFridayBefore:
		return fmt.Sprintf("the Friday before %s (%d to %s)", h.before, h.day-1, last(h.day-1))
	}
	return fmt.Sprintf("%d %s", h.day, h.month)
}

// holidaysOf returns the days of table observed in year, sorted by date,
// in a fresh slice.
func holidaysOf(table []ruledHoliday, year int) []Holiday {
	e := easterSunday(year)
	out := make([]Holiday, 0, len(table))
	for _, h := range table {
		if h.until != 0 && year > h.until {
			continue
		}
		out = append(out, Holiday{Date: h.date(year, e), Name: h.name, EnglishName: h.en})
	}
	slices.SortStableFunc(out, func(a, b Holiday) int { return a.Date.Compare(b.Date) })
	return out
}

// rollForward returns d, or the first day after it that is a business day
// by business. Every calendar's longest run of non-business days is a few
// days, so the loop is short.
func rollForward(d registry.Date, business func(registry.Date) bool) registry.Date {
	for !business(d) {
		d = d.AddDays(1)
	}
	return d
}

// lastBusinessDayBefore returns the last day before d that is a business
// day by business.
func lastBusinessDayBefore(d registry.Date, business func(registry.Date) bool) registry.Date {
	d = d.AddDays(-1)
	for !business(d) {
		d = d.AddDays(-1)
	}
	return d
}
