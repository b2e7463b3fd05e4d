package no

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// acceptRoles is the media type asked of /enheter/{orgnr}/roller: the
// 1.5.0 specification lists application/json as the only type the path
// produces.
const acceptRoles = "application/json"

// The register's own address of the Fullmakt service, which serves the
// registered signing and procuration rules that /roller does not carry.
const fullmaktURL = "https://data.brreg.no/fullmakt/enheter/"

var _ registry.RolesCountry = (*Country)(nil)

// Roles fetches the roles of the unit described by report from
// GET /enheter/{orgnr}/roller. A sub-unit (underenhet) has no roles of its
// own: it is answered with the roles of its parent unit and a note. A unit
// the register has removed from its open data (410) is not_found with Gone
// set; a 400 is invalid_id; 429, 5xx, a body that is not JSON or larger
// than 4 MiB are mapped as for Lookup. A 404 for a unit the Registry has
// just looked up (a deleted unit, for instance) is a report without roles
// and a note, not an error.
//
// Every role the register lists is kept: roles flagged avregistrert (or,
// before June 2026, fratraadt) as former ones (current false). A person's
// birth date is cut to its year and month.
//
// API docs: https://data.brreg.no/enhetsregisteret/api/dokumentasjon/en/index.html
func (c *Country) Roles(ctx context.Context, report *registry.CompanyReport) (*registry.RolesReport, error) {
	out := &registry.RolesReport{
		Country:   countryCode,
		Registry:  registrySlug,
		ID:        report.ID,
		Name:      report.Name,
		Roles:     []registry.Role{},
		Source:    countrykit.Ptr(sourceName),
		SourceURL: countrykit.Ptr(humanURL(report.ID, report.IsSubunit)),
		License:   countrykit.Ptr(licenseText),
		Notes:     []string{},
	}
	target := report.ID
	if report.IsSubunit {
		parent := ""
		if report.ParentID != nil {
			parent = strings.TrimSpace(*report.ParentID)
		}
		if _, p := idcheck.ParseOrgNr(parent); parent == "" || p != idcheck.ProblemNone || len(parent) != 9 {
			out.Notes = append(out.Notes, "This is a sub-unit (underenhet): it has no roles of its own, and the register gives no parent unit whose roles could be shown.")
			return out, nil
		}
		target = parent
		out.SourceURL = countrykit.Ptr(humanURL(parent, false))
		out.Notes = append(out.Notes, "This is a sub-unit (underenhet), which has no roles of its own: the roles shown are those of its parent unit "+parent+", the legal entity.")
	}
	a, err := c.get(ctx, "/enheter/"+url.PathEscape(target)+"/roller", nil, acceptRoles)
	if err != nil {
		return nil, err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusNotFound:
		out.Notes = append(out.Notes, "Enhetsregisteret publishes no roles for this unit (its roles endpoint answered 404, as it does for some deleted units).")
		out.Notes = append(out.Notes, signingNote(target))
		return out, nil
	case http.StatusGone:
		return nil, gone(c.up.Reject(a, registry.CodeNotFound,
			"The roles of the unit with organisation number "+target+" have been removed from Enhetsregisteret's open data.",
			"The register has removed this unit from its open data (for example for legal reasons) and asks copies to delete it: do not retry, and do not keep earlier copies."))
	case http.StatusBadRequest:
		return nil, c.up.Reject(a, registry.CodeInvalidID,
			"Enhetsregisteret rejected the organisation number "+target+" as malformed.",
			"Do not retry the same number: give the nine digits of the organisation number, such as 923 609 016.")
	default:
		return nil, c.up.StatusError(a)
	}
	var doc rolesDoc
	if err := c.up.Decode(a.Body, &doc, "a roles answer"); err != nil {
		return nil, err
	}
	roles, notes := mapRoles(&doc)
	out.Roles = roles
	out.Notes = append(out.Notes, notes...)
	if len(roles) == 0 {
		out.Notes = append(out.Notes, "Enhetsregisteret lists no roles for this unit.")
	}
	if isSoleProprietorship(report, roles) {
		out.Notes = append(out.Notes, "This is a sole proprietorship (ENK): its owner (innehaver) is a natural person, who is personally liable for its debts. The roles are personal data: handle them with care and do not store or share them beyond the purpose at hand.")
	}
	out.Notes = append(out.Notes, signingNote(target))
	return out, nil
}

