package deadlines_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// dkApSDuties is the profile of a calendar-year private limited company
// (ApS) as the Danish module's table gives it, with every optional kind.
func dkApSDuties() *deadlines.DenmarkDuties {
	yes := deadlines.KindDuty{Duty: deadlines.DutyYes}
	maybe := deadlines.KindDuty{Duty: deadlines.DutyConditional}
	return &deadlines.DenmarkDuties{
		Code: "80", Label: "private limited company (ApS)",
		AnnualReport: yes, GeneralMeeting: yes, TaxReturn: yes,
		TaxPrepayment: maybe, TaxBalance: maybe, VAT: maybe, Employer: maybe,
		YearEndMonth: time.December, YearEndDay: 31,
	}
}

// dkApS is an active ApS founded in 2015, well past its first 18 months.
func dkApS() *registry.CompanyReport {
	rep := countrykit.NewReport("DK", "cvr", "41774037", "Eksempel ApS")
	rep.LegalFormCode = countrykit.Ptr("80")
	rep.Status = registry.StatusActive
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2015, 3, 2))
	return rep
}

func dkDate(t testing.TB, s string) registry.Date {
	t.Helper()
	tm, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatalf("date %q: %v", s, err)
	}
	return registry.NewDate(tm.Year(), tm.Month(), tm.Day())
}

