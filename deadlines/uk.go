package deadlines

import (
	"fmt"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// Sources and authority of the UK kinds (research/companieshouse.md §5).
const (
	authCompaniesHouse = "Companies House"
	srcUKAccounts      = "https://www.legislation.gov.uk/ukpga/2006/46/section/442"
	srcUKConfirmation  = "https://www.gov.uk/guidance/confirmation-statement-guidance"

	noteUKNoRoll = "UK deadlines do not move for weekends or bank holidays: the Companies Act 2006 has no roll-forward rule, " +
		"so a date on a weekend or bank holiday means filing by the working day before."
	noteUKComputed = "A date the register does not publish is computed from the Companies Act 2006; it assumes no extension, " +
		"no shortened or changed accounting reference date and no early confirmation statement, and the register's own date always wins."
)

// ukType is what the package knows of a Companies House company type.
type ukType struct {
	label    string
	public   bool // 6 months for accounts (18 for first accounts) instead of 9 (21)
	accounts duty // dutyDepending: unlimited companies are often exempt (s.448)
}

// ukCompanyType classifies the Companies House `type` carried in
// LegalFormCode. ok is false for types whose deadlines this package does not
// compute (partnerships, overseas entities and others); a published date is
// still used for them.
func ukCompanyType(code string) (ukType, bool) {
	switch code {
	case "ltd":
		return ukType{label: "private limited company", accounts: dutyAlways}, true
	case "private-limited-guarant-nsc", "private-limited-guarant-nsc-limited-exemption":
		return ukType{label: "private company limited by guarantee", accounts: dutyAlways}, true
	case "private-limited-shares-section-30-exemption":
		return ukType{label: "private limited company", accounts: dutyAlways}, true
	case "private-unlimited", "private-unlimited-nsc":
		return ukType{label: "private unlimited company", accounts: dutyDepending}, true
	case "llp":
		return ukType{label: "limited liability partnership", accounts: dutyAlways}, true
	case "plc", "old-public-company":
		return ukType{label: "public limited company", public: true, accounts: dutyAlways}, true
	}
	return ukType{}, false
}

// UnitedKingdom returns the next annual accounts and confirmation statement
// deadlines of the UK company described by rep, sorted by due date and then
// kind.
//
// The register's published date wins: a PublishedDeadline of the kind with a
// due date is used verbatim, even when it has passed (days_until is then
// negative: the filing is overdue). When the register publishes no due date,
// a computed date fills the gap, following the Companies Act 2006:
//
//   - annual accounts are due 9 months after the end of the accounting
//     reference period for a private company and 6 months for a public one
//     (s.442), counted by the month-end rule of s.443; first accounts of a
//     period longer than 12 months are due 21 (18) months after
//     incorporation, or 3 months after the period end if later. The period
//     is the one the register names (period_end), else the default: the
//     last day of the month of the first anniversary of incorporation.
//   - the confirmation statement is due 14 days after the end of the review
//     period (s.853A); the first review period is the 12 months beginning
//     with incorporation.
//
// A computed date follows "next occurrence" semantics: the first due date
// on or after today, stepping one period (12 months) at a time, so computed
// dates are never in the past. UK dates never roll forward: due_date equals
// statutory_date. A company whose status is not active gets an empty list
// and a note, as does a report with no usable date. UnitedKingdom never
// panics and never returns nil.
func UnitedKingdom(rep *registry.CompanyReport, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "GB", "companieshouse", 2)
	if rep == nil {
		out.Notes = append(out.Notes, "No company report was given, so no deadlines are computed.")
		return out
	}
	if !plausible(today) {
		out.Notes = append(out.Notes, noteImplausibleToday)
		return out
	}
	if rep.Status != registry.StatusActive {
		out.Notes = append(out.Notes, ukInactiveNote(rep.Status))
		return out
	}
	code := strings.ToLower(strings.TrimSpace(deref(rep.LegalFormCode)))
	t, typed := ukCompanyType(code)
	c := ukCalc{out: out, today: today, t: t, typed: typed}
	if inc := firstOf(rep.FoundedAt, rep.RegisteredAt); inc != nil && plausible(*inc) {
		c.inc, c.hasInc = normalize(*inc), true
	}
	var computed bool
	for _, kind := range []registry.DeadlineKind{kindAnnualAccounts, kindConfirmationStmt} {
		var pub *registry.PublishedDeadline
		for i := range rep.PublishedDeadlines {
			if rep.PublishedDeadlines[i].Kind == kind {
				pub = &rep.PublishedDeadlines[i]
				break
			}
		}
		if pub != nil && pub.DueDate != nil && !pub.DueDate.IsZero() && plausible(*pub.DueDate) {
			c.published(kind, pub)
			continue
		}
		if c.compute(kind, pub) {
			computed = true
		}
	}
	sortDeadlines(out.Deadlines)
	if computed {
		out.Notes = append(out.Notes, noteUKComputed)
	}
	if len(out.Deadlines) == 0 {
		why := "the register publishes no due date"
		if !typed {
			why += fmt.Sprintf(" and the company type %q is not one whose deadlines are computed here", code)
		} else {
			why += " and the report has no incorporation date to compute from"
		}
		out.Notes = append(out.Notes, "No deadlines: "+why+".")
	}
	out.Notes = append(out.Notes, noteUKNoRoll)
	return out
}

