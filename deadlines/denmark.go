package deadlines

import (
	"fmt"
	"strconv"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// The Danish deadline kinds that no other country has. Denmark also uses
// [GeneralMeeting], [TaxReturn] and [VATReturn].
const (
	// AnnualReport is the annual report (DK årsrapport) filed with
	// Erhvervsstyrelsen.
	AnnualReport registry.DeadlineKind = "annual_report"
	// EmployerWithholding is the report and payment of the A-tax and
	// labour-market contribution an employer withholds from wages (DK
	// A-skat og AM-bidrag, indberetning til eIndkomst).
	EmployerWithholding registry.DeadlineKind = "employer_withholding"
	// TaxPrepayment is an instalment of the corporate tax prepayment (DK
	// ordinær acontoskat).
	TaxPrepayment registry.DeadlineKind = "tax_prepayment"
	// TaxBalance is the payment of the corporate tax balance of an income
	// year (DK restskat).
	TaxBalance registry.DeadlineKind = "tax_balance"
)

// Authorities and sources of the Danish kinds (research dk-deadlines.md).
const (
	dkAuthERST    = "Erhvervsstyrelsen (the Danish Business Authority)"
	dkAuthSkat    = "Skattestyrelsen (the Danish Tax Agency)"
	dkAuthMeeting = "The company itself (a general meeting of its owners; nothing is filed)"

	dkSrcAnnualReport = "https://erhvervsstyrelsen.dk/frister-udsaettelse-og-afgifter"
	dkSrcARL138       = "https://danskelove.dk/årsregnskabsloven/138-148"
	dkSrcMeeting      = "https://erhvervsstyrelsen.dk/fristen-indsende-aarsrapporten-kalenderaaret-2020-er-rykket-til-den-30-juni-2021"
	dkSrcTaxReturn    = "https://danskelove.dk/skattekontrolloven/12"
	dkSrcTaxReturn13  = "https://danskelove.dk/skattekontrolloven/10-13"
	dkSrcPrepayment   = "https://elov.dk/selskabsskatteloven/paragraf/29A"
	dkSrcBalance      = "https://www.elov.dk/selskabsskatteloven/paragraf/30/"
	dkSrcVAT          = "https://elov.dk/momsloven/paragraf/57/"
	dkSrcWithholding  = "https://info.skat.dk/data.aspx?oid=1812381"
	dkSrcLargeEmp     = "https://tax.dk/jv-2022-2/ab/A_B_4_1_1_3_2.htm"
	dkSrcHolidays     = "https://ft.dk/samling/20222/almdel/kiu/spm/19/svar/1931096/2662590/index.htm"
	dkSrcBankClosed   = "https://www.nationalbanken.dk/da/vores-arbejde/stabile-priser-pengepolitik-og-dansk-oekonomi/banklukkedage"
)

// DanishVATPeriod is the VAT period (afgiftsperiode) a Danish business
// files for. The register does not publish it.
type DanishVATPeriod uint8

const (
	// DanishVATByAge, the zero value, assumes the period of the research
	// note: quarterly for a business in its first 18 months (by its
	// founding date), half-yearly after that (taxable turnover up to DKK 5
	// million a year).
	DanishVATByAge DanishVATPeriod = iota
	// DanishVATHalfYearly is January–June and July–December, due on the
	// 1st of the third month after the period (momsloven § 57 stk. 4).
	DanishVATHalfYearly
	// DanishVATQuarterly is the calendar quarters, due on the 1st of the
	// third month after the quarter (§ 57 stk. 3).
	DanishVATQuarterly
	// DanishVATMonthly is the calendar months, due on the 25th of the next
	// month, June on 17 August (§ 57 stk. 2).
	DanishVATMonthly
)

// DenmarkDuties is the profile of one Danish company that [Denmark]
// computes from: the duties of its legal form, which the module's
// legal-form table owns (countries/dk), and the register facts the report
// has no field for (the financial year), filled in by the module from the
// register. The assumptions the register cannot settle (the VAT period,
// the employer's size) have defaults that the research note gives.
type DenmarkDuties struct {
	// Code is the register's legal-form code (virksomhedsformkode), such
	// as "80".
	Code string
	// Label names the legal form in notes and sentences, for example
	// "private limited company (ApS)". An empty Label means the legal form
	// is unknown or its duties are not modelled: no deadline is computed.
	Label string
	// Note, when not empty, is a sentence about the form that the report's
	// notes repeat, such as where an owner's own return is filed.
	Note string
	// AnnualReport is the annual report (årsrapport) to Erhvervsstyrelsen,
	// within six months of the end of the financial year (ÅRL § 138).
	AnnualReport KindDuty
	// GeneralMeeting is the ordinary general meeting, at the latest on the
	// annual report's date (selskabsloven § 88, as Erhvervsstyrelsen
	// paraphrases it).
	GeneralMeeting KindDuty
	// TaxReturn is the corporate tax return (skattekontrolloven § 12).
	TaxReturn KindDuty
	// TaxPrepayment and TaxBalance are the acontoskat instalments and the
	// restskat (selskabsskatteloven §§ 29 A, 30); both depend on facts the
	// register does not show, so they are at most DutyConditional.
	TaxPrepayment, TaxBalance KindDuty
	// VAT and Employer are VAT returns and employer withholding; the
	// register shows neither VAT nor employer registration, so they are at
	// most DutyConditional.
	VAT, Employer KindDuty
	// YearEndMonth and YearEndDay are the end of the company's financial
	// year (regnskabsår) as the register gives it (REGNSKABSÅR_SLUT, such
	// as --12-31). A zero YearEndMonth means the register gives none: the
	// calendar year is assumed and a note says so. A day that is the last
	// day of its month in some year (28 or 29 for February) means the month
	// end in every year: --02-28 is 29 February in a leap year.
	YearEndMonth time.Month
	YearEndDay   int
	// FirstPeriodStart and FirstPeriodEnd are the company's first
	// financial period (FØRSTE_REGNSKABSPERIODE_START/SLUT), which may be
	// longer or shorter than a year; nil when the register gives none.
	FirstPeriodStart, FirstPeriodEnd *registry.Date
	// VATPeriod is the VAT period; the zero value assumes it by age.
	VATPeriod DanishVATPeriod
	// LargeEmployer is true for an employer whose A-tax exceeded DKK 1
	// million, or labour-market contribution DKK 250,000, in the previous
	// twelve months (Skattestyrelsen classifies it; the register does not
	// say): withholding is then due on the last bank day of the pay month.
	// The default is the small employer's dates.
	LargeEmployer bool
}

// Notes of the Danish report.
const (
	dkNoteCalendarYear = "The register gives no financial year for this company (REGNSKABSÅR_START/SLUT), so the calendar year is assumed; " +
		"a company with another financial year has other annual-report, general-meeting and tax-return dates."
	dkNoteVAT = "VAT returns are an assumption: the register does not show whether the company is registered for VAT, nor its VAT period. " +
		"%s Monthly periods (turnover over DKK 50 million, or on request) are not assumed."
	dkNoteEmployer = "Employer withholding is an assumption: the register does not show whether the company is registered as an employer. " +
		"%s"
	dkNoteNotComputed = "Not computed: EU sales without VAT (listesystem, the 25th), payroll tax (lønsumsafgift), beneficial-owner updates " +
		"(event-driven), Erhvervsstyrelsen's late-filing fees, the voluntary third acontoskat instalment and ATP contributions."
	dkNoteClassD = "annual_report: six months is the deadline of accounting classes B and C; a class D company (listed, or a state-owned " +
		"public limited company) has four months, which the register does not show."
	dkNoteLiquidation   = "The company is in voluntary liquidation; its annual reports continue, filed by the liquidator, until it is dissolved."
	dkNoteStatusUnknown = "The company's status is unknown; deadlines are computed as if it were active."
)

// Denmark returns the next occurrence, on or after today, of each Danish
// filing obligation of the company described by rep, sorted by due date
// and then kind. duties is the profile of its legal form and financial
// year, built by the Danish module from its legal-form table and the
// register.
//
// Seven kinds are covered: annual_report (to Erhvervsstyrelsen, six months
// after the end of the financial year), general_meeting (at the latest on
// the annual report's date), tax_return (six months after the end of the
// income year, or 1 September for a year ending 1 February to 31 March,
// moved by skattekontrolloven § 13), tax_prepayment and tax_balance (the
// acontoskat instalments of 20 March and 20 November and the restskat of
// 20 November, moved to the next bank day), vat_return (half-yearly,
// quarterly or monthly) and employer_withholding (the 10th of the next
// month, December on 17 January; or the last bank day of the month for a
// large employer). Each applies when its duty [Duty.Applies], as mandatory
// for [DutyYes]; VAT, employer and the two tax payments depend on facts
// the register does not show and are listed with mandatory false.
//
// Unlike the other countries, the annual kinds follow the company's own
// financial year (duties.YearEndMonth and YearEndDay, and the first
// period), falling back to the calendar year, with a note, when the
// register gives none. The annual report and the general meeting do not
// move when they fall on a weekend or holiday (no source says they do; a
// note says when one does). The two tax payments are computed for a
// calendar financial year only.
//
// A period that ended before the company was founded (FoundedAt, else
// RegisteredAt) is skipped. Bankrupt, dissolved and deleted companies and
// companies under compulsory dissolution get an empty list and a note; a
// company in voluntary liquidation keeps its duties. Denmark never panics
// and never returns nil.
func Denmark(rep *registry.CompanyReport, duties *DenmarkDuties, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "DK", "cvr", 7)
	if unusable(out, rep, today) {
		return out
	}
	switch rep.Status {
	case registry.StatusBankrupt:
		out.Notes = append(out.Notes, "The company is bankrupt (under konkurs); the bankruptcy estate and its trustee handle its affairs, "+
			"so the company's own deadlines are not computed.")
		return out
	case registry.StatusUnderCompulsoryLiquidation:
		out.Notes = append(out.Notes, "The company is under compulsory dissolution (tvangsopløsning) by the probate court, "+
			"so the company's own deadlines are not computed.")
		return out
	case registry.StatusDissolved, registry.StatusDeleted:
		out.Notes = append(out.Notes, "The company has ceased and is no longer registered as active, so it has no filing deadlines.")
		return out
	case registry.StatusUnderLiquidation:
		out.Notes = append(out.Notes, dkNoteLiquidation)
	case registry.StatusUnknown, "":
		out.Notes = append(out.Notes, dkNoteStatusUnknown)
	}
	if duties == nil || duties.Label == "" {
		out.Notes = append(out.Notes, "The legal form is unknown, or its duties are not modelled here (public, foreign and other forms), "+
			"so no deadlines are computed.")
		if duties != nil && duties.Note != "" {
			out.Notes = append(out.Notes, duties.Note)
		}
		return out
	}
	if duties.Note != "" {
		out.Notes = append(out.Notes, duties.Note)
	}

	c := dkCalc{out: out, today: today, duties: duties}
	c.start, c.hasStart = usable(firstOf(rep.FoundedAt, rep.RegisteredAt))
	if f := duties; f.AnnualReport.Duty.Applies() || f.GeneralMeeting.Duty.Applies() || f.TaxReturn.Duty.Applies() ||
		f.TaxPrepayment.Duty.Applies() || f.TaxBalance.Duty.Applies() {
		c.yearEnd()
		c.annual()
		c.taxPayments()
	}
	if duties.VAT.Duty.Applies() {
		c.vat()
	}
	if duties.Employer.Duty.Applies() {
		c.employer(rep)
	}
	dropped := finish(out)
	c.bankClosingNotes()
	if len(out.Deadlines) == 0 && !dropped {
		out.Notes = append(out.Notes, "No filing obligation could be derived for this legal form.")
	}
	out.Notes = append(out.Notes, dkNoteNotComputed)
	return out
}

