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
// country; AnnualAccounts is shared by Norway and the United Kingdom.
const (
	// AnnualAccounts is the annual accounts (NO årsregnskap; GB statutory
	// accounts).
	AnnualAccounts registry.DeadlineKind = kindAnnualAccounts
	// GeneralMeeting is the ordinary general meeting (NO).
	GeneralMeeting registry.DeadlineKind = kindGeneralMeeting
	// TaxReturn is the income tax return (NO skattemelding).
	TaxReturn registry.DeadlineKind = kindTaxReturn
	// ShareholderRegisterStatement is the shareholder register statement
	// (NO aksjonærregisteroppgave).
	ShareholderRegisterStatement registry.DeadlineKind = kindShareholderStmt
	// VATReturn is the VAT return (NO mva-melding).
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
const (
	authSkatteetaten = "Skatteetaten (the Norwegian Tax Administration)"
	authRegnskaps    = "Regnskapsregisteret (Brønnøysundregistrene)"
	authMeeting      = "The entity itself (a meeting of its owners or members; nothing is filed)"

	srcVAT         = "https://www.skatteetaten.no/rettskilder/type/handboker/skatteforvaltningshandboken/gjeldende/kapittel-8-opplysningsplikt-for-skattepliktige-trekkpliktige-mv/ID-8-3.001/ID-8-3.029/"
	srcPayroll     = "https://www.skatteetaten.no/bedrift-og-organisasjon/arbeidsgiver/a-meldingen/frister-og-betaling-i-a-meldingen/"
	srcTaxReturn   = "https://www.skatteetaten.no/nn/rettskjelder/type/handboker/skatteforvaltningshandboken/gjeldende/kapittel-8-opplysningsplikt-for-skattepliktige-trekkpliktige-mv/ID-8-2.001/ID-8-2.024/"
	srcShareholder = "https://www.altinn.no/en/start-and-run-business/direct-and-indirect-taxes/the-enterprises-tax/shareholder-register/"
	srcAccounts    = "https://www.brreg.no/bedrift/innsending-av-arsregnskap/innsendingsplikt-til-regnskapsregisteret/"
	srcMeetingAS   = "https://lovdata.no/dokument/NL/lov/1997-06-13-44/KAPITTEL_5"
	srcMeetingASA  = "https://lovdata.no/dokument/NL/lov/1997-06-13-45/KAPITTEL_5"
	srcMeetingSA   = "https://lovdata.no/dokument/NL/lov/2007-06-29-81"
)

// duty says whether a form-dependent obligation applies to a legal form.
type duty uint8

const (
	dutyNone      duty = iota // does not apply
	dutyAlways                // follows from the legal form alone (mandatory)
	dutyDepending             // depends on facts the register does not show (not mandatory)
)

// noForm is the classification of one Norwegian legal form.
type noForm struct {
	label       string // English description with the code, e.g. "private limited company (AS)"
	accounts    duty
	accountsWhy string // the threshold or condition, for dutyDepending
	tax         duty
	taxWhy      string // the whole applies_because sentence for the tax return
	taxLocal    string
	meeting     duty
	shareholder duty
	partial     bool // only some form-dependent duties are modelled (see noPartialNote)
}

// norwegianForm returns the classification of an Enhetsregisteret
// organisasjonsform code; classified reports whether its form-dependent
// duties are modelled.
func norwegianForm(code string) (f noForm, classified bool) {
	switch code {
	case "AS":
		return noForm{label: "private limited company (AS)", accounts: dutyAlways, tax: dutyAlways,
			taxWhy:  "A private limited company (AS) files its own tax return by 31 May of the following year (skatteforvaltningsforskriften § 8-2-3).",
			meeting: dutyAlways, shareholder: dutyAlways}, true
	case "ASA":
		return noForm{label: "public limited company (ASA)", accounts: dutyAlways, tax: dutyAlways,
			taxWhy:  "A public limited company (ASA) files its own tax return by 31 May of the following year (skatteforvaltningsforskriften § 8-2-3).",
			meeting: dutyAlways, shareholder: dutyAlways}, true
	case "ENK":
		return noForm{label: "sole proprietorship (ENK)", accounts: dutyDepending,
			accountsWhy: "only if its assets exceed NOK 20 million or it has more than 20 full-time equivalents",
			tax:         dutyAlways,
			taxWhy:      "For a sole proprietorship (ENK) the owner's personal tax return with the business specification is due 31 May of the following year, not 30 April (skatteforvaltningsforskriften § 8-2-3)."}, true
	case "ANS", "DA", "KS":
		label := map[string]string{
			"ANS": "general partnership with joint and several liability (ANS)",
			"DA":  "general partnership with shared liability (DA)",
			"KS":  "limited partnership (KS)",
		}[code]
		return noForm{label: label, accounts: dutyDepending,
			accountsWhy: "unless it has sales under NOK 5 million, fewer than 5 full-time equivalents, at most 5 partners and no limited-liability partner",
			tax:         dutyAlways, taxLocal: "selskapsmelding",
			taxWhy: "A " + label + " files a partnership return (selskapsmelding, skatteforvaltningsloven § 8-9) by 31 May of the following year; each partner also files their own return."}, true
	case "NUF":
		return noForm{label: "Norwegian-registered foreign company (NUF)", accounts: dutyDepending,
			accountsWhy: "only if it carries on business in Norway and is liable to tax there",
			tax:         dutyDepending,
			taxWhy:      "A Norwegian-registered foreign company (NUF) files a tax return by 31 May of the following year only if it is liable to tax in Norway (skatteloven § 2-3), which the register does not show."}, true
	case "SA":
		return noForm{label: "cooperative (SA)", accounts: dutyDepending,
			accountsWhy: "only if its sales income exceeds NOK 2 million",
			tax:         dutyAlways,
			taxWhy:      "A cooperative (SA) files its own tax return by 31 May of the following year (skatteforvaltningsforskriften § 8-2-3).",
			meeting:     dutyAlways}, true
	case "STI":
		return noForm{label: "foundation (STI)", accounts: dutyAlways, tax: dutyDepending,
			taxWhy: "A foundation (STI) files a tax return by 31 May of the following year only if it is liable to tax; many non-profit foundations are exempt, which the register does not show."}, true
	case "FLI":
		return noForm{label: "association (FLI)", accounts: dutyDepending,
			accountsWhy: "only if its assets exceed NOK 20 million or it has more than 20 full-time equivalents",
			tax:         dutyDepending,
			taxWhy:      "An association (FLI) files a tax return by 31 May of the following year only if it is liable to tax; many non-profit associations are exempt, which the register does not show."}, true
	case "BA":
		return noForm{label: "company with limited liability (BA)", accounts: dutyAlways, tax: dutyDepending,
			taxWhy: "A company with limited liability (BA) is assumed to be its own tax subject filing by 31 May of the following year; its tax position is not shown by the register."}, true
	case "BRL", "BBL", "SF", "SPA", "GFS", "PK", "VPFO":
		// Regnskapsloven § 1-2 gives these an accounts duty whatever their
		// size; their other form-dependent duties are not modelled.
		label := map[string]string{
			"BRL":  "housing cooperative (BRL)",
			"BBL":  "housing building cooperative (BBL)",
			"SF":   "state enterprise (SF)",
			"SPA":  "savings bank (SPA)",
			"GFS":  "mutual insurance company (GFS)",
			"PK":   "pension fund (PK)",
			"VPFO": "securities fund (VPFO)",
		}[code]
		return noForm{label: label, accounts: dutyAlways, partial: true}, true
	}
	return noForm{label: "legal form " + code}, false
}

// knownForm reports whether the register module recognised the report's
// legal form: a classified code, or any code to which the module gave an
// English label (countries/no labels every code Enhetsregisteret
// publishes). The list of published codes thus lives in one place, the
// module's table.
func knownForm(rep *registry.CompanyReport, classified bool) bool {
	return classified || (rep.LegalForm != nil && *rep.LegalForm != "")
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
)

// Norway returns the next occurrence, on or after today, of each Norwegian
// filing obligation of the entity described by rep, sorted by due date and
// then kind.
//
// Six kinds are covered: vat_return (bimonthly terms, for VAT-registered
// units), payroll_report (monthly, for units with employees), tax_return,
// shareholder_register_statement, annual_accounts and general_meeting (by
// legal form). The first four roll forward past Saturdays, Sundays and
// Norwegian public holidays; the annual accounts (before 1 August) and the
// general meeting (within six months) are fixed by law and do not, and a
// note says when such a date falls on a weekend. The financial year is
// assumed to be the calendar year, and a note says so.
//
// A period that ended before the unit was founded (FoundedAt, else
// RegisteredAt) is skipped, and accounts already filed for a year
// (LastAnnualAccountsYear) move annual_accounts to the following year.
// Sub-units, and bankrupt, deleted, dissolved or compulsorily liquidated
// units, get an empty list and a note saying why; so does a unit whose legal
// form is missing or not one Enhetsregisteret publishes. A unit under
// voluntary liquidation keeps its duties. For a legal form whose own duties
// are not classified, only the duties that follow from a register flag (VAT
// registration, employees) are computed. Norway never panics and never
// returns nil.
func Norway(rep *registry.CompanyReport, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "NO", "brreg", 6)
	if rep == nil {
		out.Notes = append(out.Notes, "No company report was given, so no deadlines are computed.", noteCalendarYear)
		return out
	}
	if !plausible(today) {
		out.Notes = append(out.Notes, noteImplausibleToday, noteCalendarYear)
		return out
	}
	code := strings.ToUpper(strings.TrimSpace(deref(rep.LegalFormCode)))
	if why, stop := norwayStop(rep, code); stop {
		out.Notes = append(out.Notes, why, noteCalendarYear)
		return out
	}
	switch rep.Status {
	case registry.StatusUnderLiquidation:
		out.Notes = append(out.Notes, noteLiquidation)
	case registry.StatusUnknown, "":
		out.Notes = append(out.Notes, noteStatusUnknown)
	}

	form, classified := norwegianForm(code)
	known := knownForm(rep, classified)
	c := noCalc{out: out, today: today, form: form, code: code}
	if start := firstOf(rep.FoundedAt, rep.RegisteredAt); start != nil && plausible(*start) {
		c.start, c.hasStart = normalize(*start), true
	}

	if rep.VATRegistered != nil && *rep.VATRegistered {
		c.vat()
		out.Notes = append(out.Notes, noteVATTerms)
	}
	if (rep.EmployeesReported != nil && *rep.EmployeesReported) || (rep.Employees != nil && *rep.Employees > 0) {
		c.payroll()
	}
	if known && classified {
		c.annual(rep.LastAnnualAccountsYear)
		if form.partial {
			out.Notes = append(out.Notes, "For a "+form.label+" only the annual accounts and the duties that follow from a register flag "+
				"(VAT registration, employees) are computed; its tax return and any meeting duty are not modelled.")
		}
	} else if known {
		out.Notes = append(out.Notes, "The duties that depend on the legal form "+code+" (annual accounts, tax return, shareholder register statement, "+
			"general meeting) are not classified here; only the duties that follow from a register flag (VAT registration, employees) are computed.")
	}
	sortDeadlines(out.Deadlines)
	if len(out.Deadlines) == 0 {
		out.Notes = append(out.Notes, "No filing obligation could be derived: the register shows neither VAT registration nor employees, "+
			"and the legal form gives no modelled duty.")
	}
	out.Notes = append(out.Notes, noteCalendarYear)
	return out
}

