package deadlines_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/google/go-cmp/cmp"
)

// frSASDuties is the profile of the research note's worked table: a SAS
// (5710) outside the Paris area (département 69), an employer of 10–19
// (band 11), as the French module's table gives a SAS.
func frSASDuties() *deadlines.FranceDuties {
	yes := deadlines.KindDuty{Duty: deadlines.DutyYes}
	cond := deadlines.KindDuty{Duty: deadlines.DutyConditional}
	return &deadlines.FranceDuties{
		Code: "5710", Label: "simplified joint-stock company (SAS)",
		GeneralMeeting: cond, AccountsFiling: yes, CorporateTax: yes, CorporateTaxInstalments: cond,
		VAT: cond, VATColumn: deadlines.FrenchVATCompany, CFE: cond,
		Departement: "69", Employer: deadlines.DutyYes, HeadcountBand: "11",
	}
}

// frSAS is an active calendar-year SAS created long ago.
func frSAS() *registry.CompanyReport {
	rep := countrykit.NewReport("FR", "sirene", "302474648", "EXEMPLE SAS")
	rep.LegalFormCode = countrykit.Ptr("5710")
	rep.Status = registry.StatusActive
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(1990, 3, 1))
	return rep
}

// frNonBusinessDays reads the research note's list of the L3133-1 holidays
// of 2025–2031 (computed there and checked against python-holidays and
// date-holidays), an independent statement of the calendar.
func frNonBusinessDays(t *testing.T) map[registry.Date]string {
	t.Helper()
	b, err := os.ReadFile("testdata/fr_non_business_days_2025_2031.tsv")
	if err != nil {
		t.Fatal(err)
	}
	out := map[registry.Date]string{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			continue
		}
		cols := strings.Split(line, "\t")
		out[mustDate(t, cols[0])] = cols[1]
	}
	if len(out) != 77 {
		t.Fatalf("%d holidays in the list, want 77", len(out))
	}
	return out
}

// frRollIndependent moves d to the first day that is neither a weekend nor
// in the list.
func frRollIndependent(hol map[registry.Date]string, d registry.Date) registry.Date {
	for {
		if _, h := hol[d]; !h && w(d) {
			return d
		}
		d = d.AddDays(1)
	}
}

// TestFrenchHolidaysDayByDay compares every day of 2025–2031 with the
// research note's list (Code du travail art. L3133-1): a business day is a
// weekday not in the list, and FrenchHolidays gives exactly its days.
func TestFrenchHolidaysDayByDay(t *testing.T) {
	t.Parallel()
	want := frNonBusinessDays(t)
	for d := registry.NewDate(2025, 1, 1); d.Year <= 2031; d = d.AddDays(1) {
		_, holiday := want[d]
		if got, wantB := deadlines.FrenchBusinessDay(d), !holiday && w(d); got != wantB {
			t.Errorf("FrenchBusinessDay(%s, %s) = %t, want %t (%s)", d, d.Weekday(), got, wantB, want[d])
		}
	}
	for y := 2025; y <= 2031; y++ {
		hs := deadlines.FrenchHolidays(y)
		if len(hs) != 11 {
			t.Errorf("%d: %d holidays, want 11", y, len(hs))
		}
		for i, h := range hs {
			if _, ok := want[h.Date]; !ok {
				t.Errorf("%d: %s (%s) is not in the list", y, h.Date, h.EnglishName)
			}
			if i > 0 && hs[i-1].Date.After(h.Date) {
				t.Errorf("%d: not sorted at %s", y, h.Date)
			}
		}
	}
}

// frWorkedRow is one row of the research note's worked table.
type frWorkedRow struct {
	Kind, Period, Statutory, Due string
	Rolled                       bool
}