// bankClosingNotes flags a payment due on a bank closing day. The tax
// rules move a deadline off Saturdays, Sundays and holidays only, so a
// date they move can land on a banklukkedag (10 May 2029, Ascension Day,
// moves to Friday 11 May 2029); whether such a day moves it once more to
// the next bank day is not settled (research dk-deadlines.md: VERIFY lov
// nr. 324/2019). The dates are not moved further. The annual report, the
// general meeting and the tax return are not payments: no note.
func (c *dkCalc) bankClosingNotes() {
	for _, d := range c.out.Deadlines {
		switch d.Kind {
		case AnnualReport, kindGeneralMeeting, kindTaxReturn:
			continue
		}
		due := normalize(d.DueDate)
		if !isDanishBusinessDay(due) || isDanishBankDay(due) {
			continue
		}
		before := lastBusinessDayBefore(due, isDanishBankDay)
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("%s: the due date %s is a bank closing day (banklukkedag: %s), not a holiday. "+
			"The tax rules move a deadline off Saturdays, Sundays and holidays only, so it is not moved; whether a bank closing day "+
			"moves a payment to the next bank day (lov nr. 324 af 30. marts 2019) is not settled: pay by %s, the bank day before, "+
			"to be safe.", d.Kind, due, danishBankClosingName(due), before))
	}
}