// dkNonBusinessDays reads the research note's table of Danish
// non-business days other than weekends, 2025–2031 (testdata SOURCES):
// the holidays (helligdage) and the bank closing days (banklukkedage).
func dkNonBusinessDays(t testing.TB) (holidays, bankClosed map[registry.Date]string) {
	t.Helper()
	f, err := os.Open("testdata/denmark_non_business_days_2025-2031.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	holidays, bankClosed = map[registry.Date]string{}, map[registry.Date]string{}
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if line == 0 {
			continue
		}
		if len(cols) != 4 {
			t.Fatalf("malformed row %q", sc.Text())
		}
		d := dkDate(t, cols[0])
		if d.Weekday().String()[:3] != cols[3] {
			t.Fatalf("%s is a %s, the table says %s", d, d.Weekday(), cols[3])
		}
		switch cols[2] {
		case "helligdag":
			holidays[d] = cols[1]
		case "banklukkedag":
			bankClosed[d] = cols[1]
		default:
			t.Fatalf("unknown kind %q", cols[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return holidays, bankClosed
}

// TestDanishCalendarDayByDay compares every day of 2025–2031 with the
// research note's table: a day is a business day exactly when it is a
// weekday and not a holiday, a bank day when it is also not a bank closing
// day, and DanishHolidays and DanishBankClosingDays give exactly the
// table's days.
func TestDanishCalendarDayByDay(t *testing.T) {
	t.Parallel()
	holidays, bankClosed := dkNonBusinessDays(t)
	if len(holidays) != 70 || len(bankClosed) != 28 {
		t.Fatalf("table has %d holidays and %d bank closing days, want 70 and 28", len(holidays), len(bankClosed))
	}
	for d := registry.NewDate(2025, 1, 1); d.Year <= 2031; d = d.AddDays(1) {
		_, holiday := holidays[d]
		_, closed := bankClosed[d]
		weekday := d.Weekday() != time.Saturday && d.Weekday() != time.Sunday
		if got, want := deadlines.DanishBusinessDay(d), weekday && !holiday; got != want {
			t.Errorf("DanishBusinessDay(%s, %s) = %t, want %t", d, d.Weekday(), got, want)
		}
		if got, want := deadlines.DanishBankDay(d), weekday && !holiday && !closed; got != want {
			t.Errorf("DanishBankDay(%s, %s) = %t, want %t", d, d.Weekday(), got, want)
		}
	}
	for y := 2025; y <= 2031; y++ {
		for name, tt := range map[string]struct {
			got  []deadlines.Holiday
			want map[registry.Date]string
		}{"holidays": {deadlines.DanishHolidays(y), holidays}, "bank closing days": {deadlines.DanishBankClosingDays(y), bankClosed}} {
			var got, want []string
			for _, h := range tt.got {
				got = append(got, h.Date.String())
				if h.Name == "" || h.EnglishName == "" {
					t.Errorf("%d %s: %+v has no name", y, name, h)
				}
			}
			for d := range tt.want {
				if d.Year == y {
					want = append(want, d.String())
				}
			}
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%d %s (-table +got):\n%s", y, name, diff)
			}
		}
	}
}

// Store Bededag, the fourth Friday after Easter, was a holiday until 2023:
// the act abolishing it applies from 1 January 2024 (dk-deadlines.md).
func TestDanishStoreBededag(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		day     registry.Date
		holiday bool
	}{
		{registry.NewDate(2023, 5, 5), true},
		{registry.NewDate(2022, 5, 13), true},
		{registry.NewDate(2024, 4, 26), false},
		{registry.NewDate(2025, 5, 16), false},
	} {
		if got := deadlines.DanishBusinessDay(tt.day); got == tt.holiday {
			t.Errorf("DanishBusinessDay(%s) = %t, want %t", tt.day, got, !tt.holiday)
		}
	}
	if n := len(deadlines.DanishHolidays(2023)); n != 11 {
		t.Errorf("2023 has %d holidays, want 11 (with Store Bededag)", n)
	}
	if n := len(deadlines.DanishHolidays(2024)); n != 10 {
		t.Errorf("2024 has %d holidays, want 10", n)
	}
}

// dkRow is one row of a worked table: a kind, its period, the statutory
// and the due date.
type dkRow struct {
	Kind, Period, Statutory, Due string
}

// dkPeriodKey names a deadline's period the way the research note's
// tables do: the pay or VAT month, the half-year or quarter, the income
// year with the acontoskat instalment, or the financial year.
func dkPeriodKey(d registry.Deadline) string {
	switch {
	case d.Kind == deadlines.TaxPrepayment:
		return fmt.Sprintf("%d #%d", d.PeriodStart.Year, map[time.Month]int{time.March: 1, time.November: 2}[d.StatutoryDate.Month])
	case d.Recurrence == registry.RecurrenceMonthly:
		return d.PeriodStart.String()[:7]
	case d.Recurrence == registry.RecurrenceSemiannual:
		return fmt.Sprintf("%d-H%d", d.PeriodStart.Year, int(d.PeriodStart.Month-1)/6+1)
	case d.Recurrence == registry.RecurrenceQuarterly:
		return fmt.Sprintf("%d-Q%d", d.PeriodStart.Year, int(d.PeriodStart.Month-1)/3+1)
	}
	return strconv.Itoa(d.PeriodEnd.Year)
}

// dkSweep collects, for each kind, the occurrences the engine lists from
// `from` to `to`, asking again the day after each due date.
func dkSweep(t *testing.T, rep *registry.CompanyReport, duties *deadlines.DenmarkDuties, from, to registry.Date,
	kinds ...registry.DeadlineKind) []dkRow {
	t.Helper()
	var rows []dkRow
	for _, kind := range kinds {
		for today := from; ; {
			d, ok := findKind(deadlines.Denmark(rep, duties, today), kind)
			if !ok {
				t.Fatalf("%s: no deadline on %s", kind, today)
			}
			if d.DueDate.After(to) {
				break
			}
			rows = append(rows, dkRow{string(kind), dkPeriodKey(d), d.StatutoryDate.String(), d.DueDate.String()})
			today = d.DueDate.AddDays(1)
		}
	}
	dkSortRows(rows)
	return rows
}

func dkSortRows(rows []dkRow) {
	slices.SortFunc(rows, func(a, b dkRow) int {
		return strings.Compare(a.Due+a.Kind+a.Period, b.Due+b.Kind+b.Period)
	})
}

var dkDateRe = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// dkWorkedFile returns the lines of the research note's worked tables.
func dkWorkedFile(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/denmark_worked_2026-2027.md")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// TestDenmarkWorkedTable reproduces every row of the research note's
// worked table for a calendar-year ApS, VAT-registered (half-yearly) and a
// small employer, 2026–2027 (dk-deadlines.md; statutory dates from ÅRL §
// 138, selskabsloven § 88, skattekontrolloven §§ 12–13, SEL §§ 29 A and
// 30, momsloven § 57 stk. 4 and the A-skat guidance, moved over weekends
// and helligdage).
func TestDenmarkWorkedTable(t *testing.T) {
	t.Parallel()
	var want []dkRow
	for _, line := range dkWorkedFile(t) {
		cols := strings.Split(line, "|")
		if len(cols) != 6 || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| kind") {
			continue
		}
		kind := strings.Fields(cols[1])[0]
		period := strings.TrimSpace(cols[2])
		period = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(period, "pay "), "FY "), "income year ")
		if kind == "tax_prepayment" {
			period += " #" + strings.TrimSuffix(strings.Fields(cols[1])[2], ")")
		}
		stat, due := dkDateRe.FindString(cols[3]), dkDateRe.FindString(cols[4])
		if stat == "" || due == "" {
			t.Fatalf("unparsed row %q", line)
		}
		if rolled := strings.Contains(cols[4], "rolled"); rolled != (stat != due) {
			t.Fatalf("row %q: rolled mark disagrees with its dates", line)
		}
		want = append(want, dkRow{kind, period, stat, due})
	}
	if len(want) != 40 {
		t.Fatalf("parsed %d rows of the worked table, want 40", len(want))
	}
	dkSortRows(want)
	got := dkSweep(t, dkApS(), dkApSDuties(), registry.NewDate(2026, 1, 1), registry.NewDate(2027, 12, 31),
		deadlines.EmployerWithholding, deadlines.VATReturn, deadlines.TaxPrepayment, deadlines.TaxBalance,
		"annual_report", deadlines.GeneralMeeting, deadlines.TaxReturn)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("worked table mismatch (-research note +got):\n%s", diff)
	}
}