// TestFranceWorkedTable reproduces every row of the research note's worked
// table (a calendar-year SAS in département 69, employer of 10–19,
// 2026–2027): for each kind, the occurrences found by asking again the day
// after each due date, from 1 January 2026 to the end of 2027.
func TestFranceWorkedTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/france_worked_2026-2027.md")
	if err != nil {
		t.Fatal(err)
	}
	var want []frWorkedRow
	for _, line := range strings.Split(string(b), "\n") {
		cols := strings.Split(line, "|")
		if len(cols) != 7 || strings.HasPrefix(line, "|---") || strings.Contains(cols[1], "kind") {
			continue
		}
		kind := strings.Fields(cols[1])[0]
		switch strings.TrimSpace(cols[1]) {
		case "accounts_filing (electronic)":
			kind = string(deadlines.FrenchAccountsFilingElectronic)
		}
		period := strings.TrimPrefix(strings.TrimSpace(cols[2]), "FY ")
		due := strings.TrimSpace(cols[4])
		want = append(want, frWorkedRow{Kind: kind, Period: period, Statutory: strings.Fields(cols[3])[0],
			Due: strings.Fields(due)[0], Rolled: strings.Contains(due, "rolled")})
	}
	if len(want) != 68 {
		t.Fatalf("parsed %d rows of the worked table, want 68", len(want))
	}
	rep, duties := frSAS(), frSASDuties()
	end := registry.NewDate(2027, 12, 31)
	var got []frWorkedRow
	for _, kind := range []registry.DeadlineKind{deadlines.FrenchDSN, deadlines.VATReturn, deadlines.FrenchCorporateTaxInstalment,
		deadlines.TaxReturn, deadlines.FrenchCorporateTaxBalance, deadlines.GeneralMeeting, deadlines.FrenchAccountsFiling,
		deadlines.FrenchAccountsFilingElectronic, deadlines.FrenchCFE} {
		for today := registry.NewDate(2026, 1, 1); ; {
			dl, ok := findKind(deadlines.France(rep, duties, today), kind)
			if !ok {
				t.Fatalf("%s: no deadline on %s", kind, today)
			}
			if dl.DueDate.After(end) {
				break
			}
			var period string
			switch {
			case dl.Recurrence == registry.RecurrenceMonthly:
				period = dl.PeriodStart.String()[:7]
			case kind == deadlines.FrenchCorporateTaxInstalment:
				n := strings.TrimSuffix(strings.TrimPrefix(*dl.PeriodLabel, "Financial year "+fmt.Sprint(dl.PeriodStart.Year)+", instalment "), " of 4")
				period = fmt.Sprintf("%d no. %s", dl.PeriodStart.Year, n)
			default:
				period = fmt.Sprint(dl.PeriodStart.Year)
			}
			got = append(got, frWorkedRow{Kind: string(kind), Period: period, Statutory: dl.StatutoryDate.String(),
				Due: dl.DueDate.String(), Rolled: dl.RolledForward})
			today = dl.DueDate.AddDays(1)
		}
	}
	key := func(r frWorkedRow) string { return r.Due + r.Kind + r.Period }
	sortRows := func(rs []frWorkedRow) {
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

// TestFranceWorkedTableNotes: the worked table's notes, and the duties'
// mandatory flags: the SAS approval (statutory only for a SASU), the
// instalments (a threshold), VAT (the regime) and the CFE rest on facts
// the register does not show.
func TestFranceWorkedTableNotes(t *testing.T) {
	t.Parallel()
	out := deadlines.France(frSAS(), frSASDuties(), registry.NewDate(2027, 7, 1))
	mandatory := map[string]bool{}
	for _, d := range out.Deadlines {
		mandatory[string(d.Kind)] = d.Mandatory
	}
	wantMandatory := map[string]bool{"dsn": true, "vat_return": false, "corporate_tax_instalment": false, "tax_return": true,
		"corporate_tax_balance": true, "general_meeting": false, "accounts_filing": true, "accounts_filing_electronic": true, "cfe": false}
	if diff := cmp.Diff(wantMandatory, mandatory); diff != "" {
		t.Errorf("mandatory (-want +got):\n%s", diff)
	}
	notes := strings.Join(out.Notes, "\n")
	for _, want := range []string{
		"accounts_filing: 2027-07-31 is a Saturday and not a business day", // the worked table's "a Saturday; not moved"
		"calendar year", "monthly return (CA3, réel normal) is assumed", "EUR 3,000", "not moved", "15 June",
		"Insolvency proceedings", "Not computed",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note with %q in:\n%s", want, notes)
		}
	}
	tax, _ := findKind(deadlines.France(frSAS(), frSASDuties(), registry.NewDate(2026, 5, 1)), deadlines.TaxReturn)
	if !strings.Contains(tax.AppliesBecause, "until 2026-05-20") {
		t.Errorf("tax_return 2026: %q does not give the online date 2026-05-20", tax.AppliesBecause)
	}
	tax, _ = findKind(deadlines.France(frSAS(), frSASDuties(), registry.NewDate(2027, 5, 1)), deadlines.TaxReturn)
	if tax.DueDate != registry.NewDate(2027, 5, 4) || !strings.Contains(tax.AppliesBecause, "until 2027-05-19") {
		t.Errorf("tax_return 2027 (1 May is a Saturday): %s, %q", tax.DueDate, tax.AppliesBecause)
	}
	// Between the statutory and the online date, a note says the last
	// return may still be sent online.
	out = deadlines.France(frSAS(), frSASDuties(), registry.NewDate(2026, 5, 12))
	if !strings.Contains(strings.Join(out.Notes, " "), "was due on 2026-05-05; filed online it may still be sent until 2026-05-20") {
		t.Errorf("no online-tolerance note on 2026-05-12: %q", out.Notes)
	}
}