// isSoleProprietorship reports whether the unit is an ENK, by its legal
// form or by an owner (INNH) role.
func isSoleProprietorship(report *registry.CompanyReport, roles []registry.Role) bool {
	if report.LegalFormCode != nil && *report.LegalFormCode == "ENK" {
		return true
	}
	return slices.ContainsFunc(roles, func(r registry.Role) bool { return r.RoleCode == "INNH" })
}

// signingNote says where the registered signing rule is found.
func signingNote(orgnr string) string {
	return "Who may sign: the roles list who holds a signature (signatur) or procuration (prokura) role, not the registered rule that combines them (such as \"the chair alone\" or \"two board members jointly\"). " +
		"That rule is served by Brønnøysund's separate Fullmakt service (" + fullmaktURL + orgnr + "/signatur and " + fullmaktURL + orgnr + "/prokura), which this service does not query; check it there before relying on a signature."
}

// rolesDoc is the answer of GET /enheter/{orgnr}/roller.
type rolesDoc struct {
	Rollegrupper []roleGroupDoc `json:"rollegrupper"`
}

// roleGroupDoc is one role group (STYR, DAGL, REVI, ...).
type roleGroupDoc struct {
	Type       *codeText  `json:"type"`
	SistEndret string     `json:"sistEndret"`
	Roller     []roleItem `json:"roller"`
}

// roleItem is one role: its type, exactly one holder object (person, enhet
// or bostyrer) and its flags.
type roleItem struct {
	Type                        *codeText           `json:"type"`
	Person                      *rolePerson         `json:"person"`
	Enhet                       *roleEntity         `json:"enhet"`
	Bostyrer                    *roleTrustee        `json:"bostyrer"`
	Fratraadt                   *bool               `json:"fratraadt"`
	Avregistrert                *bool               `json:"avregistrert"`
	Rekkefolge                  upstream.FlexInt    `json:"rekkefolge"`
	ValgtAv                     *codeText           `json:"valgtAv"`
	Ansvarsandel                upstream.FlexString `json:"ansvarsandel"`
	StadfestetFremtidsfullmakt  *bool               `json:"stadfestetFremtidsfullmakt"`
	BegrensetRettsligHandleevne *bool               `json:"begrensetRettsligHandleevne"`
}

// rolePerson is a natural person holding a role. The open API gives the
// full birth date; only its year and month are kept.
type rolePerson struct {
	Fodselsdato string `json:"fodselsdato"`
	Navn        *struct {
		Fornavn    string `json:"fornavn"`
		Mellomnavn string `json:"mellomnavn"`
		Etternavn  string `json:"etternavn"`
	} `json:"navn"`
	ErDoed *bool `json:"erDoed"`
}

// roleEntity is a unit holding a role; its name comes as fragments.
type roleEntity struct {
	Organisasjonsnummer string    `json:"organisasjonsnummer"`
	Organisasjonsform   *codeText `json:"organisasjonsform"`
	Navn                flexLines `json:"navn"`
	ErSlettet           *bool     `json:"erSlettet"`
	Godkjenningsstatus  string    `json:"godkjenningsstatus"`
}

// roleTrustee is the third holder shape, a trustee in bankruptcy
// (bostyrer): one name string and a postal address.
type roleTrustee struct {
	Navn        flexLines `json:"navn"`
	Postadresse *address  `json:"postadresse"`
	ErDoed      *bool     `json:"erDoed"`
}

// roleType is the mapping of one role type code.
type roleType struct {
	Code    string
	Group   registry.RoleGroup
	English string
	Local   string
	// Verified is true for the codes seen in real or documented
	// responses; the others come from role-type lists of third-party
	// clients.
	Verified bool
}

