package deadlines

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/google/go-cmp/cmp"
)

// allForms are the legal-form codes the property tests draw from: every
// code brreg publishes, lower case, junk and empty.
var allForms = []string{
	"AS", "ASA", "ENK", "ANS", "DA", "KS", "NUF", "SA", "STI", "FLI", "BA", "BRL", "BBL", "SF", "SPA", "GFS", "PK", "VPFO",
	"ADOS", "ANNA", "BO", "EOFG", "ESEK", "FKF", "FYLK", "IKJP", "IKS", "KBO", "KF", "KIRK", "KOMM", "KTRF", "OPMV",
	"ORGL", "PERS", "PRE", "SAM", "SE", "SÆR", "TVAM", "UTLA", "BEDR", "AAFY", "as", " AS ", "", "XYZ",
	"ltd", "plc", "llp", "private-unlimited", "limited-partnership",
}

var allStatuses = []registry.Status{
	registry.StatusActive, registry.StatusActive, registry.StatusActive, registry.StatusUnderLiquidation,
	registry.StatusUnderCompulsoryLiquidation, registry.StatusBankrupt, registry.StatusDissolved,
	registry.StatusDeleted, registry.StatusUnknown, "",
}

// epoch is day 0 of the day numbers the fuzz targets draw.
var epoch = registry.NewDate(1970, 1, 1)

var rollingKinds = map[string]bool{kindVATReturn: true, kindPayrollReport: true, kindTaxReturn: true, kindShareholderStmt: true}

// checkInvariants asserts the properties every report must have.
func checkInvariants(t *testing.T, rep *registry.CompanyReport, today registry.Date, out *registry.DeadlineReport, norway bool) {
	t.Helper()
	if out == nil || out.Deadlines == nil || out.Notes == nil {
		t.Fatalf("nil report, deadlines or notes: %+v", out)
	}
	if out.Today != today {
		t.Errorf("today %s, want %s", out.Today, today)
	}
	if norway && !hasNote(out, "calendar year") {
		t.Errorf("no calendar-year note in %q", out.Notes)
	}
	seen := map[string]bool{}
	var start *registry.Date
	if rep != nil {
		if s := firstOf(rep.FoundedAt, rep.RegisteredAt); s != nil {
			start = countrykit.Ptr(normalize(*s))
		}
	}
	for i, dl := range out.Deadlines {
		if seen[string(dl.Kind)] {
			t.Errorf("kind %s twice", dl.Kind)
		}
		seen[string(dl.Kind)] = true
		if i > 0 {
			prev := out.Deadlines[i-1]
			if c := prev.DueDate.Compare(dl.DueDate); c > 0 || (c == 0 && prev.Kind >= dl.Kind) {
				t.Errorf("not sorted: %s %s before %s %s", prev.DueDate, prev.Kind, dl.DueDate, dl.Kind)
			}
		}
		if dl.DaysUntil == nil || *dl.DaysUntil != dl.DueDate.DaysSince(today) {
			t.Errorf("%s: days_until %v, want %d", dl.Kind, dl.DaysUntil, dl.DueDate.DaysSince(today))
		}
		if dl.DaysUntil != nil && *dl.DaysUntil != int(dl.DueDate.Time().Sub(today.Time()).Hours()/24) && abs(dl.DueDate.Year-today.Year) < 250 {
			// (time.Duration saturates after 292 years; day numbers do not.)
			t.Errorf("%s: days_until %d disagrees with the time package", dl.Kind, *dl.DaysUntil)
		}
		if dl.RolledForward != (dl.DueDate != dl.StatutoryDate) {
			t.Errorf("%s: rolled_forward %v with statutory %s due %s", dl.Kind, dl.RolledForward, dl.StatutoryDate, dl.DueDate)
		}
		if dl.Country != out.Country || dl.Registry != out.Registry || dl.Name == "" || dl.Authority == "" ||
			dl.AppliesBecause == "" || dl.SourceURL == nil || dl.LocalName == nil || !dl.Recurrence.Valid() || dl.Recurrence == "" {
			t.Errorf("%s: incomplete deadline %+v", dl.Kind, dl)
		}
		if !strings.HasSuffix(dl.AppliesBecause, ".") {
			t.Errorf("%s: applies_because is not a sentence: %q", dl.Kind, dl.AppliesBecause)
		}
		// A computed UK date of a period the register names may have passed:
		// a note then says the filing is overdue.
		computed := norway || (strings.HasPrefix(dl.AppliesBecause, "Computed") && !hasNote(out, string(dl.Kind)+" is overdue"))
		if computed && dl.DueDate.Before(today) {
			t.Errorf("%s: computed due date %s before today %s", dl.Kind, dl.DueDate, today)
		}
		if norway {
			if rollingKinds[string(dl.Kind)] {
				if !isNorwegianWorkingDay(dl.DueDate) {
					t.Errorf("%s: due %s (%s) is not a working day", dl.Kind, dl.DueDate, dl.DueDate.Weekday())
				}
				for x := dl.StatutoryDate; x.Before(dl.DueDate); x = x.AddDays(1) {
					if isNorwegianWorkingDay(x) {
						t.Errorf("%s: rolled past the working day %s", dl.Kind, x)
					}
				}
			} else if dl.DueDate != dl.StatutoryDate {
				t.Errorf("%s: fixed kind rolled from %s to %s", dl.Kind, dl.StatutoryDate, dl.DueDate)
			} else if w := dl.DueDate.Weekday(); (w == time.Saturday || w == time.Sunday) && !hasNote(out, string(dl.Kind)+": "+dl.DueDate.String()) {
				t.Errorf("%s: %s is a %s but no note says so", dl.Kind, dl.DueDate, w)
			}
			if start != nil && dl.PeriodEnd != nil && dl.PeriodEnd.Before(*start) {
				t.Errorf("%s: period ending %s is before the founding %s", dl.Kind, dl.PeriodEnd, *start)
			}
			if last := rep.LastAnnualAccountsYear; dl.Kind == kindAnnualAccounts && last != nil && *last >= 1 && *last <= maxYear && dl.PeriodEnd.Year <= *last {
				t.Errorf("annual_accounts for %d, already filed up to %d", dl.PeriodEnd.Year, *rep.LastAnnualAccountsYear)
			}
		} else if dl.DueDate != dl.StatutoryDate {
			t.Errorf("%s: UK date rolled", dl.Kind)
		}
	}
	if len(out.Deadlines) == 0 && len(out.Notes) == 0 {
		t.Error("empty list without a note")
	}
}