// TestFranceCalendarYearDates: the research note's table of calendar-year
// dates (CGI ann. III art. 344 I-0 bis: the second working day after 1 May;
// + 15 days online; the 2572 balance on 15 May, rolled) for 2025–2031,
// and the Saturday note of 2030.
func TestFranceCalendarYearDates(t *testing.T) {
	t.Parallel()
	want := map[int][3]string{
		2025: {"2025-05-05", "2025-05-20", "2025-05-15"}, 2026: {"2026-05-05", "2026-05-20", "2026-05-15"},
		2027: {"2027-05-04", "2027-05-19", "2027-05-18"}, 2028: {"2028-05-03", "2028-05-18", "2028-05-15"},
		2029: {"2029-05-03", "2029-05-18", "2029-05-15"}, 2030: {"2030-05-03", "2030-05-18", "2030-05-15"},
		2031: {"2031-05-05", "2031-05-20", "2031-05-15"},
	}
	for y, w := range want {
		out := deadlines.France(frSAS(), frSASDuties(), registry.NewDate(y, 4, 1))
		ret, _ := findKind(out, deadlines.TaxReturn)
		bal, _ := findKind(out, deadlines.FrenchCorporateTaxBalance)
		got := [3]string{ret.DueDate.String(), "", bal.DueDate.String()}
		if i := strings.Index(ret.AppliesBecause, "until "); i >= 0 {
			got[1] = ret.AppliesBecause[i+6 : i+16]
		}
		if got != w {
			t.Errorf("%d: return, online, balance %v, want %v", y, got, w)
		}
		if ret.RolledForward || ret.StatutoryDate != ret.DueDate {
			t.Errorf("%d: the return date moved", y)
		}
		saturday := strings.Contains(strings.Join(out.Notes, " "), "online date "+w[1]+" is a Saturday")
		if saturday != (y == 2030) {
			t.Errorf("%d: Saturday note %t", y, saturday)
		}
	}
}

// TestFrenchVATDay: every cell of CGI ann. IV art. 39's schedule, the
// research note's examples from recorded companies, and its variants.
func TestFrenchVATDay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		col      deadlines.FrenchVATColumn
		dep, sir string
		initial  byte
		want     int
		ok       bool
	}{
		{deadlines.FrenchVATIndividual, "75", "300025764", 'A', 15, true},
		{deadlines.FrenchVATIndividual, "93", "300025764", 'H', 15, true},
		{deadlines.FrenchVATIndividual, "92", "300025764", 'I', 17, true},
		{deadlines.FrenchVATIndividual, "35", "300025764", 'H', 16, true},
		{deadlines.FrenchVATIndividual, "35", "300025764", 'Z', 19, true},
		{deadlines.FrenchVATIndividual, "35", "300025764", 0, 0, false}, // the masked EI of the recordings
		{deadlines.FrenchVATCompany, "75", "680000000", 0, 19, true},
		{deadlines.FrenchVATCompany, "94", "690000000", 0, 20, true},
		{deadlines.FrenchVATCompany, "75", "780000000", 0, 20, true},
		{deadlines.FrenchVATCompany, "75", "790000000", 0, 21, true},
		{deadlines.FrenchVATCompany, "92", "302474648", 0, 19, true}, // NATURALIA FRANCE
		{deadlines.FrenchVATCompany, "75", "910866482", 0, 21, true}, // KIKOU (Paris)
		{deadlines.FrenchVATCompany, "83", "480189679", 0, 21, true}, // KIKOU (Var)
		{deadlines.FrenchVATCompany, "2A", "100000000", 0, 21, true}, // Corsica: "autres départements"
		{deadlines.FrenchVATSA, "75", "552032534", 0, 23, true},      // DANONE
		{deadlines.FrenchVATSA, "75", "356000000", 0, 23, true},      // LA POSTE
		{deadlines.FrenchVATSA, "75", "750000000", 0, 24, true},
		{deadlines.FrenchVATSA, "69", "100000000", 0, 24, true},
		{deadlines.FrenchVATOther, "75", "100000000", 0, 24, true},
		{deadlines.FrenchVATCompany, "", "100000000", 0, 0, false},
	}
	for _, tc := range tests {
		day, ok := deadlines.FrenchVATDay(tc.col, tc.dep, tc.sir, tc.initial)
		if day != tc.want || ok != tc.ok {
			t.Errorf("FrenchVATDay(%d, %s, %s, %q) = %d %t, want %d %t", tc.col, tc.dep, tc.sir, tc.initial, day, ok, tc.want, tc.ok)
		}
	}
}

