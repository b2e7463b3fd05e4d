package gb

import (
	"strconv"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/upstream"
)

// legalForm describes one Companies House company type. The table of these
// is the only place the facts of a type live: the report's legal form,
// liability and duty flags and the deadline engine's duties
// ([deadlines.UKDuties]) are all read from it.
type legalForm struct {
	// label is Companies House's English description (api-enumerations
	// constants.yml, company_type).
	label string
	// form names the type in deadline explanations ("private limited
	// company"); "" for the types whose filings are not known here.
	form string
	// limited is yes when no member is personally liable for the debts,
	// no when some member is (unlimited companies, partnerships, EEIGs),
	// and unknown when it depends on the entity's own constitution or on a
	// foreign law.
	limited tri
	// board is yes when the law requires the type to have directors or
	// trustees who run it (Companies Act 2006 s.154; charity trustees of a
	// CIO), no when it is run by its members or partners (LLPs,
	// partnerships), and unknown when it depends.
	board tri
	// public selects the accounts periods of a public company (s.442(2)).
	public bool
	// accounts is the duty to deliver annual accounts to Companies House;
	// has_annual_accounts_duty is true exactly when it is always owed.
	accounts deadlines.UKDuty
	// confirmation is the duty to deliver a confirmation statement.
	confirmation deadlines.UKDuty
}

// tri is a yes/no/unknown answer kept in a table without pointers, so that
// no report shares memory with the table.
type tri = upstream.Tri

const (
	unknown = upstream.Unknown
	yes     = upstream.Yes
	no      = upstream.No
)

// Legal bases of the duties, quoted in the deadlines' applies_because.
const (
	basisAccounts        = "Companies Act 2006 s.441"
	basisLLPAccounts     = "Companies Act 2006 s.441 as applied to LLPs by SI 2008/1911"
	basisUnlimited       = "an unlimited company is exempt when it is not a subsidiary or parent of an undertaking that is limited, Companies Act 2006 s.448"
	basisConfirmation    = "Companies Act 2006 s.853A"
	basisLLPConfirmation = "Companies Act 2006 s.853A as applied to LLPs by SI 2009/1804"
	basisOEUpdate        = "the annual update statement of the Economic Crime (Transparency and Enforcement) Act 2022 s.7, which Companies House publishes as the confirmation statement"
	basisPartnership     = "only a qualifying partnership, whose general partners are all limited companies, delivers accounts: Partnerships (Accounts) Regulations 2008"
)

