package deadlines

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// EmployerDeclaration is the Swedish employer declaration and payment
// (arbetsgivardeklaration, AGD): employer contributions and the tax
// withheld on one month's pay, declared and paid to Skatteverket. Sweden
// also uses [GeneralMeeting], [AnnualAccounts] (the årsredovisning filed
// with Bolagsverket), [TaxReturn] and [VATReturn].
const EmployerDeclaration registry.DeadlineKind = "employer_declaration"

// Authorities and sources of the Swedish kinds (research se-deadlines.md).
const (
	seAuthSkatteverket = "Skatteverket (the Swedish Tax Agency)"
	seAuthBolagsverket = "Bolagsverket (the Swedish Companies Registration Office)"
	seAuthMeeting      = "The company itself (a meeting of its shareholders or members; nothing is filed)"

	seSrcRoll        = "https://lagen.nu/1930:173"
	seSrcMeeting     = "https://lagen.nu/2005:551"
	seSrcAnnual      = "https://www.bolagsverket.se/omoss/informationmedanledningavcoronaviruset/coronavirusetspaverkanpaforseningsavgifter.2635.html"
	seSrcTaxReturn   = "https://www.skatteverket.se/foretagochorganisationer/inkomstdeklaration/deklareraforettforetag.4.46ae6b26141980f1e2d1261.html"
	seSrcVAT         = "https://www.skatteverket.se/foretagochorganisationer/moms/deklareraochbetalamoms/narskajagdeklareramoms.4.6d02084411db6e252fe80008988.html"
	seSrcEmployer    = "https://www4.skatteverket.se/rattsligvagledning/edition/2023.9/368350.html"
	seSrcTaxDates    = "https://www4.skatteverket.se/rattsligvagledning/edition/2024.2/325640.html"
	seSrcARLFeeRules = "https://lagen.nu/1995:1554"
)

// SwedishDuties is the profile of one Swedish organisation that [Sweden]
// computes from: the duties of its legal form, which the module's
// legal-form table owns (countries/se), and what the register tells about
// its financial year and tax registrations.
type SwedishDuties struct {
	// Code is Bolagsverket's legal-form code, such as "AB".
	Code string
	// Label names the legal form in sentences, such as "limited company
	// (aktiebolag, AB)". An empty Label means the form is unknown or its
	// own duties are not modelled: the three duties below are ignored.
	Label string
	// GeneralMeeting is the meeting that adopts the annual accounts
	// within six months of the year end (ABL 7 kap. 10 §).
	GeneralMeeting KindDuty
	// AnnualReport is the annual report (årsredovisning) to Bolagsverket,
	// whose late fee falls due seven months after the year end (ÅRL 8 kap.
	// 6 §).
	AnnualReport KindDuty
	// TaxReturn is the income tax return; TaxForm names its form (INK2,
	// INK3 or INK4).
	TaxReturn KindDuty
	TaxForm   string
	// PublicCompany marks a public limited company (publ), whose late
	// fees are doubled.
	PublicCompany bool
	// YearEndMonth and YearEndDay are the end of the financial year, from
	// the annual reports the organisation has filed; a zero YearEndMonth
	// means unknown, and the calendar year is assumed. A day that is the
	// last day of its month in some year (28 or 29 for February) means the
	// month end in every year: a year end of 28 February is 29 February in
	// a leap year. YearEndSource says where they come from, for a note.
	YearEndMonth  time.Month
	YearEndDay    int
	YearEndSource string
	// TaxRegistered says whether SCB shows the organisation registered for
	// F-tax, VAT or as an employer (verksamOrganisation): [DutyNo] when it
	// says not, anything else when it says so or does not say. The register
	// does not tell VAT from employer registration, so VAT returns and
	// employer declarations are listed as assumptions (mandatory false)
	// unless it is DutyNo.
	TaxRegistered Duty
}