func randomDate(r *rand.Rand, from, to int) registry.Date {
	first := registry.NewDate(from, 1, 1)
	return first.AddDays(r.IntN(registry.NewDate(to, 1, 1).DaysSince(first)))
}

func randomReport(r *rand.Rand, country string) *registry.CompanyReport {
	rep := countrykit.NewReport(country, "", "123456789", "RANDOM")
	if form := allForms[r.IntN(len(allForms))]; form != "" || r.IntN(2) == 0 {
		rep.LegalFormCode = countrykit.Ptr(form)
	}
	rep.Status = allStatuses[r.IntN(len(allStatuses))]
	rep.IsSubunit = r.IntN(10) == 0
	if r.IntN(2) == 0 {
		rep.ParentID = countrykit.Ptr("923609016")
	}
	flag := func() *bool {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return countrykit.Ptr(false)
		}
		return countrykit.Ptr(true)
	}
	rep.VATRegistered, rep.EmployeesReported = flag(), flag()
	if r.IntN(3) == 0 {
		rep.Employees = countrykit.Ptr(r.IntN(50))
	}
	if r.IntN(4) > 0 {
		rep.FoundedAt = countrykit.Ptr(randomDate(r, 1850, 2035))
	}
	if r.IntN(3) > 0 {
		rep.RegisteredAt = countrykit.Ptr(randomDate(r, 1995, 2035))
	}
	if r.IntN(2) == 0 {
		rep.LastAnnualAccountsYear = countrykit.Ptr(1990 + r.IntN(45))
	}
	if country == "GB" && r.IntN(2) == 0 {
		for _, kind := range []string{kindAnnualAccounts, kindConfirmationStmt} {
			if r.IntN(3) == 0 {
				continue
			}
			p := registry.PublishedDeadline{Kind: registry.DeadlineKind(kind)}
			if r.IntN(2) == 0 {
				p.DueDate = countrykit.Ptr(randomDate(r, 2015, 2035))
			}
			if r.IntN(2) == 0 {
				p.PeriodEnd = countrykit.Ptr(randomDate(r, 2010, 2035))
			}
			rep.PublishedDeadlines = append(rep.PublishedDeadlines, p)
		}
	}
	return rep
}

