package deadlines

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// The Finnish deadline kinds that no other country has. Finland also uses
// [GeneralMeeting], [TaxReturn] and [VATReturn].
const (
	// FinancialStatements is the filing of the financial statements with
	// the Finnish Trade Register (FI tilinpäätöksen rekisteröinti).
	FinancialStatements registry.DeadlineKind = "financial_statements"
	// EmployerContributions is the payment and report of an employer's
	// withholdings and health insurance contribution (FI
	// työnantajasuoritukset).
	EmployerContributions registry.DeadlineKind = "employer_contributions"
	// EmployerSeparateReport is the employer's separate report to the
	// Incomes Register (FI työnantajan erillisilmoitus): each month's
	// health insurance contribution, also for a month without wages, while
	// the employer is in the employer register.
	EmployerSeparateReport registry.DeadlineKind = "employer_separate_report"
)

// Authorities and sources of the Finnish kinds (research fi-deadlines.md).
const (
	authVero     = "Verohallinto (the Finnish Tax Administration)"
	authPRH      = "Patentti- ja rekisterihallitus (PRH), the Trade Register"
	authFIMeetng = "The company itself (a meeting of its shareholders or members; nothing is filed)"
	authFIIncReg = "Tulorekisteri (the Incomes Register, kept by the Finnish Tax Administration)"

	srcFIRollForward = "https://finlex.fi/fi/laki/ajantasa/1930/19300150"
	srcFIVAT         = "https://www.vero.fi/en/businesses-and-corporations/taxes-and-charges/vat/when-to-file-and-pay/"
	srcFICorporate   = "https://www.vero.fi/en/businesses-and-corporations/important_dates_and_deadlines_for_corporate_taxpayers/"
	srcFIMeeting     = "https://prh.fi/fi/kaupparekisteri/tilinpaatos/oy.html"
	srcFIStatements  = "https://prh.fi/en/companiesandorganisations/financial_statements/filing_financial_statements_late/fee-for-late-submission.html"
)

// FinlandDuties is the profile of one Finnish company that [Finland]
// computes from: the form-dependent duties, which the module's legal-form
// table owns (countries/fi), and the register fact the report has no field
// for (the employer register). VAT registration is read from the report.
type FinlandDuties struct {
	// Code is the register's legal-form code, such as "16".
	Code string
	// Label names the legal form in notes and sentences, for example
	// "private limited company (Oy)". An empty Label means the legal form
	// is unknown or its own duties are not modelled: the three duties below
	// are then ignored.
	Label string
	// GeneralMeeting is the ordinary general meeting that adopts the
	// financial statements within six months of the year end
	// (osakeyhtiölaki 5:3; the cooperatives act likewise).
	GeneralMeeting KindDuty
	// FinancialStatements is the filing of the financial statements with
	// the Trade Register, free within eight months of the year end.
	FinancialStatements KindDuty
	// TaxReturn is the corporate income tax return, due four months after
	// the end of the last calendar month of the accounting period.
	TaxReturn KindDuty
	// PartnershipTaxReturn is the income tax return for business income of
	// a business partnership (Ay, Ky; elinkeinoyhtymä), due on 1 April of
	// the year after the tax year, moved to the next business day. It is
	// listed as the tax_return kind, and only when TaxReturn does not
	// apply.
	PartnershipTaxReturn KindDuty
	// Employer is true when the register shows a current entry in the
	// employer register (työnantajarekisteri, register code 7) of the Tax
	// Administration: employer contributions and the employer's separate
	// report to the Incomes Register are then due every month.
	Employer bool
	// EmployerSince is the date of that entry, or nil; no month before it
	// is due.
	EmployerSince *registry.Date
}

