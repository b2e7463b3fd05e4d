package fi

import (
	"fmt"
	"strings"

	"github.com/companyregistry/registry/deadlines"
)

// Rules returns the registry://rules/FI document in Markdown: the
// identifier (format, canonical form and MOD11 check digit with a worked
// example), the legal-form table with its duties, the status precedence,
// the registers and other mapping rules, the search and the deadline rules
// with their sources.
//
// The document is built once, by [New].
func (c *Country) Rules() string { return c.rules }

// buildRules builds the document [Country.Rules] returns.
func buildRules() string {
	var b strings.Builder
	b.WriteString("# Finland (FI): YTJ, the Finnish Business Information System\n\n")
	b.WriteString("Registry slug `prh`. Source: Patentti- ja rekisterihallitus (PRH, the Finnish Patent and Registration Office) and " +
		"the Tax Administration, through PRH's open data API v3 at <" + DefaultBaseURL + ">; no credential is needed. Data licence: " +
		"Creative Commons Attribution 4.0 (CC BY 4.0), <https://creativecommons.org/licenses/by/4.0/>. Attribution: \"Source: " +
		"Patentti- ja rekisterihallitus (PRH), YTJ.\" PRH's terms add that a service using the data does not use the PRH or YTJ logo " +
		"and does not present itself so that it can be confused with the official source. The reports are a transformation of the " +
		"register's data by this service. PRH allows about 300 queries a minute, shared by all users of the API.\n\n")

	b.WriteString("## Identifier: business ID (Y-tunnus)\n\n")
	b.WriteString("- Seven digits, a hyphen and a check digit: `0112038-9`, the written form, as the register publishes the ID and " +
		"as it is printed on Finnish invoices; it is `id_formatted`, validation's `formatted` and what the register is asked for " +
		"(`businessId=0112038-9`).\n")
	b.WriteString("- The canonical form, letters and digits only as every `id` of this service, is the eight digits `01120389`: the " +
		"`id` of reports, hits and deadline reports (`company_id`), validation's `normalized`, and the cache key.\n")
	b.WriteString("- Accepted and normalised: the written form, the form without the hyphen, spaces and dashes between the digits, a " +
		"leading `FI` and the VAT number (`FI01120389`). The old written form without the leading zero (`112038-9`) is rejected: add the zero.\n")
	b.WriteString("- The check digit is MOD11 over the seven digits with the weights 7, 9, 10, 5, 8, 4, 2. With r the weighted sum " +
		"modulo 11, the check digit is 0 when r is 0 and 11 − r otherwise; when r is 1, no business ID starting with those seven " +
		"digits is ever issued.\n")
	b.WriteString("- An ID that fails the check is answered `invalid_id` without asking the register.\n\n")
	b.WriteString(workedExample("01120389"))

	b.WriteString("\n## Legal forms\n\n")
	b.WriteString("`legal_form_code` is the register's numeric `companyForms` type of the form in force; `legal_form` and " +
		"`legal_form_local` are the register's own English and Finnish descriptions (the table's labels when a response has none). " +
		"The table below fills `limited_liability`, `has_board_duty` and `has_annual_accounts_duty` (filing the financial " +
		"statements with the Trade Register whatever the size) and says which form-dependent deadlines apply. \"unknown\" (null " +
		"in the report) means the answer depends on facts the register does not publish or that no reliable source was found; " +
		"it never means \"no\". Codes 16 and 17 are confirmed by the register's answers; the other numeric codes come from a " +
		"third party's list, so a row is used only when the register's Finnish description of the form equals the row's. Any " +
		"other form keeps the register's labels, has null duties and gets only the deadlines that follow from its register " +
		"entries (VAT, employer).\n\n")
	b.WriteString("| Code | Abbreviation | Finnish | English | Limited liability | Board required | Files financial statements | Deadlines from the form | Basis |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range legalForms() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			f.Code, f.Abbr, f.Finnish, f.English, f.LimitedLiability.String(), f.BoardDuty.String(), f.AccountsDuty.String(),
			formKinds(f), f.Basis)
	}

	b.WriteString("\n## Status\n\n")
	b.WriteString("The first rule that applies wins:\n\n")
	b.WriteString("1. `dissolved`: the company has a top-level `endDate` (it has ceased); `deregistered_at` is that date.\n")
	b.WriteString("2. `bankrupt`: a company situation `KONK` (konkurssi) in force; `bankruptcy_date` is its registration date.\n")
	b.WriteString("3. `under_liquidation`: a company situation `SELTILA` (selvitystila) in force.\n")
	b.WriteString("4. `active`: a company situation `SANE` (yrityssaneeraus, restructuring) in force: while the proceedings run, the " +
		"company carries on its business and keeps its filing duties; `status_detail` and a note say so.\n")
	b.WriteString("5. `active`: `tradeRegisterStatus` \"1\" or `status` \"2\" (the codes of every registered company in the " +
		"register's answers).\n")
	b.WriteString("6. `unknown`: anything else; `status_detail` repeats the register's codes. Third parties disagree about the other " +
		"codes of STATUS3 and REK_KDI, so no other meaning is assumed.\n\n")

	b.WriteString("## Registers and other fields\n\n")
	b.WriteString("- `registers` holds the six registers YTJ publishes, read by their code in `registeredEntries` (never by their " +
		"description, whose wording changes between languages and over time), from entries in force: `" + registerTrade +
		"` (register 1, the Trade Register; the pre-registration entry \"Unregistered\" does not count), `" + registerTaxBasic +
		"` (4, the Tax Administration's basic data; no duty in itself), `" + registerPrepayment +
		"` (5, the prepayment register), `" + registerVAT + "` (6, the VAT register), `" + registerEmployer + "` (7, the " +
		"employer register) and `" + registerInsurancePremium + "` (8, the register of insurance premium taxpayers). A register " +
		"whose entries have all ended, or that the company has no entry in, is false.\n")
	b.WriteString("- `vat_registered` is the VAT register; `vat_registered_at` the date of the entry for business activity (type 80), " +
		"else the earliest entry in force; `vat_number` is `FI` and the eight digits (`FI01120389`), only when VAT-registered.\n")
	b.WriteString("- `in_business_register` is the Trade Register; `business_register_registered_at` the company's top-level " +
		"`registrationDate` (its Trade Register date), else the entry's date; `registered_at` the date the business ID was granted " +
		"(`businessId.registrationDate`). The register does not publish a founding date: `founded_at` is null.\n")
	b.WriteString("- `name` is the main name (type 1) in force; `previous_names` the ended main names, newest first. Parallel names " +
		"(type 2, the name in other languages) and auxiliary names (type 3) in force are listed in `notes`, and so is the EUID.\n")
	b.WriteString("- `industry_codes` holds `mainBusinessLine` with rank 1 and its English description; the scheme follows its code " +
		"set: TOL 2008 (`TOIMI3`) or TOL 2025 (`TOIMI4`, used by the register since 1 January 2026).\n")
	b.WriteString("- `business_address` is the street address (type 1), `postal_address` the postal address (type 2): `c/o`, street, " +
		"building, entrance and apartment, `PL` and the post office box; the Finnish post town; the municipality code. Addresses " +
		"without a country are Finnish.\n")
	b.WriteString("- `website` is the register's URL as written (usually without a scheme). The register publishes no e-mail, phone, " +
		"employees or share capital: these are null.\n")
	b.WriteString("- `source_url` is the register's open data answer for the company.\n")
	b.WriteString("- A sole trader (yksityinen elinkeinonharjoittaja) is a person: the report carries a note that its data is " +
		"personal data. Whether the open data lists sole traders at all is not settled by the sources we have.\n")

	b.WriteString("\n## Search\n\n")
	b.WriteString("Searches company names with `GET /companies?name=...`; the register matches current, previous, parallel and " +
		"auxiliary names, answers full companies 100 a page, and orders them by business ID, not by relevance. This service takes " +
		"the first page and the Registry ranks its hits. A hit is thin: look its id up before acting on it.\n\n")

	b.WriteString(deadlines.FinlandRules())
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// formKinds lists the deadline kinds that follow from a form, "mandatory"
// or "if applicable".
func formKinds(f legalForm) string {
	if f.Deadlines == nil {
		return "none modelled"
	}
	d := f.Deadlines
	return deadlines.KindList("if applicable",
		deadlines.FormKind{Kind: deadlines.GeneralMeeting, Duty: d.GeneralMeeting},
		deadlines.FormKind{Kind: deadlines.FinancialStatements, Duty: d.FinancialStatements},
		deadlines.FormKind{Kind: deadlines.TaxReturn, Duty: d.TaxReturn})
}

// workedExample explains the MOD11 check of a valid business ID (its eight
// digits) as a Markdown paragraph.
func workedExample(n string) string {
	weights := [7]int{7, 9, 10, 5, 8, 4, 2}
	var terms []string
	sum := 0
	for i, w := range weights {
		d := int(n[i] - '0')
		terms = append(terms, fmt.Sprintf("%d×%d", d, w))
		sum += d * w
	}
	r := sum % 11
	step := "r is 0, so the check digit is 0"
	if r > 1 {
		step = fmt.Sprintf("11 − %d = %d", r, 11-r)
	}
	return fmt.Sprintf("Worked example, `%s-%c` (Nokia Oyj): %s = %d; %d mod 11 = %d; %s, which is the digit after the hyphen (%c), so the ID is valid.\n",
		n[:7], n[7], strings.Join(terms, " + "), sum, sum, r, step, n[7])
}
