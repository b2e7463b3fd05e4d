package gb

import (
	"maps"
	"slices"
	"strings"

	"github.com/companyregistry/registry/deadlines"
)

// Rules returns the UK rules document (registry://rules/GB) in Markdown:
// the company number format and prefixes, the legal forms, the status
// mapping and, from package deadlines, the deadline rules with sources.
//
// The document is built once, by [New].
func (c *Country) Rules() string { return c.rules }

// buildRules builds the document [Country.Rules] returns.
func buildRules() string {
	var b strings.Builder
	b.WriteString(rulesIntro)
	b.WriteString(rulesNumbers)

	b.WriteString("\n## Legal forms\n\n")
	b.WriteString("`legal_form_code` is Companies House's company `type`; `legal_form` is its English description from the official enumerations (companieshouse/api-enumerations, constants.yml). `limited_liability` is true when no member is personally liable for the company's debts, false when some member is (unlimited companies, partnerships, economic interest groupings) and null when it depends on the entity's own constitution or on foreign law.\n\n")
	b.WriteString("`has_board_duty` is true when the law requires directors or trustees (Companies Act 2006 s.154 for companies; the charity trustees of a CIO), false for types run by their members or partners (LLPs, partnerships), null when it depends. `has_annual_accounts_duty` is true when every company of the type must deliver annual accounts to Companies House, and null otherwise (an exemption may apply, or the accounts go elsewhere or follow a foreign law). The accounts and confirmation statement columns are what the deadlines operation applies: *always* (mandatory, computed from the Companies Act when the register publishes no date), *depends* (listed with `mandatory: false`), *published* (only the register's own date is used), *none* (never listed). A subtype shows in `legal_form`, as in \"Private limited company (community interest company)\".\n\n")
	b.WriteString("| type | legal form | limited liability | board | annual accounts | confirmation statement |\n|---|---|---|---|---|---|\n")
	for _, code := range slices.Sorted(maps.Keys(legalForms)) {
		lf := legalForms[code]
		b.WriteString("| `" + code + "` | " + lf.label + " | " + triText(lf.limited) + " | " + triText(lf.board) + " | " +
			dutyText(lf.accounts) + " | " + dutyText(lf.confirmation) + " |\n")
	}

	b.WriteString("\n## Status\n\n")
	b.WriteString("`status` comes from `company_status`; `status_detail` names the exact upstream value and any `company_status_detail` (such as `active-proposal-to-strike-off`). A company in administration, receivership, a voluntary arrangement or insolvency proceedings is not reported as active, because Companies House does not call it active and the interface has no status for these procedures: `status` is `unknown` (so `is_active` is false), `status_detail` names the procedure and a note explains it. These procedures do not end the company or its duties to deliver accounts and confirmation statements (Companies Act 2006 ss. 441, 442 and 853A make no exception), so its deadlines are still listed, with a note naming the procedure. Only dissolution, removal or closure and liquidation end the deadlines.\n\n")
	b.WriteString("| company_status | Companies House label | status |\n|---|---|---|\n")
	for _, s := range slices.Sorted(maps.Keys(statusRules)) {
		r := statusRules[s]
		b.WriteString("| `" + s + "` | " + r.label + " | `" + string(r.status) + "` |\n")
	}
	b.WriteString("| absent or unknown | | `unknown` |\n")

	b.WriteString(rulesFields)
	b.WriteString(rolesRules())
	b.WriteString("\n")
	b.WriteString(deadlines.UnitedKingdomRules())
	return b.String()
}

// dutyText renders a duty for the rules document.
func dutyText(d deadlines.UKDuty) string {
	switch {
	case d.Level == deadlines.UKDutyNone:
		return "none"
	case d.Level == deadlines.UKDutyAlways && d.Computable:
		return "always"
	case d.Level == deadlines.UKDutyAlways:
		return "always (published)"
	case d.Computable:
		return "depends"
	}
	return "depends (published)"
}

