package deadlines

import (
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/google/go-cmp/cmp"
)

// ukReport builds an active UK company of the given Companies House type,
// incorporated on inc ("" for unknown).
func ukReport(t *testing.T, typ, inc string) *registry.CompanyReport {
	t.Helper()
	rep := countrykit.NewReport("GB", "companieshouse", "12279804", "EXAMPLE LTD")
	rep.LegalFormCode = countrykit.StringOrNil(typ)
	rep.Status = registry.StatusActive
	if inc != "" {
		rep.RegisteredAt = countrykit.Ptr(d(t, inc))
	}
	return rep
}

// pub is a published deadline; empty strings are null.
func pub(t *testing.T, kind, due, start, end string) registry.PublishedDeadline {
	t.Helper()
	p := registry.PublishedDeadline{Kind: registry.DeadlineKind(kind), Overdue: countrykit.Ptr(false)}
	opt := func(s string) *registry.Date {
		if s == "" {
			return nil
		}
		return countrykit.Ptr(d(t, s))
	}
	p.DueDate, p.PeriodStart, p.PeriodEnd = opt(due), opt(start), opt(end)
	if kind == kindAnnualAccounts {
		p.Source = countrykit.Ptr("accounts.next_accounts.due_on")
	} else {
		p.Source = countrykit.Ptr("confirmation_statement.next_due")
	}
	return p
}

// ukFixtures are the published dates of the recorded Companies House
// profiles (research/companieshouse.md §5 and fixtures/gb/companieshouse).
var ukFixtures = []struct {
	name, typ, inc                         string
	accStart, accEnd, accDue, csEnd, csDue string
	computedAccDue                         string // what s.442/s.443 give without the register's date
}{
	{"02578066 (2022)", "ltd", "1991-01-30", "2022-02-01", "2023-01-31", "2023-10-31", "2023-01-30", "2023-02-13", "2023-10-31"},
	{"08957400 (2024)", "ltd", "2014-03-25", "2023-04-01", "2024-03-31", "2024-12-31", "2024-03-25", "2024-04-08", "2024-12-31"},
	{"12279804 first accounts (2020)", "ltd", "2019-10-24", "2019-10-24", "2020-10-31", "2021-07-24", "2020-10-23", "2020-11-06", "2021-07-24"},
	// The register gave 12 months here: the Corporate Insolvency and
	// Governance Act 2020 extended deadlines falling 27 Jun 2020–5 Apr
	// 2021. The computation cannot know that, which is why the register's
	// date wins.
	{"08957400 (2020, COVID extension)", "ltd", "2014-03-25", "2019-04-01", "2020-03-31", "2021-03-31", "2021-03-25", "2021-04-08", "2020-12-31"},
}

// TestUKPublishedDateWins: the register's dates are used verbatim.
func TestUKPublishedDateWins(t *testing.T) {
	t.Parallel()
	for _, fx := range ukFixtures {
		t.Run(fx.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, fx.typ, fx.inc)
			rep.PublishedDeadlines = []registry.PublishedDeadline{
				pub(t, kindAnnualAccounts, fx.accDue, fx.accStart, fx.accEnd),
				pub(t, kindConfirmationStmt, fx.csDue, "", fx.csEnd),
			}
			today := d(t, fx.csEnd) // before both due dates
			out := UnitedKingdom(rep, today)
			acc, cs := find(t, out, kindAnnualAccounts), find(t, out, kindConfirmationStmt)
			want := map[string]brief{
				kindAnnualAccounts:   {fx.accDue, fx.accDue, false, fx.accStart, fx.accEnd, d(t, fx.accDue).DaysSince(today)},
				kindConfirmationStmt: {fx.csDue, fx.csDue, false, "", fx.csEnd, d(t, fx.csDue).DaysSince(today)},
			}
			got := map[string]brief{kindAnnualAccounts: briefOf(acc), kindConfirmationStmt: briefOf(cs)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !acc.Mandatory || !cs.Mandatory {
				t.Error("published deadlines should be mandatory")
			}
		})
	}
}

