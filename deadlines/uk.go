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

// UKDutyLevel says whether a company type owes one kind of filing to
// Companies House.
type UKDutyLevel uint8

// The duty levels. The zero value is [UKDutyNone].
const (
	// UKDutyNone means the company type owes no such filing to Companies
	// House: the kind never appears, not even from a published date.
	UKDutyNone UKDutyLevel = iota
	// UKDutyDepends means the filing is owed or not depending on facts the
	// register does not show (an exemption, a qualifying partnership): a
	// deadline is listed with mandatory false.
	UKDutyDepends
	// UKDutyAlways means every company of the type owes the filing: a
	// deadline is listed with mandatory true.
	UKDutyAlways
)

// UKDuty is one filing duty of a company type.
type UKDuty struct {
	// Level says whether the filing is owed.
	Level UKDutyLevel
	// Computable is true when the Companies Act rules for the date (s.442
	// and s.443 for accounts, s.853A for the confirmation statement) apply
	// to the type, so that a date can be computed when the register
	// publishes none. When false only the register's own date is used.
	Computable bool
	// Basis names the legal source of the duty, such as
	// "Companies Act 2006 s.441"; it is quoted in applies_because.
	Basis string
}

// UKDuties is what the United Kingdom module knows of one company's filing
// duties: it comes from the module's company-type table (the one owner of
// those facts) and from the report, and [UnitedKingdom] applies the
// Companies Act to it. The package itself keeps no list of company types.
// The zero value owes nothing.
type UKDuties struct {
	// Form names the company type in explanations, such as
	// "private limited company"; "" when the type is unknown.
	Form string
	// Public selects the periods of a public company: accounts are due 6
	// months after the period end instead of 9, first accounts 18 months
	// after incorporation instead of 21 (s.442(2), (3)).
	Public bool
	// Accounts is the duty to deliver annual accounts.
	Accounts UKDuty
	// ConfirmationStatement is the duty to deliver a confirmation
	// statement (or, for an overseas entity, the update statement that
	// Companies House publishes in the same place).
	ConfirmationStatement UKDuty
	// AccountsNote, when set, is one sentence added to the annual accounts
	// deadline's applies_because, such as the CIC report filed with the
	// accounts of a community interest company.
	AccountsNote string
	// Procedure, when set, names an insolvency procedure the company is in
	// that does not end its filing duties ("administration"). A company
	// whose status is unknown gets deadlines only when Procedure is set,
	// and a note names the procedure.
	Procedure string
}

// kind returns the duty of a deadline kind.
func (u UKDuties) kind(k registry.DeadlineKind) UKDuty {
	if k == kindAnnualAccounts {
		return u.Accounts
	}
	return u.ConfirmationStatement
}

