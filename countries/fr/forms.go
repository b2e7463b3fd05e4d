package fr

import (
	"slices"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/upstream"
)

// legalForm describes one INSEE legal category (catégorie juridique,
// niveau III, the API's nature_juridique): its labels, the three duties of
// the report and the deadlines that follow from the form. The table built
// from formFamilies and the API's label table is the only owner of these
// facts; the report's duty flags and the deadline engine both read it. An
// unknown duty means the answer depends on facts the register does not
// publish or that no reliable source was found; it never means "no".
type legalForm struct {
	// Code is the four-digit INSEE code, such as "5710".
	Code string
	// French is INSEE's label of the code, from the API's own table.
	French string
	// English is the English name of the code's family.
	English string
	// Abbr is the usual abbreviation of the family, such as "SAS".
	Abbr string
	// LimitedLiability is true when no owner is personally liable for the
	// company's debts.
	LimitedLiability upstream.Tri
	// BoardDuty is true when the law requires a collective board (conseil
	// d'administration, directoire or conseil de surveillance).
	BoardDuty upstream.Tri
	// AccountsDuty is true when the company files its annual accounts at
	// the greffe whatever its size.
	AccountsDuty upstream.Tri
	// VATColumn is the column of the CA3 schedule (CGI ann. IV art. 39)
	// that gives the day of the monthly VAT return. It is a property of the
	// form even where the form's own duties are not modelled: a company the
	// register lists with a VAT number gets its CA3 on that column's day.
	VATColumn deadlines.FrenchVATColumn
	// Deadlines are the form-dependent duties of deadlines.France; nil
	// when they are not modelled for the form.
	Deadlines *formDeadlines
	// Public is true for the State, local authorities and public bodies:
	// no deadline is computed for them.
	Public bool
	// Basis says where the answers come from, for the rules document.
	Basis string
}

// formDeadlines are the form-dependent French deadline duties of a form. A
// duty left at its zero value is deadlines.DutyUnknown: not modelled, so no
// deadline of the kind is computed.
type formDeadlines struct {
	Label                                                                           string // e.g. "simplified joint-stock company (SAS)"
	GeneralMeeting, AccountsFiling, CorporateTax, CorporateTaxInstalments, VAT, CFE deadlines.KindDuty
}

// formFamily is a range of INSEE codes that share their English name,
// duties, CA3 column and deadlines.
type formFamily struct {
	From, To         string // the first and last code, inclusive
	English, Abbr    string
	LimitedLiability upstream.Tri
	BoardDuty        upstream.Tri
	AccountsDuty     upstream.Tri
	VATColumn        deadlines.FrenchVATColumn // the zero value is "other taxpayers" (the 24th)
	Deadlines        *formDeadlines
	Public           bool
	Basis            string
}

const (
	yes     = upstream.Yes
	no      = upstream.No
	unknown = upstream.Unknown
)

// Sources of the legal-form table (research fr-deadlines.md §2 and §5).
const (
	srcL22326 = "https://www.doctrine.fr/l/texts/codes/LEGITEXT000005634379/articles/LEGIARTI000006223153"
	srcL2279  = "https://www.doctrine.fr/l/texts/codes/LEGITEXT000005634379/articles/LEGIARTI000006227039"
	srcL23222 = "https://french-business-law.com/rench-legislation-art/article-l232-22-of-the-french-commercial-code"
)