// norwayStop says whether rep gets no deadlines at all, and why.
func norwayStop(rep *registry.CompanyReport, code string) (string, bool) {
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
		if code == "AS" || code == "ASA" {
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
	if _, classified := norwegianForm(code); !knownForm(rep, classified) {
		return "The legal form " + code + " is not one Enhetsregisteret publishes (unclassified), so no deadlines are computed.", true
	}
	return "", false
}

// noCalc computes the Norwegian deadlines of one report.
type noCalc struct {
	out      *registry.DeadlineReport
	today    registry.Date
	form     noForm
	code     string
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

func (c *noCalc) vat() {
	// Terms are numbered y*6 + (t-1). Start two terms before today's, or
	// at the founding term; each term is due within three months of its
	// end, so the loop runs a few times at most.
	idx := c.today.Year*6 + (int(c.today.Month)-1)/2 - 2
	if c.hasStart {
		idx = max(idx, c.start.Year*6+(int(c.start.Month)-1)/2)
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

func (c *noCalc) payroll() {
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
			Mandatory:      true,
			AppliesBecause: "The register shows employees, so an a-melding is due for every month by the 5th of the next month (a-opplysningsforskriften § 2-1).",
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
	f := c.form
	minYear := c.today.Year - 1
	if c.hasStart {
		minYear = max(minYear, c.start.Year)
	}
	yearPeriod := func(y int, label string) (*string, *registry.Date, *registry.Date) {
		return countrykit.Ptr(label + " " + strconv.Itoa(y)),
			countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
			countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31})
	}

	if f.tax != dutyNone {
		y := c.nextYear(minYear, time.May, 31, true)
		label, ps, pe := yearPeriod(y, "Income year")
		local := "skattemelding"
		if f.taxLocal != "" {
			local = f.taxLocal
		}
		c.add(registry.Deadline{
			Kind: kindTaxReturn, Name: "Tax return", LocalName: countrykit.Ptr(local), Authority: authSkatteetaten,
			StatutoryDate: registry.Date{Year: y + 1, Month: time.May, Day: 31},
			PeriodLabel:   label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			Mandatory: f.tax == dutyAlways, AppliesBecause: f.taxWhy, SourceURL: countrykit.Ptr(srcTaxReturn),
		}, true)
	}

	if f.shareholder != dutyNone {
		y := c.nextYear(minYear, time.January, 31, true)
		label, ps, pe := yearPeriod(y, "Income year")
		why := "Every private limited company (AS) files the shareholder register statement by 31 January of the following year (skatteforvaltningsloven § 7-7)."
		if c.code == "ASA" {
			why = "A public limited company (ASA) files the shareholder register statement by 31 January of the following year (skatteforvaltningsloven § 7-7), " +
				"except for shares the VPS reports for it, which the register does not show."
		}
		c.add(registry.Deadline{
			Kind: kindShareholderStmt, Name: "Shareholder register statement", LocalName: countrykit.Ptr("aksjonærregisteroppgave"),
			Authority:     authSkatteetaten,
			StatutoryDate: registry.Date{Year: y + 1, Month: time.January, Day: 31},
			PeriodLabel:   label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			Mandatory: f.shareholder == dutyAlways, AppliesBecause: why, SourceURL: countrykit.Ptr(srcShareholder),
		}, true)
	}

	if f.meeting != dutyNone {
		y := c.nextYear(minYear, time.June, 30, false)
		label, ps, pe := yearPeriod(y, "Financial year")
		name, local, src := "Ordinary general meeting", "ordinær generalforsamling", srcMeetingAS
		why := "A private limited company (AS) must hold its ordinary general meeting within six months of the financial year's end (aksjeloven § 5-5); the date is fixed and does not move for weekends."
		switch c.code {
		case "ASA":
			src = srcMeetingASA
			why = "A public limited company (ASA) must hold its ordinary general meeting within six months of the financial year's end (allmennaksjeloven § 5-6); the date is fixed and does not move for weekends."
		case "SA":
			name, local, src = "Ordinary annual meeting", "ordinært årsmøte", srcMeetingSA
			why = "A cooperative (SA) holds its ordinary annual meeting (årsmøte) by 30 June under the cooperatives act (samvirkelova); the date is fixed and does not move for weekends."
		}
		stat := registry.Date{Year: y + 1, Month: time.June, Day: 30}
		c.add(registry.Deadline{
			Kind: kindGeneralMeeting, Name: name, LocalName: countrykit.Ptr(local), Authority: authMeeting,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe,
			Recurrence: registry.RecurrenceAnnual, Mandatory: true, AppliesBecause: why, SourceURL: countrykit.Ptr(src),
		}, false)
		if w := stat.Weekday(); w == time.Saturday || w == time.Sunday {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("general_meeting: %s is a %s. The six-month limit is fixed by law and a meeting may be held on any day, "+
				"so the date does not move to the next working day.", stat, w))
		}
	}

	if f.accounts != dutyNone {
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
		why := "A " + f.label + " always has a duty to keep accounts (regnskapsloven § 1-2) and must send them to Regnskapsregisteret " +
			"one month after approval and before 1 August (§§ 8-2 and 8-3); the date assumes approval by 30 June."
		if f.accounts == dutyDepending {
			why = "A " + f.label + " must send annual accounts to Regnskapsregisteret before 1 August (regnskapsloven § 8-3) " +
				f.accountsWhy + " (§ 1-2), which the register does not show."
		}
		stat := registry.Date{Year: y + 1, Month: time.July, Day: 31}
		c.add(registry.Deadline{
			Kind: kindAnnualAccounts, Name: "Annual accounts", LocalName: countrykit.Ptr("årsregnskap"), Authority: authRegnskaps,
			StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe,
			Recurrence: registry.RecurrenceAnnual, Mandatory: f.accounts == dutyAlways, AppliesBecause: why,
			SourceURL: countrykit.Ptr(srcAccounts),
		}, false)
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
	d = d.AddDays(-1)
	for !isNorwegianWorkingDay(d) {
		d = d.AddDays(-1)
	}
	return d
}
