package no

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/upstream"
)

// legalForm describes one organisation form (organisasjonsform) of
// Enhetsregisteret. It is the one place a form's facts live: the report's
// liability, board and accounts flags and the deadline engine's duty profile
// ([deadlines.NorwegianDuties]) are both read from it, and so is the rules
// document.
//
// LimitedLiability and BoardDuty are nil where the answer depends on facts
// the register does not publish or where we found no reliable source; nil is
// "unknown", never "no". The four duties say which form-dependent deadline
// kinds apply; their Because sentences may write {form} for the form's label
// and {A form} for it with its article.
type legalForm struct {
	Code    string
	English string
	Local   string // the register's own label, used when a response lacks one
	// Label names the form in sentences; empty means the lower-cased
	// English label followed by the code, e.g. "private limited company (AS)".
	Label string
	// LimitedLiability is true when no owner is personally liable for the
	// entity's debts.
	LimitedLiability tri
	// BoardDuty is true when the law requires a board (styre).
	BoardDuty tri
	// Accounts is the duty to send annual accounts to Regnskapsregisteret
	// (regnskapsloven §§ 1-2 and 8-3); it also fills the report's
	// has_annual_accounts_duty: yes is true, no is false, conditional and
	// unknown are null.
	Accounts deadlines.KindDuty
	// AccountsIfRegistered, when not empty, is the Because of an accounts
	// duty that becomes mandatory when the unit is registered in
	// Foretaksregisteret (a NUF). That duty presumes tax liability in
	// Norway, so a conditional Tax then becomes mandatory as well.
	AccountsIfRegistered string
	// Tax, Shareholder and Meeting are the duties of the tax return, the
	// shareholder register statement and the ordinary general (or annual)
	// meeting.
	Tax, Shareholder, Meeting deadlines.KindDuty
	// Basis says where the liability, board and accounts answers come
	// from, for the rules document.
	Basis string
}

// tri is a yes/no answer that may be unknown. The zero value is unknown.
type tri = upstream.Tri

const (
	unknown = upstream.Unknown
	yes     = upstream.Yes
	no      = upstream.No
)

// Sources of the meeting duties, which differ by form.
const (
	srcMeetingAS  = "https://lovdata.no/dokument/NL/lov/1997-06-13-44/KAPITTEL_5"
	srcMeetingASA = "https://lovdata.no/dokument/NL/lov/1997-06-13-45/KAPITTEL_5"
	srcMeetingSA  = "https://lovdata.no/dokument/NL/lov/2007-06-29-81"
)

// The sentences the table shares.
const (
	becauseTaxOwn = "{A form} files its own tax return by 31 May of the following year (skatteforvaltningsforskriften § 8-2-3)."
	becauseTaxIf  = "{A form} files a tax return by 31 May of the following year only if it is liable to tax in Norway, which the register does not show (skatteforvaltningsforskriften § 8-2-3)."
	// becauseTaxPresumed is the tax return of a form whose accounts duty,
	// made mandatory by Foretaksregisteret (AccountsIfRegistered), presumes
	// tax liability in Norway (regnskapsloven § 1-2 first paragraph no. 13:
	// a foreign enterprise that carries on business in Norway and is liable
	// to tax there; research/no-deadlines.md §1.5, brreg.md §7).
	becauseTaxPresumed = "{A form} in Foretaksregisteret files a tax return by 31 May of the following year (skatteforvaltningsforskriften § 8-2-3), " +
		"because the tax liability in Norway is what its accounts duty presumes (regnskapsloven § 1-2: a foreign enterprise with business in Norway that is liable to tax there)."
	becauseTaxPartnership = "{A form} files a partnership return (selskapsmelding, skatteforvaltningsloven § 8-9) by 31 May of the following year; each partner also files their own return."
	becauseShareholder    = "{A form} files the shareholder register statement by 31 January of the following year " +
		"(skatteforvaltningsforskriften §§ 7-7-1 to 7-7-3, the regulation to skatteforvaltningsloven § 7-7)."
	becauseAccountsAlways = "{A form} always has a duty to keep accounts (regnskapsloven § 1-2) and must send them to Regnskapsregisteret " +
		"one month after approval and before 1 August (§§ 8-2 and 8-3); the date assumes approval by 30 June."
	accountsAbove20 = "only if its assets exceed NOK 20 million or it has more than 20 full-time equivalents"
	accountsPartner = "unless it has sales under NOK 5 million, fewer than 5 full-time equivalents, at most 5 partners and no limited-liability partner"
	accountsSales2  = "only if its sales income exceeds NOK 2 million"
)