// formFamilies returns the families of the INSEE codes this service
// classifies, in code order, in a fresh slice. A code that no family covers
// keeps the API's French label and has unknown duties.
func formFamilies() []formFamily {
	always := func(because string) deadlines.KindDuty {
		return deadlines.KindDuty{Duty: deadlines.DutyYes, Because: because}
	}
	depending := func(because string) deadlines.KindDuty {
		return deadlines.KindDuty{Duty: deadlines.DutyConditional, Because: because}
	}
	none := deadlines.KindDuty{Duty: deadlines.DutyNo}
	const (
		cfe = "A business with an activity on 1 January pays the CFE balance by 15 December, moved to the next business day; not for the " +
			"year of creation, and not when an exemption or the EUR 5,000 turnover floor applies, which the register does not show."
		vat = "The monthly VAT return applies under the réel normal regime, which the register does not publish."
		is  = "A capital company is taxed at corporate income tax (IS) by default (CGI art. 206) and files its return by the second " +
			"working day after 1 May for a calendar year (CGI ann. III art. 344 I-0 bis)."
		isSARL = "A SARL is taxed at corporate income tax (CGI art. 206), except a single-member SARL (EURL) whose member is a natural " +
			"person, taxed at income tax unless it opted for IS: the register does not tell an EURL from a SARL nor show the option."
		inst = "Four instalments are due when the last corporate income tax exceeded EUR 3,000 (not in the first financial year), " +
			"which the register does not show."
		filingSA   = "A société par actions files its annual accounts at the greffe within one month of their approval, two months when filed electronically (C. com. L232-23)."
		filingSARL = "A SARL files its annual accounts at the greffe within one month of their approval, two months when filed electronically (C. com. L232-22)."
		gmSA       = "A société anonyme holds its ordinary general meeting within six months of the year-end (C. com. L225-100); a court may extend it."
	)
	company := func(label string) *formDeadlines {
		return &formDeadlines{Label: label, VAT: depending(vat), CFE: depending(cfe)}
	}
	partnership := func(label string) *formDeadlines {
		d := company(label)
		d.GeneralMeeting = always("The partners of a " + label + " approve the accounts within six months of the year-end (C. com. L221-7).")
		d.AccountsFiling = deadlines.KindDuty{} // only when every partner is a SARL or société par actions (L232-21): not visible
		d.CorporateTax = none                   // taxed through the partners (income tax) unless it opted for IS
		return d
	}
	sa := func(label string) *formDeadlines {
		d := company(label)
		d.GeneralMeeting = always(gmSA)
		d.AccountsFiling = always(filingSA)
		d.CorporateTax = always(is)
		d.CorporateTaxInstalments = depending(inst)
		return d
	}
	sarl := company("limited liability company (SARL)")
	sarl.GeneralMeeting = deadlines.KindDuty{Duty: deadlines.DutyYes, SourceURL: srcL22326,
		Because: "The members of a SARL approve the accounts within six months of the year-end (C. com. L223-26; EURL: L223-31); a court may extend it."}
	sarl.AccountsFiling = deadlines.KindDuty{Duty: deadlines.DutyYes, Because: filingSARL, SourceURL: srcL23222}
	sarl.CorporateTax = depending(isSARL)
	sarl.CorporateTaxInstalments = depending(inst)

	sas := company("simplified joint-stock company (SAS)")
	sas.GeneralMeeting = deadlines.KindDuty{Duty: deadlines.DutyConditional, SourceURL: srcL2279,
		Because: "The sole shareholder of a SASU approves the accounts within six months of the year-end (C. com. L227-9); a SAS with " +
			"several shareholders has no legal limit (L227-1 excludes L225-100) and its statutes usually copy the six months. The " +
			"register does not tell a SAS from a SASU: statutory for a SASU, the usual statutes term for a SAS."}
	sas.AccountsFiling = always(filingSA)
	sas.CorporateTax = always(is)
	sas.CorporateTaxInstalments = depending(inst)

	ei := company("individual entrepreneur (entrepreneur individuel)")
	ei.GeneralMeeting, ei.AccountsFiling, ei.CorporateTax, ei.CorporateTaxInstalments = none, none, none, none

	ge := &formDeadlines{Label: "economic interest grouping (GIE)", GeneralMeeting: none, AccountsFiling: none, CorporateTax: none,
		CorporateTaxInstalments: none, VAT: depending(vat), CFE: depending(cfe)}
	sci := &formDeadlines{Label: "property civil company (SCI)", AccountsFiling: none, CorporateTax: none, CorporateTaxInstalments: none,
		VAT: none}
	scp := company("civil professional company (SCP)")
	scp.AccountsFiling, scp.CorporateTax, scp.CorporateTaxInstalments = none, none, none
	foreign := company("foreign commercial company registered in the RCS")
	foreign.CorporateTax = depending("A foreign company is taxed at corporate income tax on the profits of its French establishment; " +
		"whether this one files in France is not visible.")
	foreign.CorporateTaxInstalments = depending(inst)
	association := func(label string) *formDeadlines {
		return &formDeadlines{Label: label, GeneralMeeting: none, AccountsFiling: none, CorporateTax: none, CorporateTaxInstalments: none,
			VAT: none}
	}

	const (
		ccom  = "Code de commerce (Légifrance)"
		vatEI = deadlines.FrenchVATIndividual
		vatCo = deadlines.FrenchVATCompany
		vatSA = deadlines.FrenchVATSA
	)
	return []formFamily{
		{From: "0000", To: "0000", English: "Collective investment undertaking without legal personality", Abbr: "OPCVM",
			Basis: "Not a company; not modelled."},
		{From: "1000", To: "1000", English: "Individual entrepreneur (sole trader)", VATColumn: vatEI, Abbr: "EI",
			BoardDuty: no, AccountsDuty: no, Deadlines: ei,
			Basis: "A natural person: no accounts filing; taxed at income tax unless it opted for IS (not visible). Since the statut " +
				"unique of 15 May 2022 the professional assets are separated from the personal ones, so liability is left unknown."},
		{From: "2110", To: "2120", English: "Joint ownership (indivision)", Basis: "No legal personality; not modelled."},
		{From: "2210", To: "2220", English: "De facto partnership (société créée de fait)", LimitedLiability: no,
			Basis: "No legal personality; not modelled."},
		{From: "2310", To: "2385", English: "Undisclosed partnership (société en participation)", LimitedLiability: no,
			Basis: "No legal personality; not modelled."},
		{From: "2400", To: "2400", English: "Trust (fiducie)", Basis: "No legal personality; not modelled."},
		{From: "2700", To: "2900", English: "Other grouping without legal personality", Basis: "Not modelled."},
		{From: "3110", To: "3110", English: "Representation of a foreign State or public body registered in the RCS", Basis: "Not modelled."},
		{From: "3120", To: "3120", English: "Foreign commercial company registered in the RCS", VATColumn: vatCo, Deadlines: foreign,
			Basis: "Governed by its own law; whether and how it files its accounts in France is not settled (VERIFY), so that is not computed."},
		{From: "3205", To: "3290", English: "Foreign legal person not registered in the RCS", Basis: "Not modelled."},
		{From: "4110", To: "4160", English: "Public industrial or commercial body (EPIC)", Public: true,
			Basis: "A public body: nothing is computed."},
		{From: "5191", To: "5196", English: "Cooperative or mutual credit institution", VATColumn: vatCo,
			Deadlines: company("cooperative or mutual credit institution"),
			Basis:     "Banking law; only VAT and CFE are modelled."},
		{From: "5202", To: "5203", English: "General partnership (SNC)", VATColumn: vatCo, Abbr: "SNC", LimitedLiability: no, BoardDuty: no,
			Deadlines: partnership("general partnership (SNC)"),
			Basis: ccom + " L221-1 (the partners are jointly and severally liable), L221-7 (approval within six months, VERIFY), " +
				"L232-21 (files its accounts only when every partner is a SARL or a société par actions: not visible, not computed)."},
		{From: "5306", To: "5307", English: "Limited partnership (SCS)", VATColumn: vatCo, Abbr: "SCS", LimitedLiability: no, BoardDuty: no,
			Deadlines: partnership("limited partnership (SCS)"),
			Basis:     ccom + " L222-1 (the general partners are liable as in an SNC); otherwise as an SNC."},
		{From: "5308", To: "5309", English: "Partnership limited by shares (SCA)", VATColumn: vatSA, Abbr: "SCA", LimitedLiability: no, BoardDuty: yes,
			AccountsDuty: yes, Deadlines: sa("partnership limited by shares (SCA)"),
			Basis: ccom + " L226-1 (the general partners are liable; a conseil de surveillance), L232-23 (filing); meeting as an SA " +
				"(VERIFY); VAT day of a société anonyme (VERIFY)."},
		{From: "5310", To: "5310", English: "Limited partnership for investment (SLP)", VATColumn: vatCo, Abbr: "SLP", LimitedLiability: no, BoardDuty: no,
			Deadlines: partnership("limited partnership for investment (SLP)"), Basis: "A form of SCS (C. monétaire et financier L214-162-1)."},
		{From: "5370", To: "5385", English: "Partnership limited by shares (SCA)", VATColumn: vatSA, Abbr: "SCA", LimitedLiability: no, BoardDuty: yes,
			AccountsDuty: yes, Deadlines: sa("partnership limited by shares (SCA)"), Basis: "As an SCA (a professional one)."},
		{From: "5410", To: "5499", English: "Limited liability company (SARL)", VATColumn: vatCo, Abbr: "SARL", LimitedLiability: yes, BoardDuty: no,
			AccountsDuty: yes, Deadlines: sarl,
			Basis: ccom + " L223-1 (the members are liable up to their contributions; an EURL has one member), L223-26 (approval " +
				"within six months), L232-22 (filing)."},
		{From: "5505", To: "5599", English: "Public limited company with a board of directors (SA)", VATColumn: vatSA, Abbr: "SA", LimitedLiability: yes,
			BoardDuty: yes, AccountsDuty: yes, Deadlines: sa("public limited company (SA)"),
			Basis: ccom + " L225-1, L225-17 (conseil d'administration), L225-100 (meeting within six months), L232-23 (filing)."},
		{From: "5605", To: "5699", English: "Public limited company with a management board (SA)", VATColumn: vatSA, Abbr: "SA", LimitedLiability: yes,
			BoardDuty: yes, AccountsDuty: yes, Deadlines: sa("public limited company (SA)"),
			Basis: ccom + " L225-57 (directoire and conseil de surveillance), L225-100, L232-23."},
		{From: "5710", To: "5785", English: "Simplified joint-stock company (SAS, SASU)", VATColumn: vatCo, Abbr: "SAS", LimitedLiability: yes, BoardDuty: no,
			AccountsDuty: yes, Deadlines: sas,
			Basis: ccom + " L227-1, L227-6 (a président; no board required), L227-9 (a SASU approves within six months; a SAS " +
				"under its statutes), L232-23 (filing)."},
		{From: "5800", To: "5800", English: "European company (SE)", VATColumn: vatSA, Abbr: "SE", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes,
			Deadlines: sa("European company (SE)"),
			Basis:     ccom + " L229-1 (governed as an SA), L232-23; VAT day of a société anonyme (VERIFY)."},
		{From: "6100", To: "6100", English: "Savings bank (caisse d'épargne)", Basis: "Not modelled."},
		{From: "6210", To: "6220", English: "Economic interest grouping (GIE, GEIE)", Abbr: "GIE", LimitedLiability: no,
			AccountsDuty: unknown, Deadlines: ge,
			Basis: ccom + " L251-6 (the members are jointly liable); transparent for income tax; files no accounts at the greffe " +
				"(VERIFY); VAT day of the other taxpayers (VERIFY)."},
		{From: "6316", To: "6318", English: "Agricultural cooperative", Basis: "Not modelled."},
		{From: "6411", To: "6411", English: "Mutual insurance company", Basis: "Not modelled."},
		{From: "6511", To: "6538", English: "Civil company (société civile)", VATColumn: vatCo, LimitedLiability: no, AccountsDuty: no,
			Basis: "Code civil art. 1857 (the partners are liable in proportion to their shares); not modelled."},
		{From: "6539", To: "6544", English: "Property civil company (SCI)", VATColumn: vatCo, Abbr: "SCI", LimitedLiability: no, BoardDuty: no,
			AccountsDuty: no, Deadlines: sci,
			Basis: "Code civil art. 1857; no accounts filing (greffes: \"les SCI ne sont pas concernées\"); income tax through the " +
				"partners (form 2072, not computed) unless it opted for IS; rentals are usually outside VAT."},
		{From: "6551", To: "6560", English: "Civil cooperative company", VATColumn: vatCo, LimitedLiability: no, AccountsDuty: no, Basis: "Not modelled."},
		{From: "6561", To: "6585", English: "Civil professional company (SCP)", VATColumn: vatCo, Abbr: "SCP", LimitedLiability: no, BoardDuty: no,
			AccountsDuty: no, Deadlines: scp,
			Basis: "Law 66-879 (the partners are liable); no accounts filing; income tax through the partners."},
		{From: "6589", To: "6599", English: "Civil company (société civile)", VATColumn: vatCo, LimitedLiability: no, AccountsDuty: no,
			Basis: "Code civil art. 1857; not modelled."},
		{From: "6901", To: "6901", English: "Other private-law person registered in the RCS", Basis: "Not modelled."},
		{From: "7111", To: "7490", English: "The State, a local authority or a public administrative body", Public: true,
			Basis: "A public body: nothing is computed."},
		{From: "8110", To: "8190", English: "Social security body", Basis: "Not modelled."},
		{From: "8210", To: "8290", English: "Mutual society (mutuelle)", Basis: "Not modelled."},
		{From: "8310", To: "8311", English: "Works council (comité social et économique)", Basis: "Not modelled."},
		{From: "8410", To: "8490", English: "Trade union or professional body", Basis: "Not modelled."},
		{From: "8510", To: "8520", English: "Provident institution", Basis: "Not modelled."},
		{From: "9110", To: "9150", English: "Co-ownership syndicate or free landowners' association", Basis: "Not modelled."},
		{From: "9210", To: "9260", English: "Association", LimitedLiability: yes, AccountsDuty: no, Deadlines: association("association"),
			Basis: "Law of 1 July 1901 (the members are not liable); no accounts filing at the greffe; corporate tax only on lucrative " +
				"activities and VAT only when the register lists a VAT number."},
		{From: "9300", To: "9300", English: "Foundation", AccountsDuty: no, Deadlines: association("foundation"),
			Basis: "As an association."},
		{From: "9900", To: "9970", English: "Other private-law legal person", Basis: "Not modelled."},
	}
}

