package se

import (
	"fmt"
	"strings"

	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/upstream"
)

// Rules returns the registry://rules/SE document in Markdown, built once
// by [New].
func (c *Country) Rules() string { return c.rules }

func buildRules() string {
	var b strings.Builder
	b.WriteString("# Sweden (SE): Bolagsverket\n\n")
	b.WriteString("Registry slug `bolagsverket`. Sources: Bolagsverket's API for the EU high-value datasets, Värdefulla datamängder v1 " +
		"(<" + DefaultBaseURL + ">; OAuth2 client credentials, free on application; 60 requests a minute per user), with fields " +
		"from SCB (Statistics Sweden); and Bolagsverket's keyless bulk file of every registered organisation (<" + DefaultBulkURL +
		">, published weekly). Licence: " + licenseText + "\n\n")

	b.WriteString("## What the operator configures\n\n")
	b.WriteString("- `" + credentialsEnv + "` (`client_id:client_secret`): lookups from the API, the full report. Without it a lookup " +
		"gives the basic report of the bulk file (fewer fields; a note says so and names the variable), or `upstream_error` naming it " +
		"when there is no bulk file either.\n")
	b.WriteString("- `" + bulkFileEnv + "` (the zip or its text) or `" + bulkURLEnv + "` (downloaded weekly into `REGISTRY_DATA_DIR`): " +
		"name searches. Without either, search is `not_implemented` (the API has no name search) and its hint says how to enable it.\n")
	b.WriteString("- Sweden is listed by the countries operation when either is set; `requires_api_key` is true because the full " +
		"report needs the credential.\n\n")

	b.WriteString("## Identifier: organisation number (organisationsnummer)\n\n")
	b.WriteString("- Ten digits, written `556016-0680`; the canonical form (`id`, `normalized`, the API's request) is the ten digits, " +
		"`formatted` the written form. Accepted and normalised: spaces, hyphens and dots, the twelve-digit form with the prefix 16 " +
		"(`165560160680`) and the VAT number `SE556016068001` (SE, the ten digits, 01).\n")
	b.WriteString("- The tenth digit is the Luhn (mod 10) check digit of the ten; the third and fourth digits are at least 20 " +
		"(lag 1974:174), so that a number can never be a date of birth.\n")
	b.WriteString("- **Personal identity numbers.** A sole trader (enskild näringsidkare) is registered under the owner's personnummer " +
		"(third and fourth digits a month, 01–12, or a twelve-digit number starting 18, 19 or 20). This service does not look " +
		"people up: such a number is `invalid_id` whose hint says why, and its check digit is not even checked, so the answer " +
		"says nothing about the person. It never reaches the register, the cache or a log line; the bulk file's rows keyed by " +
		"one are not indexed, so no sole trader appears in search hits, and a search query that holds one is `bad_request`.\n")
	b.WriteString("- Worked example, `556016-0680` (Ericsson): from the right, every second digit doubled (9 subtracted above 9): " +
		"0 + 16→7 + 6 + 0 + 1 + 0 + 6 + 10→1 + 5 + 10→1 = 30, a multiple of 10, so the number is valid.\n\n")

	b.WriteString("## Legal forms\n\n")
	b.WriteString("`legal_form_code` is Bolagsverket's `organisationsform` code; `legal_form` the English label of the table, " +
		"`legal_form_local` the register's Swedish label. The table fills `limited_liability`, `has_board_duty` and " +
		"`has_annual_accounts_duty` (an annual report to Bolagsverket whatever the size) and owns the deadline duties. \"unknown\" " +
		"(null) means the sources do not settle it; it never means \"no\". SCB's coarser legal form (`juridiskForm`) is " +
		"`sector_code`/`sector`, for reference only (the test environment shows an HB carrying 53).\n\n")
	b.WriteString("| Code | Swedish | English | Limited liability | Board | Annual report to Bolagsverket | Deadlines from the form | Basis |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, f := range legalForms() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", f.Code, f.Swedish, f.English, tri(f.LimitedLiability),
			tri(f.BoardDuty), tri(f.AccountsDuty), kinds(f), f.Basis)
	}

	b.WriteString("\n## Status\n\nThe register has no status field; the first rule that applies wins:\n\n")
	b.WriteString("1. `dissolved`: `avregistreradOrganisation` has a date (deregistered); `deregistered_at` is that date and " +
		"`status_detail` names the reason (`avregistreringsorsak`: KKAV konkurs, LIAV likvidation, FUAV fusion, …).\n")
	b.WriteString("2. `bankrupt`: an ongoing procedure KK (konkurs); `bankruptcy_date` is its start.\n")
	b.WriteString("3. `under_liquidation`: an ongoing LI (likvidation, voluntary or compulsory: the code does not tell).\n")
	b.WriteString("4. `under_liquidation`: an ongoing FUOL (being absorbed in a merger) or DEOL (being divided): the organisation " +
		"will be dissolved without a liquidation when the merger or division is registered. The research counts both as " +
		"\"distress or liquidation\" and the interface has no distress status, so the nearest, `under_liquidation`, is used " +
		"(VERIFY: no primary source settles it); `status_detail` and `notes` name the procedure, and the filing duties stay.\n")
	b.WriteString("5. `active`: anything else. FR (företagsrekonstruktion), AC (ackord) and RES (resolution) keep the organisation " +
		"active, with a note; the acquiring side of a merger or division and conversions (FUOT, DEOT, OM, GROM) are noted and " +
		"change nothing. " +
		"SCB's `verksamOrganisation` NEJ (no F-tax, VAT or employer registration) is not a lifecycle status.\n\n" +
		"A deregistration reason without a deregistration date (none, or a value with no digit but 0) does not make the " +
		"organisation `dissolved`: the research keys that status on the date. A note names the reason and the status the " +
		"rules above gave, so that it is never `active` in silence; no source says what such an answer means.\n\n")

	b.WriteString("## Reading Bolagsverket's answer\n\n")
	b.WriteString("- The identifier travels in the POST body, never in a URL. Every block carries `fel`, read before any value: " +
		"`ORGANISATION_FINNS_EJ` on Bolagsverket's blocks is `not_found` (the API answers an unknown organisation with HTTP 200); " +
		"a block whose source is unavailable (`OTILLGANGLIG_UPPGIFTSKALLA`, `TIMEOUT`) is left null, the rest is kept, and " +
		"`notes` say what is missing. A 400 is `invalid_id`; a 401 renews the token once, then is `upstream_error` naming " +
		"the credential.\n")
	b.WriteString("- A deregistration date (`avregistreringsdatum`) or a procedure's start (`fromDatum`) is `YYYY-MM-DD` or, as " +
		"Bolagsverket's OpenAPI example writes them, an RFC 3339 timestamp (`2023-05-05T00:00:00.000+00:00`), whose date is " +
		"taken as written (its first ten characters, not moved to UTC) once the whole timestamp parses (the only example is " +
		"midnight at offset +00:00; which day another time or offset stands for is not settled by a source). A deregistration " +
		"date in any other form is not read: the organisation is still `dissolved` (a deregistration date is there), " +
		"`deregistered_at` is null and `notes` say so, unless the value has no digit but 0 (`0000-00-00`, `-`), which is " +
		"taken for none; a procedure's start in another form is left out.\n")
	b.WriteString("- `name` is the företagsnamn; särskilda företagsnamn and names in other languages are listed in `notes`.\n")
	b.WriteString("- `registered_at` is `organisationsdatum.registreringsdatum`; `activity` the verksamhetsbeskrivning; " +
		"`industry_codes` the SNI 2007 codes (blank padding dropped); `postal_address` the postal address (the register gives no " +
		"visiting address); `registers." + registerTaxed + "` SCB's `verksamOrganisation` (registered for F-tax, VAT or as an " +
		"employer). An advertising block (reklamspärr) is a note. VAT registration is not published: `vat_registered` is null.\n")
	b.WriteString("- The financial year comes from `POST /dokumentlista` (the annual reports filed): the latest report's period " +
		"is `published_deadlines` (kind `annual_accounts`, `period_end`), its year `last_annual_accounts_year`; the deadlines " +
		"read the year end from it.\n")
	b.WriteString("- `source_url` is null: the API takes its question in a POST body and there is no public page per " +
		"organisation.\n\n")

	b.WriteString("## Roles\n\nSweden's open data has no roles: neither the API for the high-value datasets nor the bulk file " +
		"publishes board members, signatories or owners. The roles operation answers `not_implemented` for SE.\n\n")

	b.WriteString("## Search\n\n")
	b.WriteString("From the local index of the bulk file. A search matches the organisations whose current or other names " +
		"contain every word of the query (the last word also as the start of a word; letter case is ignored, diacritics are " +
		"not; the query and the names are read in Unicode normal form C, so letters typed or filed decomposed, such as a " +
		"followed by U+0308 for ä, find what the precomposed ones find, and names are shown in that form). Hits are ranked by the shared scorer: the name equals the query, starts with it, contains every word, other; " +
		"the bulk file's own order breaks ties. `total` is the exact number of matches, however common the words (the totals " +
		"of very common one-word searches are counted when the index is built). The bulk file holds the organisation form, " +
		"names, dates, procedures, description and postal address, so a hit has a legal form, a status and a city. Rows keyed " +
		"by a personal identity number (sole traders) are not indexed. The parser takes UTF-8 or Latin-1, quoted fields or not, " +
		"and the address parts in any order; a malformed file is refused and the index in use kept. While the first index is " +
		"being built (a few minutes for the whole register), search answers `upstream_error` saying so.\n\n")
	b.WriteString(deadlines.SwedenRules())
	return b.String()
}

func tri(t upstream.Tri) string {
	switch t {
	case yes:
		return "yes"
	case no:
		return "no"
	}
	return "unknown"
}

func kinds(f legalForm) string {
	if f.Deadlines == nil {
		return "none modelled"
	}
	d := f.Deadlines
	ks := deadlines.KindList("if applicable",
		deadlines.FormKind{Kind: deadlines.GeneralMeeting, Duty: d.GeneralMeeting},
		deadlines.FormKind{Kind: deadlines.AnnualAccounts, Duty: d.AnnualReport},
		deadlines.FormKind{Kind: deadlines.TaxReturn, Duty: d.TaxRet})
	if d.TaxForm != "" && ks != "" {
		ks += ", "
	}
	return ks + d.TaxForm
}
