package deadlines

import (
	"strings"
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

// Duty profiles as a country module gives them; the engine keeps no list
// of company types, so the tests pass the profiles directly. They are
// functions, not package variables, so that no test can change another's.

func ukPrivate() UKDuties {
	return UKDuties{
		Form:                  "private limited company",
		Accounts:              UKDuty{Level: UKDutyAlways, Computable: true, Basis: "Companies Act 2006 s.441"},
		ConfirmationStatement: UKDuty{Level: UKDutyAlways, Computable: true, Basis: "Companies Act 2006 s.853A"},
	}
}

func ukPublic() UKDuties {
	u := ukPrivate()
	u.Form, u.Public = "public limited company", true
	return u
}

func ukUnlimited() UKDuties {
	u := ukPrivate()
	u.Form = "private unlimited company"
	u.Accounts = UKDuty{Level: UKDutyDepends, Computable: true, Basis: "an unlimited company is often exempt, Companies Act 2006 s.448"}
	return u
}

// ukPublishedOnly owes an update statement whose dates are not computed.
func ukPublishedOnly() UKDuties {
	return UKDuties{Form: "overseas entity", ConfirmationStatement: UKDuty{Level: UKDutyAlways, Basis: "Economic Crime (Transparency and Enforcement) Act 2022 s.7"}}
}

// ukDependsOnly owes filings only on facts the register does not show.
func ukDependsOnly() UKDuties {
	return UKDuties{Form: "limited partnership",
		Accounts:              UKDuty{Level: UKDutyDepends, Basis: "Partnerships (Accounts) Regulations 2008"},
		ConfirmationStatement: UKDuty{Level: UKDutyDepends}}
}

func ukProcedure() UKDuties {
	u := ukPrivate()
	u.Procedure = "administration"
	return u
}

// ukDutyProfiles are the profiles the property tests draw from.
func ukDutyProfiles() []UKDuties {
	return []UKDuties{ukPrivate(), ukPublic(), ukUnlimited(), ukPublishedOnly(), ukDependsOnly(), {}, ukProcedure()}
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

// ukFixture is one recorded profile's dates.
type ukFixture struct {
	name, typ, inc                         string
	accStart, accEnd, accDue, csEnd, csDue string
	computedAccDue                         string // what s.442/s.443 give without the register's date
}

// ukFixtures are the published dates of the recorded Companies House
// profiles (research/companieshouse.md §5 and the recorded Companies House
// responses of those companies).
func ukFixtures() []ukFixture {
	return []ukFixture{
		{"02578066 (2022)", "ltd", "1991-01-30", "2022-02-01", "2023-01-31", "2023-10-31", "2023-01-30", "2023-02-13", "2023-10-31"},
		{"08957400 (2024)", "ltd", "2014-03-25", "2023-04-01", "2024-03-31", "2024-12-31", "2024-03-25", "2024-04-08", "2024-12-31"},
		{"12279804 first accounts (2020)", "ltd", "2019-10-24", "2019-10-24", "2020-10-31", "2021-07-24", "2020-10-23", "2020-11-06", "2021-07-24"},
		// The register gave 12 months here: the Corporate Insolvency and
		// Governance Act 2020 extended deadlines falling 27 Jun 2020–5 Apr
		// 2021. The computation cannot know that, which is why the register's
		// date wins.
		{"08957400 (2020, COVID extension)", "ltd", "2014-03-25", "2019-04-01", "2020-03-31", "2021-03-31", "2021-03-25", "2021-04-08", "2020-12-31"},
	}
}

// TestUKPublishedDateWins: the register's dates are used verbatim.
func TestUKPublishedDateWins(t *testing.T) {
	t.Parallel()
	for _, fx := range ukFixtures() {
		t.Run(fx.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, fx.typ, fx.inc)
			rep.PublishedDeadlines = []registry.PublishedDeadline{
				pub(t, kindAnnualAccounts, fx.accDue, fx.accStart, fx.accEnd),
				pub(t, kindConfirmationStmt, fx.csDue, "", fx.csEnd),
			}
			today := d(t, fx.csEnd) // before both due dates
			out := UnitedKingdom(rep, ukPrivate(), today)
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
	for _, fx := range ukFixtures() {
		t.Run(fx.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, fx.typ, fx.inc)
			rep.PublishedDeadlines = []registry.PublishedDeadline{
				pub(t, kindAnnualAccounts, "", fx.accStart, fx.accEnd),
				pub(t, kindConfirmationStmt, "", "", fx.csEnd),
			}
			today := d(t, fx.accEnd)
			out := UnitedKingdom(rep, ukPrivate(), today)
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
	out := UnitedKingdom(rep, ukPrivate(), today)
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
		duties                UKDuties
		acc, cs               brief
		accMandatory          bool
	}{
		{
			name: "private first accounts: 21 months after incorporation 2019-10-24, a Saturday, not rolled", typ: "ltd", duties: ukPrivate(), inc: "2019-10-24", today: "2020-03-01",
			acc: brief{"2021-07-24", "2021-07-24", false, "2019-10-24", "2020-10-31", 510},
			cs:  brief{"2020-11-06", "2020-11-06", false, "2019-10-24", "2020-10-23", 250}, accMandatory: true,
		},
		{
			name: "CH guidance example: incorporated 1 Jan 2011, first accounts due 1 Oct 2012", typ: "ltd", duties: ukPrivate(), inc: "2011-01-01", today: "2011-06-01",
			acc: brief{"2012-10-01", "2012-10-01", false, "2011-01-01", "2012-01-31", 488},
			cs:  brief{"2012-01-14", "2012-01-14", false, "2011-01-01", "2011-12-31", 227}, accMandatory: true,
		},
		{
			name: "public first accounts: 18 months after incorporation", typ: "plc", duties: ukPublic(), inc: "2011-01-01", today: "2011-06-01",
			acc: brief{"2012-07-01", "2012-07-01", false, "2011-01-01", "2012-01-31", 396},
			cs:  brief{"2012-01-14", "2012-01-14", false, "2011-01-01", "2011-12-31", 227}, accMandatory: true,
		},
		{
			name: "next occurrence after the first accounts: period ending 2021-10-31, 9 months to 2022-07-31", typ: "ltd", duties: ukPrivate(), inc: "2019-10-24", today: "2022-01-01",
			acc: brief{"2022-07-31", "2022-07-31", false, "2020-11-01", "2021-10-31", 211},
			cs:  brief{"2022-11-06", "2022-11-06", false, "2021-10-24", "2022-10-23", 309}, accMandatory: true,
		},
		{
			name: "old company far in the past: steps to the next period on or after today", typ: "ltd", duties: ukPrivate(), inc: "1991-01-30", today: "2026-03-15",
			acc: brief{"2026-10-31", "2026-10-31", false, "2025-02-01", "2026-01-31", 230},
			cs:  brief{"2027-02-12", "2027-02-12", false, "2026-01-30", "2027-01-29", 334}, accMandatory: true,
		},
		{
			name: "incorporated on 29 February: review period ends 28 February", typ: "ltd", duties: ukPrivate(), inc: "2020-02-29", today: "2020-06-01",
			acc: brief{"2021-11-30", "2021-11-30", false, "2020-02-29", "2021-02-28", 547},
			cs:  brief{"2021-03-14", "2021-03-14", false, "2020-02-29", "2021-02-28", 286}, accMandatory: true,
		},
		{
			name: "unlimited company: accounts not mandatory (s.448 exemption)", typ: "private-unlimited", duties: ukUnlimited(), inc: "2019-10-24", today: "2020-03-01",
			acc: brief{"2021-07-24", "2021-07-24", false, "2019-10-24", "2020-10-31", 510},
			cs:  brief{"2020-11-06", "2020-11-06", false, "2019-10-24", "2020-10-23", 250}, accMandatory: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := UnitedKingdom(ukReport(t, tt.typ, tt.inc), tt.duties, d(t, tt.today))
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

// TestUKOverdueNamedPeriod: a period the register names without a due date
// keeps its computed date even when it has passed: the filing is overdue
// (negative days_until and a note), not moved to a later period
// (Companies Act 2006 s.853A: 14 days after the end of the review period;
// s.442: 9 months after the end of the accounting reference period).
func TestUKOverdueNamedPeriod(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, kind, start, end, today string
		want                          brief
		note                          string
	}{
		{"confirmation statement: review period ended 2025-03-31, due 2025-04-14, overdue on 2025-05-02 (s.853A)",
			kindConfirmationStmt, "", "2025-03-31", "2025-05-02",
			brief{"2025-04-14", "2025-04-14", false, "", "2025-03-31", -18},
			"confirmation_statement is overdue: the confirmation statement for the review period ending 2025-03-31 was due 2025-04-14 (18 days ago)"},
		{"confirmation statement due today is not overdue (s.853A)",
			kindConfirmationStmt, "", "2025-03-31", "2025-04-14",
			brief{"2025-04-14", "2025-04-14", false, "", "2025-03-31", 0}, ""},
		{"accounts made up to 2024-03-31, due 2024-12-31 (s.442(2)(a), s.443), overdue on 2025-01-15",
			kindAnnualAccounts, "2023-04-01", "2024-03-31", "2025-01-15",
			brief{"2024-12-31", "2024-12-31", false, "2023-04-01", "2024-03-31", -15},
			"annual_accounts is overdue: the accounts made up to 2024-03-31 were due 2024-12-31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, "ltd", "2014-03-25")
			rep.PublishedDeadlines = []registry.PublishedDeadline{pub(t, tt.kind, "", tt.start, tt.end)}
			out := UnitedKingdom(rep, ukPrivate(), d(t, tt.today))
			if diff := cmp.Diff(tt.want, briefOf(find(t, out, tt.kind))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			overdue := hasNote(out, tt.kind+" is overdue")
			if tt.note == "" && overdue {
				t.Errorf("an overdue note for a date not yet passed: %q", out.Notes)
			}
			if tt.note != "" && !hasNote(out, tt.note) {
				t.Errorf("no note %q in %q", tt.note, out.Notes)
			}
		})
	}
	// When the register names no period, the period comes from the
	// incorporation date and the first due date on or after today is
	// given (the filings of earlier periods cannot be known).
	out := UnitedKingdom(ukReport(t, "ltd", "2014-03-25"), ukPrivate(), d(t, "2025-05-02"))
	if got := find(t, out, kindConfirmationStmt); got.DueDate != d(t, "2026-04-07") || hasNote(out, "overdue") {
		t.Errorf("computed from incorporation: due %s, notes %q", got.DueDate, out.Notes)
	}
}

// TestUKProcedures: administration, receivership and a voluntary
// arrangement do not end the duties to deliver accounts and confirmation
// statements (Companies Act 2006 ss. 441, 442 and 853A make no exception):
// the published dates are carried through with a note naming the
// procedure. Only dissolution, removal or closure and liquidation end the
// list.
func TestUKProcedures(t *testing.T) {
	t.Parallel()
	published := []registry.PublishedDeadline{
		pub(t, kindAnnualAccounts, "2026-12-31", "2025-04-01", "2026-03-31"),
		pub(t, kindConfirmationStmt, "2026-04-08", "", "2026-03-25"),
	}
	tests := []struct {
		procedure string
		status    registry.Status
		kinds     []string
		note      string
	}{
		{"administration", registry.StatusUnknown, []string{kindConfirmationStmt, kindAnnualAccounts}, "The company is in administration"},
		{"receivership", registry.StatusUnknown, []string{kindConfirmationStmt, kindAnnualAccounts}, "The company is in receivership"},
		{"a voluntary arrangement", registry.StatusUnknown, []string{kindConfirmationStmt, kindAnnualAccounts}, "The company is in a voluntary arrangement"},
		{"", registry.StatusUnknown, []string{}, "status is unknown"},
		{"administration", registry.StatusUnderLiquidation, []string{}, "in liquidation"},
		{"administration", registry.StatusDissolved, []string{}, "dissolved"},
		{"administration", registry.StatusDeleted, []string{}, "removed from the register or closed"},
	}
	for _, tt := range tests {
		t.Run(tt.procedure+"/"+string(tt.status), func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, "ltd", "2014-03-25")
			rep.Status = tt.status
			rep.PublishedDeadlines = published
			duties := ukPrivate()
			duties.Procedure = tt.procedure
			out := UnitedKingdom(rep, duties, d(t, "2026-01-15"))
			if diff := cmp.Diff(tt.kinds, kinds(out)); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			for _, dl := range out.Deadlines {
				if !dl.Mandatory || dl.DueDate != *findPub(published, string(dl.Kind)).DueDate {
					t.Errorf("%s: due %s mandatory %v, want the published date, mandatory", dl.Kind, dl.DueDate, dl.Mandatory)
				}
			}
			if !hasNote(out, tt.note) {
				t.Errorf("no note %q in %q", tt.note, out.Notes)
			}
		})
	}
}

func findPub(ps []registry.PublishedDeadline, kind string) registry.PublishedDeadline {
	for _, p := range ps {
		if string(p.Kind) == kind {
			return p
		}
	}
	return registry.PublishedDeadline{}
}

// TestUKDutyLevels: a kind the company type does not owe never appears,
// not even from a published date; a duty that depends on facts the
// register does not show is listed with mandatory false; the CIC note goes
// with the accounts.
func TestUKDutyLevels(t *testing.T) {
	t.Parallel()
	rep := ukReport(t, "registered-overseas-entity", "2023-05-06")
	rep.PublishedDeadlines = []registry.PublishedDeadline{
		pub(t, kindAnnualAccounts, "2026-12-31", "", "2026-03-31"),
		pub(t, kindConfirmationStmt, "2026-05-20", "", "2026-05-06"),
	}
	out := UnitedKingdom(rep, ukPublishedOnly(), d(t, "2026-01-15"))
	if diff := cmp.Diff([]string{kindConfirmationStmt}, kinds(out)); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if !hasNote(out, "owes no such filing") {
		t.Errorf("no note on the dropped accounts date: %q", out.Notes)
	}

	out = UnitedKingdom(ukReport(t, "private-unlimited", "2019-10-24"), ukUnlimited(), d(t, "2020-03-01"))
	acc := find(t, out, kindAnnualAccounts)
	if acc.Mandatory || !strings.Contains(acc.AppliesBecause, "s.448") {
		t.Errorf("unlimited accounts: mandatory %v, applies_because %q", acc.Mandatory, acc.AppliesBecause)
	}
	if !find(t, out, kindConfirmationStmt).Mandatory {
		t.Error("an unlimited company's confirmation statement is mandatory (s.853A)")
	}

	cic := ukPrivate()
	cic.AccountsNote = "A community interest company also delivers a CIC report (form CIC34) with its accounts."
	out = UnitedKingdom(ukReport(t, "ltd", "2019-10-24"), cic, d(t, "2020-03-01"))
	if a := find(t, out, kindAnnualAccounts); !strings.Contains(a.AppliesBecause, "CIC34") {
		t.Errorf("CIC accounts applies_because %q", a.AppliesBecause)
	}
	if c := find(t, out, kindConfirmationStmt); strings.Contains(c.AppliesBecause, "CIC34") {
		t.Errorf("the CIC note went to the confirmation statement: %q", c.AppliesBecause)
	}

	out = UnitedKingdom(ukReport(t, "other", "2019-10-24"), UKDuties{}, d(t, "2020-03-01"))
	if len(out.Deadlines) != 0 || !hasNote(out, "not one whose filings this service knows") {
		t.Errorf("unknown type: %v %q", kinds(out), out.Notes)
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
		{"no incorporation date, nothing published", func(r *registry.CompanyReport) { r.RegisteredAt = nil }, "no incorporation date"},
		// Companies Act 2006 s.1046 and the Overseas Companies Regulations
		// 2009 reg. 32: the overseas company, not its UK establishment,
		// delivers the accounts.
		{"UK establishment with its parent", func(r *registry.CompanyReport) { r.IsSubunit, r.ParentID = true, countrykit.Ptr("FC012345") }, "overseas company FC012345 (parent_id)"},
		{"UK establishment without a parent number", func(r *registry.CompanyReport) { r.IsSubunit = true }, "names no parent company number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, "ltd", "2019-10-24")
			tt.edit(rep)
			rep.PublishedDeadlines = []registry.PublishedDeadline{pub(t, kindConfirmationStmt, "2026-05-20", "", "2026-05-06")}
			if tt.name == "no incorporation date, nothing published" {
				rep.PublishedDeadlines = nil
			}
			out := UnitedKingdom(rep, ukPrivate(), d(t, "2026-01-15"))
			if out.Deadlines == nil || len(out.Deadlines) != 0 {
				t.Errorf("deadlines = %#v, want an empty non-nil list", out.Deadlines)
			}
			if !hasNote(out, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, out.Notes)
			}
		})
	}
	if out := UnitedKingdom(nil, ukPrivate(), d(t, "2026-01-15")); out == nil || out.Country != "GB" || out.Registry != "companieshouse" || len(out.Deadlines) != 0 {
		t.Errorf("UnitedKingdom(nil) = %+v", out)
	}
}

// TestUKPublishedForUncomputedType: a published date is used whatever the
// company type.
func TestUKPublishedForUncomputedType(t *testing.T) {
	t.Parallel()
	rep := ukReport(t, "registered-overseas-entity", "")
	rep.PublishedDeadlines = []registry.PublishedDeadline{pub(t, kindConfirmationStmt, "2026-05-20", "", "2026-05-06")}
	out := UnitedKingdom(rep, ukPublishedOnly(), d(t, "2026-01-15"))
	if diff := cmp.Diff([]string{kindConfirmationStmt}, kinds(out)); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}

// TestUKNoRollForward: due_date always equals statutory_date, even on a
// Saturday, and the note says why.
func TestUKNoRollForward(t *testing.T) {
	t.Parallel()
	out := UnitedKingdom(ukReport(t, "ltd", "2019-10-24"), ukPrivate(), d(t, "2020-03-01"))
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
			checkGolden(t, tt.name, UnitedKingdom(tt.rep, ukPrivate(), d(t, tt.today)))
		})
	}
}

