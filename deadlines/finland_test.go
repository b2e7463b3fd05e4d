package deadlines_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/google/go-cmp/cmp"
)

// fiOyDuties is the profile of a private limited company (Oy) in the
// employer register, as the Finnish module's table gives it.
func fiOyDuties() *deadlines.FinlandDuties {
	always := deadlines.KindDuty{Duty: deadlines.DutyYes}
	return &deadlines.FinlandDuties{
		Label:               "private limited company (Oy)",
		GeneralMeeting:      always,
		FinancialStatements: always,
		TaxReturn:           always,
		Employer:            true,
	}
}

// fiOy is an active calendar-year Oy in the VAT register.
func fiOy() *registry.CompanyReport {
	rep := countrykit.NewReport("FI", "prh", "23365096", "Esimerkki Oy")
	rep.LegalFormCode = countrykit.Ptr("16")
	rep.Status = registry.StatusActive
	rep.VATRegistered = countrykit.Ptr(true)
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2010, 5, 14))
	return rep
}

func mustDate(t *testing.T, s string) registry.Date {
	t.Helper()
	tm, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatalf("date %q: %v", s, err)
	}
	return registry.NewDate(tm.Year(), tm.Month(), tm.Day())
}

// fiHolidaysFromIndependentList reads the date-holidays list (testdata
// SOURCES), without New Year's Eve, which § 5 of 150/1930 does not name.
func fiHolidaysFromIndependentList(t *testing.T) map[registry.Date]string {
	t.Helper()
	f, err := os.Open("testdata/finland_holidays_date-holidays_2025-2031.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[registry.Date]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if cols[2] == "Uudenvuodenaatto" {
			continue
		}
		out[mustDate(t, cols[0])] = cols[2]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFinnishHolidaysDayByDay compares every day of 2025–2031 with the
// independent list: a day is a business day exactly when it is a weekday
// and not in the list, and FinnishHolidays gives exactly the list's days.
func TestFinnishHolidaysDayByDay(t *testing.T) {
	t.Parallel()
	want := fiHolidaysFromIndependentList(t)
	if len(want) != 15*7 {
		t.Fatalf("independent list has %d days, want 105", len(want))
	}
	for d := registry.NewDate(2025, 1, 1); d.Year <= 2031; d = d.AddDays(1) {
		_, holiday := want[d]
		w := d.Weekday()
		wantBusiness := !holiday && w != time.Saturday && w != time.Sunday
		if got := deadlines.FinnishBusinessDay(d); got != wantBusiness {
			t.Errorf("FinnishBusinessDay(%s, %s) = %t, want %t (%s)", d, w, got, wantBusiness, want[d])
		}
	}
	for y := 2025; y <= 2031; y++ {
		var got []string
		for _, h := range deadlines.FinnishHolidays(y) {
			got = append(got, h.Date.String())
		}
		var wantDays []string
		for d := range want {
			if d.Year == y {
				wantDays = append(wantDays, d.String())
			}
		}
		if diff := cmp.Diff(len(wantDays), len(got)); diff != "" {
			t.Errorf("%d: holiday count (-want +got):\n%s", y, diff)
		}
		for _, s := range got {
			if _, ok := want[mustDate(t, s)]; !ok {
				t.Errorf("%d: FinnishHolidays gives %s, not in the independent list", y, s)
			}
		}
	}
}

// The Saturday and Friday rules hold for every year 1900–2199: Midsummer
// Eve is the Friday 19–25 June before Midsummer Day, the Saturday 20–26
// June; All Saints' Day is the Saturday from 31 October to 6 November;
// the list is sorted and has fifteen days.
func TestFinnishHolidaysShape(t *testing.T) {
	t.Parallel()
	for y := 1900; y < 2200; y++ {
		hs := deadlines.FinnishHolidays(y)
		if len(hs) != 15 {
			t.Fatalf("%d: %d holidays", y, len(hs))
		}
		byName := map[string]registry.Date{}
		for i, h := range hs {
			byName[h.EnglishName] = h.Date
			if i > 0 && hs[i-1].Date.After(h.Date) {
				t.Errorf("%d: not sorted at %s", y, h.Date)
			}
			if deadlines.FinnishBusinessDay(h.Date) {
				t.Errorf("%d: %s (%s) is a business day", y, h.Date, h.EnglishName)
			}
		}
		eve, day, saints := byName["Midsummer Eve"], byName["Midsummer Day"], byName["All Saints' Day"]
		if day.Weekday() != time.Saturday || day.Month != time.June || day.Day < 20 || day.Day > 26 || eve.AddDays(1) != day {
			t.Errorf("%d: Midsummer Eve %s, Day %s", y, eve, day)
		}
		start := registry.NewDate(y, time.October, 31)
		if saints.Weekday() != time.Saturday || saints.Before(start) || saints.After(start.AddDays(6)) {
			t.Errorf("%d: All Saints' Day %s", y, saints)
		}
		if nye := registry.NewDate(y, time.December, 31); w(nye) && !deadlines.FinnishBusinessDay(nye) {
			t.Errorf("%d: New Year's Eve %s is not a business day", y, nye)
		}
	}
}

// w reports whether d is Monday to Friday.
func w(d registry.Date) bool { return d.Weekday() != time.Saturday && d.Weekday() != time.Sunday }

// workedRow is one row of the research note's worked table.
type workedRow struct {
	Kind, Period      string
	Statutory, DueDay string
	Rolled            bool
}

// TestFinlandWorkedTable reproduces the research note's worked table for a
// calendar-year Oy in the VAT and employer registers, 2026–2027, exactly:
// for each kind, the occurrences found by asking again the day after each
// due date, from 1 January 2026 to the end of 2027.
func TestFinlandWorkedTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/finland_worked_2026-2027.md")
	if err != nil {
		t.Fatal(err)
	}
	var want []workedRow
	for _, line := range strings.Split(string(b), "\n") {
		cols := strings.Split(line, "|")
		if len(cols) != 6 || strings.HasPrefix(line, "|---") || strings.Contains(cols[3], "statutory") {
			continue
		}
		kind := strings.Fields(cols[1])[0]
		period := strings.TrimSpace(cols[2])
		period = strings.TrimPrefix(strings.TrimPrefix(period, "wages paid "), "FY ")
		due := strings.TrimSpace(cols[4])
		want = append(want, workedRow{Kind: kind, Period: period, Statutory: strings.TrimSpace(cols[3]),
			DueDay: strings.Fields(due)[0], Rolled: strings.Contains(due, "rolled")})
	}
	if len(want) != 54 {
		t.Fatalf("parsed %d rows of the worked table, want 54", len(want))
	}
	rep, duties := fiOy(), fiOyDuties()
	end := registry.NewDate(2027, 12, 31)
	var got []workedRow
	for _, kind := range []registry.DeadlineKind{deadlines.EmployerContributions, deadlines.VATReturn, deadlines.TaxReturn,
		deadlines.GeneralMeeting, deadlines.FinancialStatements} {
		for today := registry.NewDate(2026, 1, 1); ; {
			dl, ok := findKind(deadlines.Finland(rep, duties, today), kind)
			if !ok {
				t.Fatalf("%s: no deadline on %s", kind, today)
			}
			if dl.DueDate.After(end) {
				break
			}
			period := dl.PeriodStart.String()[:7]
			if dl.Recurrence == registry.RecurrenceAnnual {
				period = strconv.Itoa(dl.PeriodStart.Year)
			}
			got = append(got, workedRow{Kind: string(kind), Period: period, Statutory: dl.StatutoryDate.String(),
				DueDay: dl.DueDate.String(), Rolled: dl.RolledForward})
			today = dl.DueDate.AddDays(1)
		}
	}
	key := func(r workedRow) string { return r.DueDay + r.Kind }
	sortRows := func(rs []workedRow) {
		for i := range rs {
			for j := i + 1; j < len(rs); j++ {
				if key(rs[j]) < key(rs[i]) {
					rs[i], rs[j] = rs[j], rs[i]
				}
			}
		}
	}
	sortRows(want)
	sortRows(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("worked table mismatch (-want research note +got):\n%s", diff)
	}
}

