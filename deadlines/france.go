package deadlines

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// The French deadline kinds that no other country has. France also uses
// [GeneralMeeting] (the approval of the accounts), [TaxReturn] (the
// corporate income tax return) and [VATReturn] (the monthly CA3).
const (
	// FrenchAccountsFiling is the filing of the annual accounts at the
	// greffe of the commercial court on paper, within one month of their
	// approval (C. com. L232-22, L232-23).
	FrenchAccountsFiling registry.DeadlineKind = "accounts_filing"
	// FrenchAccountsFilingElectronic is the same filing made
	// electronically, within two months of the approval.
	FrenchAccountsFilingElectronic registry.DeadlineKind = "accounts_filing_electronic"
	// FrenchCorporateTaxBalance is the balance of the corporate income tax
	// (relevé de solde, form 2572).
	FrenchCorporateTaxBalance registry.DeadlineKind = "corporate_tax_balance"
	// FrenchCorporateTaxInstalment is a quarterly corporate income tax
	// instalment (relevé d'acompte, form 2571).
	FrenchCorporateTaxInstalment registry.DeadlineKind = "corporate_tax_instalment"
	// FrenchCFE is the balance of the business property tax (cotisation
	// foncière des entreprises).
	FrenchCFE registry.DeadlineKind = "cfe"
	// FrenchDSN is the monthly social return and contributions
	// (déclaration sociale nominative).
	FrenchDSN registry.DeadlineKind = "dsn"
)

// FrenchVATColumn is the column of the CA3 schedule of CGI annexe IV art. 39
// that gives a taxpayer's day of the month. The zero value is
// [FrenchVATOther].
type FrenchVATColumn uint8

// The columns of the schedule.
const (
	// FrenchVATOther is "other taxpayers" (associations, public bodies,
	// occasional taxpayers): the 24th.
	FrenchVATOther FrenchVATColumn = iota
	// FrenchVATIndividual is "entreprises individuelles": by the first
	// letter of the operator's surname, A–H the 15th (Paris area) or 16th,
	// I–Z the 17th (Paris area) or 19th.
	FrenchVATIndividual
	// FrenchVATCompany is "sociétés autres que les sociétés anonymes": in
	// the Paris area by the SIREN's first two digits (00–68 the 19th, 69–78
	// the 20th, 79–99 the 21st), elsewhere the 21st.
	FrenchVATCompany
	// FrenchVATSA is "sociétés anonymes": in the Paris area the 23rd
	// (SIREN 00–74) or 24th (75–99), elsewhere the 24th.
	FrenchVATSA
)

// Authorities and sources of the French kinds (research fr-deadlines.md).
const (
	authFRCompany = "The company itself (its partners' or shareholders' meeting or decision; nothing is filed)"
	authFRGreffe  = "Greffe du tribunal de commerce (Registre du commerce et des sociétés), through the guichet unique of INPI"
	authFRDGFiP   = "DGFiP (Direction générale des finances publiques), the French tax administration"
	authFRURSSAF  = "URSSAF and the other social security bodies, through net-entreprises.fr"

	srcFRHolidays     = "https://www.legifrance.gouv.fr/codes/id/LEGISCTA000033008129/"
	srcFRRollCIBS     = "https://juriblio.fr/decrets/decret-no-2024-610-du-26-juin-2024/184014527/annexe/livre-ier/titre-vii/chapitre-ier/article-d171-5"
	srcFRRollDirect   = "https://legal.tricoteuses.fr/articles/LEGIARTI000034729384"
	srcFRMeeting      = "https://french-business-law.com/rench-legislation-art/article-l225-100-of-the-french-commercial-code"
	srcFRAccounts     = "https://circulaires.legifrance.gouv.fr/codes/article_lc/LEGIARTI000039260292/"
	srcFRAccountsEOM  = "https://monjuridique.infogreffe.fr/blog/depot-comptes-annuels"
	srcFRTaxReturn    = "https://legal.tricoteuses.fr/articles/JORFARTI000020418141"
	srcFRTaxOnline    = "https://aide.loopsoftware.fr/hc/fr/articles/360012681920-Fiscalit%C3%A9-Campagne-EDI-TDFC-Dates-et-%C3%A9ch%C3%A9ances"
	srcFRTaxBalance   = "https://bofip.impots.gouv.fr/bofip/3560-PGP.html/identifiant%3DBOI-IS-DECLA-20-20-20131216"
	srcFRInstalments  = "https://bofip.impots.gouv.fr/bofip/3558-PGP.html/identifiant%3DBOI-IS-DECLA-20-10-20170301"
	srcFRVAT          = "https://legal.tricoteuses.fr/articles/LEGIARTI000006300353"
	srcFRVATRoll      = "https://fl-ecompliance.com/lexique/declaration-de-tva-ca3/"
	srcFRCFE          = "https://www.compta-online.com/cotisation-fonciere-des-entreprises-impots-gouv-fr-cfe-ar934"
	srcFRDSN          = "https://www.urssaf.fr/portail/home/employeur/declarer-et-payer/quand/la-date-de-declaration.html"
	srcFRMonthsCPC641 = "https://www.doctrine.fr/l/texts/codes/LEGITEXT000006070716/articles/LEGIARTI000006411002"
)