// TestDenmarkAlternativeVAT reproduces the research note's quarterly and
// monthly VAT schedules for the same company (momsloven § 57 stk. 3 and
// 2; June's return on 17 August).
func TestDenmarkAlternativeVAT(t *testing.T) {
	t.Parallel()
	var quarterly, monthly []dkRow
	parse := func(s string) (string, string) {
		ds := dkDateRe.FindAllString(s, -1)
		switch len(ds) {
		case 1:
			return ds[0], ds[0]
		case 2:
			return ds[0], ds[1]
		}
		t.Fatalf("unparsed cell %q", s)
		return "", ""
	}
	for _, line := range dkWorkedFile(t) {
		cols := strings.Split(line, "|")
		if len(cols) != 7 || !dkDateRe.MatchString(line) {
			continue
		}
		if q := strings.TrimSpace(cols[1]); q != "" {
			stat, due := parse(cols[2])
			quarterly = append(quarterly, dkRow{"vat_return", q, stat, due})
		}
		if m := strings.TrimSpace(cols[4]); m != "" {
			stat, due := parse(cols[5])
			monthly = append(monthly, dkRow{"vat_return", m, stat, due})
		}
	}
	if len(quarterly) != 8 || len(monthly) != 24 {
		t.Fatalf("parsed %d quarterly and %d monthly rows, want 8 and 24", len(quarterly), len(monthly))
	}
	for _, tt := range []struct {
		period deadlines.DanishVATPeriod
		want   []dkRow
	}{{deadlines.DanishVATQuarterly, quarterly}, {deadlines.DanishVATMonthly, monthly}} {
		duties := dkApSDuties()
		duties.VATPeriod = tt.period
		dkSortRows(tt.want)
		got := dkSweep(t, dkApS(), duties, registry.NewDate(2026, 1, 1), registry.NewDate(2027, 12, 31), deadlines.VATReturn)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("VAT period %d (-research note +got):\n%s", tt.period, diff)
		}
	}
}

// TestDenmarkLargeEmployer reproduces the research note's dates for a
// large employer: the last bank day of the pay month, skipping weekends,
// helligdage and banklukkedage backwards (JV A.B.4.1.1.3.2); 31 December
// is a bank closing day in both years.
func TestDenmarkLargeEmployer(t *testing.T) {
	t.Parallel()
	var want []dkRow
	re := regexp.MustCompile(`^(\d{4}): (.*?)[;]?$`)
	for _, line := range dkWorkedFile(t) {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for i, day := range strings.Split(m[2], ", ") {
			tm, err := time.Parse("2 Jan 2006", strings.Trim(day, "*")+" "+m[1])
			if err != nil {
				t.Fatalf("%q: %v", day, err)
			}
			d := tm.Format(time.DateOnly)
			want = append(want, dkRow{"employer_withholding", fmt.Sprintf("%s-%02d", m[1], i+1), d, d})
		}
	}
	if len(want) != 24 {
		t.Fatalf("parsed %d large-employer dates, want 24", len(want))
	}
	duties := dkApSDuties()
	duties.LargeEmployer = true
	dkSortRows(want)
	got := dkSweep(t, dkApS(), duties, registry.NewDate(2026, 1, 1), registry.NewDate(2027, 12, 31), deadlines.EmployerWithholding)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("large employer (-research note +got):\n%s", diff)
	}
}