// TestProperties runs both engines over many random (form, flags, status,
// dates, today) inputs with a fixed seed and checks the invariants, and that
// the same input always gives the same output.
func TestProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(2026, 4))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		country := "NO"
		if i%3 == 0 {
			country = "GB"
		}
		rep := randomReport(r, country)
		today := randomDate(r, 2024, 2032)
		if i%50 == 0 {
			today = randomDate(r, 1900, 2400)
		}
		var out, again *registry.DeadlineReport
		if country == "NO" {
			out, again = norway(rep, today), norway(rep, today)
		} else {
			profiles := ukDutyProfiles()
			duties := profiles[i%len(profiles)]
			out, again = UnitedKingdom(rep, duties, today), UnitedKingdom(rep, duties, today)
		}
		checkInvariants(t, rep, today, out, country == "NO")
		if diff := cmp.Diff(out, again); diff != "" {
			t.Fatalf("not deterministic (-first +second):\n%s", diff)
		}
		if t.Failed() {
			t.Fatalf("input %d: %+v today %s", i, rep, today)
		}
	}
}

// TestNorwayNextOccurrenceIsFirst checks minimality: for each kind, the
// period before the one returned was either due before today or skipped
// because it ended before the founding.
func TestNorwayNextOccurrenceIsFirst(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 2026))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		rep := withFlags(noReport("AS"), true, true)
		rep.FoundedAt = countrykit.Ptr(randomDate(r, 2020, 2030))
		today := randomDate(r, 2024, 2032)
		out := norway(rep, today)
		for _, dl := range out.Deadlines {
			var prevDue, prevEnd registry.Date
			ps := *dl.PeriodStart
			switch dl.Kind {
			case kindPayrollReport:
				prevEnd = ps.AddDays(-1)
				prevDue = rollForwardNorway(date(prevEnd.Year, prevEnd.Month+1, 5))
			case kindVATReturn:
				prevEnd = ps.AddDays(-1)
				prevDue = rollForwardNorway(vatTermDue(prevEnd.Year, int(prevEnd.Month)/2))
			default:
				prevEnd = ps.AddDays(-1)
				prevDue = registry.Date{Year: dl.StatutoryDate.Year - 1, Month: dl.StatutoryDate.Month, Day: dl.StatutoryDate.Day}
				if rollingKinds[string(dl.Kind)] {
					prevDue = rollForwardNorway(prevDue)
				}
			}
			if !prevDue.Before(today) && !prevEnd.Before(*rep.FoundedAt) {
				t.Fatalf("%s: today %s founded %s: returned period starting %s, but the previous one (due %s) was not skipped",
					dl.Kind, today, *rep.FoundedAt, ps, prevDue)
			}
		}
	}
}

// FuzzNorway feeds arbitrary legal forms, flags, statuses and dates
// (founding, VAT registration, today) to Norway: it must never panic and must keep the invariants.
func FuzzNorway(f *testing.F) {
	f.Add("AS", uint8(0b11), uint8(0), int32(20000), int32(11000), int32(2024))
	f.Add("BEDR", uint8(0b111), uint8(3), int32(-1), int32(0), int32(-5))
	f.Add("KOMM", uint8(0b01), uint8(9), int32(23000), int32(24000), int32(2100))
	f.Add("ENK", uint8(0b10), uint8(1), int32(2932896), int32(-719468), int32(0x7fffffff))
	f.Add("AS", uint8(0b0101_0001), uint8(0), int32(20781), int32(11000), int32(20527))
	f.Add("NUF", uint8(0b1000_1101), uint8(1), int32(2932896), int32(0), int32(9999))
	f.Fuzz(func(t *testing.T, form string, flags, status uint8, today, founded, last int32) {
		rep := countrykit.NewReport("NO", "brreg", "923609016", "FUZZ")
		rep.LegalFormCode = countrykit.StringOrNil(form)
		rep.VATRegistered = countrykit.Ptr(flags&1 != 0)
		rep.EmployeesReported = countrykit.Ptr(flags&2 != 0)
		rep.IsSubunit = flags&4 != 0
		if flags&8 != 0 {
			rep.Employees = countrykit.Ptr(int(flags >> 4))
		}
		rep.Status = allStatuses[int(status)%len(allStatuses)]
		// Dates run to about ±9000 years around 1970, a little beyond what a
		// report can carry.
		clamp := func(n int32) int { return int(n)%4_000_000 - 719_468 }
		day := epoch.AddDays(clamp(today))
		if flags&16 != 0 {
			rep.FoundedAt = countrykit.Ptr(epoch.AddDays(clamp(founded)))
		}
		if flags&32 != 0 {
			rep.LastAnnualAccountsYear = countrykit.Ptr(int(last))
		}
		// The VAT registration date: a valid day, or (bit 128) a raw
		// Date whose month and day may be out of range, such as 9999-13-01.
		switch {
		case flags&128 != 0:
			rep.VATRegisteredAt = &registry.Date{Year: int(last) % 20_000, Month: time.Month(flags % 16), Day: int(status)}
		case flags&64 != 0:
			rep.VATRegisteredAt = countrykit.Ptr(epoch.AddDays(clamp(last)))
		}
		checkInvariants(t, rep, day, norway(rep, day), true)
	})
}