// accountsIf is an accounts duty that applies only under cond, a condition
// the register does not show.
func accountsIf(cond string) deadlines.KindDuty {
	return deadlines.KindDuty{Duty: deadlines.DutyConditional,
		Because: "{A form} must send annual accounts to Regnskapsregisteret before 1 August (regnskapsloven § 8-3) " + cond + " (§ 1-2), which the register does not show."}
}

// meeting is a mandatory ordinary general meeting whose six-month limit
// follows from law (a citation) at src.
func meeting(law, src string) deadlines.KindDuty {
	return deadlines.KindDuty{Duty: deadlines.DutyYes, SourceURL: src,
		Because: "{A form} must hold its ordinary general meeting within six months of the financial year's end (" + law + "); the date is fixed and does not move for weekends."}
}

// legalForms returns the table of the 44 organisation form codes that
// GET /organisasjonsformer publishes, sorted by code. It returns a fresh
// slice on each call.
func legalForms() []legalForm {
	var (
		noDuty         = deadlines.KindDuty{Duty: deadlines.DutyNo}
		taxOwn         = deadlines.KindDuty{Duty: deadlines.DutyYes, Because: becauseTaxOwn}
		taxIfLiable    = deadlines.KindDuty{Duty: deadlines.DutyConditional, Because: becauseTaxIf}
		taxPartnership = deadlines.KindDuty{Duty: deadlines.DutyYes, Because: becauseTaxPartnership, LocalName: "selskapsmelding"}
		shareholder    = deadlines.KindDuty{Duty: deadlines.DutyYes, Because: becauseShareholder}
		accountsAlways = deadlines.KindDuty{Duty: deadlines.DutyYes, Because: becauseAccountsAlways}
		// accountsPublic is the accounts duty of a public body: its
		// accounts follow public-law rules and are not sent to
		// Regnskapsregisteret.
		accountsPublic = noDuty
		// subunit is the answer for sub-units: the main unit has the duties.
		subunit = noDuty
	)
	shareholderASA := shareholder
	shareholderASA.Because = "{A form} files the shareholder register statement by 31 January of the following year " +
		"(skatteforvaltningsforskriften §§ 7-7-1 to 7-7-3, the regulation to skatteforvaltningsloven § 7-7), except for shares the VPS reports for it, which the register does not show."
	return []legalForm{
		{Code: "AAFY", English: "Sub-unit of a non-business entity", Local: "Underenhet til ikke-næringsdrivende",
			BoardDuty: no, Accounts: subunit, Tax: subunit, Shareholder: subunit, Meeting: subunit,
			Basis: "A sub-unit is not a legal person; its main unit has the duties."},
		{Code: "ADOS", English: "Administrative unit of the public sector", Local: "Administrativ enhet - offentlig sektor",
			Basis: "Public sector: governed by public-law rules, not by the Accounting Act."},
		{Code: "ANNA", English: "Other legal person", Local: "Annen juridisk person",
			Basis: "A residual form: the duties depend on the entity's own statute."},
		{Code: "ANS", English: "General partnership (joint and several liability)", Local: "Ansvarlig selskap med solidarisk ansvar",
			Label:            "general partnership with joint and several liability (ANS)",
			LimitedLiability: no, BoardDuty: no, Accounts: accountsIf(accountsPartner), Tax: taxPartnership, Shareholder: noDuty, Meeting: noDuty,
			Basis: "Partners are jointly and severally liable (Altinn). Accounts duty (regnskapsloven § 1-2) unless the small-partnership exemption applies, which depends on figures the register does not publish. No statutory meeting deadline."},
		{Code: "AS", English: "Private limited company", Local: "Aksjeselskap",
			LimitedLiability: yes, BoardDuty: yes, Accounts: accountsAlways, Tax: taxOwn, Shareholder: shareholder,
			Meeting: meeting("aksjeloven § 5-5", srcMeetingAS),
			Basis:   "Aksjeloven § 6-1 (board); regnskapsloven § 1-2 (accounts); liability limited to the share capital (Altinn)."},
		{Code: "ASA", English: "Public limited company", Local: "Allmennaksjeselskap",
			LimitedLiability: yes, BoardDuty: yes, Accounts: accountsAlways, Tax: taxOwn, Shareholder: shareholderASA,
			Meeting: meeting("allmennaksjeloven § 5-6", srcMeetingASA),
			Basis:   "Allmennaksjeloven § 6-1 (board of at least three); regnskapsloven § 1-2 (accounts)."},
		{Code: "BA", English: "Company with limited liability", Local: "Selskap med begrenset ansvar",
			LimitedLiability: yes, BoardDuty: yes, Accounts: accountsIf(accountsSales2), Tax: taxIfLiable, Shareholder: noDuty,
			Basis: "A cooperative-style association no longer issued as a form; liability is limited by definition; board as classified by a third party (registry-mcp NORBIZ_SPEC §7). " +
				"Brønnøysund's list of who must file accounts gives it the duty only above the size thresholds of regnskapsloven § 1-2 (economic associations: sales income over NOK 2 million), which the register does not publish; its meeting follows its statutes."},
		{Code: "BBL", English: "Housing cooperative association", Local: "Boligbyggelag", Label: "housing building cooperative (BBL)",
			LimitedLiability: yes, BoardDuty: yes, Accounts: accountsAlways, Shareholder: noDuty,
			Basis: "Bustadbyggjelagslova (members are not liable; board required); regnskapsloven § 1-2 (accounts)."},
		{Code: "BEDR", English: "Sub-unit of a business or public entity", Local: "Underenhet til næringsdrivende og offentlig forvaltning",
			BoardDuty: no, Accounts: subunit, Tax: subunit, Shareholder: subunit, Meeting: subunit,
			Basis: "A sub-unit is not a legal person; its main unit has the duties."},
		{Code: "BO", English: "Other estate", Local: "Andre bo",
			Basis: "An estate under administration; duties follow from the administration, not the legal form."},
		{Code: "BRL", English: "Housing cooperative", Local: "Borettslag",
			LimitedLiability: yes, BoardDuty: yes, Accounts: accountsAlways, Shareholder: noDuty,
			Basis: "Borettslagslova (members are not liable; board required); regnskapsloven § 1-2 (accounts)."},
		{Code: "DA", English: "General partnership (shared liability)", Local: "Ansvarlig selskap med delt ansvar",
			Label:            "general partnership with shared liability (DA)",
			LimitedLiability: no, BoardDuty: no, Accounts: accountsIf(accountsPartner), Tax: taxPartnership, Shareholder: noDuty, Meeting: noDuty,
			Basis: "Partners are liable for their agreed share of all debts (Altinn). Accounts duty unless the small-partnership exemption applies. No statutory meeting deadline."},
		{Code: "ENK", English: "Sole proprietorship", Local: "Enkeltpersonforetak",
			LimitedLiability: no, BoardDuty: no, Accounts: accountsIf(accountsAbove20), Shareholder: noDuty, Meeting: noDuty,
			Tax:   deadlines.KindDuty{Duty: deadlines.DutyYes, Because: "For a sole proprietorship (ENK) the owner's personal tax return with the business specification is due 31 May of the following year, not 30 April (skatteforvaltningsforskriften § 8-2-3)."},
			Basis: "The owner is liable for all debts (Altinn). Accounts duty only above 20 MNOK in assets or 20 full-time staff (regnskapsloven § 1-2), which the register does not publish."},
		{Code: "EOFG", English: "European economic interest grouping", Local: "Europeisk økonomisk foretaksgruppe",
			Basis: "No source checked for Norwegian duties."},
		{Code: "ESEK", English: "Owner-section condominium", Local: "Eierseksjonssameie",
			Basis: "Duties depend on the size of the condominium (eierseksjonsloven), which the register does not publish."},
		{Code: "FKF", English: "County municipal enterprise", Local: "Fylkeskommunalt foretak",
			BoardDuty: yes, Accounts: accountsPublic, Shareholder: noDuty,
			Basis: "Part of the county authority; must have a board (kommuneloven chapter 9). Its accounts follow the Local Government Act (kommuneloven chapter 14), not the Accounting Act, and are not sent to Regnskapsregisteret."},
		{Code: "FLI", English: "Association, club or institution", Local: "Forening/lag/innretning", Label: "association (FLI)",
			Accounts: accountsIf(accountsAbove20), Tax: taxIfLiable, Shareholder: noDuty, Meeting: noDuty,
			Basis: "Accounts duty only above 20 MNOK in assets or 20 full-time staff (regnskapsloven § 1-2); board, liability and meetings depend on the statutes."},
		{Code: "FYLK", English: "County authority", Local: "Fylkeskommune",
			Basis: "Public sector: governed by the Local Government Act, not by the Accounting Act."},
		{Code: "GFS", English: "Mutual insurance company", Local: "Gjensidig forsikringsselskap",
			BoardDuty: yes, Accounts: accountsAlways, Shareholder: noDuty,
			Basis: "A financial institution under supervision (regnskapsloven § 1-2; finansforetaksloven)."},
		{Code: "IKJP", English: "Other non-legal person", Local: "Andre ikke-juridiske personer",
			Basis: "A residual form: no duties follow from the legal form."},
		{Code: "IKS", English: "Inter-municipal company", Local: "Interkommunalt selskap",
			LimitedLiability: no, BoardDuty: yes, Accounts: accountsPublic, Shareholder: noDuty,
			Basis: "The participants are liable without limit for their share of the debts (IKS-loven § 3); board required (IKS-loven). Excluded from regnskapsloven § 1-2; its accounts follow the IKS Act and are not sent to Regnskapsregisteret."},
		{Code: "KBO", English: "Bankruptcy estate", Local: "Konkursbo",
			Basis: "An estate under administration; duties follow from the bankruptcy proceedings."},
		{Code: "KF", English: "Municipal enterprise", Local: "Kommunalt foretak",
			LimitedLiability: no, BoardDuty: yes, Accounts: accountsPublic, Shareholder: noDuty,
			Basis: "Part of the municipality, which is liable for its debts; must have a board (kommuneloven chapter 9). Its accounts follow the Local Government Act (kommuneloven chapter 14), not the Accounting Act, and are not sent to Regnskapsregisteret."},
		{Code: "KIRK", English: "Church of Norway", Local: "Den norske kirke",
			Basis: "Governed by the Church Act, not by the Accounting Act."},
		{Code: "KOMM", English: "Municipality", Local: "Kommune",
			Basis: "Public sector: governed by the Local Government Act, not by the Accounting Act."},
		{Code: "KS", English: "Limited partnership", Local: "Kommandittselskap",
			LimitedLiability: no, BoardDuty: no, Accounts: accountsIf(accountsPartner), Tax: taxPartnership, Shareholder: noDuty,
			Basis: "The general partner is personally liable (selskapsloven). Accounts duty unless the small-partnership exemption applies. Its partners' meeting is due within four months (selskapsloven § 3-14), which is not modelled."},
		{Code: "KTRF", English: "Office community", Local: "Kontorfellesskap",
			Basis: "A residual form: no duties follow from the legal form."},
		{Code: "NUF", English: "Norwegian-registered foreign enterprise", Local: "Norskregistrert utenlandsk foretak",
			Label: "Norwegian-registered foreign company (NUF)", BoardDuty: no,
			Accounts: accountsIf("only if it carries on business in Norway and is liable to tax there"),
			AccountsIfRegistered: "A Norwegian-registered foreign company (NUF) in Foretaksregisteret must send annual accounts to Regnskapsregisteret before 1 August " +
				"(regnskapsloven §§ 1-2 and 8-3): the accounts of its Norwegian business and the accounts of the foreign company it belongs to.",
			Tax: taxIfLiable, Shareholder: noDuty, Meeting: noDuty,
			Basis: "A branch of a foreign company: liability follows the foreign company; accounts duty if taxable in Norway (regnskapsloven § 1-2), expected when the NUF is in Foretaksregisteret (Brønnøysund's list of who must file accounts); it also files the foreign company's accounts."},
		{Code: "OPMV", English: "Separately divided unit for VAT purposes", Local: "Særskilt oppdelt enhet, jf. mval. § 2-2",
			Basis: "Exists for VAT registration only (merverdiavgiftsloven § 2-2)."},
		{Code: "ORGL", English: "Organisational unit of the public sector", Local: "Organisasjonsledd",
			Basis: "Public sector: governed by state rules, not by the Accounting Act."},
		{Code: "PERS", English: "Other individual registered in an associated register", Local: "Andre enkeltpersoner som registreres i tilknyttet register",
			Basis: "A person, not a company: no company duties."},
		{Code: "PK", English: "Pension fund", Local: "Pensjonskasse",
			BoardDuty: yes, Accounts: accountsAlways, Shareholder: noDuty,
			Basis: "A financial institution under supervision (regnskapsloven § 1-2; finansforetaksloven)."},
		{Code: "PRE", English: "Shipowning partnership", Local: "Partrederi",
			Basis: "Governed by the Maritime Code; no source checked for its duties."},
		{Code: "SA", English: "Cooperative", Local: "Samvirkeforetak",
			LimitedLiability: yes, BoardDuty: yes, Accounts: accountsIf(accountsSales2), Tax: taxOwn, Shareholder: noDuty,
			Meeting: deadlines.KindDuty{Duty: deadlines.DutyYes, Name: "Ordinary annual meeting", LocalName: "ordinært årsmøte", SourceURL: srcMeetingSA,
				Because: "A cooperative (SA) holds its ordinary annual meeting (årsmøte) by 30 June (samvirkelova § 41 (1)); the date is fixed and does not move for weekends."},
			Basis: "Members' liability is limited to their contribution (Altinn); board required (samvirkelova). Accounts duty above 2 MNOK in sales (regnskapsloven § 1-2), which the register does not publish."},
		{Code: "SAM", English: "Co-ownership", Local: "Tingsrettslig sameie",
			Basis: "Governed by the Co-ownership Act; no duties follow from the legal form alone."},
		{Code: "SE", English: "European company (Societas Europaea)", Local: "Europeisk selskap", Label: "European company (SE)",
			LimitedLiability: yes, BoardDuty: yes, Accounts: accountsAlways, Tax: taxOwn, Shareholder: shareholderASA,
			Meeting: meeting("Council Regulation (EC) 2157/2001 article 54 and allmennaksjeloven § 5-6", srcMeetingASA),
			Basis:   "Shareholders are liable only up to their subscribed capital (Regulation (EC) 2157/2001 art. 1). An SE registered in Norway follows the rules for a public limited company (ASA): board, accounts (regnskapsloven § 1-2), general meeting, tax return and shareholder register statement."},
		{Code: "SF", English: "State enterprise", Local: "Statsforetak",
			Accounts: accountsAlways, Shareholder: noDuty, Basis: "Regnskapsloven § 1-2 (accounts)."},
		{Code: "SPA", English: "Savings bank", Local: "Sparebank",
			BoardDuty: yes, Accounts: accountsAlways,
			Basis: "A financial institution under supervision (regnskapsloven § 1-2; finansforetaksloven). A savings bank with equity certificates files the shareholder register statement, which the register does not show."},
		{Code: "STAT", English: "The State", Local: "Staten",
			Basis: "Public sector: governed by state rules, not by the Accounting Act."},
		{Code: "STI", English: "Foundation", Local: "Stiftelse",
			BoardDuty: yes, Accounts: accountsAlways, Shareholder: noDuty, Meeting: noDuty,
			Tax: deadlines.KindDuty{Duty: deadlines.DutyConditional,
				Because: "A foundation (STI) files a tax return by 31 May of the following year only if it is liable to tax; many non-profit foundations are exempt, which the register does not show."},
			Basis: "Stiftelsesloven (board); regnskapsloven § 1-2 (accounts). A foundation has no owners and no owners' meeting."},
		{Code: "SÆR", English: "Other enterprise under a special act", Local: "Annet foretak iflg. særskilt lov",
			Basis: "Duties follow from the special act that governs the entity."},
		{Code: "TVAM", English: "Compulsorily registered for VAT", Local: "Tvangsregistrert for MVA",
			Basis: "Exists for VAT registration only."},
		{Code: "UTLA", English: "Foreign entity", Local: "Utenlandsk enhet",
			Basis: "Governed by foreign law."},
		{Code: "VPFO", English: "Securities fund", Local: "Verdipapirfond",
			Accounts: accountsAlways, Shareholder: noDuty, Basis: "Regnskapsloven § 1-2 (accounts)."},
	}
}