// FranceDuties is the profile of one French company that [France] computes
// from: the duties of its legal form, which the module's legal-form table
// owns (countries/fr), and the register facts the report has no field for,
// which the module reads from its report.
type FranceDuties struct {
	// Code is the INSEE legal category (catégorie juridique, niveau III),
	// such as "5710".
	Code string
	// Label names the legal form in sentences, for example "simplified
	// joint-stock company (SAS)". An empty Label means the legal form is
	// unknown or its own duties are not modelled: the form-dependent duties
	// below are then ignored.
	Label string
	// GeneralMeeting is the approval of the annual accounts within six
	// months of the year-end.
	GeneralMeeting KindDuty
	// AccountsFiling is the filing of the accounts at the greffe, both the
	// paper (one month after approval) and the electronic (two months)
	// date.
	AccountsFiling KindDuty
	// CorporateTax is the corporate income tax (IS) return and balance.
	CorporateTax KindDuty
	// CorporateTaxInstalments are the four IS instalments, due when the
	// last IS exceeded EUR 3,000 and not in the first financial year.
	CorporateTaxInstalments KindDuty
	// VAT is the monthly VAT return and payment (CA3); VATColumn says which
	// column of the schedule gives its day. It is never mandatory: the
	// register does not publish the VAT regime.
	VAT       KindDuty
	VATColumn FrenchVATColumn
	// CFE is the balance of the business property tax, not due for the
	// year of creation.
	CFE KindDuty
	// PublicBody is true for the State, local authorities and public
	// bodies (INSEE categories 4 and 7): nothing is computed for them.
	PublicBody bool

	// Departement is the département of the head office ("75", "2A",
	// "971"), or "" when unknown.
	Departement string
	// SurnameInitial is the first letter (A to Z) of an individual
	// entrepreneur's surname, or 0 when it is unknown or not published.
	SurnameInitial byte
	// Employer is [DutyYes] when the register shows an employer (caractère
	// employeur O, or a headcount band other than NN), [DutyNo] when it
	// shows none, [DutyUnknown] otherwise.
	Employer Duty
	// HeadcountBand is the INSEE headcount band (tranche d'effectif
	// salarié: "NN", "00" to "53"), or "".
	HeadcountBand string
	// VATRegistered is true when the register lists an active VAT number.
	VATRegistered bool
}

// Notes of the French report.
const (
	noteFRCalendarYear = "Deadlines assume the financial year is the calendar year: the public register does not publish the year-end " +
		"(date de clôture de l'exercice). A company with another year-end has other dates for the approval and filing of its accounts " +
		"and for its corporate tax, which are not computed here."
	noteFRVAT = "VAT: the register does not publish the VAT regime, so the monthly return (CA3, réel normal) is assumed and listed as not " +
		"mandatory. A company under the réel simplifié files one annual return (CA12, by the second working day after 1 May) and pays two " +
		"instalments (July and December); one in the franchise en base files no return; a quarterly CA3 is possible when the VAT due is " +
		"under EUR 4,000 a year."
	noteFRCorporateTax = "Corporate income tax: the register does not publish whether the company is taxed at corporate income tax (IS) or " +
		"through its partners (IR); the IS deadlines follow the legal form's default. The instalments are due only when the last IS " +
		"exceeded EUR 3,000 (CGI art. 1668), which the register does not show, and not in the first financial year."
	noteFRCFE = "CFE: the balance of the business property tax is assumed due on 15 December (not for the year of creation); the 15 June " +
		"instalment (when the previous CFE reached EUR 3,000) and the exemptions are not visible in the register."
	noteFRCompanyLaw = "The approval of the accounts and their filing at the greffe are company-law time limits: no rule moves them off a " +
		"Saturday, Sunday or holiday (Code de procédure civile art. 642 covers procedural time limits only), so they are not moved."
	noteFRNotComputed = "Not computed: income tax returns of individual entrepreneurs, partnerships and SCIs (forms 2031, 2035, 2072), " +
		"micro-entrepreneur declarations to URSSAF, CVAE, the CFE instalment, DAS2 and DECLOYER, the beneficial-owner declaration, the " +
		"final return after cessation, EU sales lists and the withholding-tax remittance (which follows the DSN)."
	noteFRInsolvency = "Insolvency proceedings (sauvegarde, redressement, liquidation judiciaire) are not in the public data: a company " +
		"under them is computed as active, and its administrator or liquidator may file instead."
	noteFRStatusUnknown = "The company's status is unknown; deadlines are computed as if it were active."
	noteFRLiquidation   = "The company is in liquidation; its filing duties continue, handled by the liquidator, until it is struck off."
)