// TestUKFirstAccountsOnlyFirstPeriod: Companies Act 2006 s.442(3) (first
// accounts: 21 months from incorporation for a private company, or 3 months
// after the period end if later) applies only to the FIRST accounting
// reference period, the one beginning on incorporation
// (research/companieshouse.md §5). A later period that ends within 18
// months of incorporation, after the accounting reference date was changed,
// is due 9 months after its end (s.442(2)(a)) by the month-end rule of
// s.443.
func TestUKFirstAccountsOnlyFirstPeriod(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, start, end string
		want             brief
		overdue          bool
	}{
		{"second period 2020-08-01..2021-03-31: s.442(2)(a), 9 months to the month end 2021-12-31",
			"2020-08-01", "2021-03-31", brief{"2021-12-31", "2021-12-31", false, "2020-08-01", "2021-03-31", 60}, false},
		{"first period beginning on incorporation: s.442(3), 21 months after incorporation",
			"2020-01-15", "2021-03-31", brief{"2021-10-15", "2021-10-15", false, "2020-01-15", "2021-03-31", -17}, true},
		{"period start not named: taken as the first period, s.442(3)",
			"", "2021-03-31", brief{"2021-10-15", "2021-10-15", false, "", "2021-03-31", -17}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := ukReport(t, "ltd", "2020-01-15")
			rep.PublishedDeadlines = []registry.PublishedDeadline{pub(t, kindAnnualAccounts, "", tt.start, tt.end)}
			out := UnitedKingdom(rep, ukPrivate(), d(t, "2021-11-01"))
			acc := find(t, out, kindAnnualAccounts)
			if diff := cmp.Diff(tt.want, briefOf(acc)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got := hasNote(out, "annual_accounts is overdue"); got != tt.overdue {
				t.Errorf("overdue note %v, want %v: %q", got, tt.overdue, out.Notes)
			}
			if first := strings.Contains(acc.AppliesBecause, "s.442(3)"); first != (tt.start != "2020-08-01") {
				t.Errorf("applies_because %q", acc.AppliesBecause)
			}
		})
	}
}