// Notes of the Swedish report.
const (
	seNoteCalendarYear = "The financial year is assumed to be the calendar year: Bolagsverket's list of filed annual reports gives no " +
		"year end for this organisation. A company with another financial year, or a first financial year of up to 18 months, " +
		"has other general-meeting, annual-report and income-tax dates."
	seNoteVATAssumed = "VAT returns are listed as an assumption: the register does not show VAT registration (SCB's flag covers F-tax, " +
		"VAT or employer registration together). The default period is assumed: quarterly, for a taxable turnover of at most " +
		"SEK 40 million, due on the 12th of the second month after the quarter (17 August for the second quarter). Monthly " +
		"filers (the 12th of the second month, 17th in January and August; above SEK 40 million the 26th of the next month, " +
		"27 December for November) and yearly filers have other dates."
	seNoteEmployerAssumed = "Employer declarations are listed as an assumption: the register does not show employer registration. " +
		"They are due, with the payment, on the 12th of the month after the pay month (the 17th in January and August), for " +
		"an employer whose wages stay at most SEK 40 million; a larger employer declares by the 26th (payment still the 12th)."
	seNoteNotTaxRegistered = "SCB shows the organisation as not registered for F-tax, VAT or as an employer, so no VAT return or " +
		"employer declaration is listed."
	seNoteNotComputed = "Not computed: preliminary tax (F-skatt) instalments, the EU sales list (periodisk sammanställning), " +
		"supplementary payments and final tax, the notice periods of the general meeting, and beneficial-owner registration."
	seNoteRoll = "Dates that fall on a Saturday, a Sunday, a public holiday, midsommarafton, julafton or nyårsafton move to the next " +
		"weekday (lag 1930:173 2 §). Skatteverket applies this to its dates; for Bolagsverket's seven-month limit and for the " +
		"general meeting no primary source says so, and the rule is applied as the statute reads (VERIFY)."
)

// Sweden returns the next occurrence, on or after today, of each Swedish
// filing obligation of the organisation described by rep, sorted by due
// date and then kind. duties is the profile built by the Swedish module
// from its legal-form table (nil or an empty Label: only the VAT and
// employer assumptions are computed).
//
// Five kinds are covered: general_meeting (six months after the year end),
// annual_accounts (the annual report to Bolagsverket, whose late fee falls
// due seven months after the year end), tax_return (the income tax return
// by the group of the year-end month, at the date for filing wholly
// digitally; the statutory paper date is in applies_because), vat_return
// (quarterly) and employer_declaration (monthly). Every date moves to the
// next weekday by lag (1930:173) 2 § ([SwedishBusinessDay]). A month-end
// year end gives a month-end date (30 June → 31 January). A period that
// ended before the organisation was registered (FoundedAt, else
// RegisteredAt) is skipped. Dissolved, deleted and bankrupt organisations
// get an empty list and a note; one in liquidation keeps its duties.
func Sweden(rep *registry.CompanyReport, duties *SwedishDuties, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "SE", "bolagsverket", 5)
	if unusable(out, rep, today) {
		return out
	}
	switch rep.Status {
	case registry.StatusBankrupt:
		out.Notes = append(out.Notes, "The organisation is bankrupt (konkurs): the bankruptcy estate and its administrator handle its "+
			"filings, and no late fee is charged after a registered bankruptcy (ÅRL 8 kap. 7 §), so no deadlines are computed.")
		return out
	case registry.StatusDissolved, registry.StatusDeleted:
		out.Notes = append(out.Notes, "The organisation is deregistered (avregistrerad), so it has no filing deadlines.")
		return out
	case registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation:
		out.Notes = append(out.Notes, "The organisation is being wound up (in liquidation, or being absorbed or divided in a merger "+
			"or division: see status_detail): its filing duties continue until it is deregistered, and in a liquidation the "+
			"liquidator files them; no late fee is charged for a financial year that ended before a liquidation decision (ÅRL 8 kap. 7 §).")
	case registry.StatusUnknown, "":
		out.Notes = append(out.Notes, "The organisation's status is unknown; deadlines are computed as if it were active.")
	}
	if duties == nil {
		duties = &SwedishDuties{}
	}
	c := seCalc{out: out, today: today, end: calendarYearEnd()}
	if start := firstOf(rep.FoundedAt, rep.RegisteredAt); start != nil && plausible(*start) {
		c.start, c.hasStart = normalize(*start), true
	}
	end, yearKnown := newYearEnd(duties.YearEndMonth, duties.YearEndDay)
	if yearKnown {
		c.end = end
	}
	if duties.Label != "" {
		c.annual(duties)
		if yearKnown {
			if duties.YearEndSource != "" {
				out.Notes = append(out.Notes, "The financial year ends on "+c.end.String()+", as "+duties.YearEndSource+" shows.")
			}
		} else if duties.GeneralMeeting.Duty.Applies() || duties.AnnualReport.Duty.Applies() || duties.TaxReturn.Duty.Applies() {
			out.Notes = append(out.Notes, seNoteCalendarYear)
		}
	} else {
		out.Notes = append(out.Notes, "The legal form is unknown, or its own duties (general meeting, annual report, income tax return) "+
			"are not modelled here, so only the VAT and employer assumptions are computed.")
	}
	if duties.TaxRegistered == DutyNo {
		out.Notes = append(out.Notes, seNoteNotTaxRegistered)
	} else {
		c.vatQuarterly()
		c.employer()
		out.Notes = append(out.Notes, seNoteVATAssumed, seNoteEmployerAssumed)
	}
	finish(out)
	out.Notes = append(out.Notes, seNoteRoll, seNoteNotComputed)
	return out
}