// dkCalc computes the Danish deadlines of one report.
type dkCalc struct {
	out      *registry.DeadlineReport
	today    registry.Date
	duties   *DenmarkDuties
	start    registry.Date // founding (or registration) date
	hasStart bool
	// end is the financial year's end; calendar is true when it is 31
	// December.
	end      yearEnd
	calendar bool
	// firstStart and firstEnd are the first financial period, when known.
	firstStart, firstEnd registry.Date
	hasFirst             bool
}

// add completes d and appends it; roll moves its due date.
func (c *dkCalc) add(d registry.Deadline, roll func(registry.Date) registry.Date) {
	d.Country, d.Registry = c.out.Country, c.out.Registry
	d.DueDate = d.StatutoryDate
	if roll != nil {
		d.DueDate = roll(d.StatutoryDate)
	}
	d.RolledForward = d.DueDate != d.StatutoryDate
	d.DaysUntil = countrykit.Ptr(d.DueDate.DaysSince(c.today))
	c.out.Deadlines = append(c.out.Deadlines, d)
}

// yearEnd reads the financial year and the first period from the duties,
// with a note saying where they come from.
func (c *dkCalc) yearEnd() {
	f := c.duties
	c.end = calendarYearEnd()
	if end, ok := newYearEnd(f.YearEndMonth, f.YearEndDay); ok {
		c.end = end
		c.out.Notes = append(c.out.Notes, "The annual deadlines follow the company's financial year as the register gives it (REGNSKABSÅR_SLUT): "+
			"it ends on "+c.end.String()+".")
	} else {
		c.out.Notes = append(c.out.Notes, dkNoteCalendarYear)
	}
	c.calendar = c.end.isCalendar()
	if s, ok := usable(f.FirstPeriodStart); ok {
		if e, ok := usable(f.FirstPeriodEnd); ok && !e.Before(s) {
			c.firstStart, c.firstEnd, c.hasFirst = s, e, true
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("The company's first financial period ran from %s to %s (FØRSTE_REGNSKABSPERIODE_START/SLUT); "+
				"no annual deadline of an earlier period is listed.", s, e))
		}
	}
	if !c.hasFirst && c.hasStart && c.today.Before(c.start.AddDays(2*366)) {
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("The company was founded on %s and the register gives no first financial period: "+
			"a first period may last up to 18 months, which moves its first annual deadlines.", c.start))
	}
}