// Notes of the Finnish report.
const (
	noteFICalendarYear = "Deadlines assume the financial year is the calendar year: the register does not publish the financial year. " +
		"A company with another financial year, or a first financial year of up to 18 months, has different general-meeting, " +
		"financial-statements and tax-return dates; these are not computed here."
	noteFIVATPeriod = "VAT returns assume the default monthly period (the 12th of the second month after the month). " +
		"A company with a turnover under EUR 100,000 may have chosen quarterly returns and one under EUR 30,000 an annual return " +
		"(due at the end of February), which the register does not show."
	noteFIEmployer = "Employer contributions are due for each month in which wages are paid, and the employer's separate report to " +
		"the Incomes Register for every month while the company is in the employer register, also for a month without wages. The " +
		"earnings payment reports to the Incomes Register (within five days of each payment) depend on the payment dates and are not computed."
	noteFINotComputed = "Not computed: prepayments of income tax (the 23rd of each month, by the company's own prepayment decision), " +
		"beneficial-owner notifications (event-driven) and the EU sales list (only with intra-EU sales)."
	noteFILiquidation   = "The company is in liquidation (selvitystila); its filing duties continue, handled by the liquidator, until it is deregistered."
	noteFIStatusUnknown = "The company's status is unknown; deadlines are computed as if it were active."
)

// Finland returns the next occurrence, on or after today, of each Finnish
// filing obligation of the company described by rep, sorted by due date
// and then kind. duties is the profile of its legal form and registers,
// built by the Finnish module from its legal-form table. A profile with an
// empty Label (or nil) means the legal form is unknown or its own duties are
// not modelled: only the duties that follow from the register (VAT and
// employer registration) are computed. A form-dependent kind is computed
// when its duty [Duty.Applies], as mandatory for [DutyYes]; a kind whose
// duty is [DutyNo] or [DutyUnknown] is not computed, and no note names it
// (the module's rules document lists each form's kinds).
//
// Six kinds are covered: vat_return (monthly, for a company in the VAT
// register), employer_contributions and employer_separate_report (monthly,
// for a company in the employer register), tax_return, general_meeting and
// financial_statements (by legal form; a partnership's tax return is due on
// 1 April). The tax kinds and the Incomes Register's report roll forward
// past Saturdays, Sundays and the holidays of [FinnishHolidays] (150/1930
// § 5, as the Tax Administration applies it); the general meeting and the
// Trade Register's
// eight months do not, since no source settles that they move, and a note
// says when such a date falls on a non-business day. The financial year is
// assumed to be the calendar year, and a note says so.
//
// A period that ended before the company was founded (FoundedAt, else
// RegisteredAt) is skipped, and so is a VAT month before VATRegisteredAt
// and a wage month before duties.EmployerSince. Bankrupt, dissolved and
// deleted companies get an empty list and a note; a company in liquidation
// keeps its duties. Finland never panics and never returns nil.
func Finland(rep *registry.CompanyReport, duties *FinlandDuties, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "FI", "prh", 5)
	if unusable(out, rep, today, noteFICalendarYear) {
		return out
	}
	switch rep.Status {
	case registry.StatusBankrupt:
		out.Notes = append(out.Notes, "The company is bankrupt (konkurssi); the bankruptcy estate and its administrator (pesänhoitaja) handle its filings, "+
			"so the company's ordinary deadlines are not computed.", noteFICalendarYear)
		return out
	case registry.StatusDissolved, registry.StatusDeleted:
		out.Notes = append(out.Notes, "The company has ceased and is deregistered, so it has no filing deadlines.", noteFICalendarYear)
		return out
	case registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation:
		out.Notes = append(out.Notes, noteFILiquidation)
	case registry.StatusUnknown, "":
		out.Notes = append(out.Notes, noteFIStatusUnknown)
	}

	c := fiCalc{out: out, today: today}
	if start := firstOf(rep.FoundedAt, rep.RegisteredAt); start != nil && plausible(*start) {
		c.start, c.hasStart = normalize(*start), true
	}
	if rep.VATRegistered != nil && *rep.VATRegistered {
		from := c.start
		has := c.hasStart
		if rep.VATRegisteredAt != nil && plausible(*rep.VATRegisteredAt) {
			from, has = normalize(*rep.VATRegisteredAt), true
		}
		c.vat(from, has)
		out.Notes = append(out.Notes, noteFIVATPeriod)
	}
	if duties != nil && duties.Employer {
		from := c.start
		has := c.hasStart
		if duties.EmployerSince != nil && plausible(*duties.EmployerSince) {
			from, has = normalize(*duties.EmployerSince), true
		}
		c.employer(from, has)
		c.separateReport(from, has)
		out.Notes = append(out.Notes, noteFIEmployer)
	}
	if duties != nil && duties.Label != "" {
		c.annual(duties)
	} else {
		out.Notes = append(out.Notes, "The legal form is unknown, or its own duties (general meeting, financial statements, income tax return) "+
			"are not modelled here, so only the duties that follow from the register (VAT and employer registration) are computed.")
	}
	dropped := finish(out)
	if len(out.Deadlines) == 0 && !dropped {
		out.Notes = append(out.Notes, "No filing obligation could be derived: the register shows neither VAT nor employer registration, "+
			"and the legal form gives no modelled duty.")
	}
	out.Notes = append(out.Notes, noteFINotComputed, noteFICalendarYear)
	return out
}