// lookupForm returns the table row for code, or false for a code outside
// the table (such as a retired form).
func lookupForm(code string) (legalForm, bool) {
	f, ok := formsByCode[code]
	return f.legalForm, ok
}

// formsByCode indexes legalForms by code, each row with its two resolved
// duty profiles (outside and inside Foretaksregisteret), so that a deadlines
// call does not rebuild them. It is built once and never written afterwards.
var formsByCode = func() map[string]indexedForm {
	m := make(map[string]indexedForm)
	for _, f := range legalForms() {
		m[f.Code] = indexedForm{legalForm: f, profiles: [2]deadlines.NorwegianDuties{f.resolve(false), f.resolve(true)}}
	}
	return m
}()

// indexedForm is a row of the table with its resolved duty profiles.
type indexedForm struct {
	legalForm
	profiles [2]deadlines.NorwegianDuties // [0] outside, [1] inside Foretaksregisteret
}

// label returns how sentences name the form.
func (f legalForm) label() string {
	if f.Label != "" {
		return f.Label
	}
	if f.English == "" {
		return f.Code
	}
	return strings.ToLower(f.English[:1]) + f.English[1:] + " (" + f.Code + ")"
}

// withArticle returns label with "A " or "An " before it.
func withArticle(label string) string {
	if label != "" && strings.ContainsRune("aeiouAEIOU", rune(label[0])) && !strings.HasPrefix(strings.ToLower(label), "euro") {
		return "An " + label
	}
	return "A " + label
}