func ukInactiveNote(s registry.Status) string {
	switch s {
	case registry.StatusDissolved:
		return "The company is dissolved, so it has no filing deadlines."
	case registry.StatusDeleted:
		return "The company is removed from the register, so it has no filing deadlines."
	case registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation, registry.StatusBankrupt:
		return "The company is in liquidation or another insolvency procedure (status " + string(s) +
			"); the office-holder handles its filings, so deadlines are only computed for active companies."
	}
	return "The company's status is unknown, not active; deadlines are only computed for active companies."
}

// ukCalc computes the UK deadlines of one report.
type ukCalc struct {
	out    *registry.DeadlineReport
	today  registry.Date
	t      ukType
	typed  bool
	inc    registry.Date // incorporation date
	hasInc bool
}

func (c *ukCalc) add(d registry.Deadline) {
	d.Country, d.Registry = c.out.Country, c.out.Registry
	d.Authority = authCompaniesHouse
	d.DueDate = d.StatutoryDate
	d.Recurrence = registry.RecurrenceAnnual
	d.DaysUntil = countrykit.Ptr(d.DueDate.DaysSince(c.today))
	if d.Kind == kindAnnualAccounts {
		d.Name, d.LocalName, d.SourceURL = "Annual accounts", countrykit.Ptr("statutory accounts"), countrykit.Ptr(srcUKAccounts)
	} else {
		d.Name, d.LocalName, d.SourceURL = "Confirmation statement", countrykit.Ptr("confirmation statement (CS01)"), countrykit.Ptr(srcUKConfirmation)
	}
	c.out.Deadlines = append(c.out.Deadlines, d)
}

func periodLabel(kind registry.DeadlineKind, end *registry.Date) *string {
	if end == nil {
		return nil
	}
	if kind == kindAnnualAccounts {
		return countrykit.Ptr("Accounts made up to " + end.String())
	}
	return countrykit.Ptr("Review period ending " + end.String())
}

