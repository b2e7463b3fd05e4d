package deadlines

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/google/go-cmp/cmp"
)

// d parses an ISO date for the tests; it fails the test on a bad literal.
func d(t testing.TB, s string) registry.Date {
	t.Helper()
	v, err := registry.ParseDate(s)
	if err != nil {
		t.Fatalf("bad date literal %q: %v", s, err)
	}
	return v
}

// holidaysIn returns the dates of the Norwegian public holidays of year y,
// in the order of norwegianHolidays (a date may appear twice, as in 2027).
func holidaysIn(y int) []registry.Date {
	e := easterSunday(y)
	out := make([]registry.Date, 0, len(norwegianHolidays))
	for _, h := range norwegianHolidays {
		out = append(out, h.date(y, e))
	}
	return out
}

// tableRow is one row of a holiday table in testdata.
type tableRow struct {
	date    registry.Date
	weekday string
	name    string
}

// readHolidayTable reads the Markdown tables in testdata: the copy of
// research/holidays-table.md (2024–2028, columns Year|Date|Weekday|Holiday|var)
// and holidays-2029-2031.md (derived from python-dateutil's Easter and the
// legal offsets).
func readHolidayTable(t *testing.T, name string) []tableRow {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []tableRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 5 {
			continue
		}
		ds := strings.TrimSpace(cells[2])
		v, err := registry.ParseDate(ds)
		if err != nil {
			continue // header or separator row
		}
		rows = append(rows, tableRow{date: v, weekday: strings.TrimSpace(cells[3]), name: strings.TrimSpace(cells[4])})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestNorwegianHolidays2024To2031 checks the holiday calendar against the
// research table (2024–2028) and the derived table (2029–2031): every listed
// date is a holiday with the listed weekday, every other day of those years
// is not, and each year has the twelve holidays of the law.
func TestNorwegianHolidays2024To2031(t *testing.T) {
	t.Parallel()
	rows := append(readHolidayTable(t, "holidays-2024-2028.md"), readHolidayTable(t, "holidays-2029-2031.md")...)
	if len(rows) != 8*12 {
		t.Fatalf("read %d table rows, want 96 (12 holidays in each of 8 years)", len(rows))
	}
	want := map[registry.Date]bool{}
	perYear := map[int]int{}
	for _, r := range rows {
		want[r.date] = true
		perYear[r.date.Year]++
		if got := r.date.Weekday().String()[:3]; got != r.weekday {
			t.Errorf("%s (%s): weekday %s, table says %s", r.date, r.name, got, r.weekday)
		}
	}
	for y := 2024; y <= 2031; y++ {
		if perYear[y] != 12 {
			t.Errorf("%d: %d table rows, want 12", y, perYear[y])
		}
		got := holidaysIn(y)
		var fromTable []registry.Date
		for _, r := range rows {
			if r.date.Year == y {
				fromTable = append(fromTable, r.date)
			}
		}
		sortDates(got)
		sortDates(fromTable)
		if diff := cmp.Diff(fromTable, got); diff != "" {
			t.Errorf("%d holidays (-table +computed):\n%s", y, diff)
		}
		for day := d(t, "2024-01-01"); day.Year <= 2031; day = day.AddDays(1) {
			if day.Year != y {
				continue
			}
			if isNorwegianHoliday(day) != want[day] {
				t.Errorf("isNorwegianHoliday(%s) = %v, want %v", day, !want[day], want[day])
			}
		}
	}
}

func sortDates(ds []registry.Date) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].Before(ds[j-1]); j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

