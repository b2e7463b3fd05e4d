package deadlines_test

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// seABDuties is the profile of an aktiebolag as the Swedish module's
// legal-form table gives it.
func seABDuties() *deadlines.SwedishDuties {
	yes := deadlines.KindDuty{Duty: deadlines.DutyYes}
	return &deadlines.SwedishDuties{
		Code: "AB", Label: "limited company (aktiebolag, AB)",
		GeneralMeeting: yes, AnnualReport: yes, TaxReturn: yes, TaxForm: "INK2",
		TaxRegistered: deadlines.DutyYes,
	}
}

// seAB is an active AB registered in 2000.
func seAB() *registry.CompanyReport {
	rep := countrykit.NewReport("SE", "bolagsverket", "5567223705", "Testbolaget Aktiebolag")
	rep.LegalFormCode = countrykit.Ptr("AB")
	rep.Status = registry.StatusActive
	rep.RegisteredAt = countrykit.Ptr(registry.NewDate(2000, 1, 23))
	return rep
}

// seNonBusinessDays reads testdata/se_non_business_days_2025_2031.tsv.
func seNonBusinessDays(t *testing.T) map[registry.Date]string {
	t.Helper()
	f, err := os.Open("testdata/se_non_business_days_2025_2031.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[registry.Date]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 4 || cols[0] == "date" {
			continue
		}
		d := mustDate(t, cols[0])
		if got := d.Weekday().String()[:3]; got != cols[3] {
			t.Fatalf("%s: the table says %s, the calendar %s", cols[0], cols[3], got)
		}
		out[d] = cols[1]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) != 112 {
		t.Fatalf("%d days in the table, want 112 (16 a year)", len(out))
	}
	return out
}

// seIsBusinessDayByTable is a business day by the research table.
func seIsBusinessDayByTable(table map[registry.Date]string, d registry.Date) bool {
	_, listed := table[d]
	return !listed && d.Weekday() != time.Saturday && d.Weekday() != time.Sunday
}

// TestSwedishHolidaysDayByDay: SwedishHolidays and SwedishBusinessDay
// agree with the research list (lag 1989:253, lag 1930:173 2 §; checked by
// the note against date-holidays and python3-holidays) on every day of
// 2025–2031, names included.
func TestSwedishHolidaysDayByDay(t *testing.T) {
	t.Parallel()
	table := seNonBusinessDays(t)
	got := map[registry.Date]string{}
	for y := 2025; y <= 2031; y++ {
		hs := deadlines.SwedishHolidays(y)
		if len(hs) != 16 {
			t.Errorf("%d: %d days, want 16", y, len(hs))
		}
		for i, h := range hs {
			got[h.Date] = h.Name + " (" + h.EnglishName + ")"
			if i > 0 && h.Date.Before(hs[i-1].Date) {
				t.Errorf("%d: not sorted", y)
			}
		}
	}
	if diff := cmp.Diff(table, got); diff != "" {
		t.Errorf("SwedishHolidays 2025–2031 (-research +got):\n%s", diff)
	}
	for d := registry.NewDate(2025, 1, 1); d.Year <= 2031; d = d.AddDays(1) {
		if want := seIsBusinessDayByTable(table, d); deadlines.SwedishBusinessDay(d) != want {
			t.Errorf("SwedishBusinessDay(%s %s) = %t, want %t", d, d.Weekday(), !want, want)
		}
	}
}

// seRow is one row of a worked table: kind, period end, statutory and due
// date.
type seRow struct {
	Kind      registry.DeadlineKind
	PeriodEnd registry.Date
	Statutory registry.Date
	Due       registry.Date
}