// TestUKComputedMatchesRegister: with the due dates removed, the computation
// from the register's named periods gives the register's dates (s.442,
// s.443, s.853A), except under the 2020 COVID extension.
func TestUKComputedMatchesRegister(t *testing.T) {
	t.Parallel()
	for _, fx := range ukFixtures {
		t.Run(fx.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, fx.typ, fx.inc)
			rep.PublishedDeadlines = []registry.PublishedDeadline{
				pub(t, kindAnnualAccounts, "", fx.accStart, fx.accEnd),
				pub(t, kindConfirmationStmt, "", "", fx.csEnd),
			}
			today := d(t, fx.accEnd)
			out := UnitedKingdom(rep, today)
			if got := find(t, out, kindAnnualAccounts).DueDate.String(); got != fx.computedAccDue {
				t.Errorf("annual_accounts computed %s, want %s", got, fx.computedAccDue)
			}
			if got := find(t, out, kindConfirmationStmt).DueDate.String(); got != fx.csDue {
				t.Errorf("confirmation_statement computed %s, want %s", got, fx.csDue)
			}
			if !hasNote(out, "computed from the Companies Act 2006") {
				t.Errorf("no computed-date note in %q", out.Notes)
			}
		})
	}
}

// TestUKOverduePublishedDate: a published date that has passed is kept, with
// a negative days_until and a note.
func TestUKOverduePublishedDate(t *testing.T) {
	t.Parallel()
	rep := ukReport(t, "ltd", "1991-01-30")
	rep.PublishedDeadlines = []registry.PublishedDeadline{pub(t, kindAnnualAccounts, "2023-10-31", "2022-02-01", "2023-01-31")}
	rep.PublishedDeadlines[0].Overdue = countrykit.Ptr(true)
	today := d(t, "2024-01-10")
	out := UnitedKingdom(rep, today)
	acc := find(t, out, kindAnnualAccounts)
	if diff := cmp.Diff(brief{"2023-10-31", "2023-10-31", false, "2022-02-01", "2023-01-31", -71}, briefOf(acc)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !hasNote(out, "annual_accounts is overdue") {
		t.Errorf("no overdue note in %q", out.Notes)
	}
	// The confirmation statement has no published entry: it is computed
	// from incorporation (1991-01-30), next occurrence on or after today:
	// review period ending 2024-01-29, due 2024-02-12.
	if diff := cmp.Diff(brief{"2024-02-12", "2024-02-12", false, "2023-01-30", "2024-01-29", 33}, briefOf(find(t, out, kindConfirmationStmt))); diff != "" {
		t.Errorf("confirmation_statement (-want +got):\n%s", diff)
	}
}

// TestUKComputedFromIncorporation covers the computed ladder when the
// register publishes nothing.
func TestUKComputedFromIncorporation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, typ, inc, today string
		acc, cs               brief
		accMandatory          bool
	}{
		{
			name: "private first accounts: 21 months after incorporation 2019-10-24, a Saturday, not rolled", typ: "ltd", inc: "2019-10-24", today: "2020-03-01",
			acc: brief{"2021-07-24", "2021-07-24", false, "2019-10-24", "2020-10-31", 510},
			cs:  brief{"2020-11-06", "2020-11-06", false, "2019-10-24", "2020-10-23", 250}, accMandatory: true,
		},
		{
			name: "CH guidance example: incorporated 1 Jan 2011, first accounts due 1 Oct 2012", typ: "ltd", inc: "2011-01-01", today: "2011-06-01",
			acc: brief{"2012-10-01", "2012-10-01", false, "2011-01-01", "2012-01-31", 488},
			cs:  brief{"2012-01-14", "2012-01-14", false, "2011-01-01", "2011-12-31", 227}, accMandatory: true,
		},
		{
			name: "public first accounts: 18 months after incorporation", typ: "plc", inc: "2011-01-01", today: "2011-06-01",
			acc: brief{"2012-07-01", "2012-07-01", false, "2011-01-01", "2012-01-31", 396},
			cs:  brief{"2012-01-14", "2012-01-14", false, "2011-01-01", "2011-12-31", 227}, accMandatory: true,
		},
		{
			name: "next occurrence after the first accounts: period ending 2021-10-31, 9 months to 2022-07-31", typ: "ltd", inc: "2019-10-24", today: "2022-01-01",
			acc: brief{"2022-07-31", "2022-07-31", false, "2020-11-01", "2021-10-31", 211},
			cs:  brief{"2022-11-06", "2022-11-06", false, "2021-10-24", "2022-10-23", 309}, accMandatory: true,
		},
		{
			name: "old company far in the past: steps to the next period on or after today", typ: "ltd", inc: "1991-01-30", today: "2026-03-15",
			acc: brief{"2026-10-31", "2026-10-31", false, "2025-02-01", "2026-01-31", 230},
			cs:  brief{"2027-02-12", "2027-02-12", false, "2026-01-30", "2027-01-29", 334}, accMandatory: true,
		},
		{
			name: "incorporated on 29 February: review period ends 28 February", typ: "ltd", inc: "2020-02-29", today: "2020-06-01",
			acc: brief{"2021-11-30", "2021-11-30", false, "2020-02-29", "2021-02-28", 547},
			cs:  brief{"2021-03-14", "2021-03-14", false, "2020-02-29", "2021-02-28", 286}, accMandatory: true,
		},
		{
			name: "unlimited company: accounts not mandatory (s.448 exemption)", typ: "private-unlimited", inc: "2019-10-24", today: "2020-03-01",
			acc: brief{"2021-07-24", "2021-07-24", false, "2019-10-24", "2020-10-31", 510},
			cs:  brief{"2020-11-06", "2020-11-06", false, "2019-10-24", "2020-10-23", 250}, accMandatory: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := UnitedKingdom(ukReport(t, tt.typ, tt.inc), d(t, tt.today))
			acc := find(t, out, kindAnnualAccounts)
			if diff := cmp.Diff(tt.acc, briefOf(acc)); diff != "" {
				t.Errorf("annual_accounts (-want +got):\n%s", diff)
			}
			if acc.Mandatory != tt.accMandatory {
				t.Errorf("annual_accounts mandatory %v, want %v", acc.Mandatory, tt.accMandatory)
			}
			if diff := cmp.Diff(tt.cs, briefOf(find(t, out, kindConfirmationStmt))); diff != "" {
				t.Errorf("confirmation_statement (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUKNamedPeriodPassed: a period the register names without a due date
// whose computed date has passed steps to the next period, with a note.
func TestUKNamedPeriodPassed(t *testing.T) {
	t.Parallel()
	rep := ukReport(t, "ltd", "2014-03-25")
	rep.PublishedDeadlines = []registry.PublishedDeadline{
		pub(t, kindAnnualAccounts, "", "2023-04-01", "2024-03-31"),
		pub(t, kindConfirmationStmt, "", "", "2024-03-25"),
	}
	out := UnitedKingdom(rep, d(t, "2025-01-15"))
	if diff := cmp.Diff(brief{"2025-12-31", "2025-12-31", false, "2024-04-01", "2025-03-31", 350}, briefOf(find(t, out, kindAnnualAccounts))); diff != "" {
		t.Errorf("annual_accounts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(brief{"2025-04-08", "2025-04-08", false, "2024-03-26", "2025-03-25", 83}, briefOf(find(t, out, kindConfirmationStmt))); diff != "" {
		t.Errorf("confirmation_statement (-want +got):\n%s", diff)
	}
	for _, n := range []string{"annual_accounts: the accounts the register names (made up to 2024-03-31)", "confirmation_statement: the review period the register names (ending 2024-03-25)"} {
		if !hasNote(out, n) {
			t.Errorf("no note %q in %q", n, out.Notes)
		}
	}
}

// TestUKEmpty: companies that are not active, and reports with nothing to
// compute from, get an empty list and a note.
func TestUKEmpty(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*registry.CompanyReport)
		note string
	}{
		{"dissolved", func(r *registry.CompanyReport) { r.Status = registry.StatusDissolved }, "dissolved"},
		{"in liquidation", func(r *registry.CompanyReport) { r.Status = registry.StatusUnderLiquidation }, "liquidation"},
		{"unknown status", func(r *registry.CompanyReport) { r.Status = registry.StatusUnknown }, "only computed for active companies"},
		{"type not computed, nothing published", func(r *registry.CompanyReport) { r.LegalFormCode = countrykit.Ptr("limited-partnership") }, `"limited-partnership" is not one whose deadlines are computed`},
		{"no incorporation date, nothing published", func(r *registry.CompanyReport) { r.RegisteredAt = nil }, "no incorporation date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, "ltd", "2019-10-24")
			tt.edit(rep)
			out := UnitedKingdom(rep, d(t, "2026-01-15"))
			if out.Deadlines == nil || len(out.Deadlines) != 0 {
				t.Errorf("deadlines = %#v, want an empty non-nil list", out.Deadlines)
			}
			if !hasNote(out, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, out.Notes)
			}
		})
	}
	if out := UnitedKingdom(nil, d(t, "2026-01-15")); out == nil || out.Country != "GB" || out.Registry != "companieshouse" || len(out.Deadlines) != 0 {
		t.Errorf("UnitedKingdom(nil) = %+v", out)
	}
}

// TestUKPublishedForUncomputedType: a published date is used whatever the
// company type.
func TestUKPublishedForUncomputedType(t *testing.T) {
	t.Parallel()
	rep := ukReport(t, "registered-overseas-entity", "")
	rep.PublishedDeadlines = []registry.PublishedDeadline{pub(t, kindConfirmationStmt, "2026-05-20", "", "2026-05-06")}
	out := UnitedKingdom(rep, d(t, "2026-01-15"))
	if diff := cmp.Diff([]string{kindConfirmationStmt}, kinds(out)); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}

// TestUKNoRollForward: due_date always equals statutory_date, even on a
// Saturday, and the note says why.
func TestUKNoRollForward(t *testing.T) {
	t.Parallel()
	out := UnitedKingdom(ukReport(t, "ltd", "2019-10-24"), d(t, "2020-03-01"))
	acc := find(t, out, kindAnnualAccounts)
	if acc.DueDate != d(t, "2021-07-24") || acc.RolledForward || acc.DueDate.Weekday().String() != "Saturday" {
		t.Errorf("annual_accounts %s rolled %v", acc.DueDate, acc.RolledForward)
	}
	if !hasNote(out, "do not move for weekends or bank holidays") {
		t.Errorf("no no-roll note in %q", out.Notes)
	}
}

// TestUKGolden compares whole wire documents with reviewed goldens.
func TestUKGolden(t *testing.T) {
	t.Parallel()
	published := ukReport(t, "ltd", "2014-03-25")
	published.ID, published.Name = "08957400", "EXAMPLE TRADING LTD"
	published.PublishedDeadlines = []registry.PublishedDeadline{
		pub(t, kindAnnualAccounts, "2024-12-31", "2023-04-01", "2024-03-31"),
		pub(t, kindConfirmationStmt, "2024-04-08", "", "2024-03-25"),
	}
	computed := ukReport(t, "ltd", "2019-10-24")
	tests := []struct {
		name  string
		rep   *registry.CompanyReport
		today string
	}{
		{"gb_published_2024-03-01", published, "2024-03-01"},
		{"gb_computed_first_2020-03-01", computed, "2020-03-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkGolden(t, tt.name, UnitedKingdom(tt.rep, d(t, tt.today)))
		})
	}
}