// TestDenmarkFinancialYear checks the annual kinds of companies whose
// financial year is not the calendar year, with the research note's
// examples: a year ending 30 June 2026 gives the annual report on 31
// December 2026 (not moved) and the tax return on 31 December, which
// skattekontrolloven § 13 moves to Monday 4 January 2027 (1 January is a
// holiday, 2–3 January a weekend); a year ending 31 March 2026 gives the
// tax return on 1 September 2026 (§ 12 stk. 2) and the annual report on 30
// September 2026. The first financial period comes first: ApS 41774037's
// ran from 18 October 2020 to 31 December 2021, so its first annual report
// was due on 30 June 2022.
func TestDenmarkFinancialYear(t *testing.T) {
	t.Parallel()
	type row struct {
		Kind, PeriodStart, PeriodEnd, Statutory, Due string
	}
	for _, tt := range []struct {
		name       string
		month      time.Month
		day        int
		first      [2]string
		today      string
		want       []row
		notePhrase string
	}{
		{name: "30 June", month: time.June, day: 30, today: "2026-07-01", want: []row{
			{"annual_report", "2025-07-01", "2026-06-30", "2026-12-31", "2026-12-31"},
			{"general_meeting", "2025-07-01", "2026-06-30", "2026-12-31", "2026-12-31"},
			{"tax_return", "2025-07-01", "2026-06-30", "2026-12-31", "2027-01-04"},
		}, notePhrase: "by 09:00 on Monday 2027-01-04"},
		{name: "31 March", month: time.March, day: 31, today: "2026-04-01", want: []row{
			{"annual_report", "2025-04-01", "2026-03-31", "2026-09-30", "2026-09-30"},
			{"general_meeting", "2025-04-01", "2026-03-31", "2026-09-30", "2026-09-30"},
			{"tax_return", "2025-04-01", "2026-03-31", "2026-09-01", "2026-09-01"},
		}, notePhrase: "it ends on 31 March"},
		{name: "28 February, month end", month: time.February, day: 28, today: "2026-03-01", want: []row{
			{"annual_report", "2025-03-01", "2026-02-28", "2026-08-31", "2026-08-31"},
			{"general_meeting", "2025-03-01", "2026-02-28", "2026-08-31", "2026-08-31"},
			{"tax_return", "2025-03-01", "2026-02-28", "2026-09-01", "2026-09-01"},
		}},
		{name: "first period of 41774037", month: time.December, day: 31, first: [2]string{"2020-10-18", "2021-12-31"}, today: "2021-01-10", want: []row{
			{"annual_report", "2020-10-18", "2021-12-31", "2022-06-30", "2022-06-30"},
			{"general_meeting", "2020-10-18", "2021-12-31", "2022-06-30", "2022-06-30"},
			{"tax_return", "2020-10-18", "2021-12-31", "2022-06-30", "2022-06-30"},
		}, notePhrase: "first financial period ran from 2020-10-18 to 2021-12-31"},
		{name: "after the first period", month: time.December, day: 31, first: [2]string{"2020-10-18", "2021-12-31"}, today: "2022-07-01", want: []row{
			{"annual_report", "2022-01-01", "2022-12-31", "2023-06-30", "2023-06-30"},
			{"general_meeting", "2022-01-01", "2022-12-31", "2023-06-30", "2023-06-30"},
			// 30 June 2023 was a Friday: § 13 moves the return to Monday.
			{"tax_return", "2022-01-01", "2022-12-31", "2023-06-30", "2023-07-03"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			duties := dkApSDuties()
			duties.YearEndMonth, duties.YearEndDay = tt.month, tt.day
			duties.VAT, duties.Employer = deadlines.KindDuty{}, deadlines.KindDuty{}
			rep := dkApS()
			if tt.first[0] != "" {
				duties.FirstPeriodStart = countrykit.Ptr(dkDate(t, tt.first[0]))
				duties.FirstPeriodEnd = countrykit.Ptr(dkDate(t, tt.first[1]))
				rep.FoundedAt = duties.FirstPeriodStart
			}
			out := deadlines.Denmark(rep, duties, dkDate(t, tt.today))
			var got []row
			for _, d := range out.Deadlines {
				switch d.Kind {
				case "annual_report", deadlines.GeneralMeeting, deadlines.TaxReturn:
					got = append(got, row{string(d.Kind), d.PeriodStart.String(), d.PeriodEnd.String(), d.StatutoryDate.String(), d.DueDate.String()})
				}
			}
			slices.SortFunc(got, func(a, b row) int { return strings.Compare(a.Kind, b.Kind) })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.notePhrase != "" && !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, tt.notePhrase) }) {
				t.Errorf("no note with %q in %q", tt.notePhrase, out.Notes)
			}
			if slices.ContainsFunc(out.Deadlines, func(d registry.Deadline) bool {
				return d.Kind == deadlines.TaxPrepayment || d.Kind == deadlines.TaxBalance
			}) != (tt.month == time.December) {
				t.Error("the tax payments are computed exactly for a calendar financial year")
			}
		})
	}
}

// Without a financial year from the register, the calendar year is
// assumed and a note says so; with one, a note names it.
func TestDenmarkFinancialYearNotes(t *testing.T) {
	t.Parallel()
	duties := dkApSDuties()
	duties.YearEndMonth, duties.YearEndDay = 0, 0
	out := deadlines.Denmark(dkApS(), duties, registry.NewDate(2026, 1, 15))
	if !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, "the calendar year is assumed") }) {
		t.Errorf("no calendar-year note: %q", out.Notes)
	}
	if d, ok := findKind(out, "annual_report"); !ok || d.StatutoryDate != registry.NewDate(2026, 6, 30) {
		t.Errorf("annual report %+v", d)
	}
	out = deadlines.Denmark(dkApS(), dkApSDuties(), registry.NewDate(2026, 1, 15))
	if !slices.ContainsFunc(out.Notes, func(n string) bool {
		return strings.Contains(n, "REGNSKABSÅR_SLUT") && strings.Contains(n, "31 December")
	}) {
		t.Errorf("no financial-year note: %q", out.Notes)
	}
}