// yearEndIn returns the end of the financial year that ends in year y; a
// February month end is 28 February in a common year and 29 February in a
// leap year.
func (c *dkCalc) yearEndIn(y int) registry.Date { return c.end.in(y) }

// dkPeriod is one financial year or period: its first and last day.
type dkPeriod struct{ start, end registry.Date }

// next returns the first financial period whose deadline, due(end), is on
// or after today: the first period when the register gives one, then a
// year ending on the year-end day each year. Without a first period, a
// year that ended before the company was founded is skipped and the first
// one starts on the founding date. The years are searched from two years
// before today, so only a few are tried.
func (c *dkCalc) next(due func(end registry.Date) registry.Date) (dkPeriod, registry.Date) {
	y := c.today.Year - 2
	prev := c.yearEndIn(y - 1) // the end of the period before
	if c.hasFirst {
		if d := due(c.firstEnd); !d.Before(c.today) {
			return dkPeriod{c.firstStart, c.firstEnd}, d
		}
		y = max(y, c.firstEnd.Year)
		prev = maxDate(c.firstEnd, c.yearEndIn(y-1))
	}
	for ; ; y++ {
		end := c.yearEndIn(y)
		if !end.After(prev) {
			continue
		}
		p := dkPeriod{prev.AddDays(1), end}
		prev = end
		if !c.hasFirst && c.hasStart {
			if end.Before(c.start) {
				continue
			}
			p.start = maxDate(p.start, c.start)
		}
		if d := due(end); !d.Before(c.today) {
			return p, d
		}
	}
}

// periodFields returns the label, start and end of a financial period.
func (c *dkCalc) periodFields(p dkPeriod, word string) (*string, *registry.Date, *registry.Date) {
	label := word + " " + strconv.Itoa(p.end.Year)
	if !c.calendar || p.start != (registry.Date{Year: p.end.Year, Month: time.January, Day: 1}) {
		label = word + " " + p.start.String() + " to " + p.end.String()
	}
	return countrykit.Ptr(label), countrykit.Ptr(p.start), countrykit.Ptr(p.end)
}

// dkAnnualReportDate is the annual report's statutory date for a
// financial year ending on end: six months later, the last day of the
// month when the year ends on the last day of a month.
func dkAnnualReportDate(end registry.Date) registry.Date { return addMonthsUK(end, 6) }

// dkTaxReturnDate is the tax return's statutory date for an income year
// ending on end (skattekontrolloven § 12): 1 September for a year ending
// from 1 February to 31 March, else six months after the end.
func dkTaxReturnDate(end registry.Date) registry.Date {
	if end.Month == time.February || end.Month == time.March {
		return registry.Date{Year: end.Year, Month: time.September, Day: 1}
	}
	return addMonthsUK(end, 6)
}

