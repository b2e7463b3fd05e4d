package deadlines

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// The deadline kinds this package computes. A kind is unique within a
// country; AnnualAccounts is shared by Norway and the United Kingdom, and
// GeneralMeeting, TaxReturn and VATReturn by Norway and Finland (whose own
// kinds are [FinancialStatements] and [EmployerContributions]).
const (
	// AnnualAccounts is the annual accounts (NO årsregnskap; GB statutory
	// accounts).
	AnnualAccounts registry.DeadlineKind = kindAnnualAccounts
	// GeneralMeeting is the ordinary general meeting (NO ordinær
	// generalforsamling; FI varsinainen yhtiökokous).
	GeneralMeeting registry.DeadlineKind = kindGeneralMeeting
	// TaxReturn is the income tax return (NO skattemelding; FI
	// veroilmoitus).
	TaxReturn registry.DeadlineKind = kindTaxReturn
	// ShareholderRegisterStatement is the shareholder register statement
	// (NO aksjonærregisteroppgave).
	ShareholderRegisterStatement registry.DeadlineKind = kindShareholderStmt
	// VATReturn is the VAT return (NO mva-melding; FI
	// arvonlisäveroilmoitus).
	VATReturn registry.DeadlineKind = kindVATReturn
	// PayrollReport is the monthly payroll report (NO a-melding).
	PayrollReport registry.DeadlineKind = kindPayrollReport
	// ConfirmationStatement is the confirmation statement (GB CS01).
	ConfirmationStatement registry.DeadlineKind = kindConfirmationStmt
)

// The kinds as untyped constants, for the package's own tables.
const (
	kindAnnualAccounts   = "annual_accounts"
	kindGeneralMeeting   = "general_meeting"
	kindTaxReturn        = "tax_return"
	kindShareholderStmt  = "shareholder_register_statement"
	kindVATReturn        = "vat_return"
	kindPayrollReport    = "payroll_report"
	kindConfirmationStmt = "confirmation_statement"
)

// Authorities and sources of the Norwegian kinds (research/no-deadlines.md).
// They belong to the kind, not to a legal form: what differs per form comes
// with the form's [NorwegianDuties].
const (
	authSkatteetaten = "Skatteetaten (the Norwegian Tax Administration)"
	authRegnskaps    = "Regnskapsregisteret (Brønnøysundregistrene)"
	authMeeting      = "The entity itself (a meeting of its owners or members; nothing is filed)"

	srcVAT         = "https://www.skatteetaten.no/rettskilder/type/handboker/skatteforvaltningshandboken/gjeldende/kapittel-8-opplysningsplikt-for-skattepliktige-trekkpliktige-mv/ID-8-3.001/ID-8-3.029/"
	srcPayroll     = "https://www.skatteetaten.no/bedrift-og-organisasjon/arbeidsgiver/a-meldingen/frister-og-betaling-i-a-meldingen/"
	srcTaxReturn   = "https://www.skatteetaten.no/nn/rettskjelder/type/handboker/skatteforvaltningshandboken/gjeldende/kapittel-8-opplysningsplikt-for-skattepliktige-trekkpliktige-mv/ID-8-2.001/ID-8-2.024/"
	srcShareholder = "https://www.altinn.no/en/start-and-run-business/direct-and-indirect-taxes/the-enterprises-tax/shareholder-register/"
	srcAccounts    = "https://www.brreg.no/bedrift/innsending-av-arsregnskap/innsendingsplikt-til-regnskapsregisteret/"
)

// NorwegianDuties is the duty profile of one Norwegian legal form: which of
// the four form-dependent kinds apply to it and why. The country module owns
// these facts (one row of its legal-form table per form) and passes the
// profile of a report's form to [Norway]; this package keeps no list of
// forms of its own.
type NorwegianDuties struct {
	// Code is the organisasjonsform code, such as "AS".
	Code string
	// Label names the form in notes, such as "private limited company
	// (AS)". An empty Label means the module does not recognise the
	// report's legal form: no deadlines are computed.
	Label string
	// The four kinds that depend on the legal form.
	TaxReturn, ShareholderRegisterStatement, GeneralMeeting, AnnualAccounts KindDuty
}

// kindEntry is one form-dependent kind of a profile.
type kindEntry struct {
	kind string
	duty KindDuty
}

// kinds returns the four kinds of d with their kind names, in the order the
// engine and the rules document use.
func (d NorwegianDuties) kinds() [4]kindEntry {
	return [4]kindEntry{
		{kindTaxReturn, d.TaxReturn},
		{kindShareholderStmt, d.ShareholderRegisterStatement},
		{kindAnnualAccounts, d.AnnualAccounts},
		{kindGeneralMeeting, d.GeneralMeeting},
	}
}