// FuzzUnitedKingdom feeds arbitrary types, statuses and published dates to
// UnitedKingdom: it must never panic and must keep the invariants.
func FuzzUnitedKingdom(f *testing.F) {
	f.Add("ltd", uint8(0), int32(20000), int32(18000), int32(19000), int32(19300), uint8(0b1111))
	f.Add("plc", uint8(0), int32(20000), int32(-700000), int32(0), int32(0), uint8(0b0001))
	f.Add("llp", uint8(2), int32(2900000), int32(2900000), int32(2900000), int32(2900000), uint8(0b1010))
	f.Fuzz(func(t *testing.T, typ string, status uint8, today, inc, due, end int32, flags uint8) {
		rep := countrykit.NewReport("GB", "companieshouse", "12279804", "FUZZ")
		rep.LegalFormCode = countrykit.StringOrNil(typ)
		rep.Status = allStatuses[int(status)%len(allStatuses)]
		clamp := func(n int32) int { return int(n)%4_000_000 - 719_468 }
		day := epoch.AddDays(clamp(today))
		if flags&1 != 0 {
			rep.FoundedAt = countrykit.Ptr(epoch.AddDays(clamp(inc)))
		}
		for i, kind := range []string{kindAnnualAccounts, kindConfirmationStmt} {
			p := registry.PublishedDeadline{Kind: registry.DeadlineKind(kind)}
			if flags&(2<<i) != 0 {
				p.DueDate = countrykit.Ptr(epoch.AddDays(clamp(due)))
			}
			if flags&(8<<i) != 0 {
				p.PeriodEnd = countrykit.Ptr(epoch.AddDays(clamp(end)))
			}
			rep.PublishedDeadlines = append(rep.PublishedDeadlines, p)
		}
		profiles := ukDutyProfiles()
		checkInvariants(t, rep, day, UnitedKingdom(rep, profiles[int(flags>>5)%len(profiles)], day), false)
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestImplausibleDates: dates far outside what a report can carry give an
// empty list and a note (today), or are ignored (other dates), instead of
// overflowing or looping.
func TestImplausibleDates(t *testing.T) {
	t.Parallel()
	farFuture := registry.Date{Year: 1 << 60, Month: 1, Day: 1}
	for name, out := range map[string]*registry.DeadlineReport{
		"Norway":        norway(withFlags(noReport("AS"), true, true), farFuture),
		"UnitedKingdom": UnitedKingdom(ukReport(t, "ltd", "2019-10-24"), ukPrivate(), farFuture),
	} {
		if len(out.Deadlines) != 0 || !hasNote(out, "today is outside the years") {
			t.Errorf("%s: deadlines %v, notes %q", name, kinds(out), out.Notes)
		}
	}
	rep := withFlags(noReport("AS"), true, true)
	rep.FoundedAt = countrykit.Ptr(farFuture)
	if got := find(t, norway(rep, d(t, "2026-03-01")), kindTaxReturn).DueDate; got != d(t, "2026-06-01") {
		t.Errorf("an implausible founding date was not ignored: tax return due %s", got)
	}
	uk := ukReport(t, "ltd", "")
	uk.FoundedAt = countrykit.Ptr(farFuture)
	uk.PublishedDeadlines = []registry.PublishedDeadline{{Kind: kindAnnualAccounts, DueDate: countrykit.Ptr(farFuture)}}
	if out := UnitedKingdom(uk, ukPrivate(), d(t, "2026-03-01")); len(out.Deadlines) != 0 {
		t.Errorf("implausible UK dates were used: %v", kinds(out))
	}
}
