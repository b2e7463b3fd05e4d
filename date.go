package registry

import (
	"errors"
	"fmt"
	"time"
)

// Date is a civil calendar date with no time of day and no time zone, written
// on the wire as ISO-8601 "YYYY-MM-DD". The zero value is not a valid date;
// nullable date fields are *Date and encode as null when nil.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// NewDate returns the date y-m-d, normalising out-of-range values the way
// [time.Date] does (so NewDate(2025, 13, 1) is 2026-01-01).
func NewDate(year int, month time.Month, day int) Date {
	return DateOf(time.Date(year, month, day, 0, 0, 0, 0, time.UTC))
}

// DateOf returns the civil date of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// errDateFormat is returned by [ParseDate] for anything that is not a real
// calendar date written as YYYY-MM-DD.
var errDateFormat = errors.New("registry: date must be a real calendar date written YYYY-MM-DD")

// ParseDate parses a strict ISO-8601 calendar date "YYYY-MM-DD": exactly ten
// characters, ASCII digits, and a day that exists in that month (2025-02-29
// is rejected). It never panics on any input.
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, errDateFormat
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, time.Month(m)) {
		return Date{}, errDateFormat
	}
	return Date{Year: y, Month: time.Month(m), Day: d}, nil
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn returns the number of days in month m (January to December) of
// year y in the proleptic Gregorian calendar.
func daysIn(y int, m time.Month) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// valid reports whether d names a real calendar day.
func (d Date) valid() bool {
	return d.Month >= time.January && d.Month <= time.December && d.Day >= 1 && d.Day <= daysIn(d.Year, d.Month)
}

// norm returns d brought into range the way [NewDate] does.
func (d Date) norm() Date {
	if d.valid() {
		return d
	}
	return NewDate(d.Year, d.Month, d.Day)
}

// dayNumber returns the number of days from 1970-01-01 to the valid date d
// (negative before). Day numbers involve no time.Time, zone or Duration, so
// nothing saturates for far-off years.
func dayNumber(d Date) int {
	y, m := d.Year, int(d.Month)
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d.Day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// fromDayNumber is the inverse of dayNumber.
func fromDayNumber(n int) Date {
	n += 719468
	era := floorDiv(n, 146097)
	doe := n - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return Date{Year: y, Month: time.Month(m), Day: day}
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// DaysIn returns the number of days in the month of d.
func (d Date) DaysIn() int { n := d.norm(); return daysIn(n.Year, n.Month) }

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// Time returns midnight UTC at the start of d.
func (d Date) Time() time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// String returns d as "YYYY-MM-DD".
func (d Date) String() string {
	return string(d.AppendText(make([]byte, 0, 10)))
}

// AppendText appends d as "YYYY-MM-DD" to b.
func (d Date) AppendText(b []byte) []byte {
	y := d.Year
	if y < 0 || y > 9999 {
		return fmt.Appendf(b, "%04d-%02d-%02d", y, int(d.Month), d.Day)
	}
	return append(b,
		byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+int(d.Month)/10), byte('0'+int(d.Month)%10), '-',
		byte('0'+d.Day/10), byte('0'+d.Day%10))
}

// MarshalText implements [encoding.TextMarshaler]; JSON encodes a Date as a
// "YYYY-MM-DD" string.
func (d Date) MarshalText() ([]byte, error) {
	return d.AppendText(make([]byte, 0, 10)), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler] with [ParseDate].
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// AddDays returns d plus n days (n may be negative).
func (d Date) AddDays(n int) Date {
	return fromDayNumber(dayNumber(d.norm()) + n)
}

// Weekday returns the day of the week of d (1970-01-01 was a Thursday).
func (d Date) Weekday() time.Weekday {
	return time.Weekday((dayNumber(d.norm())%7 + 11) % 7)
}

// Compare returns -1, 0 or +1 as d is before, equal to or after e.
func (d Date) Compare(e Date) int {
	switch {
	case d.Year != e.Year:
		return cmpInt(d.Year, e.Year)
	case d.Month != e.Month:
		return cmpInt(int(d.Month), int(e.Month))
	default:
		return cmpInt(d.Day, e.Day)
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Before reports whether d is strictly before e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is strictly after e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// DaysSince returns the number of days from e to d (d minus e); negative when
// d is before e. It is exact for any years.
func (d Date) DaysSince(e Date) int {
	return dayNumber(d.norm()) - dayNumber(e.norm())
}

// Ptr returns a pointer to a copy of d, for the nullable date fields.
func (d Date) Ptr() *Date { return &d }