// kindWord returns the plain name of a form-dependent kind, for notes.
func kindWord(kind string) string {
	switch kind {
	case kindTaxReturn:
		return "tax return"
	case kindShareholderStmt:
		return "shareholder register statement"
	case kindAnnualAccounts:
		return "annual accounts"
	}
	return "general meeting"
}

// Notes of the Norwegian report.
const (
	noteCalendarYear = "Deadlines assume the financial year is the calendar year (regnskapsloven § 1-7). " +
		"Entities with an approved deviating financial year, or a first financial year of up to 18 months, " +
		"have different annual-accounts, general-meeting and possibly tax-return dates; these are not computed here."
	noteVATTerms = "VAT returns assume the ordinary two-month terms. An annual term (turnover under NOK 1 million, on application), " +
		"the annual return of primary industries and monthly terms are not modelled."
	noteLiquidation   = "The unit is under voluntary liquidation (avvikling); its filing duties continue until the deletion is registered."
	noteStatusUnknown = "The unit's status is unknown; deadlines are computed as if it were active."
	notePayrollNone   = "The register shows %s, so the monthly payroll report (a-melding) is not mandatory; " +
		"a unit that pays board fees or other remuneration still reports for each month in which it pays them."
)

// Norway returns the next occurrence, on or after today, of each Norwegian
// filing obligation of the entity described by rep, sorted by due date and
// then kind. duties is the profile of rep's legal form, from the country
// module's legal-form table; Norway keeps no list of forms of its own.
//
// Six kinds are covered: vat_return (bimonthly terms, for VAT-registered
// units, from the term in which the registration took effect),
// payroll_report (monthly, for units with employees), and the four kinds
// duties decides: tax_return, shareholder_register_statement,
// annual_accounts and general_meeting. The first four roll forward past
// Saturdays, Sundays and Norwegian public holidays; the annual accounts
// (before 1 August) and the general meeting (within six months) are fixed by
// law and do not, and a note says when such a date falls on a weekend. The
// financial year is assumed to be the calendar year, and a note says so.
//
// A period that ended before the unit was founded (FoundedAt, else
// RegisteredAt) is skipped, and accounts already filed for a year
// (LastAnnualAccountsYear) move annual_accounts to the following year.
// Sub-units, and bankrupt, deleted, dissolved or compulsorily liquidated
// units, get an empty list and a note saying why; so does a unit whose legal
// form is missing or not recognised (an empty duties.Label). A unit under
// voluntary liquidation keeps its duties. A kind whose duty is
// [DutyUnknown] is not computed, and a note names it. Norway never panics
// and never returns nil.
func Norway(rep *registry.CompanyReport, duties NorwegianDuties, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "NO", "brreg", 6)
	if unusable(out, rep, today, noteCalendarYear) {
		return out
	}
	code := strings.ToUpper(strings.TrimSpace(deref(rep.LegalFormCode)))
	if why, stop := norwayStop(rep, code, duties); stop {
		out.Notes = append(out.Notes, why, noteCalendarYear)
		return out
	}
	switch rep.Status {
	case registry.StatusUnderLiquidation:
		out.Notes = append(out.Notes, noteLiquidation)
	case registry.StatusUnknown, "":
		out.Notes = append(out.Notes, noteStatusUnknown)
	}

	c := noCalc{out: out, today: today, duties: duties}
	c.start, c.hasStart = usable(firstOf(rep.FoundedAt, rep.RegisteredAt))

	if rep.VATRegistered != nil && *rep.VATRegistered {
		c.vat(rep.VATRegisteredAt)
		out.Notes = append(out.Notes, noteVATTerms)
	}
	switch {
	case rep.Employees != nil && *rep.Employees == 0:
		c.payroll(false, "zero employees")
		out.Notes = append(out.Notes, fmt.Sprintf(notePayrollNone, "zero employees"))
	case rep.Employees == nil && rep.EmployeesReported != nil && !*rep.EmployeesReported:
		// harRegistrertAntallAnsatte false: the live register's way of
		// saying "no registered employees" (it never publishes a count of
		// 0), treated like a count of zero; employees stays null.
		c.payroll(false, "no registered employees")
		out.Notes = append(out.Notes, fmt.Sprintf(notePayrollNone, "no registered employees"))
	case (rep.EmployeesReported != nil && *rep.EmployeesReported) || (rep.Employees != nil && *rep.Employees > 0):
		c.payroll(true, "")
	}
	c.annual(rep.LastAnnualAccountsYear)
	var unknown []string
	all := duties.kinds()
	for _, k := range all {
		if k.duty.Duty == DutyUnknown {
			unknown = append(unknown, kindWord(k.kind))
		}
	}
	switch len(unknown) {
	case 0:
	case len(all):
		out.Notes = append(out.Notes, "The duties that depend on the legal form "+code+" (annual accounts, tax return, shareholder register statement, "+
			"general meeting) are not classified here; only the duties that follow from a register flag (VAT registration, employees) are computed.")
	default:
		verb := " are"
		if len(unknown) == 1 {
			verb = " is"
		}
		out.Notes = append(out.Notes, "For a "+duties.Label+" the "+joinWords(unknown)+verb+" not modelled; only its other duties and the duties "+
			"that follow from a register flag (VAT registration, employees) are computed.")
	}
	dropped := finish(out)
	if len(out.Deadlines) == 0 && !dropped {
		out.Notes = append(out.Notes, "No filing obligation could be derived: the register shows neither VAT registration nor employees, "+
			"and the legal form gives no modelled duty.")
	}
	out.Notes = append(out.Notes, noteCalendarYear)
	return out
}

