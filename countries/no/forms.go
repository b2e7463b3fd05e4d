package no

import "github.com/companyregistry/registry/internal/upstream"

// legalForm describes one organisation form (organisasjonsform) of
// Enhetsregisteret. The three duties are nil where the answer depends on
// facts the register does not publish (turnover, balance sheet, staff, the
// law governing a foreign company) or where we found no reliable source;
// nil is "unknown", never "no".
type legalForm struct {
	Code    string
	English string
	Local   string // the register's own label, used when a response lacks one
	// LimitedLiability is true when no owner is personally liable for the
	// entity's debts.
	LimitedLiability tri
	// BoardDuty is true when the law requires a board (styre).
	BoardDuty tri
	// AccountsDuty is true when the entity must file annual accounts
	// (regnskapsloven § 1-2) whatever its size.
	AccountsDuty tri
	// Basis says where the three answers come from, for the rules document.
	Basis string
}

// tri is a yes/no answer that may be unknown. The zero value is unknown.
type tri = upstream.Tri

const (
	unknown = upstream.Unknown
	yes     = upstream.Yes
	no      = upstream.No
)

// legalForms returns the table of the 44 organisation form codes that
// GET /organisasjonsformer publishes, sorted by code. It returns a fresh
// slice on each call.
func legalForms() []legalForm {
	return []legalForm{
		{Code: "AAFY", English: "Sub-unit of a non-business entity", Local: "Underenhet til ikke-næringsdrivende",
			BoardDuty: no, AccountsDuty: no, Basis: "A sub-unit is not a legal person; its main unit has the duties."},
		{Code: "ADOS", English: "Administrative unit of the public sector", Local: "Administrativ enhet - offentlig sektor",
			Basis: "Public sector: governed by public-law rules, not by the Accounting Act."},
		{Code: "ANNA", English: "Other legal person", Local: "Annen juridisk person",
			Basis: "A residual form: the duties depend on the entity's own statute."},
		{Code: "ANS", English: "General partnership (joint and several liability)", Local: "Ansvarlig selskap med solidarisk ansvar",
			LimitedLiability: no, BoardDuty: no, Basis: "Partners are jointly and severally liable (Altinn). Accounts duty (regnskapsloven § 1-2) unless the small-partnership exemption applies, which depends on figures the register does not publish."},
		{Code: "AS", English: "Private limited company", Local: "Aksjeselskap",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Basis: "Aksjeloven § 6-1 (board); regnskapsloven § 1-2 (accounts); liability limited to the share capital (Altinn)."},
		{Code: "ASA", English: "Public limited company", Local: "Allmennaksjeselskap",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Basis: "Allmennaksjeloven § 6-1 (board of at least three); regnskapsloven § 1-2 (accounts)."},
		{Code: "BA", English: "Company with limited liability", Local: "Selskap med begrenset ansvar",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Basis: "A legacy form no longer issued; liability is limited by definition; board and accounts duties as classified by a third party (registry-mcp NORBIZ_SPEC §7), not checked against the law."},
		{Code: "BBL", English: "Housing cooperative association", Local: "Boligbyggelag",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Basis: "Bustadbyggjelagslova (members are not liable; board required); regnskapsloven § 1-2 (accounts)."},
		{Code: "BEDR", English: "Sub-unit of a business or public entity", Local: "Underenhet til næringsdrivende og offentlig forvaltning",
			BoardDuty: no, AccountsDuty: no, Basis: "A sub-unit is not a legal person; its main unit has the duties."},
		{Code: "BO", English: "Other estate", Local: "Andre bo",
			Basis: "An estate under administration; duties follow from the administration, not the legal form."},
		{Code: "BRL", English: "Housing cooperative", Local: "Borettslag",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Basis: "Borettslagslova (members are not liable; board required); regnskapsloven § 1-2 (accounts)."},
		{Code: "DA", English: "General partnership (shared liability)", Local: "Ansvarlig selskap med delt ansvar",
			LimitedLiability: no, BoardDuty: no, Basis: "Partners are liable for their agreed share of all debts (Altinn). Accounts duty unless the small-partnership exemption applies."},
		{Code: "ENK", English: "Sole proprietorship", Local: "Enkeltpersonforetak",
			LimitedLiability: no, BoardDuty: no, Basis: "The owner is liable for all debts (Altinn). Accounts duty only above 20 MNOK in assets or 20 full-time staff (regnskapsloven § 1-2), which the register does not publish."},
		{Code: "EOFG", English: "European economic interest grouping", Local: "Europeisk økonomisk foretaksgruppe",
			Basis: "No source checked for Norwegian duties."},
		{Code: "ESEK", English: "Owner-section condominium", Local: "Eierseksjonssameie",
			Basis: "Duties depend on the size of the condominium (eierseksjonsloven), which the register does not publish."},
		{Code: "FKF", English: "County municipal enterprise", Local: "Fylkeskommunalt foretak",
			Basis: "Public sector: governed by the Local Government Act, not by the Accounting Act."},
		{Code: "FLI", English: "Association, club or institution", Local: "Forening/lag/innretning",
			Basis: "Accounts duty only above 20 MNOK in assets or 20 full-time staff (regnskapsloven § 1-2); board and liability depend on the statutes."},
		{Code: "FYLK", English: "County authority", Local: "Fylkeskommune",
			Basis: "Public sector: governed by the Local Government Act, not by the Accounting Act."},
		{Code: "GFS", English: "Mutual insurance company", Local: "Gjensidig forsikringsselskap",
			BoardDuty: yes, AccountsDuty: yes, Basis: "A financial institution under supervision (regnskapsloven § 1-2; finansforetaksloven)."},
		{Code: "IKJP", English: "Other non-legal person", Local: "Andre ikke-juridiske personer",
			Basis: "A residual form: no duties follow from the legal form."},
		{Code: "IKS", English: "Inter-municipal company", Local: "Interkommunalt selskap",
			LimitedLiability: no, BoardDuty: yes, Basis: "The participants are liable without limit for their share of the debts (IKS-loven § 3); board required (IKS-loven). Excluded from regnskapsloven § 1-2 nr 4; its accounts follow the IKS rules."},
		{Code: "KBO", English: "Bankruptcy estate", Local: "Konkursbo",
			Basis: "An estate under administration; duties follow from the bankruptcy proceedings."},
		{Code: "KF", English: "Municipal enterprise", Local: "Kommunalt foretak",
			Basis: "Public sector: governed by the Local Government Act, not by the Accounting Act."},
		{Code: "KIRK", English: "Church of Norway", Local: "Den norske kirke",
			Basis: "Governed by the Church Act, not by the Accounting Act."},
		{Code: "KOMM", English: "Municipality", Local: "Kommune",
			Basis: "Public sector: governed by the Local Government Act, not by the Accounting Act."},
		{Code: "KS", English: "Limited partnership", Local: "Kommandittselskap",
			LimitedLiability: no, BoardDuty: no, Basis: "The general partner is personally liable (selskapsloven). Accounts duty unless the small-partnership exemption applies."},
		{Code: "KTRF", English: "Office community", Local: "Kontorfellesskap",
			Basis: "A residual form: no duties follow from the legal form."},
		{Code: "NUF", English: "Norwegian-registered foreign enterprise", Local: "Norskregistrert utenlandsk foretak",
			BoardDuty: no, Basis: "A branch of a foreign company: liability follows the foreign company; accounts duty if taxable in Norway (regnskapsloven § 1-2), which the register does not publish."},
		{Code: "OPMV", English: "Separately divided unit for VAT purposes", Local: "Særskilt oppdelt enhet, jf. mval. § 2-2",
			Basis: "Exists for VAT registration only (merverdiavgiftsloven § 2-2)."},
		{Code: "ORGL", English: "Organisational unit of the public sector", Local: "Organisasjonsledd",
			Basis: "Public sector: governed by state rules, not by the Accounting Act."},
		{Code: "PERS", English: "Other individual registered in an associated register", Local: "Andre enkeltpersoner som registreres i tilknyttet register",
			Basis: "A person, not a company: no company duties."},
		{Code: "PK", English: "Pension fund", Local: "Pensjonskasse",
			BoardDuty: yes, AccountsDuty: yes, Basis: "A financial institution under supervision (regnskapsloven § 1-2; finansforetaksloven)."},
		{Code: "PRE", English: "Shipowning partnership", Local: "Partrederi",
			Basis: "Governed by the Maritime Code; no source checked for its duties."},
		{Code: "SA", English: "Cooperative", Local: "Samvirkeforetak",
			LimitedLiability: yes, BoardDuty: yes, Basis: "Members' liability is limited to their contribution (Altinn); board required (samvirkelova). Accounts duty above 2 MNOK in sales (regnskapsloven § 1-2), which the register does not publish."},
		{Code: "SAM", English: "Co-ownership", Local: "Tingsrettslig sameie",
			Basis: "Governed by the Co-ownership Act; no duties follow from the legal form alone."},
		{Code: "SE", English: "European company (Societas Europaea)", Local: "Europeisk selskap",
			LimitedLiability: yes, Basis: "Shareholders are liable only up to their subscribed capital (Regulation (EC) 2157/2001 art. 1)."},
		{Code: "SF", English: "State enterprise", Local: "Statsforetak",
			AccountsDuty: yes, Basis: "Regnskapsloven § 1-2 (accounts)."},
		{Code: "SPA", English: "Savings bank", Local: "Sparebank",
			BoardDuty: yes, AccountsDuty: yes, Basis: "A financial institution under supervision (regnskapsloven § 1-2; finansforetaksloven)."},
		{Code: "STAT", English: "The State", Local: "Staten",
			Basis: "Public sector: governed by state rules, not by the Accounting Act."},
		{Code: "STI", English: "Foundation", Local: "Stiftelse",
			BoardDuty: yes, AccountsDuty: yes, Basis: "Stiftelsesloven (board); regnskapsloven § 1-2 (accounts). A foundation has no owners."},
		{Code: "SÆR", English: "Other enterprise under a special act", Local: "Annet foretak iflg. særskilt lov",
			Basis: "Duties follow from the special act that governs the entity."},
		{Code: "TVAM", English: "Compulsorily registered for VAT", Local: "Tvangsregistrert for MVA",
			Basis: "Exists for VAT registration only."},
		{Code: "UTLA", English: "Foreign entity", Local: "Utenlandsk enhet",
			Basis: "Governed by foreign law."},
		{Code: "VPFO", English: "Securities fund", Local: "Verdipapirfond",
			AccountsDuty: yes, Basis: "Regnskapsloven § 1-2 (accounts)."},
	}
}

// lookupForm returns the table row for code, or false for a code outside
// the table (such as a retired form).
func lookupForm(code string) (legalForm, bool) {
	f, ok := formsByCode[code]
	return f, ok
}

// formsByCode indexes legalForms by code. It is built once and never
// written afterwards.
var formsByCode = func() map[string]legalForm {
	m := make(map[string]legalForm)
	for _, f := range legalForms() {
		m[f.Code] = f
	}
	return m
}()