// roleTypes returns the table of role type codes, in the order of the
// rules document.
func roleTypes() []roleType {
	return []roleType{
		{"DAGL", registry.RoleManagement, "Chief executive (general manager)", "Daglig leder", true},
		{"LEDE", registry.RoleBoard, "Chair of the board", "Styrets leder", true},
		{"NEST", registry.RoleBoard, "Deputy chair of the board", "Nestleder", true},
		{"MEDL", registry.RoleBoard, "Board member", "Styremedlem", true},
		{"VARA", registry.RoleBoard, "Alternate board member (deputy, not a sitting member)", "Varamedlem", true},
		{"OBS", registry.RoleBoard, "Board observer (no vote)", "Observatør", false},
		{"SIGN", registry.RoleSignatory, "Signatory", "Signatur", false},
		{"SIFE", registry.RoleSignatory, "Signatory, jointly with others", "Signatur i fellesskap", false},
		{"SIHV", registry.RoleSignatory, "Signatory, each alone", "Signatur hver for seg", false},
		{"PROK", registry.RoleProcuration, "Holder of procuration (prokura)", "Prokura", false},
		{"POFE", registry.RoleProcuration, "Holder of procuration, jointly with others", "Prokura i fellesskap", false},
		{"POHV", registry.RoleProcuration, "Holder of procuration, each alone", "Prokura hver for seg", false},
		{"DTPR", registry.RolePartner, "Partner with shared (pro rata) liability", "Deltaker med delt ansvar", true},
		{"DTSO", registry.RolePartner, "Partner with full (joint and several) liability", "Deltaker med fullt ansvar", false},
		{"KOMP", registry.RolePartner, "General partner of a limited partnership", "Komplementar", false},
		{"INNH", registry.RoleOwner, "Owner of the sole proprietorship", "Innehaver", true},
		{"EIKM", registry.RoleOwner, "Owning municipality", "Eierkommune", false},
		{"BEST", registry.RoleManagement, "Managing owner of a shipowning partnership", "Bestyrende reder", false},
		{"FFØR", registry.RoleManagement, "Business manager", "Forretningsfører", false},
		{"KTRF", registry.RoleMember, "Member of an office community", "Inngår i kontorfellesskap", false},
		{"REVI", registry.RoleAuditor, "Auditor", "Revisor", true},
		{"REGN", registry.RoleAccountant, "External accountant", "Regnskapsfører", true},
		{"BOBE", registry.RoleOther, "Trustee in bankruptcy (administers the bankruptcy estate)", "Bostyrer", true},
		{"KONT", registry.RoleOther, "Contact person", "Kontaktperson", false},
		{"REPR", registry.RoleOther, "Norwegian representative of a foreign entity", "Norsk representant for utenlandsk enhet", false},
		{"KDEB", registry.RoleOther, "Bankruptcy debtor", "Konkursdebitor", false},
		{"KENK", registry.RoleOther, "Person whose personal bankruptcy this is", "Den personlige konkursen angår", false},
		{"HLSE", registry.RoleOther, "Health trust", "Helseforetak", false},
		{"KIRK", registry.RoleOther, "Part of a joint parish council", "Inngår i kirkelig fellesråd", false},
		{"OPMV", registry.RoleOther, "Separately divided unit (for VAT) of", "Er særskilt oppdelt enhet av", false},
		{"ORGL", registry.RoleOther, "Organisational unit of", "Organisasjonsledd", false},
		{"ADOS", registry.RoleOther, "Administrative unit of the public sector", "Administrativ enhet - offentlig sektor", false},
		{"HFOR", registry.RoleOther, "Information on the enterprise in its home country", "Opplysninger om foretaket i hjemlandet", false},
	}
}

// lookupRoleType returns the mapping of a role type code.
func lookupRoleType(code string) (roleType, bool) {
	all := roleTypes()
	i := slices.IndexFunc(all, func(t roleType) bool { return t.Code == code })
	if i < 0 {
		return roleType{}, false
	}
	return all[i], true
}

// boardRank orders the board's role types: the chair first, then the
// deputy chair, the members, the alternates and the observers. Other
// codes rank with the members.
func boardRank(code string) int {
	switch code {
	case "LEDE":
		return 0
	case "NEST":
		return 1
	case "VARA":
		return 3
	case "OBS":
		return 4
	}
	return 2
}

// electedBy names who elected a board member, by the register's valgtAv
// code.
func electedBy(v *codeText) string {
	code, local := strings.TrimSpace(v.Kode), strings.TrimSpace(v.Beskrivelse)
	var english string
	switch code {
	case "AREP":
		english = "Elected by the employees"
	case "A-AK":
		english = "Elected by the A shareholders"
	case "B-AK":
		english = "Elected by the B shareholders"
	}
	switch {
	case english != "" && local != "":
		return english + " (" + local + ", " + code + ")."
	case english != "":
		return english + " (" + code + ")."
	case local != "" && code != "":
		return "Elected as: " + local + " (" + code + ")."
	case local != "":
		return "Elected as: " + local + "."
	case code != "":
		return "Elected as: " + code + "."
	}
	return ""
}