// published adds the register's own date, verbatim.
func (c *ukCalc) published(kind registry.DeadlineKind, p *registry.PublishedDeadline) {
	due := normalize(*p.DueDate)
	src := "the register"
	if s := strings.TrimSpace(deref(p.Source)); s != "" {
		src = "the register (" + s + ")"
	}
	var ps, pe *registry.Date
	if p.PeriodStart != nil {
		ps = countrykit.Ptr(*p.PeriodStart)
	}
	if p.PeriodEnd != nil {
		pe = countrykit.Ptr(*p.PeriodEnd)
	}
	c.add(registry.Deadline{
		Kind: kind, StatutoryDate: due, PeriodLabel: periodLabel(kind, pe), PeriodStart: ps, PeriodEnd: pe,
		Mandatory:      true,
		AppliesBecause: "The date is published by " + src + " and used as given; it does not move for weekends or bank holidays.",
	})
	if due.Before(c.today) {
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("%s is overdue: the register's due date %s has passed.", kind, due))
	}
}

// compute adds a computed date for kind, from the register's named period
// when there is one, else from the incorporation date. It reports whether
// it added one.
func (c *ukCalc) compute(kind registry.DeadlineKind, p *registry.PublishedDeadline) bool {
	if !c.typed {
		return false
	}
	var named *registry.PublishedDeadline
	if p != nil && p.PeriodEnd != nil && !p.PeriodEnd.IsZero() && plausible(*p.PeriodEnd) {
		named = &registry.PublishedDeadline{PeriodEnd: countrykit.Ptr(normalize(*p.PeriodEnd))}
		if p.PeriodStart != nil && !p.PeriodStart.IsZero() && plausible(*p.PeriodStart) {
			named.PeriodStart = countrykit.Ptr(normalize(*p.PeriodStart))
		}
	}
	if named == nil && !c.hasInc {
		return false
	}
	if kind == kindAnnualAccounts {
		c.accounts(named)
	} else {
		c.confirmation(named)
	}
	return true
}

// ukMaxSteps bounds how many 12-month periods a computation steps through;
// it covers any incorporation date and today within ±maxYear.
const ukMaxSteps = 2*maxYear + 10

func (c *ukCalc) accounts(named *registry.PublishedDeadline) {
	months, firstMonths, kindWord := 9, 21, "private"
	if c.t.public {
		months, firstMonths, kindWord = 6, 18, "public"
	}
	var start *registry.Date
	var end registry.Date
	var how string
	if named != nil {
		end, start = *named.PeriodEnd, named.PeriodStart
		how = "the accounting period end the register names"
	} else {
		// Default accounting reference date: the last day of the month in
		// which the first anniversary of incorporation falls (s.391).
		end, start = endOfMonth(c.inc.Year+1, c.inc.Month), countrykit.Ptr(c.inc)
		how = "the default accounting reference date (the last day of the month of incorporation, each year)"
	}
	due := func(end registry.Date) (registry.Date, bool) {
		// First accounts: a first period longer than 12 months, at most
		// 18 (s.442(3)).
		if c.hasInc && end.After(anniversary(c.inc).AddDays(-1)) && !end.After(addMonthsUK(c.inc, 18)) {
			return maxDate(addMonthsUK(anniversary(c.inc), months), addMonthsUK(end, 3)), true
		}
		return addMonthsUK(end, months), false
	}
	d, first := due(end)
	steps := 0
	step := func(n int) {
		start = countrykit.Ptr((addMonthsUK(end, 12*(n-1))).AddDays(1))
		end = addMonthsUK(end, 12*n)
		d, first = due(end)
		steps += n
	}
	// Jump close to today, then step one period at a time.
	if gap := c.today.Year - d.Year - 2; gap > 0 {
		step(min(gap, ukMaxSteps))
	}
	for d.Before(c.today) && steps < ukMaxSteps {
		step(1)
	}
	why := fmt.Sprintf("Computed: the register publishes no due date, so accounts of a %s are due %d months after %s (Companies Act 2006 s.442, month-end rule of s.443).",
		c.t.label, months, how)
	if first {
		why = fmt.Sprintf("Computed: the register publishes no due date, so the first accounts of a %s company are due %d months after incorporation "+
			"or 3 months after the end of the first period, whichever is later (Companies Act 2006 s.442(3)); the period end is %s.", kindWord, firstMonths, how)
	}
	if c.t.accounts == dutyDepending {
		why += " An unlimited company is often exempt from delivering accounts (s.448), which the register does not show."
	}
	if steps > 0 && named != nil {
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("annual_accounts: the accounts the register names (made up to %s) would already be due; "+
			"the computed date is for a later period, so check the register's filing history.", *named.PeriodEnd))
	}
	c.add(registry.Deadline{
		Kind: kindAnnualAccounts, StatutoryDate: d, PeriodLabel: periodLabel(kindAnnualAccounts, &end),
		PeriodStart: start, PeriodEnd: countrykit.Ptr(end), Mandatory: c.t.accounts == dutyAlways, AppliesBecause: why,
	})
}