// A business in its first 18 months files VAT quarterly (skat.dk: "Er din
// virksomhed nystartet, skal du indberette moms kvartalsvis i mindst 1½
// år"); after that the half-yearly default is assumed, from the next
// half-year, so that no period is left out.
func TestDenmarkVATByAge(t *testing.T) {
	t.Parallel()
	rep := dkApS()
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2025, 9, 15))
	for _, tt := range []struct {
		today string
		rec   registry.Recurrence
		stat  string
	}{
		{"2026-01-10", registry.RecurrenceQuarterly, "2026-03-01"},  // Q4 2025
		{"2027-03-15", registry.RecurrenceQuarterly, "2027-06-01"},  // Q1 2027: 18 months end on 15 March 2027
		{"2027-06-02", registry.RecurrenceQuarterly, "2027-09-01"},  // Q2 2027, to the end of the half-year
		{"2027-09-02", registry.RecurrenceSemiannual, "2028-03-01"}, // H2 2027
	} {
		d, ok := findKind(deadlines.Denmark(rep, dkApSDuties(), dkDate(t, tt.today)), deadlines.VATReturn)
		if !ok || d.Recurrence != tt.rec || d.StatutoryDate.String() != tt.stat || d.Mandatory {
			t.Errorf("%s: %+v, want %s due %s, not mandatory", tt.today, d, tt.rec, tt.stat)
		}
	}
	// A VAT period that ended before the company was founded is skipped.
	d, _ := findKind(deadlines.Denmark(rep, dkApSDuties(), registry.NewDate(2025, 9, 20)), deadlines.VATReturn)
	if d.PeriodStart.String() != "2025-07-01" {
		t.Errorf("first VAT period %s, want Q3 2025", d.PeriodStart)
	}
}

// Who gets what: bankrupt and dissolved companies and companies under
// compulsory dissolution get nothing; voluntary liquidation keeps the
// duties; an unknown form gets nothing; a form's note is repeated; only
// DutyYes is mandatory.
func TestDenmarkWhoGetsWhat(t *testing.T) {
	t.Parallel()
	today := registry.NewDate(2026, 2, 1)
	for _, st := range []registry.Status{registry.StatusBankrupt, registry.StatusUnderCompulsoryLiquidation, registry.StatusDissolved, registry.StatusDeleted} {
		rep := dkApS()
		rep.Status = st
		if out := deadlines.Denmark(rep, dkApSDuties(), today); len(out.Deadlines) != 0 || len(out.Notes) == 0 {
			t.Errorf("%s: %d deadlines, notes %q", st, len(out.Deadlines), out.Notes)
		}
	}
	rep := dkApS()
	rep.Status = registry.StatusUnderLiquidation
	if out := deadlines.Denmark(rep, dkApSDuties(), today); len(out.Deadlines) != 7 || !strings.Contains(strings.Join(out.Notes, " "), "liquidator") {
		t.Errorf("liquidation: %d deadlines, notes %q", len(out.Deadlines), out.Notes)
	}
	for _, duties := range []*deadlines.DenmarkDuties{nil, {Code: "210", Note: "A foreign form."}} {
		out := deadlines.Denmark(dkApS(), duties, today)
		if len(out.Deadlines) != 0 || !strings.Contains(strings.Join(out.Notes, " "), "not modelled") {
			t.Errorf("%+v: %d deadlines, notes %q", duties, len(out.Deadlines), out.Notes)
		}
		if duties != nil && !slices.Contains(out.Notes, duties.Note) {
			t.Errorf("the form's note is missing: %q", out.Notes)
		}
	}
	out := deadlines.Denmark(dkApS(), dkApSDuties(), today)
	for _, d := range out.Deadlines {
		mandatory := d.Kind == "annual_report" || d.Kind == deadlines.GeneralMeeting || d.Kind == deadlines.TaxReturn
		if d.Mandatory != mandatory {
			t.Errorf("%s: mandatory %t", d.Kind, d.Mandatory)
		}
	}
	if out := deadlines.Denmark(nil, dkApSDuties(), today); len(out.Deadlines) != 0 || out.Country != "DK" || out.Registry != "cvr" {
		t.Errorf("nil report: %+v", out)
	}
}

// dkBusinessRoll, dkBankRoll and dkTaxRoll state the moving rules of the
// research note afresh over the non-business-day table: the next weekday
// that is not a helligdag; the next bank day; and skattekontrolloven §
// 13's rule, the first weekday after a date that falls on or the day
// before a Saturday, Sunday or helligdag.
type dkTable struct{ holidays, bankClosed map[registry.Date]string }

func (tb dkTable) business(d registry.Date) bool {
	_, h := tb.holidays[d]
	return d.Weekday() != time.Saturday && d.Weekday() != time.Sunday && !h
}

func (tb dkTable) bank(d registry.Date) bool {
	_, c := tb.bankClosed[d]
	return tb.business(d) && !c
}

func (tb dkTable) roll(d registry.Date, ok func(registry.Date) bool) registry.Date {
	for !ok(d) {
		d = d.AddDays(1)
	}
	return d
}