// mapRoles maps the register's role groups to roles, in the register's
// order (within a group the chair first, then by rekkefolge), and returns
// the notes about what it could not map. It never fails and never puts a
// person's name or birth date in a note.
func mapRoles(doc *rolesDoc) ([]registry.Role, []string) {
	roles := []registry.Role{}
	var notes []string
	skipped := map[string]int{}
	for _, g := range doc.Rollegrupper {
		items := slices.Clone(g.Roller)
		slices.SortStableFunc(items, func(a, b roleItem) int {
			if c := cmp.Compare(boardRank(codeOf(a.Type)), boardRank(codeOf(b.Type))); c != 0 {
				return c
			}
			// A role with a rekkefolge comes before one without; two
			// without keep the register's order (a total order, so the
			// stable sort is well defined).
			switch {
			case a.Rekkefolge.Set && b.Rekkefolge.Set:
				return cmp.Compare(a.Rekkefolge.Value, b.Rekkefolge.Value)
			case a.Rekkefolge.Set:
				return -1
			case b.Rekkefolge.Set:
				return 1
			}
			return 0
		})
		groupCode := codeOf(g.Type)
		for _, it := range items {
			code := codeOf(it.Type)
			if code == "" {
				code = groupCode
			}
			r, ok := mapRole(code, &it)
			if !ok {
				skipped[code]++
				continue
			}
			roles = append(roles, r)
		}
	}
	for _, code := range slices.Sorted(maps.Keys(skipped)) {
		label := code
		if label == "" {
			label = "without a code"
		}
		notes = append(notes, fmt.Sprintf("%d role(s) of type %s have a holder this service cannot read (neither a person, a unit nor a trustee) and are left out.", skipped[code], label))
	}
	return roles, notes
}

// codeOf returns a trimmed code, or "" for nil.
func codeOf(t *codeText) string {
	if t == nil {
		return ""
	}
	return strings.TrimSpace(t.Kode)
}

// mapRole maps one role; ok is false when it has no holder this service
// can read.
func mapRole(code string, it *roleItem) (registry.Role, bool) {
	r := registry.Role{RoleCode: code, Current: !isSet(it.Avregistrert) && !isSet(it.Fratraadt), Control: []string{}, Notes: []string{}}
	local := ""
	if it.Type != nil {
		local = strings.TrimSpace(it.Type.Beskrivelse)
	}
	if t, ok := lookupRoleType(code); ok {
		r.Group, r.Role = t.Group, t.English
		if local == "" {
			local = t.Local
		}
	} else {
		r.Group = registry.RoleOther
		r.Role = "Role not in this service's table (code " + code + ")"
		if local != "" {
			r.Role = "Role not in this service's table: " + local
		}
		if code == "" {
			r.Role = "Role without a code"
		}
	}
	r.RoleLocal = countrykit.StringOrNil(local)

	switch {
	case it.Person != nil:
		r.Holder = personHolder(it.Person)
		if isSet(it.Person.ErDoed) {
			r.Notes = append(r.Notes, "The register marks this person as deceased.")
		}
	case it.Enhet != nil:
		r.Holder = entityHolder(it.Enhet)
		if s := strings.TrimSpace(it.Enhet.Godkjenningsstatus); s != "" {
			r.Notes = append(r.Notes, "Approval status: "+s+".")
		}
		if isSet(it.Enhet.ErSlettet) {
			r.Notes = append(r.Notes, "The unit holding this role is deleted from the register.")
		}
	case it.Bostyrer != nil:
		r.Holder = registry.RoleHolder{Kind: registry.HolderPerson, Name: strings.Join(nonEmpty(it.Bostyrer.Navn), " "), Deceased: upstream.CloneBool(it.Bostyrer.ErDoed)}
		r.Notes = append(r.Notes, "A trustee in bankruptcy (bostyrer), appointed by the court to administer the bankruptcy estate; the register gives a name and a postal address, no birth date.")
		if isSet(it.Bostyrer.ErDoed) {
			r.Notes = append(r.Notes, "The register marks this person as deceased.")
		}
	default:
		return registry.Role{}, false
	}

	if isSet(it.Avregistrert) {
		r.Notes = append(r.Notes, "The register flags this role as deregistered (avregistrert) and gives no date: a former role.")
	} else if isSet(it.Fratraadt) {
		r.Notes = append(r.Notes, "The register flags this role as resigned (fratraadt) and gives no date: a former role.")
	}
	if it.ValgtAv != nil {
		if s := electedBy(it.ValgtAv); s != "" {
			r.Notes = append(r.Notes, s)
		}
	}
	if s := strings.TrimSpace(string(it.Ansvarsandel)); s != "" {
		r.Notes = append(r.Notes, "Share of the liability for the entity's debts: "+s+".")
	}
	if isSet(it.StadfestetFremtidsfullmakt) {
		r.Notes = append(r.Notes, "The register records a confirmed lasting power of attorney (stadfestet fremtidsfullmakt) for this holder.")
	}
	if isSet(it.BegrensetRettsligHandleevne) {
		r.Notes = append(r.Notes, "The register records that this holder has limited legal capacity (begrenset rettslig handleevne).")
	}
	return r, true
}