// legalForms returns one row per INSEE code of the API's table, sorted by
// code, in a fresh slice: the code's French label with its family's
// English name, duties and deadlines.
func legalForms() []legalForm {
	fams := formFamilies()
	out := make([]legalForm, 0, len(natureLabels))
	for code, french := range natureLabels {
		f := legalForm{Code: code, French: french, English: french}
		for _, fam := range fams {
			if code >= fam.From && code <= fam.To {
				f.English, f.Abbr = fam.English, fam.Abbr
				f.LimitedLiability, f.BoardDuty, f.AccountsDuty = fam.LimitedLiability, fam.BoardDuty, fam.AccountsDuty
				f.VATColumn = fam.VATColumn
				f.Deadlines, f.Public, f.Basis = fam.Deadlines, fam.Public, fam.Basis
				break
			}
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b legalForm) int { return strings.Compare(a.Code, b.Code) })
	return out
}

// formsByCode indexes legalForms by code. It is built once and never
// written afterwards.
var formsByCode = func() map[string]legalForm {
	m := make(map[string]legalForm, len(natureLabels))
	for _, f := range legalForms() {
		m[f.Code] = f
	}
	return m
}()

// lookupForm returns the row of an INSEE code, or false for a code outside
// the API's table.
func lookupForm(code string) (legalForm, bool) {
	f, ok := formsByCode[strings.TrimSpace(code)]
	return f, ok
}

// dutiesOf builds the profile deadlines.France computes from: the
// form-dependent duties of the report's legal form (none when the form is
// unknown or its duties are not modelled) and the register facts of the
// report (its facts note, its VAT number).
func dutiesOf(rep *registry.CompanyReport) *deadlines.FranceDuties {
	if rep == nil {
		return nil
	}
	d := &deadlines.FranceDuties{VATRegistered: rep.VATRegistered != nil && *rep.VATRegistered}
	readFacts(rep.Notes, d)
	if rep.LegalFormCode == nil {
		return d
	}
	f, ok := lookupForm(*rep.LegalFormCode)
	if !ok {
		return d
	}
	d.Code, d.PublicBody, d.VATColumn = f.Code, f.Public, f.VATColumn
	if fd := f.Deadlines; fd != nil {
		d.Label = fd.Label
		d.GeneralMeeting, d.AccountsFiling, d.CorporateTax = fd.GeneralMeeting, fd.AccountsFiling, fd.CorporateTax
		d.CorporateTaxInstalments, d.VAT, d.CFE = fd.CorporateTaxInstalments, fd.VAT, fd.CFE
	}
	return d
}