// TestFranceVariants: the research note's variants of the worked table.
// An SA in Paris with SIREN 00–74 files CA3 on the 23rd (23 May 2026 is a
// Saturday and 25 May Whit Monday: Tuesday 26 May; 23 August 2026 a
// Sunday: 24 August); an employer of 50 or more files the DSN on the 5th
// (5 April 2026 a Sunday and 6 April Easter Monday: 7 April; 5 July 2026 a
// Sunday: 6 July; 5 September and 5 December 2026 Saturdays: 7 September,
// 7 December).
func TestFranceVariants(t *testing.T) {
	t.Parallel()
	sa := frSASDuties()
	sa.VATColumn, sa.Departement = deadlines.FrenchVATSA, "75"
	rep := frSAS()
	rep.ID = "552032534"
	for _, c := range []struct{ today, stat, due string }{
		{"2026-05-01", "2026-05-23", "2026-05-26"}, {"2026-08-01", "2026-08-23", "2026-08-24"},
	} {
		dl, _ := findKind(deadlines.France(rep, sa, mustDate(t, c.today)), deadlines.VATReturn)
		if dl.StatutoryDate.String() != c.stat || dl.DueDate.String() != c.due || !dl.RolledForward {
			t.Errorf("SA CA3 asked %s: %s due %s, want %s due %s", c.today, dl.StatutoryDate, dl.DueDate, c.stat, c.due)
		}
	}
	big := frSASDuties()
	big.HeadcountBand = "21"
	for _, c := range []struct{ today, stat, due string }{
		{"2026-04-01", "2026-04-05", "2026-04-07"}, {"2026-07-01", "2026-07-05", "2026-07-06"},
		{"2026-09-01", "2026-09-05", "2026-09-07"}, {"2026-12-01", "2026-12-05", "2026-12-07"},
	} {
		out := deadlines.France(frSAS(), big, mustDate(t, c.today))
		dl, _ := findKind(out, deadlines.FrenchDSN)
		if dl.StatutoryDate.String() != c.stat || dl.DueDate.String() != c.due {
			t.Errorf("DSN 50+ asked %s: %s due %s, want %s due %s", c.today, dl.StatutoryDate, dl.DueDate, c.stat, c.due)
		}
		if !strings.Contains(strings.Join(out.Notes, " "), "pays its staff in the month after") {
			t.Errorf("DSN 50+: no pay-month note")
		}
	}
}