// France returns the next occurrence, on or after today, of each French
// filing obligation of the company described by rep, sorted by due date
// and then kind. duties is the profile of its legal form and of the
// register facts the report has no field for, built by the French module
// from its legal-form table; nil means nothing is known (only the notes
// are returned).
//
// Nine kinds are covered: general_meeting (the approval of the accounts,
// 30 June), accounts_filing and accounts_filing_electronic (at the greffe,
// 31 July and 31 August), tax_return (the second working day after 1 May),
// corporate_tax_balance (15 May), corporate_tax_instalment (15 March,
// June, September and December), vat_return (monthly CA3, on the day of
// CGI ann. IV art. 39's schedule), cfe (15 December) and dsn (the 5th or
// 15th of each month). Tax and social payments and returns roll forward to
// the next day that is neither a Saturday, a Sunday nor a holiday of
// [FrenchHolidays]; the approval and the filing of the accounts do not,
// and a note says when one falls on a non-business day. The financial year
// is assumed to be the calendar year, and a note says so.
//
// A period that ended before the company was created (FoundedAt, else
// RegisteredAt) is skipped; the CFE of the year of creation and the
// instalments of the first financial year are not due. Dissolved, deleted
// and bankrupt companies get an empty list and a note; public bodies get
// none. France never panics and never returns nil.
func France(rep *registry.CompanyReport, duties *FranceDuties, today registry.Date) *registry.DeadlineReport {
	out := newReport(rep, today, "FR", "sirene", 9)
	if unusable(out, rep, today, noteFRCalendarYear) {
		return out
	}
	switch rep.Status {
	case registry.StatusDissolved, registry.StatusDeleted:
		out.Notes = append(out.Notes, "The company has ceased (état administratif C), so it has no future filing deadlines. "+
			"The final return after cessation (within 60 days) is not computed.", noteFRCalendarYear)
		return out
	case registry.StatusBankrupt:
		out.Notes = append(out.Notes, "The company is bankrupt; its liquidator handles its filings, so its ordinary deadlines are not computed.",
			noteFRCalendarYear)
		return out
	case registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation:
		out.Notes = append(out.Notes, noteFRLiquidation)
	case registry.StatusActive:
		out.Notes = append(out.Notes, noteFRInsolvency)
	default:
		out.Notes = append(out.Notes, noteFRStatusUnknown)
	}
	if duties == nil {
		duties = &FranceDuties{}
	}
	if duties.PublicBody {
		out.Notes = append(out.Notes, "This is a public body (the State, a local authority or a public establishment): its accounting and "+
			"tax calendar is not that of companies, so no deadlines are computed.", noteFRCalendarYear)
		return out
	}

	c := frCalc{out: out, today: today, d: duties}
	if start := firstOf(rep.FoundedAt, rep.RegisteredAt); start != nil && plausible(*start) {
		if s := normalize(*start); plausible(s) {
			c.start, c.hasStart = s, true
		}
	}
	if c.hasStart && !c.start.After(today) && today.DaysSince(c.start) < 366 {
		out.Notes = append(out.Notes, fmt.Sprintf("The company was created on %s, less than a year ago: its first financial year may "+
			"run longer than twelve months, so its first year-end, and with it the first approval, filing and corporate tax dates, "+
			"are not known.", c.start))
	}

	form := duties.Label
	if form != "" {
		c.annual(form)
	} else {
		out.Notes = append(out.Notes, "The legal form is unknown, or its own duties (approval and filing of the accounts, corporate "+
			"income tax, CFE) are not modelled here, so only the duties that follow from the register are computed: VAT when it lists "+
			"a VAT number, the DSN for an employer. The CFE (15 December) is not computed: whether this form is liable or exempt "+
			"is not modelled.")
	}
	c.vat(form)
	if form != "" && duties.CFE.Duty.Applies() {
		c.cfe(form)
	}
	c.dsn()
	c.placeNotes()

	dropped := finish(out)
	if len(out.Deadlines) == 0 && !dropped {
		out.Notes = append(out.Notes, "No filing obligation could be derived from the register for this company.")
	}
	out.Notes = append(out.Notes, noteFRNotComputed, noteFRCalendarYear)
	return out
}

// frCalc computes the French deadlines of one report.
type frCalc struct {
	out      *registry.DeadlineReport
	today    registry.Date
	d        *FranceDuties
	start    registry.Date // creation date
	hasStart bool
}

func (c *frCalc) add(d registry.Deadline, roll bool) {
	d.Country, d.Registry = c.out.Country, c.out.Registry
	d.DueDate = d.StatutoryDate
	if roll {
		d.DueDate = frRollForward(d.StatutoryDate)
	}
	d.RolledForward = d.DueDate != d.StatutoryDate
	d.DaysUntil = countrykit.Ptr(d.DueDate.DaysSince(c.today))
	c.out.Deadlines = append(c.out.Deadlines, d)
}

// frFirstYear returns the first financial year whose deadlines may be
// due: not before the year of creation, nor more than two years back.
func (c *frCalc) frFirstYear(after int) int {
	y := c.today.Year - 2
	if c.hasStart {
		y = max(y, c.start.Year+after)
	}
	return y
}

// frNextYear returns the first year y >= from whose deadline stat(y),
// rolled when roll, is on or after today.
func (c *frCalc) frNextYear(from int, stat func(y int) registry.Date, roll bool) int {
	for y := from; ; y++ {
		d := stat(y)
		if roll {
			d = frRollForward(d)
		}
		if !d.Before(c.today) {
			return y
		}
	}
}