func (c *dkCalc) annual() {
	f := c.duties
	form := f.Label
	if f.AnnualReport.Duty.Applies() {
		p, stat := c.next(dkAnnualReportDate)
		label, ps, pe := c.periodFields(p, "Financial year")
		c.add(kindDeadline(registry.Deadline{
			Kind: AnnualReport, Name: "Annual report to Erhvervsstyrelsen",
			LocalName: countrykit.Ptr("årsrapport"), Authority: dkAuthERST,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " files its annual report with Erhvervsstyrelsen within six months of the end of its financial " +
				"year (årsregnskabsloven § 138); the date does not move for weekends or holidays.",
			SourceURL: countrykit.Ptr(dkSrcAnnualReport),
		}, f.AnnualReport, form), nil)
		if !isDanishBusinessDay(stat) {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("annual_report: %s is a %s and not a business day. No rule found moves the deadline "+
				"of årsregnskabsloven § 138 (Erhvervsstyrelsen cannot extend it), so the date is not moved; file by the business day before.",
				stat, stat.Weekday()))
		}
		c.out.Notes = append(c.out.Notes, dkNoteClassD)
	}
	if f.GeneralMeeting.Duty.Applies() {
		p, stat := c.next(dkAnnualReportDate)
		label, ps, pe := c.periodFields(p, "Financial year")
		c.add(kindDeadline(registry.Deadline{
			Kind: kindGeneralMeeting, Name: "Ordinary general meeting (approving the annual report), latest date",
			LocalName: countrykit.Ptr("ordinær generalforsamling"), Authority: dkAuthMeeting,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " holds its ordinary general meeting early enough for the approved annual report to reach " +
				"Erhvervsstyrelsen in time (selskabsloven § 88): the latest possible date is the annual report's.",
			SourceURL: countrykit.Ptr(dkSrcMeeting),
		}, f.GeneralMeeting, form), nil)
	}
	if f.TaxReturn.Duty.Applies() {
		p, _ := c.next(func(end registry.Date) registry.Date { return danishTaxReturnDue(dkTaxReturnDate(end)) })
		stat := dkTaxReturnDate(p.end)
		label, ps, pe := c.periodFields(p, "Income year")
		c.add(kindDeadline(registry.Deadline{
			Kind: kindTaxReturn, Name: "Corporate tax return",
			LocalName: countrykit.Ptr("oplysningsskema (selvangivelse for selskaber)"), Authority: dkAuthSkat,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " files its tax return within six months of the end of its income year, or by 1 September for " +
				"a year ending from 1 February to 31 March (skattekontrolloven § 12).",
			SourceURL: countrykit.Ptr(dkSrcTaxReturn),
		}, f.TaxReturn, form), danishTaxReturnDue)
		if due := danishTaxReturnDue(stat); due != stat {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("tax_return: %s falls on or just before a Saturday, Sunday or holiday, so under "+
				"skattekontrolloven § 13 the return is in time if Skattestyrelsen has it by 09:00 on %s %s.", stat, due.Weekday(), due))
		}
	}
}

// taxPayments adds the acontoskat instalment and the restskat, for a
// calendar financial year only.
func (c *dkCalc) taxPayments() {
	f := c.duties
	if !f.TaxPrepayment.Duty.Applies() && !f.TaxBalance.Duty.Applies() {
		return
	}
	if !c.calendar {
		c.out.Notes = append(c.out.Notes, "tax_prepayment and tax_balance are computed only for a calendar financial year: the calendar year "+
			"a shifted income year stands in for is not modelled here.")
		return
	}
	form := f.Label
	started := func(due registry.Date) bool { return !c.hasStart || !due.Before(c.start) }
	if f.TaxPrepayment.Duty.Applies() {
		// Ordinary acontoskat is a share of the tax of the preceding income
		// years (selskabsskatteloven § 29 A): none in the first income
		// year, which ends with the register's first financial period, else
		// in the year of founding.
		firstYear := 0
		switch {
		case c.hasFirst:
			firstYear = c.firstEnd.Year
		case c.hasStart:
			firstYear = c.start.Year
		}
		// Instalment i (0 or 1) of income year y is number 2y+i.
		for n := 2 * (c.today.Year - 1); ; n++ {
			y, i := floorDiv(n, 2), mod(n, 2)
			stat := registry.Date{Year: y, Month: [2]time.Month{time.March, time.November}[i], Day: 20}
			if y <= firstYear || !started(stat) || danishRollForwardBank(stat).Before(c.today) {
				continue
			}
			if firstYear >= c.today.Year {
				c.out.Notes = append(c.out.Notes, fmt.Sprintf("tax_prepayment: the company pays no ordinary acontoskat in its first income "+
					"year (%d): the instalments are a share of the tax of the preceding income years (selskabsskatteloven § 29 A), "+
					"which it does not have (the text of § 29 A's computation is not verified here). The first listed is of the income "+
					"year %d, due %s.", firstYear, y, danishRollForwardBank(stat)))
			}
			no := strconv.Itoa(i + 1)
			c.add(kindDeadline(registry.Deadline{
				Kind: TaxPrepayment, Name: "Corporate tax prepayment (acontoskat), instalment " + no,
				LocalName: countrykit.Ptr("ordinær acontoskat, " + no + ". rate"), Authority: dkAuthSkat,
				StatutoryDate: stat, PeriodLabel: countrykit.Ptr("Income year " + strconv.Itoa(y) + ", instalment " + no),
				PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
				PeriodEnd:   countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31}),
				Recurrence:  registry.RecurrenceSemiannual,
				AppliesBecause: "A " + form + " in the acontoskat scheme pays two instalments of its corporate tax in the income year, " +
					"the last payment days being 20 March and 20 November, the next bank day when that is not one (selskabsskatteloven § 29 A); " +
					"whether it is in the scheme is not in the register.",
				SourceURL: countrykit.Ptr(dkSrcPrepayment),
			}, f.TaxPrepayment, form), danishRollForwardBank)
			break
		}
	}
	if f.TaxBalance.Duty.Applies() {
		for y := c.today.Year - 2; ; y++ {
			stat := registry.Date{Year: y + 1, Month: time.November, Day: 20}
			if (c.hasStart && y < c.start.Year) || danishRollForwardBank(stat).Before(c.today) {
				continue
			}
			c.add(kindDeadline(registry.Deadline{
				Kind: TaxBalance, Name: "Corporate tax balance (restskat)",
				LocalName: countrykit.Ptr("restskat"), Authority: dkAuthSkat,
				StatutoryDate: stat, PeriodLabel: countrykit.Ptr("Income year " + strconv.Itoa(y)),
				PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
				PeriodEnd:   countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31}),
				Recurrence:  registry.RecurrenceAnnual,
				AppliesBecause: "A " + form + " that owes a balance of corporate tax for an income year pays it on 1 November of the next year, " +
					"the last payment day being the 20th, the next bank day when that is not one (selskabsskatteloven § 30; the 20th by " +
					"analogy with § 29 A stk. 5).",
				SourceURL: countrykit.Ptr(dkSrcBalance),
			}, f.TaxBalance, form), danishRollForwardBank)
			break
		}
	}
}

