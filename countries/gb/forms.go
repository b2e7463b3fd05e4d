package gb

import (
	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/upstream"
)

// legalForm describes one Companies House company type.
type legalForm struct {
	// label is Companies House's English description (api-enumerations
	// constants.yml, company_type).
	label string
	// limited is yes when no member is personally liable for the debts,
	// no when some member is (unlimited companies, partnerships, EEIGs),
	// and unknown when it depends on the entity's own constitution or on a
	// foreign law.
	limited tri
	// accounts is yes when the form alone obliges the entity to deliver
	// annual accounts to Companies House (Companies Act 2006 s.441, applied
	// to LLPs by SI 2008/1911); unknown when it depends.
	accounts tri
}

// tri is a yes/no/unknown answer kept in a table without pointers, so that
// no report shares memory with the table.
type tri = upstream.Tri

const (
	unknown = upstream.Unknown
	yes     = upstream.Yes
	no      = upstream.No
)

// legalForms is the table of Companies House company types, keyed by the
// API's type value. It is never modified.
var legalForms = func() map[string]legalForm {
	t, f, u := yes, no, unknown
	return map[string]legalForm{
		"ltd":                         {"Private limited company", t, t},
		"plc":                         {"Public limited company", t, t},
		"old-public-company":          {"Old public company", t, t},
		"private-limited-guarant-nsc": {"Private limited by guarantee without share capital", t, t},
		"private-limited-guarant-nsc-limited-exemption": {"Private Limited Company by guarantee without share capital, use of 'Limited' exemption", t, t},
		"private-limited-shares-section-30-exemption":   {"Private Limited Company, use of 'Limited' exemption", t, t},
		"private-unlimited":                             {"Private unlimited company", f, u},
		"private-unlimited-nsc":                         {"Private unlimited company without share capital", f, u},
		"llp":                                           {"Limited liability partnership", t, t},
		"limited-partnership":                           {"Limited partnership", f, u},
		"scottish-partnership":                          {"Scottish qualifying partnership", f, u},
		"eeig":                                          {"European Economic Interest Grouping (EEIG)", f, u},
		"eeig-establishment":                            {"European Economic Interest Grouping Establishment (EEIG)", f, u},
		"ukeig":                                         {"United Kingdom Economic Interest Grouping", f, u},
		"european-public-limited-liability-company-se":        {"European public limited liability company (SE)", t, t},
		"united-kingdom-societas":                             {"United Kingdom Societas", t, t},
		"charitable-incorporated-organisation":                {"Charitable incorporated organisation", t, u},
		"scottish-charitable-incorporated-organisation":       {"Scottish charitable incorporated organisation", t, u},
		"converted-or-closed":                                 {"Converted / closed", u, u},
		"protected-cell-company":                              {"Protected cell company", u, u},
		"assurance-company":                                   {"Assurance company", u, u},
		"oversea-company":                                     {"Overseas company", u, u},
		"uk-establishment":                                    {"UK establishment company", u, u},
		"registered-overseas-entity":                          {"Overseas entity", u, u},
		"icvc-securities":                                     {"Investment company with variable capital", u, u},
		"icvc-warrant":                                        {"Investment company with variable capital", u, u},
		"icvc-umbrella":                                       {"Investment company with variable capital", u, u},
		"investment-company-with-variable-capital":            {"Investment company with variable capital", u, u},
		"registered-society-non-jurisdictional":               {"Registered society", u, u},
		"industrial-and-provident-society":                    {"Industrial and Provident society", u, u},
		"northern-ireland":                                    {"Northern Ireland company", u, u},
		"northern-ireland-other":                              {"Credit union (Northern Ireland)", u, u},
		"royal-charter":                                       {"Royal charter company", u, u},
		"unregistered-company":                                {"Unregistered company", u, u},
		"further-education-or-sixth-form-college-corporation": {"Further education or sixth form college corporation", u, u},
		"other": {"Other company type", u, u},
	}
}()

// subtypeLabel returns Companies House's English description of a company
// subtype (constants.yml, company_subtype).
func subtypeLabel(s string) (string, bool) {
	switch s {
	case "community-interest-company":
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
}

// statusRules is the mapping of every Companies House company_status. It is
// never modified.
// A company in administration, receivership, a voluntary arrangement or
// other insolvency proceedings is never called active: the interface has no
// status for these procedures, so they map to unknown and the report says
// which procedure applies.
var statusRules = func() map[string]statusRule {
	const insolvent = " The interface has no status for this procedure, so status is unknown; do not treat the company as trading normally."
	return map[string]statusRule{
		"active":      {"Active", registry.StatusActive, ""},
		"dissolved":   {"Dissolved", registry.StatusDissolved, ""},
		"liquidation": {"Liquidation", registry.StatusUnderLiquidation, ""},
		"receivership": {"Receiver Action", registry.StatusUnknown,
			"Companies House records a receiver action: a receiver or administrative receiver controls some or all of the company's assets." + insolvent},
		"administration": {"In Administration", registry.StatusUnknown,
			"The company is in administration: an insolvency practitioner runs it under a court or out-of-court appointment." + insolvent},
		"voluntary-arrangement": {"Voluntary Arrangement", registry.StatusUnknown,
			"The company is in a voluntary arrangement with its creditors (an insolvency procedure)." + insolvent},
		"insolvency-proceedings": {"Insolvency Proceedings", registry.StatusUnknown,
			"Companies House records insolvency proceedings against the company." + insolvent},
		"converted-closed": {"Converted / Closed", registry.StatusDeleted,
			"Companies House has closed this record, for example because the entity converted to another legal form."},
		"removed": {"Removed", registry.StatusDeleted,
			"The overseas entity has been removed from the Register of Overseas Entities."},
		"closed": {"Closed", registry.StatusDeleted,
			"The UK establishment of this overseas company is closed."},
		"registered": {"Registered", registry.StatusActive, ""},
		"open":       {"Open", registry.StatusActive, ""},
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