func findKind(out *registry.DeadlineReport, kind registry.DeadlineKind) (registry.Deadline, bool) {
	for _, d := range out.Deadlines {
		if d.Kind == kind {
			return d, true
		}
	}
	return registry.Deadline{}, false
}

// TestFinlandLawTable checks every kind due in 2025–2031 against the rule
// as the source states it, with the
// roll-forward taken from the independent holiday list, not from this
// package's calendar.
func TestFinlandLawTable(t *testing.T) {
	t.Parallel()
	hol := fiHolidaysFromIndependentList(t)
	rollIndep := func(d registry.Date) registry.Date {
		for {
			_, h := hol[d]
			if !h && w(d) {
				return d
			}
			d = d.AddDays(1)
		}
	}
	rules := []struct {
		kind   registry.DeadlineKind
		source string
		// statutory gives the statutory date of the period starting in
		// year y and month m (m is January for annual kinds).
		statutory func(y int, m time.Month) registry.Date
		monthly   bool
		rolls     bool
	}{
		{deadlines.VATReturn, "vero.fi When to file and pay: the 12th of the second month after the month", func(y int, m time.Month) registry.Date {
			return registry.NewDate(y, m+2, 12)
		}, true, true},
		{deadlines.EmployerContributions, "vero.fi Ilmoittamisen ja maksamisen määräpäivät: by the 12th of the month after the wage payment", func(y int, m time.Month) registry.Date {
			return registry.NewDate(y, m+1, 12)
		}, true, true},
		{deadlines.TaxReturn, "vero.fi Important dates for corporate taxpayers: four months after the end of the last calendar month", func(y int, _ time.Month) registry.Date {
			return registry.NewDate(y, time.December+5, 0) // day 0 of May y+1: the last day of the 4th month after December
		}, false, true},
		{deadlines.GeneralMeeting, "osakeyhtiölaki 5:3: within six months of the end of the financial year", func(y int, _ time.Month) registry.Date {
			return registry.NewDate(y+1, time.June, 30)
		}, false, false},
		{deadlines.FinancialStatements, "PRH: free within eight months of the end of the financial year", func(y int, _ time.Month) registry.Date {
			return registry.NewDate(y+1, time.August, 31)
		}, false, false},
	}
	rep, duties := fiOy(), fiOyDuties()
	for _, r := range rules {
		t.Run(string(r.kind), func(t *testing.T) {
			t.Parallel()
			n := 0
			for y := 2024; y <= 2030; y++ {
				months := []time.Month{time.January}
				if r.monthly {
					months = months[:0]
					for m := time.January; m <= time.December; m++ {
						months = append(months, m)
					}
				}
				for _, m := range months {
					stat := r.statutory(y, m)
					due := stat
					if r.rolls {
						due = rollIndep(stat)
					}
					if due.Year < 2025 || due.Year > 2031 {
						continue
					}
					// Asked on the due date itself, the deadline is this
					// period's, with days_until 0.
					dl, ok := findKind(deadlines.Finland(rep, duties, due), r.kind)
					if !ok {
						t.Fatalf("no %s on %s", r.kind, due)
					}
					got := fmt.Sprintf("%s %s %s %t %d", dl.PeriodStart, dl.StatutoryDate, dl.DueDate, dl.RolledForward, *dl.DaysUntil)
					wantS := fmt.Sprintf("%s %s %s %t %d", registry.NewDate(y, m, 1), stat, due, due != stat, 0)
					if got != wantS {
						t.Errorf("%s (%s), period %d-%02d: got %s, want %s", r.kind, r.source, y, m, got, wantS)
					}
					n++
				}
			}
			if n == 0 {
				t.Fatal("no period checked")
			}
		})
	}
}