// UnitedKingdom returns the next annual accounts and confirmation statement
// deadlines of the UK company described by rep, whose duties the country
// module gives in duties, sorted by due date and then kind.
//
// A kind is listed only when duties say the company type owes it. The
// register's published date wins: a PublishedDeadline of the kind with a due
// date is used verbatim, even when it has passed (days_until is then
// negative and a note says the filing is overdue). When the register
// publishes no due date and the duty is computable, a date computed from the
// Companies Act 2006 fills the gap:
//
//   - annual accounts are due 9 months after the end of the accounting
//     reference period for a private company and 6 months for a public one
//     (s.442), counted by the month-end rule of s.443; the first accounts,
//     of a first accounting reference period (one beginning on
//     incorporation, or whose start the register does not name) longer
//     than 12 months, are due 21 (18) months after incorporation, or 3
//     months after the period end if later (s.442(3)).
//   - the confirmation statement is due 14 days after the end of the review
//     period (s.853A); the first review period is the 12 months beginning
//     with incorporation.
//
// When the register names the pending period (period_end) the computed
// date belongs to that period even when it has passed: the filing is then
// overdue (negative days_until and a note). Only when the register names no
// period is the period derived from the incorporation date, and then the
// first due date on or after today is returned. UK dates never roll
// forward: due_date equals statutory_date.
//
// A UK establishment (is_subunit) gets no deadlines and a note pointing to
// parent_id. A dissolved, removed or closed company, or one in liquidation,
// gets none and a note. A company whose status is unknown gets deadlines
// only when duties name a procedure that does not end its duties
// (administration, receivership, a voluntary arrangement), with a note
// naming it. UnitedKingdom never panics and never returns nil.
func UnitedKingdom(rep *registry.CompanyReport, duties UKDuties, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "GB", "companieshouse", 2)
	if unusable(out, rep, today) {
		return out
	}
	if rep.IsSubunit {
		out.Notes = append(out.Notes, ukSubunitNote(rep))
		return out
	}
	procedure := strings.TrimSpace(duties.Procedure)
	switch {
	case rep.Status == registry.StatusActive:
	case (rep.Status == registry.StatusUnknown || rep.Status == "") && procedure != "":
		out.Notes = append(out.Notes, "The company is in "+procedure+", an insolvency procedure that does not end the company: "+
			"its duties to deliver accounts and confirmation statements continue (the Companies Act 2006 ss. 441, 442 and 853A make no exception), "+
			"so the deadlines below still apply; the office-holder or the directors must file.")
	default:
		out.Notes = append(out.Notes, ukInactiveNote(rep.Status))
		return out
	}
	c := ukCalc{out: out, today: today, duties: duties}
	c.inc, c.hasInc = usable(firstOf(rep.FoundedAt, rep.RegisteredAt))
	var computed, anyComputable bool
	for _, kind := range []registry.DeadlineKind{kindAnnualAccounts, kindConfirmationStmt} {
		var pub *registry.PublishedDeadline
		for i := range rep.PublishedDeadlines {
			if rep.PublishedDeadlines[i].Kind == kind {
				pub = &rep.PublishedDeadlines[i]
				break
			}
		}
		duty := duties.kind(kind)
		if duty.Level == UKDutyNone {
			if pub != nil {
				out.Notes = append(out.Notes, fmt.Sprintf("The register publishes a %s date, but %s owes no such filing to Companies House, so it is not listed.",
					kind, ukFormPhrase(duties.Form)))
			}
			continue
		}
		anyComputable = anyComputable || duty.Computable
		if _, ok := usable(pubDue(pub)); ok {
			c.published(kind, pub)
			continue
		}
		if duty.Computable && c.compute(kind, pub) {
			computed = true
		}
	}
	dropped := finish(out)
	if computed {
		out.Notes = append(out.Notes, noteUKComputed)
	}
	if len(out.Deadlines) == 0 && !dropped {
		why := "the register publishes no due date"
		switch {
		case duties.Accounts.Level == UKDutyNone && duties.ConfirmationStatement.Level == UKDutyNone:
			why = ukFormPhrase(duties.Form) + " owes no annual accounts or confirmation statement to Companies House"
			if duties.Form == "" {
				why = "the company type is not one whose filings this service knows"
			}
		case !anyComputable:
			why += " and the dates of " + ukFormPhrase(duties.Form) + " are not computed here"
		default:
			why += " and the report has no incorporation date to compute from"
		}
		out.Notes = append(out.Notes, "No deadlines: "+why+".")
	}
	out.Notes = append(out.Notes, noteUKNoRoll)
	return out
}

// ukFormPhrase names a company type in a sentence: "a private limited
// company", "an unlimited company", "a European Economic Interest
// Grouping", or "this company type" when unknown.
func ukFormPhrase(form string) string {
	form = strings.TrimSpace(form)
	if form == "" {
		return "this company type"
	}
	lower := strings.ToLower(form)
	for _, p := range []string{"eu", "uni", "uk", "one"} {
		// Spelled with a vowel, said with a consonant: "a European…",
		// "a United Kingdom…", "a UK establishment".
		if strings.HasPrefix(lower, p) {
			return "a " + form
		}
	}
	switch lower[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + form
	}
	return "a " + form
}