// vatSwitch returns the first day of the half-year from which a business
// founded on c.start files half-yearly when its period is assumed by age:
// the first 1 January or 1 July on or after the end of its first 18
// months. Until then it files quarterly.
func (c *dkCalc) vatSwitch() registry.Date {
	s := addMonthsUK(c.start, 18)
	b := registry.Date{Year: s.Year, Month: time.January, Day: 1}
	for b.Before(s) {
		b = date(b.Year, b.Month+6, 1)
	}
	return b
}

// vatMonths returns the length in months of the VAT period that starts on
// the first day of a month, p.
func (c *dkCalc) vatMonths(p registry.Date) int {
	switch c.duties.VATPeriod {
	case DanishVATHalfYearly:
		return 6
	case DanishVATQuarterly:
		return 3
	case DanishVATMonthly:
		return 1
	}
	if c.hasStart && p.Before(c.vatSwitch()) {
		return 3
	}
	return 6
}

// vatNote explains the VAT period of the deadline listed, months long.
func (c *dkCalc) vatNote(months int) string {
	if c.duties.VATPeriod != DanishVATByAge {
		return map[int]string{1: "Monthly", 3: "Quarterly", 6: "Half-yearly"}[months] + " periods are computed, as asked."
	}
	switch {
	case !c.hasStart:
		return "Half-yearly periods are assumed (taxable turnover up to DKK 5 million a year); the founding date is unknown, and a " +
			"business in its first 18 months files quarterly."
	case months == 3:
		return "Quarterly periods are assumed: a new business files quarterly for at least its first 18 months (the company was " +
			"founded on " + c.start.String() + "), here until " + c.vatSwitch().AddDays(-1).String() + "."
	}
	return "Half-yearly periods are assumed (taxable turnover up to DKK 5 million a year, the default after a business's first " +
		"18 months); a larger business files quarterly (up to DKK 50 million) or monthly."
}

func (c *dkCalc) vat() {
	// Walk the months from well before today; a period starts on a month
	// that its own length divides (January, April, July, October for a
	// quarter), so the periods follow each other without a gap when the
	// schedule changes at a half-year.
	for idx := (c.today.Year - 2) * 12; ; idx++ {
		y, m := floorDiv(idx, 12), time.Month(mod(idx, 12)+1)
		start := registry.Date{Year: y, Month: m, Day: 1}
		months := c.vatMonths(start)
		if (int(m)-1)%months != 0 {
			continue
		}
		end := endOfMonth(y, m+time.Month(months-1))
		var stat registry.Date
		var label, rule string
		rec := registry.RecurrenceSemiannual
		switch months {
		case 1:
			stat, label, rec = date(y, m+1, 25), m.String()+" "+strconv.Itoa(y), registry.RecurrenceMonthly
			if m == time.June {
				stat = registry.Date{Year: y, Month: time.August, Day: 17}
			}
			rule = "for a month by the 25th of the next month, for June by 17 August (momsloven § 57 stk. 2)"
		case 3:
			stat, label, rec = date(y, end.Month+3, 1), "Q"+strconv.Itoa(int(m-1)/3+1)+" "+strconv.Itoa(y), registry.RecurrenceQuarterly
			rule = "for a quarter by the 1st of the third month after it (momsloven § 57 stk. 3)"
		default:
			stat, label = date(y, end.Month+3, 1), "H"+strconv.Itoa(int(m-1)/6+1)+" "+strconv.Itoa(y)
			rule = "for a half-year by the 1st of the third month after it (momsloven § 57 stk. 4)"
		}
		if (c.hasStart && end.Before(c.start)) || danishRollForward(stat).Before(c.today) {
			continue
		}
		c.add(kindDeadline(registry.Deadline{
			Kind: kindVATReturn, Name: "VAT return and payment", LocalName: countrykit.Ptr("momsangivelse og betaling"), Authority: dkAuthSkat,
			StatutoryDate: stat, PeriodLabel: countrykit.Ptr(label), PeriodStart: countrykit.Ptr(start), PeriodEnd: countrykit.Ptr(end),
			Recurrence: rec,
			AppliesBecause: "A VAT-registered business files and pays VAT " + rule + ", the next weekday when that is a Saturday, Sunday or " +
				"holiday; registration is assumed, since the register does not show it.",
			SourceURL: countrykit.Ptr(dkSrcVAT),
		}, c.duties.VAT, c.duties.Label), danishRollForward)
		c.out.Notes = append(c.out.Notes, fmt.Sprintf(dkNoteVAT, c.vatNote(months)))
		return
	}
}