// fiCalc computes the Finnish deadlines of one report.
type fiCalc struct {
	out      *registry.DeadlineReport
	today    registry.Date
	start    registry.Date // founding (or registration) date
	hasStart bool
}

func (c *fiCalc) add(d registry.Deadline, roll bool) {
	d.Country, d.Registry = c.out.Country, c.out.Registry
	d.DueDate = d.StatutoryDate
	if roll {
		d.DueDate = rollForwardFinland(d.StatutoryDate)
	}
	d.RolledForward = d.DueDate != d.StatutoryDate
	d.DaysUntil = countrykit.Ptr(d.DueDate.DaysSince(c.today))
	c.out.Deadlines = append(c.out.Deadlines, d)
}

// monthly adds the first deadline of a monthly duty on or after today:
// month m of year y is due on the given day of the month lag months later,
// rolled forward. Months that ended before from (when has) are skipped. d
// holds what every month's deadline shares; the period label is
// labelPrefix and the month.
func (c *fiCalc) monthly(from registry.Date, has bool, lag, day int, d registry.Deadline, labelPrefix string) {
	// Months are numbered y*12 + (m-1). A month is due at most lag months
	// and a few days later, so start lag+1 months back.
	idx := c.today.Year*12 + int(c.today.Month) - 1 - (lag + 1)
	if has {
		idx = max(idx, from.Year*12+int(from.Month)-1)
	}
	for ; ; idx++ {
		y, m := floorDiv(idx, 12), time.Month(mod(idx, 12)+1)
		stat := date(y, m+time.Month(lag), day)
		if rollForwardFinland(stat).Before(c.today) {
			continue
		}
		d.StatutoryDate = stat
		d.PeriodLabel = countrykit.Ptr(labelPrefix + m.String() + " " + strconv.Itoa(y))
		d.PeriodStart = countrykit.Ptr(registry.Date{Year: y, Month: m, Day: 1})
		d.PeriodEnd = countrykit.Ptr(endOfMonth(y, m))
		d.Recurrence, d.Mandatory = registry.RecurrenceMonthly, true
		c.add(d, true)
		return
	}
}

func (c *fiCalc) vat(from registry.Date, has bool) {
	c.monthly(from, has, 2, 12, registry.Deadline{
		Kind:      kindVATReturn,
		Name:      "VAT return and payment",
		LocalName: countrykit.Ptr("arvonlisäveroilmoitus (kausiveroilmoitus)"),
		Authority: authVero,
		AppliesBecause: "The company is in the VAT register (arvonlisäverovelvollisten rekisteri); the return and payment for a month " +
			"are due on the 12th of the second month after it, the next business day when that is not one (the monthly period is assumed).",
		SourceURL: countrykit.Ptr(srcFIVAT),
	}, "")
}