// seWorkedTable reads the first worked table of
// testdata/sweden_worked_2026-2027.md. The tax return has two rows per
// year (paper and digital); the engine shows the digital date and names the
// paper date in applies_because, so paper rows are returned apart.
func seWorkedTable(t *testing.T) (rows []seRow, paper map[registry.Date]registry.Date) {
	t.Helper()
	b, err := os.ReadFile("testdata/sweden_worked_2026-2027.md")
	if err != nil {
		t.Fatal(err)
	}
	paper = map[registry.Date]registry.Date{}
	kinds := map[string]registry.DeadlineKind{
		"employer_declaration (AGD) + payment":        deadlines.EmployerDeclaration,
		"vat_return (quarterly)":                      deadlines.VATReturn,
		"general_meeting":                             deadlines.GeneralMeeting,
		"annual_report (Bolagsverket, fee threshold)": deadlines.AnnualAccounts,
		"tax_return (INK2, digital = operative)":      deadlines.TaxReturn,
	}
	date := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	period := regexp.MustCompile(`^(?:pay (\d{4})-(\d{2})|(\d{4})-Q(\d)|FY (\d{4}))$`)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Alternative VAT schedules") {
			break
		}
		cols := strings.Split(line, "|")
		if len(cols) != 6 || !date.MatchString(cols[3]) {
			continue
		}
		kindText, periodText := strings.TrimSpace(cols[1]), strings.TrimSpace(cols[2])
		m := period.FindStringSubmatch(periodText)
		if m == nil {
			t.Fatalf("period %q", periodText)
		}
		var end registry.Date
		switch {
		case m[1] != "":
			end = mustDate(t, m[1]+"-"+m[2]+"-01")
			end = registry.NewDate(end.Year, end.Month, end.DaysIn())
		case m[3] != "":
			q := int(m[4][0] - '0')
			end = mustDate(t, m[3]+"-01-01")
			end = registry.NewDate(end.Year, time.Month(3*q), 1)
			end = registry.NewDate(end.Year, end.Month, end.DaysIn())
		default:
			end = mustDate(t, m[5]+"-12-31")
		}
		stat, due := mustDate(t, date.FindString(cols[3])), mustDate(t, date.FindString(cols[4]))
		if kindText == "tax_return (INK2, statutory/paper)" {
			paper[end] = stat
			continue
		}
		kind, ok := kinds[kindText]
		if !ok {
			t.Fatalf("kind %q", kindText)
		}
		rows = append(rows, seRow{kind, end, stat, due})
	}
	if len(rows) != 38 || len(paper) != 2 {
		t.Fatalf("%d rows and %d paper rows, want 38 and 2", len(rows), len(paper))
	}
	return rows, paper
}

// TestSwedenWorkedTable reproduces every row of the research note's worked
// table for a calendar-year AB with quarterly VAT and an employer: today
// walks every day of 2026 and 2027, and the set of deadlines the engine
// lists, in the table's range of due dates, is the table. Rules: ABL 7 kap.
// 10 §, ÅRL 8 kap. 6 §, SFL 32 kap. 2 § with 3 kap. 5 §, SFL 26 kap. 26 §,
// lag 1930:173 2 §.
func TestSwedenWorkedTable(t *testing.T) {
	t.Parallel()
	want, paper := seWorkedTable(t)
	first, last := want[0].Due, want[0].Due
	for _, r := range want {
		if r.Due.Before(first) {
			first = r.Due
		}
		if r.Due.After(last) {
			last = r.Due
		}
	}
	seen := map[seRow]bool{}
	for today := registry.NewDate(2026, 1, 1); !today.After(last); today = today.AddDays(1) {
		out := deadlines.Sweden(seAB(), seABDuties(), today)
		for _, d := range out.Deadlines {
			if d.DueDate.Before(first) || d.DueDate.After(last) {
				continue
			}
			seen[seRow{d.Kind, *d.PeriodEnd, d.StatutoryDate, d.DueDate}] = true
			if d.Kind == deadlines.TaxReturn && !strings.Contains(d.AppliesBecause, paper[*d.PeriodEnd].String()+" on paper") {
				t.Errorf("%s: applies_because does not give the paper date %s: %s", today, paper[*d.PeriodEnd], d.AppliesBecause)
			}
		}
	}
	var got []seRow
	for r := range seen {
		got = append(got, r)
	}
	less := func(a, b seRow) int {
		if c := a.Due.Compare(b.Due); c != 0 {
			return c
		}
		return strings.Compare(string(a.Kind), string(b.Kind))
	}
	slices.SortFunc(got, less)
	slices.SortFunc(want, less)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("deadlines listed in 2026–2027 (-worked table +engine):\n%s", diff)
	}
}