func (c *dkCalc) employer(rep *registry.CompanyReport) {
	large := c.duties.LargeEmployer
	size := "The small employer's dates are assumed (A-tax up to DKK 1 million and labour-market contribution up to DKK 250,000 in the " +
		"previous twelve months); a large employer pays on the last bank day of the pay month."
	if large {
		size = "The large employer's dates are computed: the last bank day of the pay month."
	}
	if rep.Employees != nil && *rep.Employees > 0 {
		size += fmt.Sprintf(" The register reports %d employees, which suggests the company is an employer but does not prove it.", *rep.Employees)
	}
	c.out.Notes = append(c.out.Notes, fmt.Sprintf(dkNoteEmployer, size))
	for idx := c.today.Year*12 + int(c.today.Month) - 1 - 2; ; idx++ {
		y, m := floorDiv(idx, 12), time.Month(mod(idx, 12)+1)
		end := endOfMonth(y, m)
		if c.hasStart && end.Before(c.start) {
			continue
		}
		var stat registry.Date
		var rule, src string
		if large {
			stat = danishLastBankDay(y, m)
			rule = "on the last bank day of the pay month (opkrævningsloven § 2; Den juridiske vejledning A.B.4.1.1.3.2)"
			src = dkSrcLargeEmp
		} else {
			stat = date(y, m+1, 10)
			if m == time.December {
				stat = registry.Date{Year: y + 1, Month: time.January, Day: 17}
			}
			rule = "by the 10th of the month after the pay month, for December by 17 January, the next weekday when that is a Saturday, " +
				"Sunday or holiday"
			src = dkSrcWithholding
		}
		if danishRollForward(stat).Before(c.today) {
			continue
		}
		c.add(kindDeadline(registry.Deadline{
			Kind: EmployerWithholding, Name: "Employer withholding (A-tax and labour-market contribution): report and payment",
			LocalName: countrykit.Ptr("A-skat og AM-bidrag (indberetning til eIndkomst og betaling)"), Authority: dkAuthSkat,
			StatutoryDate: stat, PeriodLabel: countrykit.Ptr("Pay month " + m.String() + " " + strconv.Itoa(y)),
			PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: m, Day: 1}), PeriodEnd: countrykit.Ptr(end),
			Recurrence: registry.RecurrenceMonthly,
			AppliesBecause: "An employer reports and pays the A-tax and labour-market contribution withheld from wages " + rule +
				"; employer registration is assumed, since the register does not show it.",
			SourceURL: countrykit.Ptr(src),
		}, c.duties.Employer, c.duties.Label), danishRollForward)
		return
	}
}