// frFinancialYear returns the label and the bounds of calendar year y.
func frFinancialYear(y int) (*string, *registry.Date, *registry.Date) {
	return countrykit.Ptr("Financial year " + strconv.Itoa(y)),
		countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
		countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31})
}

// frCompanyLawNote says that a company-law date on a non-business day is
// not moved.
func (c *frCalc) frCompanyLawNote(kind registry.DeadlineKind, stat registry.Date) {
	if frIsBusinessDay(stat) {
		return
	}
	c.out.Notes = append(c.out.Notes, fmt.Sprintf("%s: %s is a %s and not a business day. No rule moves this company-law date, so it "+
		"is not moved: act by the business day before to be safe.", kind, stat, stat.Weekday()))
}

func (c *frCalc) annual(form string) {
	d := c.d
	minYear := c.frFirstYear(0)
	if d.GeneralMeeting.Duty.Applies() {
		stat := func(y int) registry.Date { return registry.Date{Year: y + 1, Month: time.June, Day: 30} }
		y := c.frNextYear(minYear, stat, false)
		label, ps, pe := frFinancialYear(y)
		c.add(kindDeadline(registry.Deadline{
			Kind: kindGeneralMeeting, Name: "Approval of the annual accounts (ordinary general meeting or partners' decision)",
			LocalName: countrykit.Ptr("approbation des comptes annuels (assemblée générale ordinaire)"), Authority: authFRCompany,
			StatutoryDate: stat(y), PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " approves its annual accounts within six months of the year-end: 30 June for a calendar year " +
				"(Code de procédure civile art. 641 for the count of months); the date is not moved.",
			SourceURL: countrykit.Ptr(srcFRMeeting),
		}, d.GeneralMeeting, form), false)
		c.frCompanyLawNote(GeneralMeeting, stat(y))
	}
	if d.AccountsFiling.Duty.Applies() {
		for _, f := range []struct {
			kind  registry.DeadlineKind
			month time.Month
			name  string
			local string
			how   string
		}{
			{FrenchAccountsFiling, time.July, "Filing of the annual accounts at the greffe (on paper)",
				"dépôt des comptes annuels au greffe (papier)", "on paper within one month of the approval: 31 July"},
			{FrenchAccountsFilingElectronic, time.August, "Filing of the annual accounts at the greffe (electronically)",
				"dépôt des comptes annuels au greffe (voie électronique)", "electronically within two months of the approval: 31 August"},
		} {
			stat := func(y int) registry.Date { return endOfMonth(y+1, f.month) }
			y := c.frNextYear(minYear, stat, false)
			label, ps, pe := frFinancialYear(y)
			dl := kindDeadline(registry.Deadline{
				Kind: f.kind, Name: f.name, LocalName: countrykit.Ptr(f.local), Authority: authFRGreffe,
				StatutoryDate: stat(y), PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
				SourceURL: countrykit.Ptr(srcFRAccounts),
			}, d.AccountsFiling, form)
			dl.AppliesBecause += " Filed " + f.how + " for a calendar year, as the greffes count the month to its end (a strict count " +
				"from 30 June gives one day earlier); the date is not moved."
			c.add(dl, false)
			c.frCompanyLawNote(f.kind, stat(y))
		}
	}
	if d.CorporateTax.Duty.Applies() {
		stat := func(y int) registry.Date { return frenchSecondWorkingDayAfterMay1(y + 1) }
		y := c.frNextYear(minYear, stat, false)
		label, ps, pe := frFinancialYear(y)
		online := stat(y).AddDays(15)
		dl := kindDeadline(registry.Deadline{
			Kind: kindTaxReturn, Name: "Corporate income tax return (liasse fiscale, form 2065)",
			LocalName: countrykit.Ptr("déclaration de résultats à l'impôt sur les sociétés (2065-SD)"), Authority: authFRDGFiP,
			StatutoryDate: stat(y), PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " is taxed at corporate income tax and files its return by the second working day after " +
				"1 May for a calendar year (CGI art. 223-1, ann. III art. 344 I-0 bis), a date that is a business day by construction.",
			SourceURL: countrykit.Ptr(srcFRTaxReturn),
		}, d.CorporateTax, form)
		dl.AppliesBecause += fmt.Sprintf(" Filed online (télétransmission), 15 more calendar days are allowed: until %s "+
			"(BOI-BIC-DECLA-30-10-10-20 § 60).", online)
		c.add(dl, false)
		if !frIsBusinessDay(online) {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("tax_return: the online date %s is a %s; whether it moves to the next business "+
				"day is not settled (publications differ), so file by %s to be safe.", online, online.Weekday(), stat(y).AddDays(14)))
		}
		// Asked between the statutory and the online date, say that the
		// last year's return may still be sent online.
		if prev := stat(c.today.Year - 1); prev.Before(c.today) && !prev.AddDays(15).Before(c.today) && c.today.Year-1 >= minYear {
			c.out.Notes = append(c.out.Notes, fmt.Sprintf("tax_return: the return for the financial year %d was due on %s; filed online "+
				"it may still be sent until %s.", c.today.Year-1, prev, prev.AddDays(15)))
		}

		bal := func(y int) registry.Date { return registry.Date{Year: y + 1, Month: time.May, Day: 15} }
		y = c.frNextYear(minYear, bal, true)
		label, ps, pe = frFinancialYear(y)
		c.add(kindDeadline(registry.Deadline{
			Kind: FrenchCorporateTaxBalance, Name: "Corporate income tax balance (relevé de solde, form 2572)",
			LocalName: countrykit.Ptr("solde de l'impôt sur les sociétés (relevé de solde 2572-SD)"), Authority: authFRDGFiP,
			StatutoryDate: bal(y), PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceAnnual,
			AppliesBecause: "A " + form + " taxed at corporate income tax pays the balance of the year's tax by the 15th of the " +
				"fourth month after the year-end, except that for a year ending on 31 December the date is 15 May " +
				"(BOI-IS-DECLA-20-20); moved to the next business day (a direct tax). The current wording of CGI art. 1668-2 is " +
				"not verified.",
			SourceURL: countrykit.Ptr(srcFRTaxBalance),
		}, d.CorporateTax, form), true)
	}
	if d.CorporateTaxInstalments.Duty.Applies() {
		// Instalment q (0 to 3) of financial year y is due on 15 March,
		// June, September and December of y; the first financial year
		// pays none.
		idx := max((c.today.Year-1)*4, c.frFirstYear(1)*4)
		for ; ; idx++ {
			y, q := floorDiv(idx, 4), mod(idx, 4)
			stat := registry.Date{Year: y, Month: time.March + time.Month(3*q), Day: 15}
			if frRollForward(stat).Before(c.today) {
				continue
			}
			label, ps, pe := frFinancialYear(y)
			*label += fmt.Sprintf(", instalment %d of 4", q+1)
			c.add(kindDeadline(registry.Deadline{
				Kind: FrenchCorporateTaxInstalment, Name: "Corporate income tax instalment (relevé d'acompte, form 2571)",
				LocalName: countrykit.Ptr("acompte d'impôt sur les sociétés (relevé d'acompte 2571-SD)"), Authority: authFRDGFiP,
				StatutoryDate: stat, PeriodLabel: label, PeriodStart: ps, PeriodEnd: pe, Recurrence: registry.RecurrenceQuarterly,
				AppliesBecause: "A " + form + " taxed at corporate income tax pays four instalments, on 15 March, June, September " +
					"and December for a calendar year, when its last corporate tax exceeded EUR 3,000 (not in its first financial " +
					"year); moved to the next business day.",
				SourceURL: countrykit.Ptr(srcFRInstalments),
			}, d.CorporateTaxInstalments, form), true)
			break
		}
	}
	if d.CorporateTax.Duty.Applies() || d.CorporateTaxInstalments.Duty.Applies() {
		c.out.Notes = append(c.out.Notes, noteFRCorporateTax)
	}
	if d.GeneralMeeting.Duty.Applies() || d.AccountsFiling.Duty.Applies() {
		c.out.Notes = append(c.out.Notes, noteFRCompanyLaw)
	}
}