// TestFranceLawTable checks every occurrence due in 2025–2031 of every kind
// against its rule as the source states it, with the roll taken from the
// research note's holiday list, not from this package's calendar.
func TestFranceLawTable(t *testing.T) {
	t.Parallel()
	hol := frNonBusinessDays(t)
	secondWorkingDay := func(y int) registry.Date {
		d, n := registry.NewDate(y, 5, 1), 0
		for n < 2 {
			d = d.AddDays(1)
			if _, h := hol[d]; !h && w(d) {
				n++
			}
		}
		return d
	}
	rules := []struct {
		kind   registry.DeadlineKind
		source string
		// statutory gives the statutory date of the period starting in
		// year y and month m (January for annual kinds; the instalment's
		// month for instalments).
		statutory func(y int, m time.Month) registry.Date
		months    []time.Month
		rolls     bool
	}{
		{deadlines.FrenchDSN, "CSS R133-14: the 15th of M+1", func(y int, m time.Month) registry.Date { return registry.NewDate(y, m+1, 15) }, frAllMonths(), true},
		{deadlines.VATReturn, "CGI ann. IV art. 39: companies outside Paris, the 21st of M+1", func(y int, m time.Month) registry.Date { return registry.NewDate(y, m+1, 21) }, frAllMonths(), true},
		{deadlines.FrenchCorporateTaxInstalment, "CGI ann. III: 15 March, June, September, December", func(y int, m time.Month) registry.Date { return registry.NewDate(y, m, 15) },
			[]time.Month{time.March, time.June, time.September, time.December}, true},
		{deadlines.TaxReturn, "CGI ann. III art. 344 I-0 bis: 2nd working day after 1 May", func(y int, _ time.Month) registry.Date { return secondWorkingDay(y + 1) }, nil, false},
		{deadlines.FrenchCorporateTaxBalance, "BOI-IS-DECLA-20-20: 15 May", func(y int, _ time.Month) registry.Date { return registry.NewDate(y+1, 5, 15) }, nil, true},
		{deadlines.GeneralMeeting, "C. com. L225-100, CPC 641: six months, 30 June", func(y int, _ time.Month) registry.Date { return registry.NewDate(y+1, 6, 30) }, nil, false},
		{deadlines.FrenchAccountsFiling, "C. com. L232-23, greffes: 31 July", func(y int, _ time.Month) registry.Date { return registry.NewDate(y+1, 7, 31) }, nil, false},
		{deadlines.FrenchAccountsFilingElectronic, "C. com. L232-23, greffes: 31 August", func(y int, _ time.Month) registry.Date { return registry.NewDate(y+1, 8, 31) }, nil, false},
		{deadlines.FrenchCFE, "CGI 1679 quinquies: 15 December of the year", func(y int, _ time.Month) registry.Date { return registry.NewDate(y, 12, 15) }, nil, true},
	}
	rep, duties := frSAS(), frSASDuties()
	for _, r := range rules {
		t.Run(string(r.kind), func(t *testing.T) {
			t.Parallel()
			n := 0
			for y := 2023; y <= 2031; y++ {
				months := r.months
				if months == nil {
					months = []time.Month{time.January}
				}
				for _, m := range months {
					stat := r.statutory(y, m)
					due := stat
					if r.rolls {
						due = frRollIndependent(hol, stat)
					}
					if due.Year < 2025 || due.Year > 2031 {
						continue
					}
					dl, ok := findKind(deadlines.France(rep, duties, due), r.kind)
					if !ok {
						t.Fatalf("no %s on %s", r.kind, due)
					}
					got := fmt.Sprintf("%s %s %t %d", dl.StatutoryDate, dl.DueDate, dl.RolledForward, *dl.DaysUntil)
					want := fmt.Sprintf("%s %s %t %d", stat, due, due != stat, 0)
					if got != want {
						t.Errorf("%s (%s), period %d-%02d: got %s, want %s", r.kind, r.source, y, m, got, want)
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

func frAllMonths() []time.Month {
	out := make([]time.Month, 0, 12)
	for m := time.January; m <= time.December; m++ {
		out = append(out, m)
	}
	return out
}

// TestFranceSweep sweeps today over every day of 2025–2031 against the
// research note's holiday list: each deadline is the next occurrence (due
// on or after today, and asking the day after its due date gives a later
// one), a rolling kind is due on the first business day of the list on or
// after its statutory date, and a company-law kind is never moved.
func TestFranceSweep(t *testing.T) {
	t.Parallel()
	hol := frNonBusinessDays(t)
	rolls := map[registry.DeadlineKind]bool{deadlines.FrenchDSN: true, deadlines.VATReturn: true, deadlines.FrenchCorporateTaxInstalment: true,
		deadlines.FrenchCorporateTaxBalance: true, deadlines.FrenchCFE: true}
	profiles := map[string]*deadlines.FranceDuties{"SAS 69": frSASDuties()}
	sa := frSASDuties()
	sa.VATColumn, sa.Departement, sa.HeadcountBand = deadlines.FrenchVATSA, "75", "42"
	profiles["SA 75"] = sa
	rep := frSAS()
	for name, duties := range profiles {
		for today := registry.NewDate(2025, 1, 1); today.Year <= 2031; today = today.AddDays(1) {
			out := deadlines.France(rep, duties, today)
			if len(out.Deadlines) != 9 {
				t.Fatalf("%s %s: %d deadlines, want 9", name, today, len(out.Deadlines))
			}
			for i, dl := range out.Deadlines {
				if dl.DueDate.Before(today) {
					t.Errorf("%s %s: %s due %s, before today", name, today, dl.Kind, dl.DueDate)
				}
				if i > 0 && out.Deadlines[i-1].DueDate.After(dl.DueDate) {
					t.Errorf("%s %s: not sorted", name, today)
				}
				if dl.DueDate.Year > 2031 {
					continue // beyond the list
				}
				want := dl.StatutoryDate
				if rolls[dl.Kind] {
					want = frRollIndependent(hol, dl.StatutoryDate)
				}
				if dl.DueDate != want || dl.RolledForward != (dl.DueDate != dl.StatutoryDate) {
					t.Errorf("%s %s: %s statutory %s due %s, want due %s", name, today, dl.Kind, dl.StatutoryDate, dl.DueDate, want)
				}
				if dl.Kind == deadlines.TaxReturn {
					if _, h := hol[dl.DueDate]; h || !w(dl.DueDate) {
						t.Errorf("%s %s: tax_return due %s, not a working day", name, today, dl.DueDate)
					}
				}
				if *dl.DaysUntil != dl.DueDate.DaysSince(today) {
					t.Errorf("%s %s: %s days_until %d", name, today, dl.Kind, *dl.DaysUntil)
				}
			}
		}
		// The next occurrence: on the day after each due date, the kind's
		// next deadline is later (no period is skipped or repeated).
		for _, kind := range []registry.DeadlineKind{deadlines.FrenchDSN, deadlines.VATReturn, deadlines.FrenchCorporateTaxInstalment,
			deadlines.TaxReturn, deadlines.FrenchCorporateTaxBalance, deadlines.GeneralMeeting, deadlines.FrenchAccountsFiling,
			deadlines.FrenchAccountsFilingElectronic, deadlines.FrenchCFE} {
			prev, _ := findKind(deadlines.France(rep, duties, registry.NewDate(2025, 1, 1)), kind)
			for prev.DueDate.Year <= 2031 {
				next, _ := findKind(deadlines.France(rep, duties, prev.DueDate.AddDays(1)), kind)
				step := next.StatutoryDate.DaysSince(prev.StatutoryDate)
				lo, hi := 361, 370 // annual (the second working day after 1 May varies)
				switch {
				case next.Recurrence == registry.RecurrenceMonthly:
					lo, hi = 28, 31
				case kind == deadlines.FrenchCorporateTaxInstalment:
					lo, hi = 90, 92
				}
				if !next.DueDate.After(prev.DueDate) || *next.PeriodLabel == *prev.PeriodLabel || step < lo || step > hi {
					t.Fatalf("%s %s: after %s (%s) comes %s (%s): a period skipped or repeated", name, kind, prev.StatutoryDate,
						*prev.PeriodLabel, next.StatutoryDate, *next.PeriodLabel)
				}
				prev = next
			}
		}
	}
}

// TestFranceWhoGetsWhat: the stops, the forms without duties, the register
// facts that decide VAT and the DSN, and the creation year.
func TestFranceWhoGetsWhat(t *testing.T) {
	t.Parallel()
	today := registry.NewDate(2026, 11, 24)
	kinds := func(out *registry.DeadlineReport) []string {
		ks := []string{}
		for _, d := range out.Deadlines {
			ks = append(ks, string(d.Kind))
		}
		return sortedCopy(ks)
	}
	all := []string{"accounts_filing", "accounts_filing_electronic", "cfe", "corporate_tax_balance", "corporate_tax_instalment", "dsn",
		"general_meeting", "tax_return", "vat_return"}
	ei := &deadlines.FranceDuties{Code: "1000", Label: "individual entrepreneur (entrepreneur individuel)",
		VAT: deadlines.KindDuty{Duty: deadlines.DutyConditional}, VATColumn: deadlines.FrenchVATIndividual,
		CFE: deadlines.KindDuty{Duty: deadlines.DutyConditional}, Departement: "35", Employer: deadlines.DutyNo, HeadcountBand: "NN"}
	tests := []struct {
		name     string
		rep      func() *registry.CompanyReport
		duties   func() *deadlines.FranceDuties
		want     []string
		wantNote string
	}{
		{"active SAS", frSAS, frSASDuties, all, "calendar year"},
		{"ceased", func() *registry.CompanyReport { r := frSAS(); r.Status = registry.StatusDissolved; return r }, frSASDuties, []string{}, "ceased"},
		{"status unknown", func() *registry.CompanyReport { r := frSAS(); r.Status = registry.StatusUnknown; return r }, frSASDuties, all, "unknown"},
		{"public body", frSAS, func() *deadlines.FranceDuties {
			return &deadlines.FranceDuties{PublicBody: true, Employer: deadlines.DutyYes}
		}, []string{}, "public body"},
		{"nil duties", frSAS, func() *deadlines.FranceDuties { return nil }, []string{}, "DSN"},
		{"unknown form, VAT number listed, employer", frSAS, func() *deadlines.FranceDuties {
			return &deadlines.FranceDuties{Departement: "13", VATRegistered: true, Employer: deadlines.DutyYes, HeadcountBand: "01"}
		}, []string{"dsn", "vat_return"}, "The CFE (15 December) is not computed: whether this form is liable or exempt is not modelled."},
		{"EI with a surname", frSAS, func() *deadlines.FranceDuties { d := *ei; d.SurnameInitial = 'M'; return &d }, []string{"cfe", "vat_return"}, "Not computed"},
		{"masked EI", frSAS, func() *deadlines.FranceDuties { d := *ei; return &d }, []string{"cfe"}, "not published for this entrepreneur"},
		{"non-employer", frSAS, func() *deadlines.FranceDuties {
			d := frSASDuties()
			d.Employer, d.HeadcountBand = deadlines.DutyNo, "NN"
			return d
		},
			[]string{"accounts_filing", "accounts_filing_electronic", "cfe", "corporate_tax_balance", "corporate_tax_instalment", "general_meeting", "tax_return", "vat_return"}, ""},
		{"employer unknown", frSAS, func() *deadlines.FranceDuties { d := frSASDuties(); d.Employer = deadlines.DutyUnknown; return d },
			[]string{"accounts_filing", "accounts_filing_electronic", "cfe", "corporate_tax_balance", "corporate_tax_instalment", "general_meeting", "tax_return", "vat_return"}, "does not say whether"},
		// fr-deadlines.md §4: tranche_effectif_salarie "null → unknown": an
		// employer without a band has no known DSN day (the 5th or the
		// 15th, CSS art. R133-14), so it is not computed and a note gives
		// both days.
		{"employer without a headcount band", frSAS, func() *deadlines.FranceDuties { d := frSASDuties(); d.HeadcountBand = ""; return d },
			[]string{"accounts_filing", "accounts_filing_electronic", "cfe", "corporate_tax_balance", "corporate_tax_instalment", "general_meeting", "tax_return", "vat_return"},
			"publishes no headcount band, so the day of the monthly social return (DSN) cannot be told: the 5th"},
		{"employer with the band NN", frSAS, func() *deadlines.FranceDuties { d := frSASDuties(); d.HeadcountBand = "NN"; return d },
			[]string{"accounts_filing", "accounts_filing_electronic", "cfe", "corporate_tax_balance", "corporate_tax_instalment", "general_meeting", "tax_return", "vat_return"},
			"band NN (no salaried staff in the reference year), so the day"},
		{"Saint-Barthélemy: no VAT", frSAS, func() *deadlines.FranceDuties { d := frSASDuties(); d.Departement = "977"; return d },
			[]string{"accounts_filing", "accounts_filing_electronic", "cfe", "corporate_tax_balance", "corporate_tax_instalment", "dsn", "general_meeting", "tax_return"}, "outside the French VAT"},
		{"Moselle", frSAS, func() *deadlines.FranceDuties { d := frSASDuties(); d.Departement = "57"; return d }, all, "Alsace-Moselle"},
		{"département unknown", frSAS, func() *deadlines.FranceDuties { d := frSASDuties(); d.Departement = ""; return d },
			[]string{"accounts_filing", "accounts_filing_electronic", "cfe", "corporate_tax_balance", "corporate_tax_instalment", "dsn", "general_meeting", "tax_return"}, "cannot be told"},
		{"created this year: no CFE, no instalments", func() *registry.CompanyReport {
			r := frSAS()
			r.FoundedAt = countrykit.Ptr(registry.NewDate(2026, 9, 15))
			return r
		}, frSASDuties, []string{"accounts_filing", "accounts_filing_electronic", "corporate_tax_balance", "dsn", "general_meeting", "tax_return", "vat_return",
			"cfe", "corporate_tax_instalment"}, "less than a year ago"},
		{"nil report", func() *registry.CompanyReport { return nil }, frSASDuties, []string{}, "No company report"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := deadlines.France(tc.rep(), tc.duties(), today)
			if diff := cmp.Diff(sortedCopy(tc.want), kinds(out)); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if tc.wantNote != "" && !strings.Contains(strings.Join(out.Notes, " "), tc.wantNote) {
				t.Errorf("no note containing %q in %q", tc.wantNote, out.Notes)
			}
		})
	}
}

// TestFranceCreationYear: a company created on 15 September 2026 owes no
// CFE for 2026 (not in the year of creation) and no instalment in 2026
// (its first financial year), no VAT or DSN month before September 2026.
func TestFranceCreationYear(t *testing.T) {
	t.Parallel()
	rep := frSAS()
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2026, 9, 15))
	out := deadlines.France(rep, frSASDuties(), registry.NewDate(2026, 9, 1))
	got := map[string]string{}
	for _, d := range out.Deadlines {
		got[string(d.Kind)] = d.PeriodStart.String()
	}
	want := map[string]string{"cfe": "2027-01-01", "corporate_tax_instalment": "2027-01-01", "vat_return": "2026-09-01", "dsn": "2026-09-01",
		"tax_return": "2026-01-01", "corporate_tax_balance": "2026-01-01", "general_meeting": "2026-01-01", "accounts_filing": "2026-01-01",
		"accounts_filing_electronic": "2026-01-01"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("first periods (-want +got):\n%s", diff)
	}
}

func TestFranceRules(t *testing.T) {
	t.Parallel()
	doc := deadlines.FranceRules()
	for _, want := range []string{"## Deadlines (France)", "Lundi de Pentecôte (Whit Monday): Easter Sunday + 50 days", "| `dsn` (monthly)",
		"00–68: 19", "D171-5", "642", "18 May 2030"} {
		if !strings.Contains(doc, want) {
			t.Errorf("rules lack %q", want)
		}
	}
	if !strings.HasSuffix(doc, "\n") {
		t.Error("no final newline")
	}
}

// FuzzFrance: any report, profile and day give a report with the
// invariants, and never a panic.
func FuzzFrance(f *testing.F) {
	f.Add(int64(0), "5710", "69", "11", byte('M'), uint8(2), int64(20000), uint8(0))
	f.Add(int64(-400000), "", "977", "NN", byte(0), uint8(1), int64(1<<40), uint8(5))
	f.Fuzz(func(t *testing.T, found int64, code, dep, band string, initial byte, col uint8, day int64, st uint8) {
		rep := frSAS()
		rep.FoundedAt = countrykit.Ptr(frEpoch.AddDays(int(found % 5_000_000)))
		rep.Status = []registry.Status{registry.StatusActive, registry.StatusUnknown, registry.StatusDissolved, registry.StatusUnderLiquidation, "", "x"}[int(st)%6]
		d := frSASDuties()
		d.Code, d.Departement, d.HeadcountBand, d.SurnameInitial, d.VATColumn = code, dep, band, initial, deadlines.FrenchVATColumn(col%5)
		if code == "" {
			d.Label = ""
		}
		today := frEpoch.AddDays(int(day % 5_000_000))
		out := deadlines.France(rep, d, today)
		if out == nil || out.Deadlines == nil || out.Notes == nil || out.Today != today {
			t.Fatalf("report %+v", out)
		}
		seen := map[registry.DeadlineKind]bool{}
		for _, dl := range out.Deadlines {
			if seen[dl.Kind] || dl.DueDate.Before(dl.StatutoryDate) || (frPlausible(today) && dl.DueDate.Before(today)) {
				t.Errorf("%s: %+v", today, dl)
			}
			seen[dl.Kind] = true
		}
	})
}

var frEpoch = registry.NewDate(1970, 1, 1)

func frPlausible(d registry.Date) bool { return d.Year >= -9999 && d.Year <= 9999 }

// BenchmarkFranceSAS measures the worked table's SAS on one day: nine kinds.
func BenchmarkFranceSAS(b *testing.B) {
	rep, duties := frSAS(), frSASDuties()
	today := registry.NewDate(2026, 11, 24)
	b.ReportAllocs()
	for b.Loop() {
		if out := deadlines.France(rep, duties, today); len(out.Deadlines) != 9 {
			b.Fatal(len(out.Deadlines))
		}
	}
}

// TestFranceCorporateTaxBalanceText: the balance is due by the 15th of the
// fourth month after the year-end, which for a 31 December year-end would
// be 15 April; the administration sets 15 May for a year ending on 31
// December (BOI-IS-DECLA-20-20: "au plus tard le 15 du quatrième mois qui
// suit la clôture de l'exercice"; 15 May for 31 December, research
// fr-deadlines.md §2). The text must not call 15 May the 15th of the
// fourth month after the year-end, and must give the date it computes.
func TestFranceCorporateTaxBalanceText(t *testing.T) {
	t.Parallel()
	out := deadlines.France(frSAS(), frSASDuties(), registry.NewDate(2026, 3, 2))
	d, ok := findKind(out, deadlines.FrenchCorporateTaxBalance)
	if !ok {
		t.Fatal("no corporate_tax_balance")
	}
	if d.StatutoryDate != registry.NewDate(2026, 5, 15) {
		t.Errorf("statutory %s, want 2026-05-15", d.StatutoryDate)
	}
	want := "A simplified joint-stock company (SAS) taxed at corporate income tax pays the balance of the year's tax by the 15th " +
		"of the fourth month after the year-end, except that for a year ending on 31 December the date is 15 May " +
		"(BOI-IS-DECLA-20-20); moved to the next business day (a direct tax)."
	if !strings.HasPrefix(d.AppliesBecause, want) {
		t.Errorf("applies_because:\n got %q\nwant %q", d.AppliesBecause, want)
	}
}