// TestDenmarkPropertiesOverTheTable sweeps today over every day of
// 2025–2031 for four profiles and checks every deadline against the
// non-business-day table: each kind moves by its own rule, the annual
// report and general meeting never move, a large employer's date is the
// last bank day of its month, nothing is due before today, and the next
// occurrence is the first one (a kind changes its deadline only the day
// after the old one was due).
func TestDenmarkPropertiesOverTheTable(t *testing.T) {
	t.Parallel()
	holidays, bankClosed := dkNonBusinessDays(t)
	tb := dkTable{holidays, bankClosed}
	june := dkApSDuties()
	june.YearEndMonth, june.YearEndDay = time.June, 30
	large := dkApSDuties()
	large.LargeEmployer, large.VATPeriod = true, deadlines.DanishVATMonthly
	young := dkApS()
	young.FoundedAt = countrykit.Ptr(registry.NewDate(2026, 5, 20))
	for _, p := range []struct {
		name   string
		rep    *registry.CompanyReport
		duties *deadlines.DenmarkDuties
	}{
		{"calendar ApS", dkApS(), dkApSDuties()},
		{"June year", dkApS(), june},
		{"large employer, monthly VAT", dkApS(), large},
		{"founded 2026", young, dkApSDuties()},
	} {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			prev := map[registry.DeadlineKind]registry.Deadline{}
			for today := registry.NewDate(2025, 1, 1); today.Year <= 2031; today = today.AddDays(1) {
				out := deadlines.Denmark(p.rep, p.duties, today)
				for _, d := range out.Deadlines {
					dkCheckDeadline(t, tb, p.duties, today, d)
					if old, ok := prev[d.Kind]; ok && old.DueDate != d.DueDate && old.DueDate != today.AddDays(-1) {
						t.Fatalf("%s %s: moved from %s (due %s) to %s (due %s) before the old one was due",
							today, d.Kind, *old.PeriodLabel, old.DueDate, *d.PeriodLabel, d.DueDate)
					}
					prev[d.Kind] = d
				}
			}
		})
	}
}

func dkCheckDeadline(t *testing.T, tb dkTable, duties *deadlines.DenmarkDuties, today registry.Date, d registry.Deadline) {
	t.Helper()
	if d.DueDate.Before(today) || d.DaysUntil == nil || *d.DaysUntil != d.DueDate.DaysSince(today) {
		t.Fatalf("%s %s: due %s, days_until %v", today, d.Kind, d.DueDate, d.DaysUntil)
	}
	inPeriod := d.Kind == deadlines.TaxPrepayment || (d.Kind == deadlines.EmployerWithholding && duties.LargeEmployer)
	if d.RolledForward != (d.DueDate != d.StatutoryDate) || d.PeriodEnd == nil || d.PeriodEnd.Before(d.StatutoryDate) == inPeriod {
		t.Fatalf("%s %s: %+v", today, d.Kind, d)
	}
	if d.StatutoryDate.AddDays(7).Year > 2031 {
		return // beyond the table
	}
	var want registry.Date
	switch d.Kind {
	case "annual_report", deadlines.GeneralMeeting:
		want = d.StatutoryDate
	case deadlines.TaxReturn:
		want = d.StatutoryDate
		if !tb.business(d.StatutoryDate) || !tb.business(d.StatutoryDate.AddDays(1)) {
			want = tb.roll(d.StatutoryDate.AddDays(1), tb.business)
		}
	case deadlines.TaxPrepayment, deadlines.TaxBalance:
		want = tb.roll(d.StatutoryDate, tb.bank)
	case deadlines.EmployerWithholding:
		want = tb.roll(d.StatutoryDate, tb.business)
		if duties.LargeEmployer {
			last := d.PeriodEnd.AddDays(0)
			for !tb.bank(last) {
				last = last.AddDays(-1)
			}
			if d.StatutoryDate != last {
				t.Fatalf("%s: large employer's %s statutory %s, want the last bank day %s", today, *d.PeriodLabel, d.StatutoryDate, last)
			}
		}
	case deadlines.VATReturn:
		want = tb.roll(d.StatutoryDate, tb.business)
	default:
		t.Fatalf("unexpected kind %s", d.Kind)
	}
	if d.DueDate != want {
		t.Fatalf("%s %s %s: statutory %s, due %s, want %s", today, d.Kind, *d.PeriodLabel, d.StatutoryDate, d.DueDate, want)
	}
}