// frParisArea reports whether a département is Paris or the petite
// couronne (75, 92, 93, 94), which have their own CA3 days.
func frParisArea(dep string) bool { return dep == "75" || dep == "92" || dep == "93" || dep == "94" }

// frOutsideVAT reports whether the département or collectivité is outside
// the French VAT territory or has its own tax code: Guyane (973), Mayotte
// (976), Saint-Pierre-et-Miquelon (975), Saint-Barthélemy (977),
// Saint-Martin (978) and the 98x collectivités.
func frOutsideVAT(dep string) bool {
	switch dep {
	case "973", "975", "976", "977", "978":
		return true
	}
	return strings.HasPrefix(dep, "98")
}

// FrenchVATDay returns the day of the month on which the monthly VAT
// return (CA3) of a taxpayer in column col is due (CGI ann. IV art. 39):
// dep is the département of the place of taxation (the head office),
// siren the SIREN (its first two digits count in the Paris area) and
// initial the first letter of an individual entrepreneur's surname. ok is
// false when the day cannot be told: an unknown département, a SIREN
// without two leading digits, or an individual entrepreneur whose surname
// is not known.
func FrenchVATDay(col FrenchVATColumn, dep, siren string, initial byte) (day int, ok bool) {
	if dep == "" {
		return 0, false
	}
	paris := frParisArea(dep)
	prefix := -1
	if len(siren) >= 2 && siren[0] >= '0' && siren[0] <= '9' && siren[1] >= '0' && siren[1] <= '9' {
		prefix = int(siren[0]-'0')*10 + int(siren[1]-'0')
	}
	switch col {
	case FrenchVATIndividual:
		switch {
		case initial >= 'A' && initial <= 'H' && paris:
			return 15, true
		case initial >= 'A' && initial <= 'H':
			return 16, true
		case initial >= 'I' && initial <= 'Z' && paris:
			return 17, true
		case initial >= 'I' && initial <= 'Z':
			return 19, true
		}
		return 0, false
	case FrenchVATCompany:
		if !paris {
			return 21, true
		}
		switch {
		case prefix < 0:
			return 0, false
		case prefix <= 68:
			return 19, true
		case prefix <= 78:
			return 20, true
		}
		return 21, true
	case FrenchVATSA:
		if !paris {
			return 24, true
		}
		switch {
		case prefix < 0:
			return 0, false
		case prefix <= 74:
			return 23, true
		}
		return 24, true
	}
	return 24, true
}