func (c *fiCalc) employer(from registry.Date, has bool) {
	c.monthly(from, has, 1, 12, registry.Deadline{
		Kind:      EmployerContributions,
		Name:      "Employer contributions (withholdings and health insurance contribution)",
		LocalName: countrykit.Ptr("työnantajasuoritukset (oma-aloitteiset verot)"),
		Authority: authVero,
		AppliesBecause: "The company is in the employer register (työnantajarekisteri); withholdings and the employer's health insurance " +
			"contribution on wages paid in a month are due by the 12th of the next month, the next business day when that is not one.",
		SourceURL: countrykit.Ptr(srcFICorporate),
	}, "Wages paid in ")
}

// separateReport adds the employer's separate report to the Incomes
// Register: each month's health insurance contribution by the 5th of the
// next month, also for a month without wages, while the company is in the
// employer register; rolled forward as the payment is (research
// fi-deadlines.md, Additions).
func (c *fiCalc) separateReport(from registry.Date, has bool) {
	c.monthly(from, has, 1, 5, registry.Deadline{
		Kind:      EmployerSeparateReport,
		Name:      "Employer's separate report to the Incomes Register",
		LocalName: countrykit.Ptr("työnantajan erillisilmoitus (tulorekisteri)"),
		Authority: authFIIncReg,
		AppliesBecause: "The company is in the employer register (työnantajarekisteri, register 7); an employer reports its health " +
			"insurance contribution for each month to the Incomes Register by the 5th of the next month, also for a month without " +
			"wages, the next business day when that is not one.",
		SourceURL: countrykit.Ptr(srcFICorporate),
	}, "")
}

// nextYear returns the first financial year y >= from whose
// deadline (month and day of year y+1, rolled when roll) is on or after
// today.
func (c *fiCalc) nextYear(from int, month time.Month, day int, roll bool) int {
	y := max(from, c.today.Year-1)
	for {
		d := registry.Date{Year: y + 1, Month: month, Day: day}
		if roll {
			d = rollForwardFinland(d)
		}
		if !d.Before(c.today) {
			return y
		}
		y++
	}
}

func (c *fiCalc) annual(f *FinlandDuties) {
	minYear := c.today.Year - 1
	if c.hasStart {
		minYear = max(minYear, c.start.Year)
	}
	fy := func(y int) (*string, *registry.Date, *registry.Date) {
		return countrykit.Ptr("Financial year " + strconv.Itoa(y)),
			countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
			countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31})
	}
	form := f.Label
	if form == "" {
		form = "company"
	}

	// A company files its corporate return by 30 April; a business
	// partnership, which has no corporate return, its return for business
	// income by 1 April.
	switch {
	case f.TaxReturn.Duty.Applies():
		c.taxReturn(minYear, 30, f.TaxReturn, form, "Corporate income tax return", "veroilmoitus (yhteisön tuloveroilmoitus)",
			"A "+form+" files its income tax return within four months of the end of the last calendar month "+
				"of its accounting period: 30 April for a calendar year, the next business day when that is not one.")
	case f.PartnershipTaxReturn.Duty.Applies():
		c.taxReturn(minYear, 1, f.PartnershipTaxReturn, form, "Income tax return of a business partnership",
			"veroilmoitus (elinkeinoyhtymän tuloveroilmoitus)",
			"A "+form+" files its income tax return for business income by 1 April of the year after the "+
				"tax year, the next business day when that is not one.")
	}

	if f.GeneralMeeting.Duty.Applies() {
		y := c.nextYear(minYear, time.June, 30, false)
		label, ps, pe := fy(y)
		stat := registry.Date{Year: y + 1, Month: time.June, Day: 30}
		c.add(kindDeadline(registry.Deadline{
			Kind: kindGeneralMeeting, Name: "Ordinary general meeting (adopting the financial statements)",
			LocalName: countrykit.Ptr("varsinainen yhtiökokous"), Authority: authFIMeetng,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe,
			Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " adopts its financial statements at a general meeting within six months of the end of " +
				"the financial year (osakeyhtiölaki 5:3).",
			SourceURL: countrykit.Ptr(srcFIMeeting),
		}, f.GeneralMeeting, form), false)
		if !isFinnishBusinessDay(stat) {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("general_meeting: %s is a %s and not a business day. The six-month limit is not moved: "+
				"a meeting may be held on any day, and no source says the limit moves.", stat, stat.Weekday()))
		}
	}

	if f.FinancialStatements.Duty.Applies() {
		y := c.nextYear(minYear, time.August, 31, false)
		label, ps, pe := fy(y)
		stat := registry.Date{Year: y + 1, Month: time.August, Day: 31}
		c.add(kindDeadline(registry.Deadline{
			Kind: FinancialStatements, Name: "Financial statements to the Trade Register",
			LocalName: countrykit.Ptr("tilinpäätöksen rekisteröinti"), Authority: authPRH,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe,
			Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " files its financial statements with the Trade Register within two months of their " +
				"adoption; PRH charges a late fee when they arrive more than eight months after the end of the financial year.",
			SourceURL: countrykit.Ptr(srcFIStatements),
		}, f.FinancialStatements, form), false)
		if !isFinnishBusinessDay(stat) {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("financial_statements: %s is a %s and not a business day. Whether PRH moves its eight-month "+
				"limit to the next business day is not settled by any source found, so the date is not moved; file by %s %s to be safe.",
				stat, stat.Weekday(), lastFinnishBusinessDayBefore(stat).Weekday(), lastFinnishBusinessDayBefore(stat)))
		}
		if c.hasStart && c.start.Year == y && c.start.Month >= time.July {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("The company was founded on %s, on or after 1 July: its first financial year may run "+
				"to the end of %d (up to 18 months), and its first financial statements are then due in %d instead.", c.start, y+1, y+2))
		}
	}
}