// TestNamedHolidayCases names the cases the issue asks for.
func TestNamedHolidayCases(t *testing.T) {
	t.Parallel()
	t.Run("Whit Monday 2030-06-10 is a holiday", func(t *testing.T) {
		t.Parallel()
		day := d(t, "2030-06-10")
		if day.Weekday() != time.Monday || !isNorwegianHoliday(day) || isNorwegianWorkingDay(day) {
			t.Errorf("2030-06-10: weekday %s, holiday %v, working %v", day.Weekday(), isNorwegianHoliday(day), isNorwegianWorkingDay(day))
		}
		if got := rollForwardNorway(day); got != d(t, "2030-06-11") {
			t.Errorf("rollForwardNorway(2030-06-10) = %s, want 2030-06-11", got)
		}
	})
	t.Run("2027: 17 May and Whit Monday coincide", func(t *testing.T) {
		t.Parallel()
		hs := holidaysIn(2027)
		grunnlov, whitMonday := hs[7], hs[9]
		if grunnlov != d(t, "2027-05-17") || whitMonday != d(t, "2027-05-17") {
			t.Errorf("2027: Grunnlovsdag %s, Andre pinsedag %s; want both 2027-05-17", grunnlov, whitMonday)
		}
		distinct := map[registry.Date]bool{}
		for _, h := range hs {
			distinct[h] = true
		}
		if len(distinct) != 11 {
			t.Errorf("2027 has %d distinct holiday dates, want 11 (12 holidays, two on one day)", len(distinct))
		}
	})
	t.Run("24 and 31 December are working days", func(t *testing.T) {
		t.Parallel()
		for y := 2024; y <= 2031; y++ {
			for _, day := range []registry.Date{{Year: y, Month: 12, Day: 24}, {Year: y, Month: 12, Day: 31}} {
				if isNorwegianHoliday(day) {
					t.Errorf("%s is treated as a public holiday", day)
				}
				if w := day.Weekday(); w != time.Saturday && w != time.Sunday && !isNorwegianWorkingDay(day) {
					t.Errorf("%s (%s) is not a working day", day, w)
				}
			}
		}
	})
	t.Run("Saturday is never a working day", func(t *testing.T) {
		t.Parallel()
		if isNorwegianWorkingDay(d(t, "2027-07-31")) {
			t.Error("Saturday 2027-07-31 counted as a working day")
		}
	})
}

// TestEasterAgainstDateutil compares the computus with python-dateutil's
// independent implementation for 1700–2299 (testdata/easter-1700-2299.txt).
func TestEasterAgainstDateutil(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/easter-1700-2299.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		want := d(t, line)
		if got := easterSunday(want.Year); got != want {
			t.Errorf("easterSunday(%d) = %s, want %s", want.Year, got, want)
		}
		n++
	}
	if n != 600 {
		t.Errorf("read %d Easter dates, want 600", n)
	}
}

// TestSundayHolidaysNeverMoveADeadline backs the claim that omitting Easter
// Sunday and Whit Sunday (as rickar/cal/v2/no does) cannot change a
// roll-forward: both always fall on a Sunday.
func TestSundayHolidaysNeverMoveADeadline(t *testing.T) {
	t.Parallel()
	for y := 1700; y <= 2299; y++ {
		e := easterSunday(y)
		if e.Weekday() != time.Sunday || e.AddDays(49).Weekday() != time.Sunday {
			t.Fatalf("%d: Easter %s (%s), Whit Sunday %s (%s)", y, e, e.Weekday(), e.AddDays(49), e.AddDays(49).Weekday())
		}
	}
}