func (c *frCalc) vat(form string) {
	d := c.d
	applies := d.VAT.Duty.Applies() && form != ""
	if !applies && !d.VATRegistered {
		return
	}
	if frOutsideVAT(d.Departement) {
		c.out.Notes = append(c.out.Notes, "VAT: the head office is in département or collectivité "+d.Departement+", outside the French "+
			"VAT territory or under its own tax code, so no VAT return is computed.")
		return
	}
	col := d.VATColumn
	day, ok := FrenchVATDay(col, d.Departement, c.out.CompanyID, d.SurnameInitial)
	if !ok {
		switch {
		case col == FrenchVATIndividual && d.SurnameInitial == 0:
			c.out.Notes = append(c.out.Notes, "VAT: the monthly return of an individual entrepreneur is due on a day set by the first "+
				"letter of the surname (the 15th or 17th in Paris and its inner suburbs, the 16th or 19th elsewhere), which is not "+
				"published for this entrepreneur, so no VAT return is computed.")
		default:
			c.out.Notes = append(c.out.Notes, "VAT: the département of the head office is not known, so the day of the monthly VAT return "+
				"(the 15th to the 24th by CGI ann. IV art. 39) cannot be told and no VAT return is computed.")
		}
		return
	}
	// Never mandatory: the register does not publish the VAT regime. A
	// form without a VAT duty of its own is computed when the register
	// lists a VAT number.
	k := KindDuty{Duty: DutyConditional}
	because := fmt.Sprintf("The monthly VAT return and payment (CA3, réel normal assumed) for a month are due on the %s of the next "+
		"month for this company (CGI ann. IV art. 39: %s, head office in département %s), moved to the next business day when that is "+
		"not one.", frOrdinal(day), frColumnWords(col), d.Departement)
	if d.VATRegistered {
		because += " The register lists an active VAT number."
	}
	from, has := c.start, c.hasStart
	idx := c.today.Year*12 + int(c.today.Month) - 1 - 2
	if has {
		idx = max(idx, from.Year*12+int(from.Month)-1)
	}
	for ; ; idx++ {
		y, m := floorDiv(idx, 12), time.Month(mod(idx, 12)+1)
		stat := date(y, m+1, day)
		if frRollForward(stat).Before(c.today) {
			continue
		}
		dl := registry.Deadline{
			Kind: kindVATReturn, Name: "VAT return and payment (monthly CA3)",
			LocalName: countrykit.Ptr("déclaration et paiement de la TVA (CA3, formulaire 3310-CA3)"), Authority: authFRDGFiP,
			StatutoryDate: stat, PeriodLabel: countrykit.Ptr(m.String() + " " + strconv.Itoa(y)),
			PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: m, Day: 1}), PeriodEnd: countrykit.Ptr(endOfMonth(y, m)),
			Recurrence: registry.RecurrenceMonthly, AppliesBecause: because, SourceURL: countrykit.Ptr(srcFRVAT),
		}
		c.add(kindDeadline(dl, k, form), true)
		break
	}
	c.out.Notes = append(c.out.Notes, noteFRVAT)
}

// frOrdinal writes 15 as "15th".
func frOrdinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// String names the column as the schedule's heading does, in English.
func (col FrenchVATColumn) String() string {
	switch col {
	case FrenchVATIndividual:
		return "individual entrepreneurs"
	case FrenchVATCompany:
		return "companies other than SA"
	case FrenchVATSA:
		return "sociétés anonymes"
	}
	return "other taxpayers"
}

// frColumnWords names a column of the CA3 schedule.
func frColumnWords(col FrenchVATColumn) string {
	switch col {
	case FrenchVATIndividual:
		return "individual entrepreneurs, by the first letter of the surname"
	case FrenchVATCompany:
		return "companies other than sociétés anonymes"
	case FrenchVATSA:
		return "sociétés anonymes"
	}
	return "other taxpayers"
}

func (c *frCalc) cfe(form string) {
	stat := func(y int) registry.Date { return registry.Date{Year: y, Month: time.December, Day: 15} }
	y := c.frNextYear(c.frFirstYear(1), stat, true)
	c.add(kindDeadline(registry.Deadline{
		Kind: FrenchCFE, Name: "Business property tax balance (CFE)",
		LocalName: countrykit.Ptr("cotisation foncière des entreprises (CFE), solde"), Authority: authFRDGFiP,
		StatutoryDate: stat(y), PeriodLabel: countrykit.Ptr(strconv.Itoa(y)),
		PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: time.January, Day: 1}),
		PeriodEnd:   countrykit.Ptr(registry.Date{Year: y, Month: time.December, Day: 31}),
		Recurrence:  registry.RecurrenceAnnual,
		AppliesBecause: "A " + form + " with a business activity on 1 January pays the CFE balance by 15 December, moved to the next " +
			"business day (a direct tax); not for the year of creation.",
		SourceURL: countrykit.Ptr(srcFRCFE),
	}, c.d.CFE, form), true)
	c.out.Notes = append(c.out.Notes, noteFRCFE)
}