// TestSwedenSweep2025To2031 walks today over every day of 2025–2031 for a
// calendar-year AB, an AB whose year ends on 30 June and one that ends on
// 30 April, and checks each answer against the research list of
// non-business days: every due date is a business day; a rolled date's
// statutory date and every day before the due date are not; nothing is
// due before today; and a kind's deadline stays the same from one day to
// the next until the day it is due, then moves to a later period (the
// next occurrence, never one skipped).
func TestSwedenSweep2025To2031(t *testing.T) {
	t.Parallel()
	table := seNonBusinessDays(t)
	for _, ye := range []struct {
		name  string
		month time.Month
		day   int
	}{{"calendar year", 0, 0}, {"30 June", time.June, 30}, {"30 April", time.April, 30}, {"31 August", time.August, 31}} {
		t.Run(ye.name, func(t *testing.T) {
			t.Parallel()
			duties := seABDuties()
			duties.YearEndMonth, duties.YearEndDay = ye.month, ye.day
			prev := map[registry.DeadlineKind]registry.Deadline{}
			for today := registry.NewDate(2025, 1, 1); today.Year <= 2031; today = today.AddDays(1) {
				out := deadlines.Sweden(seAB(), duties, today)
				if len(out.Deadlines) != 5 {
					t.Fatalf("%s: %d deadlines, want 5", today, len(out.Deadlines))
				}
				for _, d := range out.Deadlines {
					if d.DueDate.Year > 2031 {
						continue // beyond the table
					}
					if !seIsBusinessDayByTable(table, d.DueDate) {
						t.Fatalf("%s: %s due %s, not a business day", today, d.Kind, d.DueDate)
					}
					if d.DueDate.Before(today) {
						t.Fatalf("%s: %s due %s, before today", today, d.Kind, d.DueDate)
					}
					if d.RolledForward != (d.DueDate != d.StatutoryDate) {
						t.Fatalf("%s: %s rolled_forward %t", today, d.Kind, d.RolledForward)
					}
					for x := d.StatutoryDate; x.Before(d.DueDate); x = x.AddDays(1) {
						if x.Year >= 2025 && seIsBusinessDayByTable(table, x) {
							t.Fatalf("%s: %s statutory %s rolled to %s past the business day %s", today, d.Kind, d.StatutoryDate, d.DueDate, x)
						}
					}
					if p, ok := prev[d.Kind]; ok {
						switch {
						case p.DueDate.Before(today) && !d.PeriodEnd.After(*p.PeriodEnd):
							t.Fatalf("%s: %s still for the period ending %s, due %s", today, d.Kind, d.PeriodEnd, p.DueDate)
						case !p.DueDate.Before(today) && *d.PeriodEnd != *p.PeriodEnd:
							t.Fatalf("%s: %s moved from %s to %s before its due date %s", today, d.Kind, p.PeriodEnd, d.PeriodEnd, p.DueDate)
						}
					}
					prev[d.Kind] = d
				}
			}
		})
	}
}

// TestSwedenBrokenYear: a financial year ending on 30 June (se-deadlines.md,
// "Non-calendar years"): the meeting by 31 December (month-end
// convention; nyårsafton, so 4 January 2027 by 1930:173 2 §), Bolagsverket
// 31 January 2027 (a Sunday, so 1 February), INK2 15 December 2026 on paper
// and 15 January 2027 digitally.
func TestSwedenBrokenYear(t *testing.T) {
	t.Parallel()
	duties := seABDuties()
	duties.YearEndMonth, duties.YearEndDay = time.June, 30
	duties.YearEndSource = "the annual report for the period ending 2025-06-30"
	out := deadlines.Sweden(seAB(), duties, registry.NewDate(2026, 7, 1))
	got := map[registry.DeadlineKind][2]string{}
	for _, d := range out.Deadlines {
		got[d.Kind] = [2]string{d.StatutoryDate.String(), d.DueDate.String()}
		if d.Kind == deadlines.GeneralMeeting && (d.PeriodStart.String() != "2025-07-01" || d.PeriodEnd.String() != "2026-06-30") {
			t.Errorf("period %s to %s", d.PeriodStart, d.PeriodEnd)
		}
	}
	want := map[registry.DeadlineKind][2]string{
		deadlines.GeneralMeeting:      {"2026-12-31", "2027-01-04"},
		deadlines.AnnualAccounts:      {"2027-01-31", "2027-02-01"},
		deadlines.TaxReturn:           {"2027-01-15", "2027-01-15"},
		deadlines.VATReturn:           {"2026-08-17", "2026-08-17"},
		deadlines.EmployerDeclaration: {"2026-07-12", "2026-07-13"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, "30 June, as the annual report") }) {
		t.Errorf("no note on the year end: %q", out.Notes)
	}
}

