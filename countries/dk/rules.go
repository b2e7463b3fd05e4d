package dk

import (
	"fmt"
	"strings"

	"github.com/companyregistry/registry/deadlines"
)

// Rules returns the registry://rules/DK document in Markdown: the
// identifier (format, canonical form and modulus-11 check with a worked
// example), the legal-form table with its duties, the status precedence,
// the other mapping rules with the care due to personal data, the search,
// the roles and the deadline rules with their sources.
//
// The document is built once, by [New].
func (c *Country) Rules() string { return c.rules }

// buildRules builds the document [Country.Rules] returns.
func buildRules() string {
	var b strings.Builder
	b.WriteString("# Denmark (DK): CVR, Det Centrale Virksomhedsregister\n\n")
	b.WriteString("Registry slug `cvr`. Source: Erhvervsstyrelsen (the Danish Business Authority), through the CVR distribution, its " +
		"system-to-system Elasticsearch service at <" + DefaultBaseURL + ">. The distribution needs a credential (HTTP Basic user name " +
		"and password) that Erhvervsstyrelsen issues free of charge on application; the operator sets it in `" + CredentialsEnv +
		"` as `username:password`, and without it Denmark is not listed and every call except validation answers `upstream_error`. " +
		"Licence: " + licenseText + " No rate limit is published; this service keeps a polite budget of its own. The reports are " +
		"a transformation of the register's data by this service.\n\n")

	b.WriteString("## Identifier: CVR number (CVR-nummer)\n\n")
	b.WriteString("- Eight digits, the first not 0: `22756214`. The canonical form, used as `id`, `normalized` and `formatted`, in " +
		"cache keys and in the register's query (a term on `Vrvirksomhed.cvrNummer`), is the eight digits, as the register publishes them.\n")
	b.WriteString("- Accepted and normalised: spaces, dots, hyphens, commas, slashes and colons anywhere (`22 75 62 14`, `2275/6214`; the characters python-stdnum's `dk.cvr` removes), and a leading `DK`, so the " +
		"VAT form `DK22756214` works too. A P-number (a production unit's ten digits) is another scheme and is rejected.\n")
	b.WriteString("- The eighth digit is a modulus-11 check digit (Erhvervsstyrelsen, \"Modulus 11 kontrol\"): weigh the first seven " +
		"digits 2, 7, 6, 5, 4, 3, 2 and take the sum modulo 11, r; the check digit is 0 when r is 0 and 11 − r otherwise, and when r " +
		"is 1 no CVR number starts with those digits. Equivalently (python-stdnum's `dk.cvr`), the eight digits weighted 2, 7, 6, 5, " +
		"4, 3, 2, 1 sum to a multiple of 11.\n")
	b.WriteString("- A number that fails the check is answered `invalid_id` without asking the register.\n\n")
	b.WriteString(workedExample("13748136"))

	b.WriteString("\n## Legal forms\n\n")
	b.WriteString("`legal_form_code` is the register's `virksomhedsformkode` of the form in force; `legal_form_local` is the register's " +
		"own long description (`langBeskrivelse`), and `legal_form` the English label of the table below. The table fills " +
		"`limited_liability`, `has_board_duty` and `has_annual_accounts_duty` (an annual report to Erhvervsstyrelsen whatever the " +
		"circumstances) and says which deadlines follow from the form. \"unknown\" (null in the report) means the answer depends on " +
		"facts the register does not publish or that no reliable source was found; it never means \"no\". The codes and descriptions " +
		"come from a third party's aggregation over the live register (2025-09-08); the recordings confirm 40, 60, 80 and 90. Any " +
		"other code keeps the register's description, has null duties and gets no deadlines.\n\n")
	b.WriteString("| Code | Short | Danish | English | Limited liability | Board required | Files an annual report | Deadlines from the form | Basis |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range legalForms() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			f.Code, f.Abbr, f.Danish, f.English, f.LimitedLiability.String(), f.BoardDuty.String(), f.AccountsDuty.String(),
			formKinds(f), f.Basis)
	}

	b.WriteString("\n## Status\n\n")
	b.WriteString("The register's status is the open entries of `virksomhedsstatus`, else `virksomhedMetadata.sammensatStatus` " +
		"(`virksomhedsstatus` can be empty for an active company). The first rule that applies wins:\n\n")
	b.WriteString("1. `dissolved`: the lifespan (`livsforloeb`) has ended, or a status `OPLØST…` (every kind of dissolution), " +
		"`TVANGSOPLØST`, `SLETTET` or `Ophørt`; `deregistered_at` is the end date.\n")
	b.WriteString("2. `bankrupt`: `UNDER KONKURS`; `bankruptcy_date` is the status's start.\n")
	b.WriteString("3. `under_compulsory_liquidation`: `UNDER TVANGSOPLØSNING` (dissolution by the probate court).\n")
	b.WriteString("4. `under_liquidation`: `UNDER FRIVILLIG LIKVIDATION`.\n")
	b.WriteString("5. `active`: `UNDER REKONSTRUKTION` (reconstruction): the company carries on and keeps its duties; a note says so.\n")
	b.WriteString("6. `active`: `NORMAL` or `AKTIV`, or no status at all with an open lifespan.\n")
	b.WriteString("7. `unknown`: anything else (`UNDER REASSUMERING`, `UDEN RETSVIRKNING`, a value not seen); `status_detail` names " +
		"the value. How the register computes `sammensatStatus` is not documented (VERIFY).\n\n")

	b.WriteString("## Fields\n\n")
	b.WriteString("- `name` is the name in force (`navne`), `previous_names` the ended ones, newest first; secondary names (`binavne`) in " +
		"force are listed in `notes`.\n")
	b.WriteString("- `registered_at` is the start of the lifespan (`livsforloeb`), `founded_at` the founding date " +
		"(`virksomhedMetadata.stiftelsesDato`). Denmark has one register, so `in_business_register` and " +
		"`business_register_registered_at` are null, and `registers` is empty.\n")
	b.WriteString("- `industry_codes`: the main industry (`hovedbranche`, rank 1) and the secondary ones (`bibranche1`–`3`) in force, " +
		"six-digit codes of " + industryScheme + ", with the register's Danish text.\n")
	b.WriteString("- `employees`: the register publishes monthly, quarterly and yearly figures, often only as an interval (such as " +
		"`ANTAL_20_49`). The newest figure counts: `employees` is its exact count when the register gives one, else null; " +
		"`employees_reported` says whether any figure exists; a note gives the period and the interval.\n")
	b.WriteString("- `purpose` is the statutory purpose (`FORMÅL`), `share_capital` and `share_capital_currency` the capital in force " +
		"(`KAPITAL`, `KAPITALVALUTA`).\n")
	b.WriteString("- `business_address` is the location address (`beliggenhedsadresse`), `postal_address` the postal address when the " +
		"register gives one: c/o, street and house number with floor and door, post box, free text and locality; post code and " +
		"district; the municipality and its three-digit code.\n")
	b.WriteString("- `website`, `email` and `phone` are the register's contact details in force that are not secret (`hemmelig`).\n")
	b.WriteString("- VAT registration is not in the register: `vat_registered` and `vat_number` are null, and a note gives the VAT number " +
		"the company has if it is registered (`DK` and the CVR number; VIES can confirm it).\n")
	b.WriteString("- The financial year (`REGNSKABSÅR_START/SLUT`) and the first financial period (`FØRSTE_REGNSKABSPERIODE_START/SLUT`) " +
		"are given in `notes`, in a fixed form the deadlines operation reads back: the report has no field for them.\n")
	b.WriteString("- `source_url` is the company's public page on datacvr.virk.dk (the distribution itself needs a credential).\n\n")

	b.WriteString("## Personal data and advertising protection\n\n")
	b.WriteString("- A sole proprietorship (codes 10 ENK and 15 PMV) and an estate (20) are a person's business: their report and roles " +
		"carry a note that the data, name and address included, is personal data, to be handled with care.\n")
	b.WriteString("- Roles name persons by name only. The register's addresses and identification numbers (CPR) of persons are not even " +
		"decoded; no birth date is published or shown.\n")
	b.WriteString("- A company marked `reklamebeskyttet` carries a note: Erhvervsstyrelsen's terms forbid using its data for unsolicited " +
		"marketing.\n\n")

	b.WriteString("## Search\n\n")
	b.WriteString("A match query on `Vrvirksomhed.navne.navn` (current and former names), asking for as many rows as the Registry ranks " +
		"(at least 20, at most 100); the Registry scores the hits against the query. `total` is the register's count of matches, and " +
		"`truncated` says when it is more than the hits returned. A hit is thin: look its id up before acting on it.\n\n")

	b.WriteString("## Roles\n\n")
	b.WriteString("From the participants (`deltagerRelation`): one role per function of a participant in an organisation, with its " +
		"own dates (a board member who became chair has two roles, the first one former). Ended functions are former roles " +
		"(`current` false). A company holding a role carries its CVR number. The signing rule (`TEGNINGSREGEL`) is quoted in " +
		"`notes`.\n\n")
	b.WriteString("| Function or organisation | Group | Role | Seen in a recording |\n|---|---|---|---|\n")
	for _, t := range roleTypes() {
		seen := "yes"
		if !t.Verified {
			seen = "no"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", t.Code, t.Group, t.English, seen)
	}
	b.WriteString("\nA function not in the table is classified by its organisation: a management (`Direktion`) or board " +
		"(`Bestyrelse`, `Tilsynsråd`), the auditors (`REVISION`), the beneficial owners, the fully liable partners; anything else is " +
		"`other`. Legal owners (the register of owners, `EJERREGISTER`) carry their registered share of the capital and votes in " +
		"`notes`; beneficial owners (`Reelle ejere`) carry theirs and the register's special ownership and influence in `control`. " +
		"A board member's election (`VALGFORM`) is a note.\n\n")

	b.WriteString(deadlines.DenmarkRules())
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// formKinds lists the deadline kinds that follow from a form, "mandatory"
// or "if applicable".
func formKinds(f legalForm) string {
	if f.Deadlines == nil {
		return "none computed"
	}
	d := f.Deadlines
	return deadlines.KindList("if applicable",
		deadlines.FormKind{Kind: deadlines.AnnualReport, Duty: d.AnnualReport},
		deadlines.FormKind{Kind: deadlines.GeneralMeeting, Duty: d.GeneralMeeting},
		deadlines.FormKind{Kind: deadlines.TaxReturn, Duty: d.TaxReturn},
		deadlines.FormKind{Kind: deadlines.TaxPrepayment, Duty: d.TaxPrepayment},
		deadlines.FormKind{Kind: deadlines.TaxBalance, Duty: d.TaxBalance},
		deadlines.FormKind{Kind: deadlines.VATReturn, Duty: d.VAT},
		deadlines.FormKind{Kind: deadlines.EmployerWithholding, Duty: d.Employer})
}

// workedExample explains the modulus-11 check of a valid CVR number as a
// Markdown paragraph.
func workedExample(n string) string {
	weights := [8]int{2, 7, 6, 5, 4, 3, 2, 1}
	var terms []string
	sum := 0
	for i, w := range weights[:7] {
		d := int(n[i] - '0')
		terms = append(terms, fmt.Sprintf("%d×%d", d, w))
		sum += d * w
	}
	r := sum % 11
	step := "r is 0, so the check digit is 0"
	if r > 1 {
		step = fmt.Sprintf("11 − %d = %d", r, 11-r)
	}
	return fmt.Sprintf("Worked example, `%s` (Erhvervsstyrelsen's own): %s = %d; %d mod 11 = %d; %s, which is the eighth digit (%c), so the number is valid.\n",
		n, strings.Join(terms, " + "), sum, sum, r, step, n[7])
}
