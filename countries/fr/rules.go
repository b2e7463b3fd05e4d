package fr

import (
	"fmt"
	"strings"

	"github.com/companyregistry/registry/deadlines"
)

// Rules returns the registry://rules/FR document in Markdown: the
// identifiers (SIREN, SIRET, VAT number, with worked examples), the
// legal-form table by INSEE code family with its duties, the status, the
// personal-data rules, the mapping of the other fields, the search, the
// roles and the deadline rules with their sources.
//
// The document is built once, by [New].
func (c *Country) Rules() string { return c.rules }

// buildRules builds the document [Country.Rules] returns.
func buildRules() string {
	var b strings.Builder
	b.WriteString("# France (FR): Sirene and the RNE, through the API Recherche d'entreprises\n\n")
	b.WriteString("Registry slug `sirene`. Source: the INSEE's Sirene register (legal units and establishments) and INPI's national " +
		"companies register (RNE, the officers), with the active VAT numbers of the DGFiP, through the State's API Recherche " +
		"d'entreprises (DINUM) at <" + DefaultBaseURL + ">; no credential is needed. The API accepts at most 7 requests a second " +
		"per address and 30 per autonomous system, and answers more with HTTP 429 and a `Retry-After` header. Data licence: " +
		"Licence Ouverte / Open Licence 2.0 (etalab-2.0), which asks the reuser to name the source and the date of its last " +
		"update, without suggesting that the State endorses the reuse; `source` carries both (\"mise à jour du ...\", the INSEE " +
		"and RNE dates of the record). That the INPI's RNE data is under the same licence is assumed (VERIFY). Personal-data law " +
		"still applies to natural persons' data. The reports are a transformation of the register's data by this service.\n\n")

	b.WriteString("## Identifiers\n\n")
	b.WriteString("- **SIREN**, the canonical identifier (`id`, `normalized`, cache keys and the API's query): nine digits with a " +
		"Luhn check digit, written `552 032 534`. Spaces (also no-break spaces) and dots are accepted.\n")
	b.WriteString("- **SIRET**, an establishment: the SIREN and a five-digit establishment number (NIC), fourteen digits, " +
		"written `552 032 534 00646`, with a Luhn check over the fourteen digits and over the SIREN. La Poste's establishments " +
		"(SIREN 356000000, except its head office 35600000000048) have a digit sum divisible by 5 instead. A SIRET is looked up " +
		"as such: the report describes its legal unit, and a note says which establishment was asked for (head office or not, " +
		"its address, open or closed).\n")
	b.WriteString("- **VAT number** (numéro de TVA intracommunautaire): `FR`, a two-character key and the SIREN, written " +
		"`FR 27 552 032 534`, in any letter case, with spaces, dots or hyphens; eleven digits without `FR` (`27552032534`) are read " +
		"as a VAT number too, as python-stdnum's `fr.tva` reads them. A numeric key is (12 + 3 × (SIREN mod 97)) mod 97 " +
		"on two digits; a new-style key holds a letter (not I or O) and has its own check. A VAT number resolves to its SIREN. " +
		"Monaco's numbers (digits starting 000) are valid in form but are not SIRENs: rejected.\n")
	b.WriteString("- An identifier that fails its check is answered `invalid_id` without asking the API. The API itself checks " +
		"only the number of digits, and answers some Luhn-invalid numbers with a \"phantom\" record (no name, no état " +
		"administratif): such a record, an answer without a result, or an answer about another unit is `not_found`, never " +
		"the report of another company.\n\n")
	b.WriteString("Worked example: SIREN 552 032 534 (Danone). Luhn from the right: 4, 3×2=6, 5, 2×2=4, 3, 0×2=0, 2, 5×2=10→1, 5; " +
		"the sum 4+6+5+4+3+0+2+1+5 = 30 is a multiple of 10. VAT key: 552032534 mod 97 = 5, (12 + 3 × 5) mod 97 = 27: FR27552032534, " +
		"the number the DGFiP lists for Danone.\n\n")

	b.WriteString("## Legal forms\n\n")
	b.WriteString("`legal_form_code` is the unit's INSEE legal category (catégorie juridique, niveau III, the API's " +
		"`nature_juridique`); `legal_form_local` is INSEE's French label of the code, from the API's own table of 260 codes; " +
		"`legal_form` is the English name of its family below, which also fills `limited_liability`, `has_board_duty` and " +
		"`has_annual_accounts_duty`, gives the column of the VAT schedule (CGI ann. IV art. 39, below) that sets the day of the " +
		"monthly VAT return, and says which deadlines apply. \"unknown\" (null in the report) means the answer depends on " +
		"facts the register does not publish or that no reliable source was found; it never means \"no\". INSEE has no code of " +
		"its own for a single-member SAS (SASU) or SARL (EURL): they are 5710 and 54xx. A code outside every family keeps its " +
		"French label, has null duties and gets only the deadlines that follow from the register (VAT number, employer), its " +
		"VAT return on the day of the \"other taxpayers\" column.\n\n")
	b.WriteString("The VAT column follows the headings of the schedule of CGI annexe IV art. 39 " +
		"(https://legal.tricoteuses.fr/articles/LEGIARTI000006300353): \"entreprises individuelles\", \"sociétés autres que " +
		"les sociétés anonymes\", \"sociétés anonymes\" and the other taxpayers. By code: the individual entrepreneur (1000); " +
		"the sociétés anonymes (55xx, 56xx), with the SCA (5308, 5309, 5370, 5385) and the SE (5800), whose place in the " +
		"schedule is not verified; every other société, commercial or civil (51xx, 52xx, the other 53xx, 54xx, 57xx, 65xx " +
		"including the SCI, and 3120); and the other taxpayers for everything else: associations, foundations, public bodies, " +
		"the GIE (not verified), and the cooperatives, mutual insurers and savings banks of 61xx to 64xx, which no source found " +
		"places (not verified). A société civile, an SCI included, is a société: when the register lists its VAT number it files " +
		"on the day of the second column (in Paris and its inner suburbs the 19th, 20th or 21st by the SIREN's first two " +
		"digits, the 21st elsewhere), never on the 24th of the other taxpayers.\n\n")
	b.WriteString("| Codes | Abbreviation | English | Limited liability | Board required | Files accounts at the greffe | VAT column | Deadlines from the form | Basis |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range formFamilies() {
		codes := f.From
		if f.To != f.From {
			codes += "–" + f.To
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", codes, f.Abbr, f.English, f.LimitedLiability.String(),
			f.BoardDuty.String(), f.AccountsDuty.String(), f.VATColumn, familyKinds(f), f.Basis)
	}

	b.WriteString("\n## Status\n\n")
	b.WriteString("- `active`: état administratif `A` in Sirene.\n")
	b.WriteString("- `dissolved`: état administratif `C` (cessée); `deregistered_at` is its `date_fermeture`.\n")
	b.WriteString("- Insolvency proceedings (sauvegarde, redressement, liquidation judiciaire) are **not in the public data**: a " +
		"unit stays `A` while they run, so `under_liquidation` and `bankrupt` are never given, and a note says so rather than " +
		"guess. A liquidator among the officers (which also appears in voluntary liquidations) adds a note. The authoritative " +
		"source is the BODACC, which this service does not query.\n\n")

	b.WriteString("## Personal data\n\n")
	b.WriteString("- The API writes `[NON-DIFFUSIBLE]` in place of what a person has opposed publishing (statut de diffusion " +
		"partielle): an individual entrepreneur's name, the address of the head office and establishments, the officers' " +
		"names, birth dates and nationality. The module decodes any value holding it as absent: it is never shown, logged, " +
		"cached or indexed as a value, and is never looked up elsewhere. The field is null; a withheld name becomes \"" +
		nameNotPublished + "\" (the report needs a name); a note says that the person opted out. Search hits whose name is " +
		"withheld are left out (and out of `total`); officers whose identity is withheld are left out of the roles, with a note.\n")
	b.WriteString("- An individual entrepreneur's (legal category 1000) record is a person's data, and the head office is often " +
		"the home: a note says so, and the address is shown only as the API gives it.\n")
	b.WriteString("- Officers: a natural person's birth date is published, and shown, as a year and month only.\n\n")

	b.WriteString("## Other fields\n\n")
	b.WriteString("- `name`: `nom_complet` (the name, with the acronym or the usual name in brackets), else `nom_raison_sociale`.\n")
	b.WriteString("- `founded_at`: `date_creation`, the unit's creation date in Sirene. The RCS registration date is not in the " +
		"public API: `registered_at` and `business_register_registered_at` are null.\n")
	b.WriteString("- `business_address`: the head office (siège): the street from its parts (number, repetition index, street " +
		"type and name), the address complement and special distribution, the postcode, the commune (or the CEDEX office) and " +
		"the INSEE commune code as `municipality_code`; abroad, the foreign commune and country.\n")
	b.WriteString("- `industry_codes`: the APE code (`activite_principale`, NAF rév. 2) with its label from the API's table; the " +
		"NAF 2025 code, published in parallel until 2027, is in a note.\n")
	b.WriteString("- `employees` is null: the register publishes a headcount band (tranche d'effectif salarié), which a note " +
		"gives with its label and year.\n")
	b.WriteString("- `vat_number` and `vat_registered`: the first active VAT number the DGFiP lists (`tva`) for this SIREN; when " +
		"the list is empty (often), both are null and a note gives the number built from the SIREN, valid in form only.\n")
	b.WriteString("- `last_annual_accounts_year`: the latest year of `finances`; its turnover and net result are in a note (the " +
		"report has no field for them).\n")
	b.WriteString("- A note \"" + strings.TrimSpace(factsPrefix) + " ...\" lists the register facts the deadlines read and the " +
		"report has no field for: the département of the head office, the headcount band, whether the unit employs staff and, " +
		"for an individual entrepreneur, the first letter of the surname.\n")
	b.WriteString("- Also in notes: the size category (PME, ETI, GE), the number of establishments, the social economy (ESS), " +
		"société à mission and association (RNA) labels. The undocumented `include_admin` fields are never asked for or read.\n\n")

	b.WriteString("## Search\n\n")
	b.WriteString("`GET /search?q={name}&page=1&per_page={n}`, n the smaller of the limit and 25 (the API's largest page); the " +
		"Registry ranks the hits with the shared scorer. `total` is the API's `total_results` (capped by the API at 10,000) less " +
		"the results that cannot be shown (phantom records, withheld names). Queries under three characters are refused " +
		"without a call, as the API would. A query of nine or fourteen digits is a direct lookup for the API.\n\n")

	b.WriteString("## Roles\n\n")
	b.WriteString("The officers (`dirigeants`) come with the same answer as the unit. The API gives each officer's qualité as " +
		"French text, kept as `role_code` and `role_local`; it maps to a group: administrateur, président du conseil " +
		"d'administration and the conseil de surveillance to `board`; président (of a SAS), directeur général (délégué), " +
		"gérant and the directoire to `management`; associé and commandité to `partner`; commissaire aux comptes to `auditor`; " +
		"the liquidator and court-appointed agents to `other`; an individual entrepreneur without a qualité to `owner`. " +
		"The chair of the board (président du conseil d'administration or de surveillance) comes first; the other officers keep " +
		"the API's order. Legal persons carry their SIREN. There are no appointment dates and no former officers.\n\n")

	b.WriteString(deadlines.FranceRules())
	return b.String()
}

// familyKinds lists the deadline kinds a family's form gives, with
// "(conditional)" for a kind that depends on facts the register does not
// show.
func familyKinds(f formFamily) string {
	if f.Public {
		return "none (public body)"
	}
	d := f.Deadlines
	if d == nil {
		return "not modelled"
	}
	out := deadlines.KindList("conditional",
		deadlines.FormKind{Kind: deadlines.GeneralMeeting, Duty: d.GeneralMeeting},
		deadlines.FormKind{Kind: deadlines.FrenchAccountsFiling, Duty: d.AccountsFiling},
		deadlines.FormKind{Kind: deadlines.TaxReturn, Duty: d.CorporateTax},
		deadlines.FormKind{Kind: deadlines.FrenchCorporateTaxInstalment, Duty: d.CorporateTaxInstalments},
		deadlines.FormKind{Kind: deadlines.VATReturn, Duty: d.VAT},
		deadlines.FormKind{Kind: deadlines.FrenchCFE, Duty: d.CFE})
	if out == "" {
		return "none from the form"
	}
	return out
}