// triText renders a tri for the rules document.
func triText(v tri) string {
	switch v {
	case yes:
		return "yes"
	case no:
		return "no"
	}
	return "depends (null)"
}

const rulesIntro = `# United Kingdom (GB): Companies House

Register: Companies House, the UK registrar of companies, read through its Public Data API (https://api.company-information.service.gov.uk). Registry slug: ` + "`companieshouse`" + `. The API needs an operator credential: a Companies House REST API key in the environment variable ` + "`COMPANIES_HOUSE_API_KEY`" + `. Without it, lookups, searches and deadlines answer ` + "`upstream_error`" + ` and GB is left out of the list of countries; validation still works. Data: Crown copyright, re-usable under the Open Government Licence v3.0. Reports link to the public company page, https://find-and-update.company-information.service.gov.uk/company/{number}.
`

const rulesNumbers = `
## Company numbers

The identifier is the company registration number (CRN): always eight characters, with no check digit, so validation checks the shape only.

- Eight digits for a company registered in England and Wales, such as ` + "`00002065`" + `; shorter all-digit numbers are zero-padded on the left (` + "`2065`" + ` → ` + "`00002065`" + `).
- Otherwise a two-character prefix and six digits, such as ` + "`SC294759`" + `; shorter digit runs are zero-padded after the prefix (` + "`SC1234`" + ` → ` + "`SC001234`" + `). ` + "`R0`" + ` is the letter R and the digit zero.
- A few real numbers end in letters (` + "`SC00123R`" + `, ` + "`NI01234A`" + `, ` + "`RS00712R`" + `); these are accepted as written.
- Letters are upper-cased; spaces, dots, hyphens and dashes (U+2010 to U+2015 and the minus sign U+2212) are removed, so ` + "`0044-5790`" + ` and ` + "`00.445.790`" + ` are ` + "`00445790`" + `; a two-letter prefix not on the list below is rejected. There is no local typography, so ` + "`formatted`" + ` is null.
- Companies House issues numbers only with the prefixes in the table below, so a number with any other two-letter prefix is most likely mistyped (such as RO for R0): it is rejected and never sent upstream.
- A UK VAT number (` + "`GB`" + ` and 9 or 12 digits) is not a company number and is rejected with a hint saying so.
- A number that fails these rules is never sent to Companies House (which answers HTTP 500 to malformed numbers).

| prefix | register |
|---|---|
| (digits only) | company, England and Wales |
| SC | company, Scotland |
| NI | company, Northern Ireland |
| R0 | company, Ireland before partition (Northern Ireland) |
| OC, SO, NC | limited liability partnership: England and Wales, Scotland, Northern Ireland |
| LP, SL, NL | limited partnership: England and Wales, Scotland, Northern Ireland |
| FC, SF, NF, BR | overseas company: England and Wales, Scotland, Northern Ireland; branch of an overseas company |
| GE, GS, GN | European Economic Interest Grouping: England and Wales, Scotland, Northern Ireland |
| SE, ES, EN | European public limited-liability company (Societas Europaea) |
| AC, SA, NA | assurance company |
| ZC, SZ, NZ | unregistered company (not formed under the Companies Acts) |
| IP, SP, NP, NO | industrial and provident society (NP also credit unions); Companies House holds no details |
| IC, SI, NV | investment company with variable capital; Companies House holds no details |
| RC, SR, NR | Royal Charter company; Companies House holds no details |
| RS | registered society |
| SG | Scottish qualifying partnership |
| PC | protected cell company |
| CE, CS | charitable incorporated organisation: England and Wales, Scotland |
| FE | further education or sixth-form college corporation |
| OE | registered overseas entity (Register of Overseas Entities) |

Sources: Companies House, Uniform Resource Identifiers Customer Guide; companieshouse/api-enumerations; the company number guide at github.com/mrbrianevans/ch-guide.
`