func (c *frCalc) dsn() {
	d := c.d
	switch d.Employer {
	case DutyNo:
		return
	case DutyUnknown:
		c.out.Notes = append(c.out.Notes, "DSN: the register does not say whether the company employs staff, so the monthly social "+
			"return (DSN, the 5th or 15th of each month) is not computed.")
		return
	}
	// The day follows the headcount band: 00 to 12 the 15th, 21 and above
	// the 5th. Without a band the day is unknown (research fr-deadlines.md
	// §4: "null → unknown"), so the DSN is not computed and a note gives
	// both days, as the VAT day of an individual entrepreneur whose surname
	// is not published.
	band := d.HeadcountBand
	if band == "" || band == "NN" {
		which := "publishes no headcount band"
		if band == "NN" {
			which = "gives the headcount band NN (no salaried staff in the reference year)"
		}
		c.out.Notes = append(c.out.Notes, "DSN: the register shows an employer but "+which+", so the day of the "+
			"monthly social return (DSN) cannot be told: the 5th of the next month for an employer of 50 or more paying in the month "+
			"worked, the 15th otherwise (Code de la sécurité sociale art. R133-14 and R243-6), moved to the next business day. It is "+
			"not computed; with 50 employees or more, count on the 5th.")
		return
	}
	day, size := 15, "fewer than 50 employees"
	if band >= "21" {
		day, size = 5, "50 employees or more"
	}
	because := fmt.Sprintf("The register shows an employer (%s: %s): the monthly social return (DSN) and contributions for a month "+
		"are due on the %s of the next month (Code de la sécurité sociale art. R133-14 and R243-6: the 5th for an employer of 50 "+
		"or more paying in the month worked, the 15th otherwise), moved to the next business day when that is not one.",
		"headcount band "+band, size, frOrdinal(day))
	idx := c.today.Year*12 + int(c.today.Month) - 1 - 2
	if c.hasStart {
		idx = max(idx, c.start.Year*12+int(c.start.Month)-1)
	}
	for ; ; idx++ {
		y, m := floorDiv(idx, 12), time.Month(mod(idx, 12)+1)
		stat := date(y, m+1, day)
		if frRollForward(stat).Before(c.today) {
			continue
		}
		c.add(registry.Deadline{
			Kind: FrenchDSN, Name: "Monthly social return and contributions (DSN)",
			LocalName: countrykit.Ptr("déclaration sociale nominative (DSN)"), Authority: authFRURSSAF,
			StatutoryDate: stat, PeriodLabel: countrykit.Ptr("Wages of " + m.String() + " " + strconv.Itoa(y)),
			PeriodStart: countrykit.Ptr(registry.Date{Year: y, Month: m, Day: 1}), PeriodEnd: countrykit.Ptr(endOfMonth(y, m)),
			Recurrence: registry.RecurrenceMonthly, Mandatory: d.Employer == DutyYes, AppliesBecause: because,
			SourceURL: countrykit.Ptr(srcFRDSN),
		}, true)
		break
	}
	if day == 5 {
		c.out.Notes = append(c.out.Notes, "DSN: an employer of 50 or more that pays its staff in the month after the month worked files on "+
			"the 15th instead of the 5th; the register does not show the pay month, so the 5th is assumed.")
	}
}

// placeNotes flags the head offices whose local holidays the engine does
// not model.
func (c *frCalc) placeNotes() {
	switch dep := c.d.Departement; {
	case dep == "57" || dep == "67" || dep == "68":
		c.out.Notes = append(c.out.Notes, "The head office is in Alsace-Moselle (département "+dep+"), where Good Friday and 26 December "+
			"are also holidays (Code du travail L3134-13). National tax deadlines do not move for them; the local greffe (kept by the "+
			"tribunal judiciaire) may be closed on those days.")
	case len(dep) == 3 && dep >= "971" && dep <= "978":
		c.out.Notes = append(c.out.Notes, "The head office is overseas (département or collectivité "+dep+"), where local holidays "+
			"(the abolition of slavery, Code du travail L3422-2) are not modelled; check local dates with the administration.")
	}
}