// TestFinlandWhoGetsWhat: the stops and the register-driven duties.
func TestFinlandWhoGetsWhat(t *testing.T) {
	t.Parallel()
	today := registry.NewDate(2026, 11, 24)
	kinds := func(out *registry.DeadlineReport) []string {
		ks := []string{}
		for _, d := range out.Deadlines {
			ks = append(ks, string(d.Kind))
		}
		return ks
	}
	tests := []struct {
		name     string
		rep      func() *registry.CompanyReport
		duties   *deadlines.FinlandDuties
		want     []string
		wantNote string
	}{
		{name: "active Oy", rep: fiOy, duties: fiOyDuties(),
			want: []string{"employer_contributions", "employer_separate_report", "vat_return", "tax_return", "general_meeting", "financial_statements"}},
		{name: "bankrupt", rep: func() *registry.CompanyReport { r := fiOy(); r.Status = registry.StatusBankrupt; return r },
			duties: fiOyDuties(), want: []string{}, wantNote: "bankrupt"},
		{name: "dissolved", rep: func() *registry.CompanyReport { r := fiOy(); r.Status = registry.StatusDissolved; return r },
			duties: fiOyDuties(), want: []string{}, wantNote: "ceased"},
		{name: "in liquidation keeps its duties", rep: func() *registry.CompanyReport { r := fiOy(); r.Status = registry.StatusUnderLiquidation; return r },
			duties:   fiOyDuties(),
			want:     []string{"employer_contributions", "employer_separate_report", "vat_return", "tax_return", "general_meeting", "financial_statements"},
			wantNote: "liquidation"},
		{name: "unclassified form: register duties only", rep: fiOy, duties: nil,
			want: []string{"vat_return"}, wantNote: "not modelled"},
		{name: "unclassified form keeps the employer register", rep: fiOy, duties: &deadlines.FinlandDuties{Employer: true},
			want: []string{"vat_return", "employer_contributions", "employer_separate_report"}, wantNote: "not modelled"},
		{name: "not VAT-registered", rep: func() *registry.CompanyReport { r := fiOy(); r.VATRegistered = countrykit.Ptr(false); return r },
			duties: fiOyDuties(), want: []string{"employer_contributions", "employer_separate_report", "tax_return", "general_meeting", "financial_statements"}},
		{name: "VAT registered this month: nothing due before", rep: func() *registry.CompanyReport {
			r := fiOy()
			r.VATRegisteredAt = countrykit.Ptr(registry.NewDate(2026, 11, 3))
			return r
		}, duties: fiOyDuties(), want: []string{"employer_contributions", "employer_separate_report", "vat_return", "tax_return", "general_meeting", "financial_statements"}},
		{name: "nil report", rep: func() *registry.CompanyReport { return nil }, duties: fiOyDuties(), want: []string{}, wantNote: "No company report"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := deadlines.Finland(tc.rep(), tc.duties, today)
			got := kinds(out)
			// Compare as sets: the order is by due date.
			if diff := cmp.Diff(sortedCopy(tc.want), sortedCopy(got)); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if tc.wantNote != "" && !strings.Contains(strings.Join(out.Notes, " "), tc.wantNote) {
				t.Errorf("no note containing %q in %q", tc.wantNote, out.Notes)
			}
			if !strings.Contains(strings.Join(out.Notes, " "), "calendar year") {
				t.Errorf("no calendar-year note in %q", out.Notes)
			}
		})
	}
}