// seCalc computes the Swedish deadlines of one report.
type seCalc struct {
	out      *registry.DeadlineReport
	today    registry.Date
	start    registry.Date // registration date
	hasStart bool
	end      yearEnd // financial year end
}

func (c *seCalc) add(d registry.Deadline) {
	d.Country, d.Registry = c.out.Country, c.out.Registry
	d.DueDate = rollForwardSweden(d.StatutoryDate)
	d.RolledForward = d.DueDate != d.StatutoryDate
	d.DaysUntil = countrykit.Ptr(d.DueDate.DaysSince(c.today))
	c.out.Deadlines = append(c.out.Deadlines, d)
}

// seDay12 returns the 12th of month m of year y, or the 17th in January
// and August: the declaration day of SFL 26 kap. 26 § for VAT and
// employer declarations of filers at most SEK 40 million.
func seDay12(y int, m time.Month) registry.Date {
	d := date(y, m, 1)
	day := 12
	if d.Month == time.January || d.Month == time.August {
		day = 17
	}
	return registry.Date{Year: d.Year, Month: d.Month, Day: day}
}

// seDay26 returns the 26th of month m of year y, or the 27th in December:
// the declaration day of a monthly filer above SEK 40 million (SFL 26 kap.
// 30 §; the 27 December exception is from secondary sources).
func seDay26(y int, m time.Month) registry.Date {
	d := date(y, m, 1)
	day := 26
	if d.Month == time.December {
		day = 27
	}
	return registry.Date{Year: d.Year, Month: d.Month, Day: day}
}

// seQuarterlyVAT returns the statutory date of the quarterly VAT return of
// the quarter ending in month end of year y: the 12th of the second month
// after it (17 August for the second quarter).
func seQuarterlyVAT(y int, end time.Month) registry.Date { return seDay12(y, end+2) }

// seMonthlyVAT returns the statutory date of the monthly VAT return of
// month m of year y for a filer at most SEK 40 million: the 12th of the
// second month after (17th in January and August).
func seMonthlyVAT(y int, m time.Month) registry.Date { return seDay12(y, m+2) }

// seMonthlyLarge returns the declaration day of month m of year y for a
// monthly filer above SEK 40 million (VAT and employer declaration): the
// 26th of the next month, the 27th in December.
func seMonthlyLarge(y int, m time.Month) registry.Date { return seDay26(y, m+1) }

// seEmployer returns the statutory date of the employer declaration of
// pay month m of year y: the 12th of the next month (17th in January and
// August).
func seEmployer(y int, m time.Month) registry.Date { return seDay12(y, m+1) }