// dkCheckShape asserts what every report must have, whatever its input.
func dkCheckShape(t *testing.T, out *registry.DeadlineReport, today registry.Date) {
	t.Helper()
	if out == nil || out.Deadlines == nil || out.Notes == nil || len(out.Notes) == 0 {
		t.Fatalf("nil report, lists or no notes: %+v", out)
	}
	seen := map[registry.DeadlineKind]bool{}
	for i, d := range out.Deadlines {
		if seen[d.Kind] {
			t.Fatalf("%s: kind %s twice", today, d.Kind)
		}
		seen[d.Kind] = true
		if i > 0 {
			p := out.Deadlines[i-1]
			if c := p.DueDate.Compare(d.DueDate); c > 0 || (c == 0 && p.Kind >= d.Kind) {
				t.Fatalf("%s: not sorted", today)
			}
		}
		if d.DueDate.Before(today) || d.DueDate.Before(d.StatutoryDate) || d.PeriodStart == nil || d.PeriodEnd == nil ||
			d.PeriodEnd.Before(*d.PeriodStart) || d.Name == "" || d.Authority == "" || d.LocalName == nil ||
			d.SourceURL == nil || !strings.HasSuffix(d.AppliesBecause, ".") || !d.Recurrence.Valid() || d.Country != "DK" {
			t.Fatalf("%s: incomplete or early deadline %+v", today, d)
		}
	}
}

// TestDenmarkRandomReports draws reports and profiles at random (status,
// founding date, financial year, first period, VAT period, employer size)
// over 1990–2060: the report keeps its shape.
func TestDenmarkRandomReports(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 2026))
	statuses := []registry.Status{registry.StatusActive, registry.StatusActive, registry.StatusUnderLiquidation, registry.StatusUnknown,
		registry.StatusBankrupt, registry.StatusDissolved, ""}
	day := func() registry.Date { return registry.NewDate(1990, 1, 1).AddDays(rng.IntN(70 * 365)) }
	for range 3000 {
		rep := dkApS()
		rep.Status = statuses[rng.IntN(len(statuses))]
		rep.FoundedAt = nil
		if rng.IntN(4) > 0 {
			rep.FoundedAt = countrykit.Ptr(day())
		}
		duties := dkApSDuties()
		duties.YearEndMonth = time.Month(rng.IntN(13))
		duties.YearEndDay = rng.IntN(32)
		if rng.IntN(3) == 0 {
			s := day()
			duties.FirstPeriodStart, duties.FirstPeriodEnd = countrykit.Ptr(s), countrykit.Ptr(s.AddDays(rng.IntN(560)-20))
		}
		duties.VATPeriod = deadlines.DanishVATPeriod(rng.IntN(5))
		duties.LargeEmployer = rng.IntN(2) == 0
		today := day()
		dkCheckShape(t, deadlines.Denmark(rep, duties, today), today)
	}
}

// FuzzDenmark feeds arbitrary days, statuses, financial years and first
// periods, up to the years ±9999 a report can carry and a little beyond:
// Denmark never panics and keeps its shape.
func FuzzDenmark(f *testing.F) {
	f.Add(uint8(0b111), uint8(0), int32(20000), int32(15000), uint8(12), uint8(31), int32(19000), int32(500))
	f.Add(uint8(0b000), uint8(3), int32(-719468), int32(0), uint8(2), uint8(29), int32(0), int32(0))
	f.Add(uint8(0b101), uint8(6), int32(2932896), int32(2932896), uint8(13), uint8(40), int32(0x7fffffff), int32(-5))
	statuses := []registry.Status{registry.StatusActive, registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation,
		registry.StatusBankrupt, registry.StatusDissolved, registry.StatusDeleted, registry.StatusUnknown, ""}
	epoch := registry.NewDate(1970, 1, 1)
	f.Fuzz(func(t *testing.T, flags, status uint8, today, founded int32, endMonth, endDay uint8, firstStart, firstLen int32) {
		clamp := func(n int32) int { return int(n)%4_000_000 - 719_468 }
		day := epoch.AddDays(clamp(today))
		rep := dkApS()
		rep.Status = statuses[int(status)%len(statuses)]
		rep.FoundedAt = nil
		if flags&1 != 0 {
			rep.FoundedAt = countrykit.Ptr(epoch.AddDays(clamp(founded)))
		}
		duties := dkApSDuties()
		duties.YearEndMonth, duties.YearEndDay = time.Month(endMonth), int(endDay)
		if flags&2 != 0 {
			s := epoch.AddDays(clamp(firstStart))
			duties.FirstPeriodStart, duties.FirstPeriodEnd = countrykit.Ptr(s), countrykit.Ptr(s.AddDays(int(firstLen%800)))
		}
		duties.LargeEmployer = flags&4 != 0
		duties.VATPeriod = deadlines.DanishVATPeriod(flags >> 4)
		out := deadlines.Denmark(rep, duties, day)
		if day.Year < -9999 || day.Year > 9999 {
			if len(out.Deadlines) != 0 {
				t.Fatalf("deadlines for an implausible today %s", day)
			}
			return
		}
		dkCheckShape(t, out, day)
	})
}