func ukSubunitNote(rep *registry.CompanyReport) string {
	s := "This is a UK establishment (a branch) of an overseas company; it has no filing deadlines of its own: " +
		"the overseas company delivers the accounts and other documents for it"
	if p := strings.TrimSpace(deref(rep.ParentID)); p != "" {
		return s + ". Ask for the deadlines of the overseas company " + p + " (parent_id) instead."
	}
	return s + ". The register names no parent company number, so parent_id is null."
}

// pubDue returns the due date of p, or nil.
func pubDue(p *registry.PublishedDeadline) *registry.Date {
	if p == nil {
		return nil
	}
	return p.DueDate
}

func ukInactiveNote(s registry.Status) string {
	switch s {
	case registry.StatusDissolved:
		return "The company is dissolved, so it has no filing deadlines."
	case registry.StatusDeleted:
		return "The company is removed from the register or closed, so it has no filing deadlines."
	case registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation, registry.StatusBankrupt:
		return "The company is in liquidation (status " + string(s) +
			"); the liquidator's own returns replace the company's accounts and confirmation statements, so no deadlines are listed."
	}
	return "The company's status is unknown and names no procedure that keeps its duties, so no deadlines are computed; " +
		"they are only computed for active companies and those in administration, receivership or a voluntary arrangement."
}

// ukCalc computes the UK deadlines of one report.
type ukCalc struct {
	out    *registry.DeadlineReport
	today  registry.Date
	duties UKDuties
	inc    registry.Date // incorporation date
	hasInc bool
}

func (c *ukCalc) add(d registry.Deadline) {
	d.Country, d.Registry = c.out.Country, c.out.Registry
	d.Authority = authCompaniesHouse
	d.DueDate = d.StatutoryDate
	d.Recurrence = registry.RecurrenceAnnual
	d.DaysUntil = countrykit.Ptr(d.DueDate.DaysSince(c.today))
	d.Mandatory = c.duties.kind(d.Kind).Level == UKDutyAlways
	if d.Kind == kindAnnualAccounts {
		d.Name, d.LocalName, d.SourceURL = "Annual accounts", countrykit.Ptr("statutory accounts"), countrykit.Ptr(srcUKAccounts)
		if n := strings.TrimSpace(c.duties.AccountsNote); n != "" {
			d.AppliesBecause += " " + n
		}
	} else {
		d.Name, d.LocalName, d.SourceURL = "Confirmation statement", countrykit.Ptr("confirmation statement (CS01)"), countrykit.Ptr(srcUKConfirmation)
	}
	if duty := c.duties.kind(d.Kind); duty.Level == UKDutyDepends {
		d.AppliesBecause += " Whether " + ukFormPhrase(c.duties.Form) + " must file depends on facts the register does not show"
		if b := strings.TrimSpace(duty.Basis); b != "" {
			d.AppliesBecause += " (" + b + ")"
		}
		d.AppliesBecause += ", so mandatory is false."
	}
	c.out.Deadlines = append(c.out.Deadlines, d)
}

// basis returns " (source)" for the duty of kind, or "".
func (c *ukCalc) basis(kind registry.DeadlineKind) string {
	if b := strings.TrimSpace(c.duties.kind(kind).Basis); b != "" && c.duties.kind(kind).Level == UKDutyAlways {
		return " The filing is owed under " + b + "."
	}
	return ""
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
		AppliesBecause: "The date is published by " + src + " and used as given; it does not move for weekends or bank holidays." + c.basis(kind),
	})
	if due.Before(c.today) {
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("%s is overdue: the register's due date %s has passed.", kind, due))
	}
}