func sortedCopy(s []string) []string {
	c := append([]string{}, s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

// TestFinlandStartDates: no VAT month before the VAT registration, no wage
// month before the employer registration, no financial year before the
// founding.
func TestFinlandStartDates(t *testing.T) {
	t.Parallel()
	rep := fiOy()
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2026, 9, 15))
	rep.VATRegisteredAt = countrykit.Ptr(registry.NewDate(2026, 10, 1))
	duties := fiOyDuties()
	duties.EmployerSince = countrykit.Ptr(registry.NewDate(2026, 11, 20))
	out := deadlines.Finland(rep, duties, registry.NewDate(2026, 11, 24))
	got := map[string]string{}
	for _, d := range out.Deadlines {
		got[string(d.Kind)] = d.PeriodStart.String() + " " + d.DueDate.String()
	}
	want := map[string]string{
		"vat_return":             "2026-10-01 2026-12-14", // October, due 12 December 2026 (a Saturday)
		"employer_contributions": "2026-11-01 2026-12-14", // wages of November, due 12 December (a Saturday)
		// November's report to the Incomes Register, due 5 December 2026 (a
		// Saturday), moved to Monday 7 December.
		"employer_separate_report": "2026-11-01 2026-12-07",
		"tax_return":               "2026-01-01 2027-04-30",
		"general_meeting":          "2026-01-01 2027-06-30",
		"financial_statements":     "2026-01-01 2027-08-31",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(out.Notes, " "), "founded on 2026-09-15") {
		t.Errorf("no first-year note in %q", out.Notes)
	}
}