// TestSwedenWhoGetsWhat: the status and the profile decide which kinds are
// listed, and the notes say why.
func TestSwedenWhoGetsWhat(t *testing.T) {
	t.Parallel()
	today := registry.NewDate(2026, 3, 1)
	kinds := func(out *registry.DeadlineReport) []string {
		var ks []string
		for _, d := range out.Deadlines {
			ks = append(ks, string(d.Kind))
		}
		slices.Sort(ks)
		return ks
	}
	all := []string{"annual_accounts", "employer_declaration", "general_meeting", "tax_return", "vat_return"}
	for _, tc := range []struct {
		name   string
		status registry.Status
		duties func() *deadlines.SwedishDuties
		want   []string
		note   string
	}{
		{"active AB", registry.StatusActive, seABDuties, all, "assumed to be the calendar year"},
		{"liquidation", registry.StatusUnderLiquidation, seABDuties, all, "liquidator"},
		{"bankrupt", registry.StatusBankrupt, seABDuties, nil, "ÅRL 8 kap. 7 §"},
		{"dissolved", registry.StatusDissolved, seABDuties, nil, "deregistered"},
		{"unknown form", registry.StatusActive, func() *deadlines.SwedishDuties { return nil }, []string{"employer_declaration", "vat_return"}, "not modelled"},
		{"not tax registered", registry.StatusActive, func() *deadlines.SwedishDuties {
			d := seABDuties()
			d.TaxRegistered = deadlines.DutyNo
			return d
		}, []string{"annual_accounts", "general_meeting", "tax_return"}, "not registered for F-tax"},
		{"HB", registry.StatusActive, func() *deadlines.SwedishDuties {
			return &deadlines.SwedishDuties{Code: "HB", Label: "trading partnership (handelsbolag, HB)",
				TaxReturn: deadlines.KindDuty{Duty: deadlines.DutyYes}, TaxForm: "INK4"}
		}, []string{"employer_declaration", "tax_return", "vat_return"}, "SEK 40 million"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := seAB()
			rep.Status = tc.status
			out := deadlines.Sweden(rep, tc.duties(), today)
			if diff := cmp.Diff(tc.want, kinds(out)); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if !strings.Contains(strings.Join(out.Notes, " "), tc.note) {
				t.Errorf("no note with %q: %q", tc.note, out.Notes)
			}
			for _, d := range out.Deadlines {
				if mandatory := d.Kind != deadlines.VATReturn && d.Kind != deadlines.EmployerDeclaration; d.Mandatory != mandatory {
					t.Errorf("%s mandatory %t", d.Kind, d.Mandatory)
				}
			}
		})
	}
}

// TestSwedenRegistrationDate: no period that ended before the
// organisation was registered is listed.
func TestSwedenRegistrationDate(t *testing.T) {
	t.Parallel()
	rep := seAB()
	rep.RegisteredAt = countrykit.Ptr(registry.NewDate(2026, 5, 20))
	out := deadlines.Sweden(rep, seABDuties(), registry.NewDate(2026, 5, 25))
	for _, d := range out.Deadlines {
		if d.PeriodEnd.Before(*rep.RegisteredAt) {
			t.Errorf("%s for a period ending %s, before the registration", d.Kind, d.PeriodEnd)
		}
	}
	if d, ok := findKind(out, deadlines.AnnualAccounts); !ok || d.PeriodEnd.String() != "2026-12-31" {
		t.Errorf("annual_accounts %+v", d)
	}
}

func FuzzSweden(f *testing.F) {
	f.Add(2026, 3, 1, 12, 31, 2000, 1, 23, "active", true)
	f.Add(1, 1, 1, 2, 29, -9999, 13, 40, "bankrupt", false)
	f.Fuzz(func(t *testing.T, y, m, d, em, ed, ry, rm, rd int, status string, taxReg bool) {
		rep := seAB()
		rep.Status = registry.Status(status)
		rep.RegisteredAt = &registry.Date{Year: ry, Month: time.Month(rm), Day: rd}
		duties := seABDuties()
		duties.YearEndMonth, duties.YearEndDay = time.Month(em), ed
		if !taxReg {
			duties.TaxRegistered = deadlines.DutyNo
		}
		today := registry.Date{Year: y, Month: time.Month(m), Day: d}
		out := deadlines.Sweden(rep, duties, today)
		if out == nil || out.Deadlines == nil || out.Notes == nil {
			t.Fatal("nil report or lists")
		}
		for i, dl := range out.Deadlines {
			if dl.DueDate.Before(dl.StatutoryDate) || (i > 0 && dl.DueDate.Before(out.Deadlines[i-1].DueDate)) {
				t.Fatalf("%+v", dl)
			}
		}
	})
}
