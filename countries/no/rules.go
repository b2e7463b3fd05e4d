package no

import (
	"fmt"
	"strings"

	"github.com/companyregistry/registry/deadlines"
)

// Rules returns the registry://rules/NO document in Markdown: the
// identifier (format and MOD11 check digit with a worked example), the
// organisation form table, the status precedence, the other mapping rules,
// the search confidence anchors and the deadline rules with their sources.
//
// The document is built once, by [New].
func (c *Country) Rules() string { return c.rules }

// buildRules builds the document [Country.Rules] returns.
func buildRules() string {
	var b strings.Builder
	b.WriteString("# Norway (NO): Enhetsregisteret, the Central Coordinating Register for Legal Entities\n\n")
	b.WriteString("Registry slug `brreg`. Source: Brønnøysundregistrene (the Brønnøysund Register Centre), open API at " +
		"<" + DefaultBaseURL + ">; no credential is needed. Data licence: Norwegian Licence for Open Government Data " +
		"(NLOD) 2.0, <https://data.norge.no/nlod/en/2.0>. Attribution: \"Contains data under the Norwegian licence for " +
		"Open Government data (NLOD) distributed by the Brønnøysund Register Centre.\" The reports are a transformation " +
		"of the register's data by this service.\n\n")

	b.WriteString("## Identifier: organisasjonsnummer\n\n")
	b.WriteString("- Nine digits. People write it in groups of three (`923 609 016`); the VAT form adds `NO` before and " +
		"`MVA` after (`NO 923 609 016 MVA`). Spaces, dots, hyphens and slashes between the digits, a leading `NO` and a " +
		"trailing `MVA` are accepted and removed; the canonical form is the nine digits.\n")
	b.WriteString("- The ninth digit is a MOD11 check digit over the first eight with the weights 3, 2, 7, 6, 5, 4, 3, 2. " +
		"With r the weighted sum modulo 11, the check digit is 0 when r is 0 and 11 − r otherwise. When 11 − r is 10, no " +
		"valid number starts with those eight digits.\n")
	b.WriteString("- A number that fails the check is answered `invalid_id` without asking the register (the register " +
		"does not check digits itself and would answer 404).\n\n")
	b.WriteString(workedExample("923609016"))

	b.WriteString("\n## Organisation forms\n\n")
	b.WriteString("`legal_form_code` is the register's `organisasjonsform.kode`; `legal_form_local` is the register's own " +
		"label; `legal_form` is the English label from the table below. The three duty columns fill " +
		"`limited_liability`, `has_board_duty` and `has_annual_accounts_duty` (the duty to send annual accounts to " +
		"Regnskapsregisteret). The same rows give the deadline engine the duties of each form, so the report's flags and " +
		"the deadline list always agree: an accounts duty of yes lists a mandatory `annual_accounts`, no lists none, and " +
		"unknown lists it with `mandatory: false` when the duty depends on facts the register does not publish. \"unknown\" (null in the report) means " +
		"the answer depends on facts the register does not publish (turnover, balance sheet, staff, foreign law) " +
		"or that no reliable source was found; it never means \"no\". A code outside this table (such as a retired " +
		"form) has a null English label, null duties and a note.\n\n")
	b.WriteString("| Code | English | Norwegian | Limited liability | Board required | Annual accounts duty | Basis |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, f := range legalForms() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n",
			f.Code, f.English, f.Local, f.LimitedLiability.String(), f.BoardDuty.String(), accountsWord(f), f.Basis)
	}

	b.WriteString("\n## Status\n\n")
	b.WriteString("The first rule that applies wins:\n\n")
	b.WriteString("1. `deleted`: the unit has a deletion date (`slettedato`) or the register calls it `SlettetEnhet`. " +
		"A deleted unit is still answered (HTTP 200) with a reduced record; `deregistered_at` is the deletion date.\n")
	b.WriteString("2. `bankrupt`: the flag `konkurs` is set; `bankruptcy_date` is `konkursdato`.\n")
	b.WriteString("3. `under_compulsory_liquidation`: the flag `underTvangsavviklingEllerTvangsopplosning` is set " +
		"(compulsory liquidation or dissolution, for example for missing annual accounts).\n")
	b.WriteString("4. `under_liquidation`: the flag `underAvvikling` is set (voluntary liquidation).\n")
	b.WriteString("5. `dissolved`: a sub-unit with a closing date (`nedleggelsesdato`) but no deletion date.\n")
	b.WriteString("6. `active`: none of the above.\n\n")
	b.WriteString("`status_detail` names the flag the status came from; `notes` repeats every flag that is set, with its date.\n")

	b.WriteString("\n## Other fields\n\n")
	b.WriteString("- A number that `/enheter` does not know is looked up in `/underenheter`: such a report has " +
		"`is_subunit: true`, `parent_id` from `overordnetEnhet`, the location address (`beliggenhetsadresse`) as " +
		"`business_address` and the start date (`oppstartsdato`) as `founded_at`.\n")
	b.WriteString("- The register answers 410 Gone for a unit it has removed from its open data (for example for legal " +
		"reasons). This service answers `not_found` with a hint saying so and deletes any cached copy.\n")
	b.WriteString("- `vat_number` is `NO` + the number + `MVA`, present only when the unit is in the VAT register " +
		"(`registrertIMvaregisteret`).\n")
	b.WriteString("- `employees` is `antallAnsatte`. The register does not publish counts below five: when it holds a " +
		"count (`harRegistrertAntallAnsatte`) but publishes none, `employees_reported` is true and `employees` is " +
		"null, never an invented 0. When `harRegistrertAntallAnsatte` is false (no registered employees; the register " +
		"never publishes a count of 0), `employees_reported` is false and `employees` stays null; the deadlines then list " +
		"the payroll report with `mandatory: false`, as for a count of 0.\n")
	b.WriteString("- `registers` holds the unit's national sub-register flags: `foretaksregisteret` (Register of " +
		"Business Enterprises), `mvaregisteret` (VAT Register), `stiftelsesregisteret` (Register of Foundations), " +
		"`frivillighetsregisteret` (Register of Non-Profit Organisations) and `partiregisteret` (Register of " +
		"Political Parties).\n")
	b.WriteString("- `industry_codes` are `naeringskode1` to `naeringskode3` (ranks 1 to 3) in the Norwegian standard " +
		"industrial classification (SN, based on NACE); `share_capital` is `kapital.belop` in `kapital.valuta`; " +
		"`purpose` and `activity` join the register's text lines with spaces; `previous_names` lists " +
		"`historiskeNavn` newest first, each name once.\n")
	b.WriteString("- Sole proprietorships (`ENK`) are registered in a person's name: their data is personal data, and " +
		"the report carries a note saying so.\n")
	b.WriteString("- `source_url` is the register's public web page of the unit " +
		"(`https://virksomhet.brreg.no/nb/oppslag/enheter/{id}` or `.../underenheter/{id}`).\n")

	b.WriteString("\n## Search\n\n")
	b.WriteString("Searches main units by name (`GET /enheter?navn=...`). Names are registered in upper case and often " +
		"end in AS, ASA or NUF. Each hit has a confidence: 0.95 when its name equals the query (ignoring letter " +
		"case), 0.8 when its name starts with the query, 0.6 when its name contains every word of the query, and " +
		"0.4 for any other hit the register returned. Hits are sorted by confidence; equal scores keep the " +
		"register's order. A hit is thin: look its id up before acting on it.\n\n")

	b.WriteString(rolesRules())
	profiles := make([]deadlines.NorwegianDuties, 0, len(legalForms()))
	for _, f := range legalForms() {
		if f.AccountsIfRegistered == "" {
			profiles = append(profiles, f.duties(nil))
			continue
		}
		// The form in Foretaksregisteret has its own profile (the accounts,
		// and the tax return they presume, are mandatory): the document
		// lists both so that it agrees with the engine.
		registered, other := true, f.duties(nil)
		in := f.duties(&registered)
		in.Code += " (when in Foretaksregisteret)"
		other.Code += " (otherwise)"
		profiles = append(profiles, in, other)
	}
	b.WriteString(deadlines.NorwayRules(profiles))
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// accountsWord returns the annual accounts column of f's row: "yes", "no",
// "unknown", or the condition under which the duty applies.
func accountsWord(f legalForm) string {
	switch f.Accounts.Duty {
	case deadlines.DutyYes:
		return "yes"
	case deadlines.DutyNo:
		return "no"
	case deadlines.DutyConditional:
		if f.AccountsIfRegistered != "" {
			return "yes when in Foretaksregisteret, else unknown (depends on facts the register does not publish)"
		}
		return "unknown (depends on facts the register does not publish)"
	}
	return "unknown"
}

// workedExample explains the MOD11 check of a valid organisation number as
// a Markdown paragraph.
func workedExample(n string) string {
	var terms []string
	sum := 0
	for i := range 8 {
		d := int(n[i] - '0')
		w := int(orgNrWeightsForDocs[i] - '0')
		terms = append(terms, fmt.Sprintf("%d×%d", d, w))
		sum += d * w
	}
	r := sum % 11
	step := "r is 0, so the check digit is 0"
	if r != 0 {
		step = fmt.Sprintf("11 − %d = %d", r, 11-r)
	}
	return fmt.Sprintf("Worked example, `%s` (Equinor ASA): %s = %d; %d mod 11 = %d; %s, which is the ninth digit (%c), so the number is valid.\n",
		n, strings.Join(terms, " + "), sum, sum, r, step, n[8])
}

// orgNrWeightsForDocs are the MOD11 weights, one ASCII digit each.
const orgNrWeightsForDocs = "32765432"