// compute adds a computed date for kind, from the register's named period
// when there is one, else from the incorporation date. It reports whether
// it added one.
func (c *ukCalc) compute(kind registry.DeadlineKind, p *registry.PublishedDeadline) bool {
	var named *registry.PublishedDeadline
	if p != nil {
		if end, ok := usable(p.PeriodEnd); ok {
			named = &registry.PublishedDeadline{PeriodEnd: countrykit.Ptr(end)}
			if start, ok := usable(p.PeriodStart); ok {
				named.PeriodStart = countrykit.Ptr(start)
			}
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

// overdue adds the note for a computed date of a period the register names
// that has already passed.
// what is the subject of the sentence, with its verb ("the accounts made
// up to 2024-03-31 were").
func (c *ukCalc) overdue(kind registry.DeadlineKind, what string, due registry.Date) {
	c.out.Notes = append(c.out.Notes, fmt.Sprintf("%s is overdue: %s due %s (%d days ago) and the register names no later period, "+
		"so the filing is still owed for that period.", kind, what, due, c.today.DaysSince(due)))
}

func (c *ukCalc) accounts(named *registry.PublishedDeadline) {
	months, firstMonths, kindWord := 9, 21, "private"
	if c.duties.Public {
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
	due := func(start *registry.Date, end registry.Date) (registry.Date, bool) {
		// First accounts: s.442(3) applies only to the first accounting
		// reference period (one that begins on incorporation, or whose
		// start the register does not name) when it is longer than 12
		// months, at most 18. A later period ending in that window (after
		// a changed accounting reference date) keeps the s.442(2) period.
		isFirst := start == nil || *start == c.inc
		if c.hasInc && isFirst && end.After(anniversary(c.inc).AddDays(-1)) && !end.After(addMonthsUK(c.inc, 18)) {
			return maxDate(addMonthsUK(anniversary(c.inc), months), addMonthsUK(end, 3)), true
		}
		return addMonthsUK(end, months), false
	}
	d, first := due(start, end)
	// The period the register names is the one owed, even when its date
	// has passed; only a period derived from incorporation steps forward
	// to the next occurrence.
	if named == nil {
		steps := 0
		step := func(n int) {
			start = countrykit.Ptr((addMonthsUK(end, 12*(n-1))).AddDays(1))
			end = addMonthsUK(end, 12*n)
			d, first = due(start, end)
			steps += n
		}
		// Jump close to today, then step one period at a time.
		if gap := c.today.Year - d.Year - 2; gap > 0 {
			step(min(gap, ukMaxSteps))
		}
		for d.Before(c.today) && steps < ukMaxSteps {
			step(1)
		}
	} else if d.Before(c.today) {
		c.overdue(kindAnnualAccounts, "the accounts made up to "+end.String()+" were", d)
	}
	form := c.duties.Form
	if form == "" {
		form = kindWord + " company"
	}
	why := fmt.Sprintf("Computed: the register publishes no due date, so accounts of %s are due %d months after %s (Companies Act 2006 s.442, month-end rule of s.443).",
		ukFormPhrase(form), months, how)
	if first {
		why = fmt.Sprintf("Computed: the register publishes no due date, so the first accounts of %s are due %d months after incorporation "+
			"or 3 months after the end of the first period, whichever is later (Companies Act 2006 s.442(3)); the period end is %s.", ukFormPhrase(form), firstMonths, how)
	}
	c.add(registry.Deadline{
		Kind: kindAnnualAccounts, StatutoryDate: d, PeriodLabel: periodLabel(kindAnnualAccounts, &end),
		PeriodStart: start, PeriodEnd: countrykit.Ptr(end), AppliesBecause: why,
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
		if due := end.AddDays(14); due.Before(c.today) {
			c.overdue(kindConfirmationStmt, "the confirmation statement for the review period ending "+end.String()+" was", due)
		}
	} else {
		// The first review period is the 12 months beginning with the day
		// of incorporation.
		start, end = c.inc, nextYearSameDay(c.inc).AddDays(-1)
		how = "the first review period (12 months beginning with incorporation) and each 12 months after it"
		// Step one review period at a time up to today; a period is one
		// year, so this runs about as many times as the company is years
		// old.
		for steps := 0; end.AddDays(14).Before(c.today) && steps < ukMaxSteps; steps++ {
			start = end.AddDays(1)
			end = nextYearSameDay(start).AddDays(-1)
		}
	}
	var ps *registry.Date
	if startKnown {
		ps = countrykit.Ptr(start)
	}
	c.add(registry.Deadline{
		Kind: kindConfirmationStmt, StatutoryDate: end.AddDays(14), PeriodLabel: periodLabel(kindConfirmationStmt, &end),
		PeriodStart: ps, PeriodEnd: countrykit.Ptr(end),
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