// fill resolves {form} and {A form} in k's Because.
func (f legalForm) fill(k deadlines.KindDuty) deadlines.KindDuty {
	l := f.label()
	k.Because = strings.ReplaceAll(strings.ReplaceAll(k.Because, "{A form}", withArticle(l)), "{form}", l)
	return k
}

// duties returns the form's duty profile for a unit: inForetak says whether
// the unit is registered in Foretaksregisteret, which makes the accounts
// duty of a form with AccountsIfRegistered mandatory.
func (f legalForm) duties(inForetak *bool) deadlines.NorwegianDuties {
	registered := inForetak != nil && *inForetak
	if ix, ok := formsByCode[f.Code]; ok {
		if registered {
			return ix.profiles[1]
		}
		return ix.profiles[0]
	}
	return f.resolve(registered)
}

// resolve builds the form's duty profile, with {form} filled in; registered
// says whether the unit is in Foretaksregisteret.
func (f legalForm) resolve(registered bool) deadlines.NorwegianDuties {
	accounts, tax := f.Accounts, f.Tax
	if f.AccountsIfRegistered != "" && registered {
		accounts = deadlines.KindDuty{Duty: deadlines.DutyYes, Because: f.AccountsIfRegistered}
		// The accounts duty presumes tax liability in Norway, so the tax
		// return cannot stay "only if liable to tax".
		if tax.Duty == deadlines.DutyConditional {
			tax = deadlines.KindDuty{Duty: deadlines.DutyYes, Because: becauseTaxPresumed, LocalName: tax.LocalName, Name: tax.Name, SourceURL: tax.SourceURL}
		}
	}
	return deadlines.NorwegianDuties{
		Code: f.Code, Label: f.label(),
		TaxReturn: f.fill(tax), ShareholderRegisterStatement: f.fill(f.Shareholder),
		GeneralMeeting: f.fill(f.Meeting), AnnualAccounts: f.fill(accounts),
	}
}

// accountsFlag is the report's has_annual_accounts_duty for an accounts
// duty: true when mandatory, false when it does not apply, nil when it
// depends on facts the register does not show or is not modelled.
func accountsFlag(d deadlines.Duty) *bool {
	switch d {
	case deadlines.DutyYes:
		return upstream.Yes.Ptr()
	case deadlines.DutyNo:
		return upstream.No.Ptr()
	}
	return nil
}

// dutiesOf returns the duty profile of the report's legal form, read from
// the same row that filled the report's flags. A form outside the table
// gives the zero profile, for which the engine computes no deadlines.
func dutiesOf(rep *registry.CompanyReport) deadlines.NorwegianDuties {
	if rep == nil || rep.LegalFormCode == nil {
		return deadlines.NorwegianDuties{}
	}
	f, ok := lookupForm(strings.ToUpper(strings.TrimSpace(*rep.LegalFormCode)))
	if !ok {
		return deadlines.NorwegianDuties{Code: *rep.LegalFormCode}
	}
	return f.duties(rep.InBusinessRegister)
}