// TestUKWording (issue 13, review nits 2 and 3): the articles of company
// types said with a consonant ("a European…", "a United Kingdom…"), and the
// first accounts of an LLP explained as an LLP's (Companies Act 2006 s.442
// as applied to LLPs by SI 2008/1911, the basis the gb module gives).
func TestUKWording(t *testing.T) {
	t.Parallel()
	for form, want := range map[string]string{
		"European Economic Interest Grouping": "a European Economic Interest Grouping",
		"United Kingdom Societas":             "a United Kingdom Societas",
		"UK establishment":                    "a UK establishment",
		"unlimited company":                   "an unlimited company",
		"overseas entity":                     "an overseas entity",
		"limited liability partnership":       "a limited liability partnership",
		"":                                    "this company type",
	} {
		if got := ukFormPhrase(form); got != want {
			t.Errorf("ukFormPhrase(%q) = %q, want %q", form, got, want)
		}
	}
	llp := UKDuties{Form: "limited liability partnership",
		Accounts:              UKDuty{Level: UKDutyAlways, Computable: true},
		ConfirmationStatement: UKDuty{Level: UKDutyAlways, Computable: true}}
	acc := find(t, UnitedKingdom(ukReport(t, "llp", "2019-10-24"), llp, d(t, "2020-03-01")), kindAnnualAccounts)
	if !strings.Contains(acc.AppliesBecause, "the first accounts of a limited liability partnership are due 21 months after incorporation") ||
		strings.Contains(acc.AppliesBecause, "private company") {
		t.Errorf("LLP first accounts applies_because %q", acc.AppliesBecause)
	}
}