// joinWords joins words as "a", "a and b" or "a, b and c".
func joinWords(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// norwayStop says whether rep gets no deadlines at all, and why.
func norwayStop(rep *registry.CompanyReport, code string, duties NorwegianDuties) (string, bool) {
	if rep.IsSubunit || code == "BEDR" || code == "AAFY" {
		parent := "its main unit"
		if p := strings.TrimSpace(deref(rep.ParentID)); p != "" {
			parent = "the main unit " + p + " (parent_id)"
		}
		return "This is a sub-unit (underenhet); sub-units have no filing duties of their own. " +
			"All filing duties rest on " + parent + ": ask for its deadlines instead.", true
	}
	switch rep.Status {
	case registry.StatusDeleted:
		if duties.ShareholderRegisterStatement.Duty == DutyYes {
			return "The unit is deleted from the register, so it has no filing deadlines; a company wound up during a year still " +
				"files the shareholder register statement for that year by 31 January of the next year.", true
		}
		return "The unit is deleted from the register, so it has no filing deadlines.", true
	case registry.StatusBankrupt:
		return "The unit is bankrupt (konkurs); the estate and its administrator (bostyrer) handle its filings, " +
			"so the company's ordinary deadlines are not computed.", true
	case registry.StatusUnderCompulsoryLiquidation:
		return "The unit is under compulsory liquidation or dissolution (tvangsavvikling or tvangsoppløsning); " +
			"the court's administrator handles its affairs, so the company's ordinary deadlines are not computed.", true
	case registry.StatusDissolved:
		return "The unit is dissolved, so it has no filing deadlines.", true
	}
	if code == "" {
		return "The legal form is unknown, so no deadlines are computed: the duties depend on it.", true
	}
	if duties.Label == "" {
		return "The legal form " + code + " is not one Enhetsregisteret publishes (unclassified), so no deadlines are computed.", true
	}
	return "", false
}

// noCalc computes the Norwegian deadlines of one report.
type noCalc struct {
	out      *registry.DeadlineReport
	today    registry.Date
	duties   NorwegianDuties
	start    registry.Date // founding (or registration) date
	hasStart bool
}

// startedBy reports whether a period ending on end is after the unit was
// founded, i.e. is not skipped.
func (c *noCalc) startedBy(end registry.Date) bool {
	return !c.hasStart || !end.Before(c.start)
}

func (c *noCalc) add(d registry.Deadline, roll bool) {
	d.Country, d.Registry = c.out.Country, c.out.Registry
	d.DueDate = d.StatutoryDate
	if roll {
		d.DueDate = rollForwardNorway(d.StatutoryDate)
	}
	d.RolledForward = d.DueDate != d.StatutoryDate
	d.DaysUntil = countrykit.Ptr(d.DueDate.DaysSince(c.today))
	c.out.Deadlines = append(c.out.Deadlines, d)
}

// vatTermDue returns the statutory date of VAT term t (1..6) of year y
// (skatteforvaltningsforskriften § 8-3-10 (1): one month and ten days after
// the term, but 31 August for the third term).
func vatTermDue(y, t int) registry.Date {
	if t == 3 {
		return registry.Date{Year: y, Month: time.August, Day: 31}
	}
	return date(y, time.Month(2*t+2), 10)
}

var vatTermMonths = [...]string{"", "January–February", "March–April", "May–June", "July–August", "September–October", "November–December"}

// vat adds the next VAT return. registeredAt is the date the VAT
// registration took effect, when the register gives one: VAT returns are due
// from the term that contains it (skatteforvaltningsloven § 8-3 lays the duty
// on registered units, none before registration), so a term that ended
// before it is skipped.
func (c *noCalc) vat(registeredAt *registry.Date) {
	// Terms are numbered y*6 + (t-1). Start two terms before today's, or
	// at the founding or registration term; each term is due within three
	// months of its end, so the loop runs a few times at most.
	idx := c.today.Year*6 + (int(c.today.Month)-1)/2 - 2
	if c.hasStart {
		idx = max(idx, c.start.Year*6+(int(c.start.Month)-1)/2)
	}
	if r, ok := usable(registeredAt); ok {
		idx = max(idx, r.Year*6+(int(r.Month)-1)/2)
	}
	for ; ; idx++ {
		y, t := floorDiv(idx, 6), mod(idx, 6)+1
		end := endOfMonth(y, time.Month(2*t))
		stat := vatTermDue(y, t)
		if !c.startedBy(end) || rollForwardNorway(stat).Before(c.today) {
			continue
		}
		c.add(registry.Deadline{
			Kind:           kindVATReturn,
			Name:           "VAT return",
			LocalName:      countrykit.Ptr("mva-melding"),
			Authority:      authSkatteetaten,
			StatutoryDate:  stat,
			PeriodLabel:    countrykit.Ptr("Term " + strconv.Itoa(t) + " of " + strconv.Itoa(y) + " (" + vatTermMonths[t] + ")"),
			PeriodStart:    countrykit.Ptr(registry.Date{Year: y, Month: time.Month(2*t - 1), Day: 1}),
			PeriodEnd:      countrykit.Ptr(end),
			Recurrence:     registry.RecurrenceBimonthly,
			Mandatory:      true,
			AppliesBecause: "The unit is registered in the VAT register (Merverdiavgiftsregisteret); the date assumes the ordinary two-month terms.",
			SourceURL:      countrykit.Ptr(srcVAT),
		}, true)
		return
	}
}

// payroll adds the next payroll report; mandatory is false when the
// register shows no employees, which none says ("zero employees" or "no
// registered employees").
func (c *noCalc) payroll(mandatory bool, none string) {
	// Months are numbered y*12 + (m-1). A month's report is due early in
	// the next month, so start two months back.
	idx := c.today.Year*12 + int(c.today.Month) - 1 - 2
	if c.hasStart {
		idx = max(idx, c.start.Year*12+int(c.start.Month)-1)
	}
	for ; ; idx++ {
		y, m := floorDiv(idx, 12), time.Month(mod(idx, 12)+1)
		end := endOfMonth(y, m)
		stat := date(y, m+1, 5)
		if !c.startedBy(end) || rollForwardNorway(stat).Before(c.today) {
			continue
		}
		why := "The register shows employees, so an a-melding is due for every month by the 5th of the next month (a-opplysningsforskriften § 2-1)."
		if !mandatory {
			why = "The register shows " + none + ", so an a-melding is due by the 5th of the next month (a-opplysningsforskriften § 2-1) only for a month in which the unit pays board fees or other remuneration."
		}
		c.add(registry.Deadline{
			Kind:           kindPayrollReport,
			Name:           "Payroll report",
			LocalName:      countrykit.Ptr("a-melding"),
			Authority:      authSkatteetaten,
			StatutoryDate:  stat,
			PeriodLabel:    countrykit.Ptr(m.String() + " " + strconv.Itoa(y)),
			PeriodStart:    countrykit.Ptr(registry.Date{Year: y, Month: m, Day: 1}),
			PeriodEnd:      countrykit.Ptr(end),
			Recurrence:     registry.RecurrenceMonthly,
			Mandatory:      mandatory,
			AppliesBecause: why,
			SourceURL:      countrykit.Ptr(srcPayroll),
		}, true)
		return
	}
}

// nextYear returns the first period year y >= from whose deadline (in year
// y+1) is on or after today.
func (c *noCalc) nextYear(from int, month time.Month, day int, roll bool) int {
	y := max(from, c.today.Year-1)
	for {
		d := registry.Date{Year: y + 1, Month: month, Day: day}
		if roll {
			d = rollForwardNorway(d)
		}
		if !d.Before(c.today) {
			return y
		}
		y++
	}
}

// maxYear bounds the years read from the report: a report's dates are
// written YYYY-MM-DD, so no real year is larger, and absurd input cannot
// overflow the arithmetic.
const maxYear = 9999

func (c *noCalc) annual(lastAccounts *int) {
	f := c.duties
	minYear := c.today.Year - 1
	if c.hasStart {
		minYear = max(minYear, c.start.Year)
	}
	yearPeriod := func(y int, label string) (*string, *registry.Date, *registry.Date) {
		return countrykit.Ptr(label + " " + strconv.Itoa(y)),
			countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
			countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31})
	}

	if f.TaxReturn.Duty.Applies() {
		y := c.nextYear(minYear, time.May, 31, true)
		label, ps, pe := yearPeriod(y, "Income year")
		c.add(kindDeadline(registry.Deadline{
			Kind: kindTaxReturn, Name: "Tax return", LocalName: countrykit.Ptr("skattemelding"), Authority: authSkatteetaten,
			StatutoryDate: registry.Date{Year: y + 1, Month: time.May, Day: 31},
			PeriodLabel:   label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			SourceURL: countrykit.Ptr(srcTaxReturn),
		}, f.TaxReturn, f.Label), true)
	}

	if f.ShareholderRegisterStatement.Duty.Applies() {
		y := c.nextYear(minYear, time.January, 31, true)
		label, ps, pe := yearPeriod(y, "Income year")
		c.add(kindDeadline(registry.Deadline{
			Kind: kindShareholderStmt, Name: "Shareholder register statement", LocalName: countrykit.Ptr("aksjonærregisteroppgave"),
			Authority:     authSkatteetaten,
			StatutoryDate: registry.Date{Year: y + 1, Month: time.January, Day: 31},
			PeriodLabel:   label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			SourceURL: countrykit.Ptr(srcShareholder),
		}, f.ShareholderRegisterStatement, f.Label), true)
	}

	if f.GeneralMeeting.Duty.Applies() {
		y := c.nextYear(minYear, time.June, 30, false)
		label, ps, pe := yearPeriod(y, "Financial year")
		stat := registry.Date{Year: y + 1, Month: time.June, Day: 30}
		c.add(kindDeadline(registry.Deadline{
			Kind: kindGeneralMeeting, Name: "Ordinary general meeting", LocalName: countrykit.Ptr("ordinær generalforsamling"), Authority: authMeeting,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe,
			Recurrence: registry.RecurrenceAnnual,
		}, f.GeneralMeeting, f.Label), false)
		if w := stat.Weekday(); w == time.Saturday || w == time.Sunday {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("general_meeting: %s is a %s. The six-month limit is fixed by law and a meeting may be held on any day, "+
				"so the date does not move to the next working day.", stat, w))
		}
	}

	if f.AnnualAccounts.Duty.Applies() {
		from := minYear
		if lastAccounts != nil {
			if *lastAccounts >= 1 && *lastAccounts <= maxYear {
				from = max(from, *lastAccounts+1)
			} else {
				c.out.Notes = append(c.out.Notes, fmt.Sprintf("The last annual accounts year %d is not a plausible year and is ignored.", *lastAccounts))
			}
		}
		y := c.nextYear(from, time.July, 31, false)
		label, ps, pe := yearPeriod(y, "Financial year")
		stat := registry.Date{Year: y + 1, Month: time.July, Day: 31}
		c.add(kindDeadline(registry.Deadline{
			Kind: kindAnnualAccounts, Name: "Annual accounts", LocalName: countrykit.Ptr("årsregnskap"), Authority: authRegnskaps,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe,
			Recurrence: registry.RecurrenceAnnual, SourceURL: countrykit.Ptr(srcAccounts),
		}, f.AnnualAccounts, f.Label), false)
		if w := stat.Weekday(); w == time.Saturday || w == time.Sunday {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("annual_accounts: %s is a %s. The date is fixed by law (regnskapsloven § 8-3: sent before 1 August) "+
				"and does not move to the next working day; file by %s %s to be safe.", stat, w, lastWorkingDayBefore(stat).Weekday(), lastWorkingDayBefore(stat)))
		}
		if c.hasStart && c.start.Year == y && c.start.Month >= time.July {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("The unit was founded on %s, on or after 1 July: its first financial year may run to the end of %d (up to 18 months), "+
				"and its first annual accounts may then be due in %d instead.", c.start, y+1, y+2))
		}
	}
}

// lastWorkingDayBefore returns the last Norwegian working day before d.
func lastWorkingDayBefore(d registry.Date) registry.Date {
	return lastBusinessDayBefore(d, isNorwegianWorkingDay)
}