// A fixed date on a non-business day gets a note and does not move: 30
// June 2029 is a Saturday (general meeting), 31 August 2030 a Saturday
// (financial statements).
func TestFinlandFixedDatesDoNotMove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		today registry.Date
		kind  registry.DeadlineKind
		stat  registry.Date
	}{
		{registry.NewDate(2029, 6, 1), deadlines.GeneralMeeting, registry.NewDate(2029, 6, 30)},
		{registry.NewDate(2030, 8, 1), deadlines.FinancialStatements, registry.NewDate(2030, 8, 31)},
	} {
		out := deadlines.Finland(fiOy(), fiOyDuties(), tc.today)
		dl, ok := findKind(out, tc.kind)
		if !ok || dl.DueDate != tc.stat || dl.RolledForward {
			t.Errorf("%s: %+v, want due %s, not rolled", tc.kind, dl, tc.stat)
		}
		if !strings.Contains(strings.Join(out.Notes, " "), string(tc.kind)+": "+tc.stat.String()+" is a Saturday") {
			t.Errorf("%s: no weekend note in %q", tc.kind, out.Notes)
		}
	}
}

// TestFinlandProperties draws random reports and days: the report always
// encodes, kinds are unique and sorted by due date then kind, days_until is
// the distance from today, no due date is before today, a rolling kind is
// never due on a non-business day and a fixed kind is due on its statutory
// date.
func TestFinlandProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 2026))
	statuses := []registry.Status{registry.StatusActive, registry.StatusActive, registry.StatusUnderLiquidation,
		registry.StatusBankrupt, registry.StatusDissolved, registry.StatusUnknown, ""}
	for range 5000 {
		today := registry.NewDate(1990, 1, 1).AddDays(rng.IntN(60 * 365))
		rep := fiOy()
		rep.Status = statuses[rng.IntN(len(statuses))]
		rep.VATRegistered = countrykit.Ptr(rng.IntN(2) == 0)
		rep.FoundedAt = countrykit.Ptr(today.AddDays(rng.IntN(4000) - 3000))
		if rng.IntN(3) == 0 {
			rep.VATRegisteredAt = countrykit.Ptr(today.AddDays(rng.IntN(800) - 400))
		}
		var duties *deadlines.FinlandDuties
		if rng.IntN(4) != 0 {
			duties = fiOyDuties()
			duties.Employer = rng.IntN(2) == 0
			if rng.IntN(2) == 0 {
				duties.TaxReturn.Duty = deadlines.DutyConditional
			}
			if rng.IntN(3) == 0 {
				duties.EmployerSince = countrykit.Ptr(today.AddDays(rng.IntN(800) - 400))
			}
		}
		checkFinland(t, rep, duties, today)
	}
}