// vatQuarterly adds the first quarterly VAT return on or after today.
func (c *seCalc) vatQuarterly() {
	// Quarters are numbered y*4 + q; one is due at most three months after
	// it ends, so start two quarters back.
	idx := c.today.Year*4 + (int(c.today.Month)-1)/3 - 2
	if c.hasStart {
		idx = max(idx, c.start.Year*4+(int(c.start.Month)-1)/3)
	}
	for ; ; idx++ {
		y, q := floorDiv(idx, 4), mod(idx, 4)
		end := time.Month(3*q + 3)
		stat := seQuarterlyVAT(y, end)
		if rollForwardSweden(stat).Before(c.today) {
			continue
		}
		c.add(registry.Deadline{
			Kind: kindVATReturn, Name: "VAT return and payment (quarterly)", LocalName: countrykit.Ptr("momsdeklaration"),
			Authority: seAuthSkatteverket, StatutoryDate: stat,
			PeriodLabel: countrykit.Ptr(strconv.Itoa(y) + "-Q" + strconv.Itoa(q+1)),
			PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: end - 2, Day: 1}),
			PeriodEnd:   countrykit.Ptr(endOfMonth(y, end)),
			Recurrence:  registry.RecurrenceQuarterly, Mandatory: false,
			AppliesBecause: "Assumed: VAT registration is not shown by the register. A VAT-registered business with a taxable " +
				"turnover of at most SEK 40 million declares and pays VAT for a quarter by the 12th of the second month after it " +
				"(17 August for the second quarter; SFL 26 kap. 26 §).",
			SourceURL: countrykit.Ptr(seSrcVAT),
		})
		return
	}
}

// employer adds the first employer declaration on or after today.
func (c *seCalc) employer() {
	idx := c.today.Year*12 + int(c.today.Month) - 1 - 2
	if c.hasStart {
		idx = max(idx, c.start.Year*12+int(c.start.Month)-1)
	}
	for ; ; idx++ {
		y, m := floorDiv(idx, 12), time.Month(mod(idx, 12)+1)
		stat := seEmployer(y, m)
		if rollForwardSweden(stat).Before(c.today) {
			continue
		}
		c.add(registry.Deadline{
			Kind: EmployerDeclaration, Name: "Employer declaration and payment", LocalName: countrykit.Ptr("arbetsgivardeklaration"),
			Authority: seAuthSkatteverket, StatutoryDate: stat,
			PeriodLabel: countrykit.Ptr("Pay month " + m.String() + " " + strconv.Itoa(y)),
			PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: m, Day: 1}),
			PeriodEnd:   countrykit.Ptr(endOfMonth(y, m)),
			Recurrence:  registry.RecurrenceMonthly, Mandatory: false,
			AppliesBecause: "Assumed: employer registration is not shown by the register. An employer declares employer contributions " +
				"and tax withheld on a month's pay, and pays them, by the 12th of the next month (the 17th in January and August; " +
				"SFL 26 kap. 26 § and 62 kap. 3 §).",
			SourceURL: countrykit.Ptr(seSrcEmployer),
		})
		return
	}
}

// seTaxDates returns the statutory (paper) and the digital date of the
// income tax return for a financial year ending on end (SFL 32 kap. 2 §
// with 3 kap. 5 §): year ends in September to December → 1 July of the
// next year (digital 1 August); January to April → 1 November (1
// December); May and June → 15 December (15 January); July and August →
// 1 March of the next year (1 April).
func seTaxDates(end registry.Date) (paper, digital registry.Date) {
	y := end.Year
	switch end.Month {
	case time.January, time.February, time.March, time.April:
		return registry.NewDate(y, time.November, 1), registry.NewDate(y, time.December, 1)
	case time.May, time.June:
		return registry.NewDate(y, time.December, 15), registry.NewDate(y+1, time.January, 15)
	case time.July, time.August:
		return registry.NewDate(y+1, time.March, 1), registry.NewDate(y+1, time.April, 1)
	}
	return registry.NewDate(y+1, time.July, 1), registry.NewDate(y+1, time.August, 1)
}

// next returns the end of the first financial year, not ended before the
// organisation was registered, whose deadline (stat of its end, rolled)
// is on or after today.
func (c *seCalc) next(stat func(end registry.Date) registry.Date) registry.Date {
	y := c.today.Year - 2
	for {
		end := c.end.in(y)
		y++
		if c.hasStart && end.Before(c.start) {
			continue
		}
		if !rollForwardSweden(stat(end)).Before(c.today) {
			return end
		}
	}
}