// TestDenmarkBankClosingDueDates sweeps today over 2025–2031 for a
// calendar-year ApS (the default VAT period and monthly VAT) and collects
// every due date that is a business day but a bank closing day
// (banklukkedag: Danmarks Nationalbank's list, as in
// testdata/denmark_non_business_days_2025-2031.tsv). No statutory day is one; the
// weekend-and-holiday roll puts exactly two dates on one: the small
// employer's withholding for April 2029 (10 May 2029, Ascension Day →
// Friday 11 May 2029) and monthly VAT for April 2028 (25 May 2028,
// Ascension Day → Friday 26 May 2028). Each gets a note naming the date
// and the bank day before it.
func TestDenmarkBankClosingDueDates(t *testing.T) {
	t.Parallel()
	got := map[string]bool{}
	for _, p := range []deadlines.DanishVATPeriod{deadlines.DanishVATByAge, deadlines.DanishVATMonthly} {
		for today := registry.NewDate(2025, 1, 1); today.Year < 2032; today = today.AddDays(1) {
			d := dkApSDuties()
			d.VATPeriod = p
			out := deadlines.Denmark(dkApS(), d, today)
			for _, dl := range out.Deadlines {
				if !deadlines.DanishBusinessDay(dl.DueDate) || deadlines.DanishBankDay(dl.DueDate) {
					continue
				}
				got[string(dl.Kind)+" "+dl.StatutoryDate.String()+" → "+dl.DueDate.String()] = true
				if deadlines.DanishBusinessDay(dl.StatutoryDate) && !deadlines.DanishBankDay(dl.StatutoryDate) {
					t.Errorf("today %s: %s statutory date %s is a bank closing day", today, dl.Kind, dl.StatutoryDate)
				}
				noted := false
				for _, n := range out.Notes {
					noted = noted || strings.Contains(n, string(dl.Kind)+": the due date "+dl.DueDate.String()+" is a bank closing day")
				}
				if !noted {
					t.Errorf("today %s: %s due %s, a bank closing day, without a note", today, dl.Kind, dl.DueDate)
				}
			}
		}
	}
	want := map[string]bool{
		"employer_withholding 2029-05-10 → 2029-05-11": true,
		"vat_return 2028-05-25 → 2028-05-26":           true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("due dates on bank closing days (-want +got):\n%s", diff)
	}
	out := deadlines.Denmark(dkApS(), dkApSDuties(), registry.NewDate(2029, 5, 1))
	if n := strings.Join(out.Notes, "\n"); !strings.Contains(n, "employer_withholding: the due date 2029-05-11 is a bank closing day "+
		"(banklukkedag: Friday after Ascension Day), not a holiday.") || !strings.Contains(n, "pay by 2029-05-09, the bank day before") {
		t.Errorf("notes:\n%s", n)
	}
}

// TestDenmarkNoAcontoskatInTheFirstIncomeYear: ordinary acontoskat is a
// share of the tax of the preceding income years (selskabsskatteloven §
// 29 A), so a company pays none in its first income year: the instalments
// are listed from its second, with a note. The first income year is the
// register's first financial period (FØRSTE_REGNSKABSPERIODE_SLUT), else
// the year the company was founded. 20 March 2027 is a Saturday and 20
// March 2022 a Sunday: the next bank days are 22 and 21 March.
func TestDenmarkNoAcontoskatInTheFirstIncomeYear(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		founded     registry.Date
		first       *[2]registry.Date
		today, want registry.Date
	}{
		{"founded 2 February 2026, asked 1 March 2026", registry.NewDate(2026, 2, 2), nil, registry.NewDate(2026, 3, 1), registry.NewDate(2027, 3, 22)},
		{"founded 2 February 2026, asked 1 October 2026", registry.NewDate(2026, 2, 2), nil, registry.NewDate(2026, 10, 1), registry.NewDate(2027, 3, 22)},
		{"long first period 2020-10-18 to 2021-12-31, asked 1 March 2021", registry.NewDate(2020, 10, 18),
			&[2]registry.Date{registry.NewDate(2020, 10, 18), registry.NewDate(2021, 12, 31)}, registry.NewDate(2021, 3, 1), registry.NewDate(2022, 3, 21)},
		{"second income year", registry.NewDate(2025, 2, 2), nil, registry.NewDate(2026, 3, 1), registry.NewDate(2026, 3, 20)},
	} {
		rep := dkApS()
		rep.FoundedAt = countrykit.Ptr(tt.founded)
		d := dkApSDuties()
		if tt.first != nil {
			d.FirstPeriodStart, d.FirstPeriodEnd = countrykit.Ptr(tt.first[0]), countrykit.Ptr(tt.first[1])
		}
		out := deadlines.Denmark(rep, d, tt.today)
		got, ok := findKind(out, deadlines.TaxPrepayment)
		if !ok || got.DueDate != tt.want {
			t.Errorf("%s: tax_prepayment due %v (found %t), want %s", tt.name, got.DueDate, ok, tt.want)
		}
		noted := strings.Contains(strings.Join(out.Notes, " "), "no ordinary acontoskat in its first income year")
		if first := tt.name != "second income year"; noted != first {
			t.Errorf("%s: first-income-year note %t, want %t", tt.name, noted, first)
		}
	}
}