// DenmarkRules returns a Markdown section describing the Danish deadline
// rules and their legal sources, for a country module's rules document. It
// starts with a level-two heading and ends with a newline.
func DenmarkRules() string {
	b := []byte(`## Deadlines (Denmark)

The deadlines operation returns the next occurrence, on or after ` + "`today`" + `, of each filing obligation, sorted by
` + "`due_date`" + ` and then ` + "`kind`" + `. Unlike the other countries, the annual kinds follow **the company's own financial
year** as the register gives it (` + "`REGNSKABSÅR_SLUT`" + `, and the first period ` + "`FØRSTE_REGNSKABSPERIODE_START/SLUT`" + `);
when the register gives none, the calendar year is assumed and ` + "`notes`" + ` says so. A year end on the last day of a
month is the last day of that month in every year (` + "`--02-28`" + ` is 29 February in a leap year). The dates below are for a year
ending 31 December.

| kind | local name | statutory date (calendar financial year) | moves? | who | source |
|---|---|---|---|---|---|
| ` + "`annual_report`" + ` | årsrapport | six months after the year end: 30 June (four months for class D, not shown in the register) | **no** | by legal form | ÅRL § 138, ` + dkSrcARL138 + `; ` + dkSrcAnnualReport + ` |
| ` + "`general_meeting`" + ` | ordinær generalforsamling | the latest possible date: the annual report's, 30 June | **no** | by legal form | selskabsloven § 88, ` + dkSrcMeeting + ` |
| ` + "`tax_return`" + ` | oplysningsskema | six months after the end of the income year: 30 June; 1 September for a year ending 1 February to 31 March | yes, skattekontrolloven § 13 (the day-before rule) | by legal form | ` + dkSrcTaxReturn + `, ` + dkSrcTaxReturn13 + ` |
| ` + "`tax_prepayment`" + ` (semiannual, optional) | ordinær acontoskat | 20 March and 20 November of the income year; none in the first income year (a share of the preceding years' tax; not verified against the text) | yes, to the next bank day | by legal form, if in the scheme | SEL § 29 A, ` + dkSrcPrepayment + ` |
| ` + "`tax_balance`" + ` (optional) | restskat | 20 November of the year after the income year | yes, to the next bank day | by legal form, if a balance is owed | SEL § 30, ` + dkSrcBalance + ` (the 20th by analogy, VERIFY) |
| ` + "`vat_return`" + ` (assumed) | momsangivelse | half-yearly: 1 September and 1 March; quarterly: 1 June, 1 September, 1 December, 1 March; monthly: the 25th of the next month, June on 17 August | yes | by legal form, if VAT-registered | momsloven § 57, ` + dkSrcVAT + ` |
| ` + "`employer_withholding`" + ` (assumed) | A-skat og AM-bidrag | the 10th of the month after the pay month, December on 17 January; large employers: the last bank day of the pay month | yes | by legal form, if an employer | ` + dkSrcWithholding + `, ` + dkSrcLargeEmp + ` |

For a year ending on another day the annual report, the general meeting and the tax return are six months after
it (the last day of the month when the year ends on the last day of a month: 30 June 2026 gives 31 December 2026),
and a year ending in February or March gives the tax return on 1 September. The two tax payments are computed only
for a calendar financial year. The register shows neither VAT nor employer registration: both are assumptions,
listed with ` + "`mandatory`" + ` false and a note; the VAT period is quarterly in a business's first 18 months (by its
founding date) and half-yearly after that; the small employer's dates are used.

### Moving a deadline

Skattestyrelsen's rule for VAT and employer withholding: a last day that is a Saturday, a Sunday or a holiday
(helligdag) moves to the next weekday. The acontoskat and restskat payments move to the next **bank day**. The tax
return moves under skattekontrolloven § 13 when it falls **on or the day before** a Saturday, Sunday or holiday:
it is then in time on the first weekday after it, by 09:00 (a return due on a Friday is in time on Monday). No rule
was found that moves the annual report's date (Erhvervsstyrelsen cannot extend it), so it is not moved, and a note
says when it falls on a non-business day (VERIFY). The holidays (helligdage, ` + dkSrcHolidays + `) are, besides
Sundays:

`)
	for _, h := range danishHolidays {
		b = append(b, "- "+h.name+" ("+h.en+"): "+h.describe()...)
		if h.until != 0 {
			b = append(b, ", until "+strconv.Itoa(h.until)+" (abolished as a holiday from 1 January 2024)"...)
		}
		b = append(b, '\n')
	}
	b = append(b, `
The bank closing days (banklukkedage, `+dkSrcBankClosed+`), which are not holidays and stop only the
rules counted in bank days:

`...)
	for _, h := range danishBankClosingDays {
		b = append(b, "- "+h.name+" ("+h.en+"): "+h.describe()+"\n"...)
	}
	b = append(b, `
Whether a bank closing day also moves a tax deadline is not settled (VERIFY; lov nr. 324 af 30. marts 2019,
"udskydelse af betalingsfrist ved banklukkedage", was not read). No statutory day of a calendar-year schedule falls on
one in 2025–2031, but a date moved off a holiday can: the 10th of May 2029 (Ascension Day) moves to Friday 11 May 2029,
and the 25th of May 2028 (Ascension Day) to Friday 26 May 2028, both bank closing days. Such a payment date is not
moved further, and a note names it with the bank day before it. The annual report, the general meeting and the tax
return are not payments: a bank closing day is not flagged for them.

### Next occurrence and no deadlines

- A period that ended before the company was founded (`+"`founded_at`"+`, else `+"`registered_at`"+`), or before its first
  financial period, is skipped.
- `+"`mandatory`"+` is true when the duty follows from the legal form; false when it depends on facts the register does
  not show (VAT and employer registration, the acontoskat scheme, a tax balance, an I/S or K/S whose partners are all
  companies).
- Bankrupt and dissolved companies and companies under compulsory dissolution get no deadlines; a company in
  voluntary liquidation keeps its duties (the liquidator files; VERIFY). A company under reconstruction keeps its
  duties. A legal form outside the table (public, foreign and other forms) gets none.

Not computed: EU sales without VAT (the 25th), payroll tax (lønsumsafgift), beneficial-owner updates
(event-driven), Erhvervsstyrelsen's late-filing fees, the voluntary third acontoskat instalment and ATP
contributions.
`...)
	return string(b)
}