// legalForms is the table of Companies House company types, keyed by the
// API's type value. It is never modified.
var legalForms = func() map[string]legalForm {
	t, f, u := yes, no, unknown
	// The duty levels: always owed with a date computed by the Companies
	// Act rules; depending on facts the register does not show, with only
	// the register's own date used; not owed to Companies House.
	accountsAlways := deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: basisAccounts}
	confirmationAlways := deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: basisConfirmation}
	dependsPublished := deadlines.UKDuty{Level: deadlines.UKDutyDepends}
	none := deadlines.UKDuty{}
	// company is a company formed under the Companies Acts: directors
	// (s.154), accounts (s.441, s.442), confirmation statement (s.853A).
	company := func(label, form string, public bool) legalForm {
		return legalForm{label: label, form: form, limited: t, board: t, public: public, accounts: accountsAlways, confirmation: confirmationAlways}
	}
	unlimited := func(label string) legalForm {
		lf := company(label, "private unlimited company", false)
		lf.limited = f
		lf.accounts = deadlines.UKDuty{Level: deadlines.UKDutyDepends, Computable: true, Basis: basisUnlimited}
		return lf
	}
	partnership := func(label, form string) legalForm {
		return legalForm{label: label, form: form, limited: f, board: f,
			accounts: deadlines.UKDuty{Level: deadlines.UKDutyDepends, Basis: basisPartnership}, confirmation: dependsPublished}
	}
	// other is a type whose duties depend on laws or facts this service
	// does not model: a date the register publishes is carried, none is
	// computed, and the duty flags are null.
	other := func(label string) legalForm {
		return legalForm{label: label, limited: u, board: u, accounts: dependsPublished, confirmation: dependsPublished}
	}
	foreign := func(label, form string) legalForm {
		lf := other(label)
		lf.form = form
		return lf
	}
	eeig := func(label string) legalForm {
		lf := other(label)
		lf.limited, lf.form = f, "European Economic Interest Grouping"
		return lf
	}
	cio := func(label string) legalForm {
		lf := other(label)
		lf.limited, lf.board, lf.form = t, t, "charitable incorporated organisation"
		return lf
	}
	llp := legalForm{label: "Limited liability partnership", form: "limited liability partnership", limited: t, board: f,
		accounts:     deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: basisLLPAccounts},
		confirmation: deadlines.UKDuty{Level: deadlines.UKDutyAlways, Computable: true, Basis: basisLLPConfirmation}}
	oe := foreign("Overseas entity", "overseas entity")
	oe.accounts = none
	oe.confirmation = deadlines.UKDuty{Level: deadlines.UKDutyAlways, Basis: basisOEUpdate}
	overseas := foreign("Overseas company", "overseas company")
	overseas.confirmation = none
	establishment := foreign("UK establishment company", "UK establishment")
	establishment.accounts, establishment.confirmation = none, none

	return map[string]legalForm{
		"ltd":                         company("Private limited company", "private limited company", false),
		"plc":                         company("Public limited company", "public limited company", true),
		"old-public-company":          company("Old public company", "public company", true),
		"private-limited-guarant-nsc": company("Private limited by guarantee without share capital", "private company limited by guarantee", false),
		"private-limited-guarant-nsc-limited-exemption": company("Private Limited Company by guarantee without share capital, use of 'Limited' exemption", "private company limited by guarantee", false),
		"private-limited-shares-section-30-exemption":   company("Private Limited Company, use of 'Limited' exemption", "private limited company", false),
		"private-unlimited":                             unlimited("Private unlimited company"),
		"private-unlimited-nsc":                         unlimited("Private unlimited company without share capital"),
		"llp":                                           llp,
		"limited-partnership":                           partnership("Limited partnership", "limited partnership"),
		"scottish-partnership":                          partnership("Scottish qualifying partnership", "Scottish qualifying partnership"),
		"eeig":                                          eeig("European Economic Interest Grouping (EEIG)"),
		"eeig-establishment":                            eeig("European Economic Interest Grouping Establishment (EEIG)"),
		"ukeig":                                         eeig("United Kingdom Economic Interest Grouping"),
		"european-public-limited-liability-company-se":        company("European public limited liability company (SE)", "European public limited-liability company", true),
		"united-kingdom-societas":                             company("United Kingdom Societas", "United Kingdom Societas", true),
		"charitable-incorporated-organisation":                cio("Charitable incorporated organisation"),
		"scottish-charitable-incorporated-organisation":       cio("Scottish charitable incorporated organisation"),
		"converted-or-closed":                                 other("Converted / closed"),
		"protected-cell-company":                              other("Protected cell company"),
		"assurance-company":                                   other("Assurance company"),
		"oversea-company":                                     overseas,
		"uk-establishment":                                    establishment,
		"registered-overseas-entity":                          oe,
		"icvc-securities":                                     other("Investment company with variable capital"),
		"icvc-warrant":                                        other("Investment company with variable capital"),
		"icvc-umbrella":                                       other("Investment company with variable capital"),
		"investment-company-with-variable-capital":            other("Investment company with variable capital"),
		"registered-society-non-jurisdictional":               other("Registered society"),
		"industrial-and-provident-society":                    other("Industrial and Provident society"),
		"northern-ireland":                                    other("Northern Ireland company"),
		"northern-ireland-other":                              other("Credit union (Northern Ireland)"),
		"royal-charter":                                       other("Royal charter company"),
		"unregistered-company":                                other("Unregistered company"),
		"further-education-or-sixth-form-college-corporation": other("Further education or sixth form college corporation"),
		"other": other("Other company type"),
	}
}()

// accountsFlag is has_annual_accounts_duty: true when every company of the
// type must deliver accounts, null otherwise (it depends, or the duty is
// owed elsewhere or under a foreign law).
func (lf legalForm) accountsFlag() tri {
	if lf.accounts.Level == deadlines.UKDutyAlways {
		return yes
	}
	return unknown
}

// duties returns the type's duties for the deadline engine.
func (lf legalForm) duties() deadlines.UKDuties {
	return deadlines.UKDuties{Form: lf.form, Public: lf.public, Accounts: lf.accounts, ConfirmationStatement: lf.confirmation}
}

// subtypeForm returns the words added to the legal form for a company
// subtype, as in "Private limited company (community interest company)".
func subtypeForm(s string) (string, bool) {
	switch s {
	case subtypeCIC:
		return "community interest company", true
	case "private-fund-limited-partnership", "pflp":
		return "private fund limited partnership", true
	case "slp":
		return "Scottish limited partnership", true
	case "spflp":
		return "Scottish private fund limited partnership", true
	}
	return "", false
}

// subtypeCIC is the subtype of a community interest company.
const subtypeCIC = "community-interest-company"

// noteCIC34 is the accounts note of a community interest company.
const noteCIC34 = "A community interest company also delivers a community interest company report (form CIC34) with its accounts " +
	"(Companies (Audit, Investigations and Community Enterprise) Act 2004 s.34)."

// formLabel returns the legal form of a type label and a subtype.
func formLabel(label, subtype string) string {
	if sub, ok := subtypeForm(subtype); ok {
		return label + " (" + sub + ")"
	}
	return label
}

// dutiesOf returns the duties of the company rep describes, for the
// deadline engine: its type's row of the table, the CIC report with the
// accounts, and the insolvency procedure that keeps the duties. It reads
// only what this module wrote into the report.
func dutiesOf(rep *registry.CompanyReport) deadlines.UKDuties {
	if rep == nil || rep.LegalFormCode == nil {
		return deadlines.UKDuties{}
	}
	var d deadlines.UKDuties
	// The same lookup as mapProfile's, so that the report's duty flags and
	// the deadlines always come from the same row.
	lf, ok := legalForms[strings.TrimSpace(*rep.LegalFormCode)]
	if ok {
		d = lf.duties()
		if rep.LegalForm != nil && *rep.LegalForm == formLabel(lf.label, subtypeCIC) {
			d.AccountsNote = noteCIC34
		}
	}
	if r, ok := statusRules[companyStatusOf(rep.StatusDetail)]; ok {
		d.Procedure = r.procedure
	}
	return d
}