// FranceRules returns a Markdown section describing the French deadline
// rules and their legal sources, for a country module's rules document. It
// starts with a level-two heading and ends with a newline.
func FranceRules() string {
	var b strings.Builder
	b.WriteString(`## Deadlines (France)

The deadlines operation returns the next occurrence, on or after ` + "`today`" + `, of each filing obligation,
sorted by ` + "`due_date`" + ` and then ` + "`kind`" + `. The public register does not publish the year-end, the VAT regime or
whether a company is taxed at corporate income tax: a calendar year, the monthly CA3 and the legal form's default
tax are assumed, and ` + "`notes`" + ` say so. A deadline that rests on such an assumption has ` + "`mandatory`" + ` false. The
dates are this service's computation, not the administration's.

| kind | local name | statutory date (calendar year) | moves? | who | source |
|---|---|---|---|---|---|
| ` + "`general_meeting`" + ` | approbation des comptes annuels | within six months of the year-end: 30 June (C. com. L223-26, L225-100, L227-9; CPC art. 641 for the months) | **no** | by legal form | ` + srcFRMeeting + ` |
| ` + "`accounts_filing`" + ` | dépôt des comptes au greffe (papier) | one month after the approval: 31 July (the greffes' end-of-month reading) | **no** | by legal form | ` + srcFRAccounts + `, ` + srcFRAccountsEOM + ` |
| ` + "`accounts_filing_electronic`" + ` | dépôt des comptes au greffe (voie électronique) | two months after the approval: 31 August | **no** | by legal form | ` + srcFRAccounts + ` |
| ` + "`tax_return`" + ` | déclaration de résultats (2065) | the second working day after 1 May (CGI ann. III art. 344 I-0 bis); online 15 calendar days more (BOI-BIC-DECLA-30-10-10-20 § 60), given in ` + "`applies_because`" + ` | a business day by construction | by legal form (corporate income tax) | ` + srcFRTaxReturn + `, ` + srcFRTaxOnline + ` |
| ` + "`corporate_tax_balance`" + ` | relevé de solde (2572) | 15 May | yes | as the return | ` + srcFRTaxBalance + ` |
| ` + "`corporate_tax_instalment`" + ` (quarterly) | relevé d'acompte (2571) | 15 March, June, September, December; not in the first year; only when the last IS exceeded EUR 3,000 | yes | by legal form | ` + srcFRInstalments + ` |
| ` + "`vat_return`" + ` (monthly) | déclaration de TVA CA3 (3310-CA3) | the day of the next month the schedule below gives | yes | by legal form; always ` + "`mandatory`" + ` false | ` + srcFRVAT + `, ` + srcFRVATRoll + ` |
| ` + "`cfe`" + ` | cotisation foncière des entreprises, solde | 15 December; not for the year of creation | yes | by legal form | ` + srcFRCFE + ` |
| ` + "`dsn`" + ` (monthly) | déclaration sociale nominative | the 5th of the next month (50 employees or more) or the 15th; not computed, with a note giving both days, when the register publishes no headcount band (or NN) | yes | employers (caractère employeur, headcount band) | ` + srcFRDSN + ` |

### The day of the monthly VAT return (CGI annexe IV art. 39)

| place of taxation (head office) | individual entrepreneurs (surname) | companies other than SA (SIREN) | sociétés anonymes (SIREN) | other taxpayers |
|---|---|---|---|---|
| Paris (75), Hauts-de-Seine (92), Seine-Saint-Denis (93), Val-de-Marne (94) | A–H: 15; I–Z: 17 | 00–68: 19; 69–78: 20; 79–99: 21 | 00–74: 23; 75–99: 24 | 24 |
| every other département | A–H: 16; I–Z: 19 | 21 | 24 | 24 |

The CGI now refers these dates to the Code des impositions sur les biens et services (section 5 of chapter I, title VI,
book I, regulatory part); that the table is unchanged there, and from when, is not verified: the dates published for
2025 are. No VAT return is computed for a head office in 973, 975, 976, 977, 978 or 98x (outside the French VAT
territory or under its own tax code), nor for an individual entrepreneur whose surname is not published.

### Non-business days and what moves

A tax or social deadline that falls on a Saturday, a Sunday or a fête légale of Code du travail art. L3133-1
(` + srcFRHolidays + `) moves to "le premier jour suivant qui n'est ni un samedi, ni un dimanche, ni le jour d'une fête
légale" (CIBS art. D171-5, ` + srcFRRollCIBS + `; for direct taxes CGI annexe III, ` + srcFRRollDirect + `; for the DSN,
URSSAF). The fêtes légales are:

`)
	for _, h := range frenchHolidays {
		fmt.Fprintf(&b, "- %s (%s): %s\n", h.name, h.en, h.describe())
	}
	b.WriteString(`
Whit Monday counts even where it is worked as the journée de solidarité. Alsace-Moselle's Good Friday and 26 December
and the overseas holidays are not national: a note flags a head office there. The approval and the filing of the
accounts are company-law time limits that no rule moves (Code de procédure civile art. 642 covers procedural time
limits only): they are not moved, and a note says when one falls on a non-business day. Months are counted by CPC
art. 641 (` + srcFRMonthsCPC641 + `). Whether the online date of the corporate tax return moves when it falls on a
Saturday (as on 18 May 2030) is not settled: a note says so.

### Next occurrence and no deadlines

- A period that ended before the company was created (` + "`founded_at`" + `) is skipped; the CFE of the year of creation and
  the instalments of the first financial year are not due; a company created less than a year ago gets a note that its
  first year-end is not known.
- Ceased companies (état administratif C) get no deadlines. Insolvency proceedings are not in the public data, so a
  company under them is computed as active, with a note. Public bodies (INSEE categories 4 and 7) get none.

Not computed: income tax returns of individual entrepreneurs, partnerships and SCIs (forms 2031, 2035, 2072),
micro-entrepreneur declarations, CVAE, the CFE instalment, DAS2 and DECLOYER, the beneficial-owner declaration, the
final return after cessation, EU sales lists, the withholding-tax remittance, the equal-pay index.
`)
	return b.String()
}