func (c *ukCalc) confirmation(named *registry.PublishedDeadline) {
	var start, end registry.Date
	startKnown := true
	how := "the review period the register names"
	if named != nil {
		end = *named.PeriodEnd
		if named.PeriodStart != nil {
			start = *named.PeriodStart
		} else {
			startKnown = false
		}
	} else {
		// The first review period is the 12 months beginning with the day
		// of incorporation.
		start, end = c.inc, nextYearSameDay(c.inc).AddDays(-1)
		how = "the first review period (12 months beginning with incorporation) and each 12 months after it"
	}
	steps := 0
	step := func() {
		start = end.AddDays(1)
		end = nextYearSameDay(start).AddDays(-1)
		startKnown = true
		steps++
	}
	// Step one review period at a time up to today; a period is one year,
	// so this runs about as many times as the company is years old.
	for end.AddDays(14).Before(c.today) && steps < ukMaxSteps {
		step()
	}
	if steps > 0 && named != nil {
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("confirmation_statement: the review period the register names (ending %s) would already be due; "+
			"the computed date is for a later review period, so check the register's filing history.", *named.PeriodEnd))
	}
	var ps *registry.Date
	if startKnown {
		ps = countrykit.Ptr(start)
	}
	c.add(registry.Deadline{
		Kind: kindConfirmationStmt, StatutoryDate: end.AddDays(14), PeriodLabel: periodLabel(kindConfirmationStmt, &end),
		PeriodStart: ps, PeriodEnd: countrykit.Ptr(end), Mandatory: true,
		AppliesBecause: "Computed: the register publishes no due date, so the confirmation statement is due 14 days after the end of " + how +
			" (Companies Act 2006 s.853A).",
	})
}

// anniversary returns the first anniversary of d; the anniversary of
// 29 February in a common year is 28 February.
func anniversary(d registry.Date) registry.Date {
	if d.Month == time.February && d.Day == 29 && (registry.Date{Year: d.Year + 1, Month: time.February, Day: 1}).DaysIn() == 28 {
		return registry.Date{Year: d.Year + 1, Month: time.February, Day: 28}
	}
	return registry.Date{Year: d.Year + 1, Month: d.Month, Day: d.Day}
}

// nextYearSameDay returns the same month and day one year later, with
// 29 February becoming 1 March in a common year (12 months "beginning with"
// 29 February end on 28 February).
func nextYearSameDay(d registry.Date) registry.Date {
	if d.Month == time.February && d.Day == 29 && (registry.Date{Year: d.Year + 1, Month: time.February, Day: 1}).DaysIn() == 28 {
		return registry.Date{Year: d.Year + 1, Month: time.March, Day: 1}
	}
	return registry.Date{Year: d.Year + 1, Month: d.Month, Day: d.Day}
}

func maxDate(a, b registry.Date) registry.Date {
	if a.After(b) {
		return a
	}
	return b
}

// normalize brings an out-of-range month or day into range the way
// time.Date does (2025-13-01 is 2026-01-01), so that no computation sees an
// impossible date.
func normalize(d registry.Date) registry.Date {
	return registry.NewDate(d.Year, d.Month, d.Day)
}