// TestRollForwardNorway covers the roll-forward cases of no-deadlines.md
// §2.4; every expected weekday was checked with a calendar.
func TestRollForwardNorway(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"working day stays (Monday 2025-06-02)", "2025-06-02", "2025-06-02"},
		{"Sunday 2025-08-31 to Monday", "2025-08-31", "2025-09-01"},
		{"Easter Sunday 2026-04-05 and Easter Monday to Tuesday", "2026-04-05", "2026-04-07"},
		{"Maundy Thursday 2031-04-10 to Tuesday 15th", "2031-04-10", "2031-04-15"},
		{"Whit Monday 2030-06-10 to Tuesday", "2030-06-10", "2030-06-11"},
		{"Whit Monday 2028-06-05 to Tuesday", "2028-06-05", "2028-06-06"},
		{"Easter Monday 2034-04-10 to Tuesday", "2034-04-10", "2034-04-11"},
		{"Ascension Day 2057-05-31 to Friday", "2057-05-31", "2057-06-01"},
		{"Saturday 2027-04-10 to Monday", "2027-04-10", "2027-04-12"},
		{"Sunday 2026-05-31 to Monday", "2026-05-31", "2026-06-01"},
		{"Saturday 2026-01-31 to Monday", "2026-01-31", "2026-02-02"},
		{"Saturday 2025-05-31 to Monday", "2025-05-31", "2025-06-02"},
		{"Saturday 17 May 2031 to Monday", "2031-05-17", "2031-05-19"},
		{"Christmas Eve 2025 is a working day", "2025-12-24", "2025-12-24"},
		{"New Year's Eve 2026 is a working day", "2026-12-31", "2026-12-31"},
		{"Saturday 2028-01-01 to Monday", "2028-01-01", "2028-01-03"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := rollForwardNorway(d(t, tt.in)); got != d(t, tt.want) {
				t.Errorf("rollForwardNorway(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestAddMonthsUK checks the Companies Act 2006 s.443 month arithmetic.
func TestAddMonthsUK(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		n     int
		want  string
		basis string
	}{
		{"6 months from 30 June is 31 December", "2025-06-30", 6, "2025-12-31", "s.443 Explanatory Notes para 689"},
		{"9 months from 2023-01-31", "2023-01-31", 9, "2023-10-31", "fixture 14 Lawn Road"},
		{"6 months from 2026-12-31", "2026-12-31", 6, "2027-06-30", "fixture Lloyds plc"},
		{"9 months from 2024-03-31", "2024-03-31", 9, "2024-12-31", "fixture Candour"},
		{"9 months from the first anniversary 2020-10-24", "2020-10-24", 9, "2021-07-24", "fixture 12279804"},
		{"9 months from the first anniversary 2012-01-01", "2012-01-01", 9, "2012-10-01", "CH guidance example"},
		{"no corresponding day: 30 May + 9 is end of February", "2020-05-30", 9, "2021-02-28", "s.443(4)"},
		{"month end of February: 2021-02-28 + 1 is 31 March", "2021-02-28", 1, "2021-03-31", "s.443(3)"},
		{"leap-year end: 2023-08-31 + 6 is 2024-02-29", "2023-08-31", 6, "2024-02-29", "s.443(3)"},
		{"mid-month: 2025-03-15 + 9", "2025-03-15", 9, "2025-12-15", "s.443(2)"},
		{"12 months from month end across a leap year", "2024-02-29", 12, "2025-02-28", "s.443(3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := addMonthsUK(d(t, tt.in), tt.n); got != d(t, tt.want) {
				t.Errorf("addMonthsUK(%s, %d) = %s, want %s (%s)", tt.in, tt.n, got, tt.want, tt.basis)
			}
		})
	}
}

// TestNorwegianHolidaysExported checks the exported list against the
// research table's names and dates for 2027 (the year of the coincidence),
// that it is sorted, and that each call returns a fresh slice.
func TestNorwegianHolidaysExported(t *testing.T) {
	t.Parallel()
	var want []Holiday
	for _, r := range readHolidayTable(t, "holidays-2024-2028.md") {
		if r.date.Year == 2027 {
			want = append(want, Holiday{Date: r.date, Name: r.name})
		}
	}
	got := NorwegianHolidays(2027)
	if len(got) != 12 {
		t.Fatalf("%d holidays, want 12", len(got))
	}
	for i := range got {
		if got[i].Date != want[i].Date {
			t.Errorf("holiday %d: %s, table %s", i, got[i].Date, want[i].Date)
		}
		if i > 0 && got[i].Date.Before(got[i-1].Date) {
			t.Errorf("not sorted at %d", i)
		}
		if got[i].Name == "" || got[i].EnglishName == "" {
			t.Errorf("holiday %d has no name: %+v", i, got[i])
		}
	}
	got[0].Name = "changed"
	if NorwegianHolidays(2027)[0].Name == "changed" {
		t.Error("NorwegianHolidays shares its result between calls")
	}
	if NorwegianWorkingDay(d(t, "2027-05-17")) || !NorwegianWorkingDay(d(t, "2027-12-31")) || NorwegianWorkingDay(d(t, "2027-07-31")) {
		t.Error("NorwegianWorkingDay disagrees with the calendar for 17 May, 31 December or Saturday 31 July 2027")
	}
}