// statusDetailPrefix starts the status_detail of a report whose profile
// has a company_status; the quoted company_status follows.
const statusDetailPrefix = "Companies House company_status is "

// companyStatusOf returns the company_status that mapStatus wrote into
// status_detail, or "". The interface has no field for the register's own
// status, so the module reads back its own sentence.
func companyStatusOf(detail *string) string {
	if detail == nil {
		return ""
	}
	rest, ok := strings.CutPrefix(*detail, statusDetailPrefix)
	if !ok {
		return ""
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return ""
	}
	s, err := strconv.Unquote(q)
	if err != nil {
		return ""
	}
	return s
}

// subtypeLabel returns Companies House's English description of a company
// subtype (constants.yml, company_subtype).
func subtypeLabel(s string) (string, bool) {
	switch s {
	case subtypeCIC:
		return "Community Interest Company (CIC)", true
	case "private-fund-limited-partnership", "pflp":
		return "Private Fund Limited Partnership (PFLP)", true
	case "slp":
		return "Scottish Limited Partnership (SLP)", true
	case "spflp":
		return "Scottish Private Fund Limited Partnership (SPFLP)", true
	}
	return "", false
}

// statusRule maps one Companies House company_status to a registry status.
type statusRule struct {
	// label is Companies House's description (constants.yml, company_status).
	label  string
	status registry.Status
	// note, when set, is a caveat added to the report.
	note string
	// procedure, when set, names an insolvency procedure that does not end
	// the company's filing duties; the deadline engine keeps its deadlines
	// and names the procedure in a note.
	procedure string
}

// statusRules is the mapping of every Companies House company_status. It is
// never modified.
//
// A company in administration, receivership, a voluntary arrangement or
// other insolvency proceedings is not called active: Companies House itself
// does not call it active, and the interface has no status for these
// procedures, so they map to unknown (is_active false), status_detail names
// the procedure and a note explains it. None of them ends the company or its
// duties to deliver accounts and confirmation statements (Companies Act
// 2006 ss. 441, 442 and 853A make no exception), so the deadlines continue.
// Only dissolution, removal or closure and liquidation end them.
var statusRules = func() map[string]statusRule {
	const insolvent = " The interface has no status for this procedure, so status is unknown; do not treat the company as trading normally. " +
		"The procedure does not end the company: its accounts and confirmation statements are still due."
	return map[string]statusRule{
		"active":      {"Active", registry.StatusActive, "", ""},
		"dissolved":   {"Dissolved", registry.StatusDissolved, "", ""},
		"liquidation": {"Liquidation", registry.StatusUnderLiquidation, "", ""},
		"receivership": {"Receiver Action", registry.StatusUnknown,
			"Companies House records a receiver action: a receiver or administrative receiver controls some or all of the company's assets." + insolvent,
			"receivership"},
		"administration": {"In Administration", registry.StatusUnknown,
			"The company is in administration: an insolvency practitioner runs it under a court or out-of-court appointment." + insolvent,
			"administration"},
		"voluntary-arrangement": {"Voluntary Arrangement", registry.StatusUnknown,
			"The company is in a voluntary arrangement with its creditors (an insolvency procedure)." + insolvent,
			"a voluntary arrangement"},
		"insolvency-proceedings": {"Insolvency Proceedings", registry.StatusUnknown,
			"Companies House records insolvency proceedings against the company." + insolvent,
			"insolvency proceedings"},
		"converted-closed": {"Converted / Closed", registry.StatusDeleted,
			"Companies House has closed this record, for example because the entity converted to another legal form.", ""},
		"removed": {"Removed", registry.StatusDeleted,
			"The overseas entity has been removed from the Register of Overseas Entities.", ""},
		"closed": {"Closed", registry.StatusDeleted,
			"The UK establishment of this overseas company is closed.", ""},
		"registered": {"Registered", registry.StatusActive, "", ""},
		"open":       {"Open", registry.StatusActive, "", ""},
	}
}()

// statusDetailLabel returns Companies House's description of a
// company_status_detail value (constants.yml), or "" when it has none.
func statusDetailLabel(s string) string {
	switch s {
	case "transferred-from-uk":
		return "Transfer from UK"
	case "active-proposal-to-strike-off":
		return "Active proposal to strike off"
	case "petition-to-restore-dissolved":
		return "Petition to restore dissolved"
	case "transformed-to-se":
		return "Transformed to SE"
	case "converted-to-plc":
		return "Converted to PLC"
	case "converted-to-uk-societas":
		return "Converted to UK Societas"
	case "converted-to-ukeig":
		return "Converted to UKEIG"
	}
	return ""
}