// taxReturn adds the tax_return kind due on day April of the year after
// the first financial year from minYear whose date, rolled forward, is on
// or after today.
func (c *fiCalc) taxReturn(minYear, day int, duty KindDuty, form, name, local, because string) {
	y := c.nextYear(minYear, time.April, day, true)
	c.add(kindDeadline(registry.Deadline{
		Kind: kindTaxReturn, Name: name, LocalName: countrykit.Ptr(local), Authority: authVero,
		StatutoryDate: registry.Date{Year: y + 1, Month: time.April, Day: day},
		PeriodLabel:   countrykit.Ptr("Financial year " + strconv.Itoa(y)),
		PeriodStart:   countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
		PeriodEnd:     countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31}),
		Recurrence:    registry.RecurrenceAnnual, AppliesBecause: because,
		SourceURL: countrykit.Ptr(srcFICorporate),
	}, duty, form), true)
}

// FinlandRules returns a Markdown section describing the Finnish deadline
// rules and their legal sources, for a country module's rules document. It
// starts with a level-two heading and ends with a newline.
func FinlandRules() string {
	var b strings.Builder
	b.WriteString(`## Deadlines (Finland)

The deadlines operation returns the next occurrence, on or after ` + "`today`" + `, of each filing obligation,
sorted by ` + "`due_date`" + ` and then ` + "`kind`" + `. The register does not publish the financial year: the calendar
year is assumed, and ` + "`notes`" + ` says so.

| kind | local name | statutory date (calendar financial year) | rolls forward? | who | source |
|---|---|---|---|---|---|
| ` + "`vat_return`" + ` (monthly) | arvonlisäveroilmoitus | the 12th of the second month after the month: March by 12 May | yes | companies in the VAT register | ` + srcFIVAT + ` |
| ` + "`employer_contributions`" + ` (monthly) | työnantajasuoritukset | the 12th of the month after the wages were paid | yes | companies in the employer register | ` + srcFICorporate + ` (and vero.fi "Ilmoittamisen ja maksamisen määräpäivät") |
| ` + "`employer_separate_report`" + ` (monthly) | työnantajan erillisilmoitus | the 5th of the month after the month, also for a month without wages | yes, as the payment (**VERIFY**: see below) | companies in the employer register (register 7), mandatory | vero.fi, as above ("Työnantajan sairausvakuutusmaksu ilmoitetaan viimeistään palkanmaksukuukautta seuraavan kuukauden 5. päivänä") |
| ` + "`tax_return`" + ` | veroilmoitus | four months after the end of the last calendar month of the accounting period: 30 April | yes | by legal form (see the legal-form table) | ` + srcFICorporate + ` |
| ` + "`tax_return`" + ` (business partnership) | elinkeinoyhtymän veroilmoitus | 1 April of the year after the tax year | yes | general and limited partnerships (Ay, Ky), mandatory | ` + srcFICorporate + ` (the row for business partnerships; **VERIFY**: a secondary source, see below) |
| ` + "`general_meeting`" + ` | varsinainen yhtiökokous | within six months of the year end: 30 June (osakeyhtiölaki 5:3) | **no** | by legal form | ` + srcFIMeeting + ` |
| ` + "`financial_statements`" + ` | tilinpäätöksen rekisteröinti | two months after adoption, and free of PRH's late fee within eight months of the year end: 31 August | **no** | by legal form | ` + srcFIStatements + ` |

VAT returns assume the default monthly period; the quarterly (turnover under EUR 100,000) and annual (under
EUR 30,000, due at the end of February) periods are chosen on request and are not visible in the register.
The employer's separate report to the Incomes Register is due for every month while the company is in the
employer register, whether or not it paid wages that month; the register is read by its code (7), never by its
description. Whether the Incomes Register moves that 5th when it is not a business day is its own rule, which the
sources read for this document do not settle: it is marked VERIFY, and the report is rolled forward as the
payment is (§ 5 below). A partnership's income tax return date (1 April; in 2024, when 1 April was Easter Monday, Tuesday
2 April) comes from the Tax Administration's table of dates as our research read it, not from a statute: it is
marked VERIFY there, and is listed as mandatory because a partnership always files a return.

No VAT month before ` + "`vat_registered_at`" + ` is due. Wage months are counted from the company's founding: the date
of its employer-register entry is not part of the report, so in the month after a company first became an
employer the listed month may be one it did not owe.

### Roll-forward

Laki säädettyjen määräaikain laskemisesta (150/1930) § 5 (` + srcFIRollForward + `): when the last day of a
time limit for an act at an authority is a Saturday, a Sunday, a church holiday, Independence Day, May Day,
Christmas Eve or Midsummer Eve, the act may be done on the next weekday. The Tax Administration applies it to
its due dates ("If any due date falls on a Saturday, Sunday or a legal holiday, filing and payment are
permitted on the following business day"). The days other than weekends are:

`)
	for _, h := range finnishHolidays {
		rule := h.describe()
		fmt.Fprintf(&b, "- %s (%s): %s\n", h.name, h.en, rule)
	}
	b.WriteString(`
New Year's Eve is a bank holiday but not a day of § 5: it is a business day for these deadlines. Whether PRH
moves its eight-month limit, and whether the six-month general-meeting limit moves, is not settled by any
source found: these dates are not moved, and a note says when one falls on a non-business day.

### Next occurrence and no deadlines

- A period that ended before the company was founded (` + "`founded_at`" + `, else ` + "`registered_at`" + `) is skipped.
- ` + "`mandatory`" + ` is true when the duty follows from the legal form or a register entry, false when it depends on
  facts the register does not show (size, taxable income).
- Bankrupt and ceased companies get no deadlines; a company in liquidation keeps its duties (the liquidator
  files). A company under restructuring keeps its duties. A legal form outside the table gets only the
  duties that follow from its register entries.

Not computed: the earnings payment reports to the Incomes Register (within five days of each payment),
prepayments of income tax (the 23rd of each month), beneficial-owner notifications and the EU sales list.
`)
	return b.String()
}