const rulesFields = `
## Report fields

- ` + "`name`" + `: ` + "`company_name`" + `; ` + "`previous_names`" + `: ` + "`previous_company_names`" + `, newest first.
- ` + "`founded_at`" + ` and ` + "`registered_at`" + `: ` + "`date_of_creation`" + ` (incorporation or registration); ` + "`deregistered_at`" + `: ` + "`date_of_cessation`" + `.
  For a company incorporated abroad (overseas companies ` + "`FC…`" + `, ` + "`SF…`" + `, ` + "`NF…`" + `, UK establishments ` + "`BR…`" + `,
  registered overseas entities ` + "`OE…`" + `, or their types) ` + "`date_of_creation`" + ` is the UK registration: it goes to
  ` + "`registered_at`" + ` only, and ` + "`founded_at`" + ` is null (the profile carries no foreign incorporation date); a note says so.
- ` + "`business_address`" + `: the registered office; the post town is the city and the county or region the municipality.
- ` + "`industry_codes`" + `: ` + "`sic_codes`" + ` in upstream order, the first as primary, with Companies House's descriptions; five-digit codes are UK SIC 2007, four-digit ones UK SIC 2003.
- ` + "`has_annual_accounts_duty`" + `: true for the forms that must deliver annual accounts to Companies House (Companies Act 2006 s.441; LLPs by SI 2008/1911); null otherwise. ` + "`has_board_duty`" + `: from the company type, see the table of legal forms.
- ` + "`registers`" + `: ` + "`charges`" + ` is ` + "`has_charges`" + ` (the company has registered charges) and ` + "`insolvency`" + ` is ` + "`has_insolvency_history`" + `, each only when the profile states it; a link to the resource alone is not taken as a fact.
- ` + "`is_subunit`" + ` and ` + "`parent_id`" + `: a UK establishment (type ` + "`uk-establishment`" + `, numbers ` + "`BR…`" + `) is a branch of an overseas company: ` + "`is_subunit`" + ` is true, ` + "`parent_id`" + ` is ` + "`branch_company_details.parent_company_number`" + ` when the profile carries it, and it has no deadlines of its own. Its ` + "`has_annual_accounts_duty`" + ` is null and a note says why: the accounts duty is the overseas company's (the Overseas Companies Regulations 2009, SI 2009/1801).
- A community interest company (subtype ` + "`community-interest-company`" + `) shows in ` + "`legal_form`" + ` and a note says it delivers a CIC report (form CIC34) with its accounts.
- ` + "`last_annual_accounts_year`" + `: the year in which the period of the last filed accounts ended.
- ` + "`published_deadlines`" + `: the register's own dates, carried verbatim: ` + "`annual_accounts`" + ` from ` + "`accounts.next_accounts`" + ` (due date, period start and end, overdue flag; the deprecated ` + "`accounts.next_due`" + ` when ` + "`next_accounts`" + ` is absent) and ` + "`confirmation_statement`" + ` from ` + "`confirmation_statement`" + ` (next due date, the end of the review period as period end, overdue flag). The overdue flags are computed by Companies House against its own today.
- ` + "`notes`" + `: the accounting reference date, an insolvency history, a registered office in dispute or undeliverable, a proposal to strike off, overdue filings, an insolvency procedure behind an unknown status, an unknown company type or subtype.
- Fields Companies House does not publish (VAT, employees, share capital, contact details) are null; ` + "`employees_reported`" + ` is false, since the register holds no employee figure for any company.

## Search

Search uses ` + "`GET /search/companies`" + `, which also matches former names. Hits carry the same confidence anchors as every country: 0.95 when the name equals the query (ignoring case), 0.8 when it starts with the query, 0.6 when it contains every word of the query, 0.4 for any other hit; equal scores keep the register's order. ` + "`total`" + ` is the register's ` + "`total_results`" + `. Sole traders are not registered at Companies House and cannot be found.
`