// period returns the label, start and end of the financial year ending on
// end.
func (c *seCalc) period(end registry.Date) (*string, *registry.Date, *registry.Date) {
	start := addMonthsUK(end, -12).AddDays(1)
	label := "Financial year " + strconv.Itoa(end.Year)
	if !c.end.isCalendar() {
		label = "Financial year " + start.String() + " to " + end.String()
	}
	return countrykit.Ptr(label), countrykit.Ptr(start), countrykit.Ptr(end)
}

func (c *seCalc) annual(f *SwedishDuties) {
	form := f.Label
	if f.GeneralMeeting.Duty.Applies() {
		stat := func(end registry.Date) registry.Date { return addMonthsUK(end, 6) }
		end := c.next(stat)
		label, ps, pe := c.period(end)
		c.add(kindDeadline(registry.Deadline{
			Kind: kindGeneralMeeting, Name: "Annual general meeting (adopting the annual accounts)",
			LocalName: countrykit.Ptr("årsstämma"), Authority: seAuthMeeting,
			StatutoryDate: stat(end), PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " holds its annual general meeting, which adopts the annual accounts, within six months of " +
				"the end of the financial year (aktiebolagslagen 7 kap. 10 §).",
			SourceURL: countrykit.Ptr(seSrcMeeting),
		}, f.GeneralMeeting, form))
	}
	if f.AnnualReport.Duty.Applies() {
		stat := func(end registry.Date) registry.Date { return addMonthsUK(end, 7) }
		end := c.next(stat)
		label, ps, pe := c.period(end)
		because := "A " + form + " sends its annual report (årsredovisning, with the auditor's report) to Bolagsverket within one " +
			"month of the meeting that adopts it; a late fee falls due when it has not arrived seven months after the end of the " +
			"financial year (årsredovisningslagen 8 kap. 3 and 6 §§), which is the date given."
		if f.PublicCompany {
			because += " A public company's late fees are doubled."
		}
		c.add(kindDeadline(registry.Deadline{
			Kind: kindAnnualAccounts, Name: "Annual report to Bolagsverket (late-fee date)",
			LocalName: countrykit.Ptr("årsredovisning"), Authority: seAuthBolagsverket,
			StatutoryDate: stat(end), PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: because, SourceURL: countrykit.Ptr(seSrcAnnual),
		}, f.AnnualReport, form))
	}
	if f.TaxReturn.Duty.Applies() {
		stat := func(end registry.Date) registry.Date { _, d := seTaxDates(end); return d }
		end := c.next(stat)
		paper, digital := seTaxDates(end)
		label, ps, pe := c.period(end)
		tf := f.TaxForm
		if tf == "" {
			tf = "the income tax return"
		}
		c.add(kindDeadline(registry.Deadline{
			Kind: kindTaxReturn, Name: "Income tax return (" + tf + ")",
			LocalName: countrykit.Ptr("inkomstdeklaration"), Authority: seAuthSkatteverket,
			StatutoryDate: digital, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: fmt.Sprintf("A %s files %s by the date set by the month its financial year ends (SFL 32 kap. 2 § with 3 kap. 5 §): "+
				"%s on paper, or one month later, %s, when filed wholly digitally, the date Skatteverket now gives and the one shown "+
				"(the legal basis of the extra month is VERIFY).", form, tf, paper, digital),
			SourceURL: countrykit.Ptr(seSrcTaxReturn),
		}, f.TaxReturn, form))
	}
}