// personHolder maps a person: the name's parts joined, the birth date cut
// to year and month.
func personHolder(p *rolePerson) registry.RoleHolder {
	h := registry.RoleHolder{Kind: registry.HolderPerson, Deceased: upstream.CloneBool(p.ErDoed)}
	if p.Navn != nil {
		h.Name = strings.Join(nonEmpty([]string{p.Navn.Fornavn, p.Navn.Mellomnavn, p.Navn.Etternavn}), " ")
	}
	if d := date(p.Fodselsdato); d != nil {
		y, m := d.Year, int(d.Month)
		h.BirthYear, h.BirthMonth = &y, &m
	}
	return h
}

// entityHolder maps a unit: its organisation number, its name fragments
// joined, its legal form as the register labels it.
func entityHolder(e *roleEntity) registry.RoleHolder {
	h := registry.RoleHolder{Kind: registry.HolderEntity, Name: strings.Join(nonEmpty(e.Navn), " ")}
	if id := strings.TrimSpace(e.Organisasjonsnummer); id != "" {
		h.ID = &id
		h.Country = countrykit.Ptr(countryCode)
	}
	if f := e.Organisasjonsform; f != nil {
		if s := strings.TrimSpace(f.Beskrivelse); s != "" {
			h.LegalForm = &s
		} else {
			h.LegalForm = countrykit.StringOrNil(strings.TrimSpace(f.Kode))
		}
	}
	return h
}

// nonEmpty returns the trimmed non-empty strings of s.
func nonEmpty(s []string) []string {
	out := make([]string, 0, len(s))
	for _, x := range s {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// rolesRules is the roles section of the rules document.
func rolesRules() string {
	var b strings.Builder
	b.WriteString("## Roles\n\n")
	b.WriteString("The roles operation reads `GET /enheter/{orgnr}/roller`, one call without paging. Each role is mapped " +
		"on its role type code (`roller[].type.kode`), never on the text; `role_local` is the register's own label. " +
		"A code missing from the table below is kept with group `other` and its code; a role whose holder is neither a " +
		"person, a unit nor a trustee is left out with a note.\n\n")
	b.WriteString("- Holders: a person (`person`: the name's parts joined; the birth date cut to `birth_year` and " +
		"`birth_month`, never the day; `deceased` from `erDoed`), a unit (`enhet`: `id` is its organisation number, " +
		"`country` NO, `legal_form` the register's label, the name fragments joined; an approval status and a deleted " +
		"unit become notes) or a trustee in bankruptcy (`bostyrer`: a person with a name and no birth date).\n")
	b.WriteString("- A role flagged `avregistrert` (or, before 16 June 2026, `fratraadt`) is kept as a former role " +
		"(`current: false`); the register gives no date, so `resigned_at` and `appointed_at` are null.\n")
	b.WriteString("- Order: current before former, then by group (board first), then within a register group the " +
		"chair, deputy chair, members, alternates and observers, each in the register's `rekkefolge`.\n")
	b.WriteString("- Notes per role: who elected a board member (`valgtAv`, e.g. employee-elected), a partner's share " +
		"of liability (`ansvarsandel`), a lasting power of attorney or limited legal capacity when the register " +
		"records one.\n")
	b.WriteString("- A sub-unit has no roles of its own: it is answered with the roles of its parent unit " +
		"(`overordnetEnhet`) and a note. A 404 of the roles endpoint for a unit the lookup found is an empty list " +
		"with a note.\n")
	b.WriteString("- Signing: the roles name who holds a signature (`SIGN`, `SIFE`, `SIHV`) or procuration (`PROK`, " +
		"`POFE`, `POHV`) role, not the registered rule that combines them. That rule is served by Brønnøysund's " +
		"separate Fullmakt service (`" + fullmaktURL + "{orgnr}/signatur` and `/prokura`), which this service does " +
		"not query; every report says so in a note.\n")
	b.WriteString("- A sole proprietorship's owner (`INNH`) is a natural person: the report says so, and roles are " +
		"never written to logs. Brønnøysund's terms (enhetsregisterloven § 22) allow an overview of one person's " +
		"roles across units only for roles in business activities.\n\n")
	b.WriteString("| Code | Group | English | Norwegian | Seen in a real or documented response |\n|---|---|---|---|---|\n")
	for _, t := range roleTypes() {
		seen := "no (from third-party role lists)"
		if t.Verified {
			seen = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", t.Code, t.Group, t.English, t.Local, seen)
	}
	b.WriteString("\n")
	return b.String()
}