// checkFinland computes the deadlines of rep and asserts the properties
// every Finnish report has.
func checkFinland(t *testing.T, rep *registry.CompanyReport, duties *deadlines.FinlandDuties, today registry.Date) {
	t.Helper()
	rolling := map[registry.DeadlineKind]bool{deadlines.VATReturn: true, deadlines.EmployerContributions: true, deadlines.TaxReturn: true,
		deadlines.EmployerSeparateReport: true}
	out := deadlines.Finland(rep, duties, today)
	if out == nil || out.Deadlines == nil || out.Notes == nil {
		t.Fatalf("nil report or lists")
	}
	seen := map[registry.DeadlineKind]bool{}
	for i, dl := range out.Deadlines {
		if seen[dl.Kind] {
			t.Fatalf("%s: kind %s twice", today, dl.Kind)
		}
		seen[dl.Kind] = true
		if i > 0 {
			prev := out.Deadlines[i-1]
			if c := prev.DueDate.Compare(dl.DueDate); c > 0 || (c == 0 && prev.Kind >= dl.Kind) {
				t.Fatalf("%s: not sorted: %s %s before %s %s", today, prev.Kind, prev.DueDate, dl.Kind, dl.DueDate)
			}
		}
		if dl.DaysUntil == nil || *dl.DaysUntil != dl.DueDate.DaysSince(today) || *dl.DaysUntil < 0 {
			t.Fatalf("%s: %s days_until %v, due %s", today, dl.Kind, dl.DaysUntil, dl.DueDate)
		}
		if rolling[dl.Kind] {
			if !deadlines.FinnishBusinessDay(dl.DueDate) || dl.DueDate.Before(dl.StatutoryDate) || dl.RolledForward != (dl.DueDate != dl.StatutoryDate) {
				t.Fatalf("%s: %s statutory %s due %s rolled %t", today, dl.Kind, dl.StatutoryDate, dl.DueDate, dl.RolledForward)
			}
		} else if dl.DueDate != dl.StatutoryDate || dl.RolledForward {
			t.Fatalf("%s: fixed %s moved from %s to %s", today, dl.Kind, dl.StatutoryDate, dl.DueDate)
		}
		if dl.PeriodEnd == nil || !dl.PeriodEnd.Before(dl.StatutoryDate) || dl.AppliesBecause == "" || dl.SourceURL == nil {
			t.Fatalf("%s: %+v", today, dl)
		}
	}
	switch rep.Status {
	case registry.StatusBankrupt, registry.StatusDissolved:
		if len(out.Deadlines) != 0 {
			t.Fatalf("%s: %s company has deadlines", today, rep.Status)
		}
	}
	if len(out.Deadlines) == 0 && len(out.Notes) == 0 {
		t.Fatal("empty list without a note")
	}
}

// FuzzFinland feeds arbitrary days, statuses, flags and start dates, up to
// the years ±9999 a report can carry and a little beyond, to Finland: it
// never panics and keeps the properties of TestFinlandProperties.
func FuzzFinland(f *testing.F) {
	f.Add(uint8(0b1111), uint8(0), int32(20000), int32(15000), int32(20100), int32(20200))
	f.Add(uint8(0b0001), uint8(2), int32(-719468), int32(0), int32(0), int32(0))
	f.Add(uint8(0b1110), uint8(5), int32(2932896), int32(2932896), int32(-5), int32(0x7fffffff))
	statuses := []registry.Status{registry.StatusActive, registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation,
		registry.StatusBankrupt, registry.StatusDissolved, registry.StatusDeleted, registry.StatusUnknown, ""}
	epoch := registry.NewDate(1970, 1, 1)
	f.Fuzz(func(t *testing.T, flags, status uint8, today, founded, vatAt, employerAt int32) {
		clamp := func(n int32) int { return int(n)%4_000_000 - 719_468 }
		day := epoch.AddDays(clamp(today))
		rep := fiOy()
		rep.Status = statuses[int(status)%len(statuses)]
		rep.VATRegistered = countrykit.Ptr(flags&1 != 0)
		rep.FoundedAt = nil
		if flags&2 != 0 {
			rep.FoundedAt = countrykit.Ptr(epoch.AddDays(clamp(founded)))
		}
		if flags&4 != 0 {
			rep.VATRegisteredAt = countrykit.Ptr(epoch.AddDays(clamp(vatAt)))
		}
		var duties *deadlines.FinlandDuties
		if flags&8 != 0 {
			duties = fiOyDuties()
			duties.Employer = flags&16 != 0
			if flags&32 != 0 {
				duties.EmployerSince = countrykit.Ptr(epoch.AddDays(clamp(employerAt)))
			}
		}
		checkFinland(t, rep, duties, day)
	})
}