// SwedenRules returns a Markdown section describing the Swedish deadline
// rules and their legal sources, for a country module's rules document. It
// starts with a level-two heading and ends with a newline.
func SwedenRules() string {
	var b strings.Builder
	b.WriteString(`## Deadlines (Sweden)

The deadlines operation returns the next occurrence, on or after ` + "`today`" + `, of each filing obligation, sorted by
` + "`due_date`" + ` and then ` + "`kind`" + `. Every date moves to the next weekday when it falls on a non-business day (below).

| kind | local name | statutory date (calendar financial year) | who | source |
|---|---|---|---|---|
| ` + "`general_meeting`" + ` | årsstämma | within six months of the year end: 30 June (aktiebolagslagen 7 kap. 10 §) | by legal form | ` + seSrcMeeting + ` |
| ` + "`annual_accounts`" + ` | årsredovisning | to Bolagsverket within a month of the meeting; the late fee falls due seven months after the year end: 31 July (ÅRL 8 kap. 3 and 6 §§) | by legal form | ` + seSrcAnnual + `, ` + seSrcARLFeeRules + ` |
| ` + "`tax_return`" + ` | inkomstdeklaration (INK2, INK3, INK4) | by the year-end month (SFL 32 kap. 2 §, 3 kap. 5 §): Sep–Dec 1 July, Jan–Apr 1 November, May–Jun 15 December, Jul–Aug 1 March; filed wholly digitally one month later (1 August, 1 December, 15 January, 1 April), which is the date shown | by legal form | ` + seSrcTaxReturn + `, ` + seSrcTaxDates + ` |
| ` + "`vat_return`" + ` (quarterly, assumed) | momsdeklaration | the 12th of the second month after the quarter; 17 August for the second quarter (SFL 26 kap. 26 §) | assumed for every organisation SCB shows as registered for F-tax, VAT or as employer | ` + seSrcVAT + ` |
| ` + "`employer_declaration`" + ` (monthly, assumed) | arbetsgivardeklaration | the 12th of the month after the pay month; the 17th in January and August (SFL 26 kap. 26 §, 62 kap. 3 §) | as for VAT | ` + seSrcEmployer + ` |

The register shows neither VAT nor employer registration, only SCB's flag that an organisation is registered for
F-tax, VAT or as an employer: VAT returns and employer declarations are listed with ` + "`mandatory`" + ` false, for
the default periods, and ` + "`notes`" + ` say so. Other schedules, not listed: monthly VAT at most SEK 40 million (the 12th
of the second month after the month, the 17th in January and August); above SEK 40 million, VAT and the employer
declaration by the 26th of the month after (27 December for November; VERIFY), the employer's payment still the
12th; yearly VAT (at most SEK 1 million) tied to the income tax return.

The financial year is read from the annual reports the organisation has filed (Bolagsverket's /dokumentlista: the
end of the latest reported period). Without one the calendar year is assumed, and ` + "`notes`" + ` say so. A year end on
the last day of a month gives dates on the last day of a month (30 June → 31 January), as the published tables do
(VERIFY against lag 1930:173 1 §, which reads "the same day number"); a report ending 28 or 29 February gives a year
ending on the last day of February in every year (29 February in a leap year, so 31 August and 30 September). A period that ended before the organisation
was registered is skipped.

### Roll-forward

Lag (1930:173) om beräkning av lagstadgad tid, 2 § (` + seSrcRoll + `): when the last day for an act falls on a Sunday,
another public holiday, a Saturday, midsommarafton, julafton or nyårsafton, the act may be done on the next weekday.
Skatteverket applies it to its declaration days. Whether Bolagsverket applies it to the seven-month late-fee date,
and anyone to the general meeting, is not stated in a primary source; it is applied as the statute reads (VERIFY).
The days other than weekends (lag 1989:253 om allmänna helgdagar, and the three eves of 1930:173 2 §):

`)
	for _, h := range swedishHolidays {
		rule := h.describe()
		kind := "allmän helgdag"
		if h.eve {
			kind = "named by 1930:173 2 §"
		}
		fmt.Fprintf(&b, "- %s (%s): %s; %s\n", h.name, h.en, rule, kind)
	}
	b.WriteString(`
Other eves (trettondagsafton, skärtorsdagen, valborgsmässoafton, allhelgonaafton) are business days.

### Which organisations, and no deadlines

- ` + "`mandatory`" + ` is true when the duty follows from the legal form alone, false when it depends on facts the register
  does not show (size, taxable income, VAT or employer registration).
- Deregistered and bankrupt organisations get no deadlines (no late fee after a registered bankruptcy, ÅRL 8 kap.
  7 §); one in liquidation keeps its duties (the liquidator files). A company under reconstruction keeps its duties.
- Not computed: preliminary tax instalments, the EU sales list, supplementary payments and final tax, the notice
  periods of the general meeting, beneficial-owner registration. Skatteverket's own 2026 and 2027 date tables were
  not available to check the computed dates against (VERIFY).
`)
	return b.String()
}
