package dk

import (
	"context"
	"slices"
	"strconv"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// roleType is the mapping of one function (FUNKTION) of a participant, or
// of an organisation that has none (the register of owners).
type roleType struct {
	Code    string // the register's FUNKTION value, or the organisation's hovedtype
	Group   registry.RoleGroup
	English string
	// Verified is true for the functions seen in the recordings; the others
	// are the register's usual values, not yet seen in an answer.
	Verified bool
}

// roleTypes returns the table of functions, in the order of the rules
// document.
func roleTypes() []roleType {
	return []roleType{
		{"ADM. DIR.", registry.RoleManagement, "Chief executive (administrerende direktør)", true},
		{"DIREKTØR", registry.RoleManagement, "Managing director (direktør)", true},
		{"FORMAND", registry.RoleBoard, "Chair of the board", true},
		{"NÆSTFORMAND", registry.RoleBoard, "Deputy chair of the board", false},
		{"BESTYRELSESMEDLEM", registry.RoleBoard, "Board member", true},
		{"SUPPLEANT", registry.RoleBoard, "Alternate board member (not a sitting member)", false},
		{"INTERESSENTER", registry.RolePartner, "Fully liable partner", true},
		{"EJERREGISTER", registry.RoleOwner, "Legal owner (in the register of owners)", true},
		{"REEL EJER", registry.RoleBeneficialOwner, "Beneficial owner (reel ejer)", true},
		{"REVISION", registry.RoleAuditor, "Auditor", true},
		{"STIFTERE", registry.RoleOther, "Founder", true},
		{"LEDER", registry.RoleOther, "Person in charge, for the anti-money-laundering register", true},
	}
}

// lookupRoleType returns the mapping of a function, by its upper-case
// text.
func lookupRoleType(code string) (roleType, bool) {
	code = strings.ToUpper(clean(code))
	all := roleTypes()
	i := slices.IndexFunc(all, func(t roleType) bool { return t.Code == code })
	if i < 0 {
		return roleType{}, false
	}
	return all[i], true
}

// boardRank orders the board: the chair, the deputy chair, the members,
// the alternates.
func boardRank(code string) int {
	switch strings.ToUpper(code) {
	case "FORMAND":
		return 0
	case "NÆSTFORMAND":
		return 1
	case "SUPPLEANT":
		return 3
	}
	return 2
}

// knownOrganisations are the organisation types (hovedtype) this service
// classifies; the recordings show all of them.
func knownOrganisations() []string {
	return []string{"LEDELSESORGAN", "REGISTER", "REVISION", "STIFTERE", "FULDT_ANSVARLIG_DELTAGERE", "HVIDVASK"}
}

// controlTexts translates the register's texts about a beneficial owner's
// control (SÆRLIGE_EJERFORHOLD, BETYDELIG_INDFLYDELSE_VIA_ROLLE); a text
// not listed is kept in Danish.
func controlTexts() map[string]string {
	return map[string]string{
		"HAR INDIREKTE BESIDDELSER":               "Holds its share indirectly",
		"RET TIL AT UDPEGE LEDELSESMEDLEMMER":     "Has the right to appoint members of the management",
		"ER REEL EJER SOM BESTYRELSESMEDLEM":      "Counted as beneficial owner as a member of the board (no owner with control was found)",
		"ER REEL EJER SOM UDPEGET DAGLIG LEDELSE": "Counted as beneficial owner as a member of the day-to-day management (no owner with control was found)",
	}
}

var _ registry.RolesCountry = (*Country)(nil)

// Roles fetches the participants of the company described by report
// (deltagerRelation) with a term query on its CVR number: the management
// (direktion), the board (bestyrelse), the fully liable partners, the
// founders, the auditor, the legal owners (the register of owners) and the
// beneficial owners (reelle ejere), each function with its own dates;
// ended ones are kept as former roles. A person is given by name only:
// the register's addresses and identifiers of persons are not read.
func (c *Country) Roles(ctx context.Context, report *registry.CompanyReport) (*registry.RolesReport, error) {
	out := &registry.RolesReport{
		Country:   countryCode,
		Registry:  registrySlug,
		ID:        report.ID,
		Name:      report.Name,
		Roles:     []registry.Role{},
		Source:    countrykit.Ptr(sourceName),
		SourceURL: countrykit.Ptr(publicPage + report.ID),
		License:   countrykit.Ptr(licenseText),
		Notes:     []string{},
	}
	co, err := c.find(ctx, report.ID, source{Includes: rolesIncludes})
	if err != nil {
		return nil, err
	}
	roles, notes := mapRoles(co)
	personal := false
	if report.LegalFormCode != nil {
		f, ok := lookupForm(*report.LegalFormCode)
		personal = ok && f.PersonalData
	}
	if personal {
		// The fully liable participant of a person's own business is its
		// owner.
		for i := range roles {
			if roles[i].Group == registry.RolePartner {
				roles[i].Group, roles[i].Role = registry.RoleOwner, "Owner of the sole proprietorship (fully liable)"
			}
		}
	}
	out.Roles = roles
	out.Notes = append(out.Notes, notes...)
	if len(roles) == 0 {
		out.Notes = append(out.Notes, "The register lists no participants for this company.")
	}
	if personal {
		out.Notes = append(out.Notes, "This is a sole proprietorship: its owner is a natural person, who is personally liable for its "+
			"debts. The roles are personal data: handle them with care and do not store or share them beyond the purpose at hand.")
	}
	if rule := attributeValue(co.Attributter, "TEGNINGSREGEL"); rule != "" {
		out.Notes = append(out.Notes, "Who may sign: the register's signing rule (tegningsregel) reads \""+rule+"\".")
	}
	out.Notes = append(out.Notes, "Persons are shown by name only: the register's addresses and identification numbers of persons "+
		"are not part of this answer.")
	return out, nil
}

// mapRoles maps the participants: one role per function of a participant
// in an organisation (a board member who became chair has two), or one per
// organisation without functions (the register of owners), current roles
// first, then by group; within the board the chair comes first.
func mapRoles(co *company) ([]registry.Role, []string) {
	roles := []registry.Role{}
	var notes []string
	unknown := map[string]bool{}
	for _, rel := range co.DeltagerRelation {
		if rel.Deltager == nil {
			continue
		}
		holder, ok := mapHolder(rel.Deltager)
		if !ok {
			continue
		}
		for _, org := range rel.Organisationer {
			if typ := strings.ToUpper(clean(org.Hovedtype)); !slices.Contains(knownOrganisations(), typ) {
				unknown[typ] = true
			}
			roles = append(roles, orgRoles(org, holder)...)
		}
	}
	// The Registry orders roles current first, then by group, keeping this
	// order within a group: put the chair first here.
	groups := registry.RoleGroups()
	key := func(r registry.Role) [3]int {
		cur := 1
		if r.Current {
			cur = 0
		}
		rank := 0
		if r.Group == registry.RoleBoard {
			rank = boardRank(r.RoleCode)
		}
		return [3]int{cur, slices.Index(groups, r.Group), rank}
	}
	slices.SortStableFunc(roles, func(a, b registry.Role) int {
		ka, kb := key(a), key(b)
		return slices.Compare(ka[:], kb[:])
	})
	for code := range unknown {
		notes = append(notes, "The register lists participants in an organisation of type \""+code+"\", which this service does not "+
			"classify; they are shown as other roles unless their function is known.")
	}
	slices.Sort(notes)
	return roles, notes
}

// mapHolder returns a participant's holder: a person by name only, a
// company with its CVR number.
func mapHolder(p *participant) (registry.RoleHolder, bool) {
	nm := ""
	if n := current(p.Navne, func(n *name) period { return n.Periode }); n != nil {
		nm = clean(n.Navn)
	}
	if nm == "" {
		for _, n := range p.Navne {
			if v := clean(n.Navn); v != "" {
				nm = v
			}
		}
	}
	if nm == "" {
		return registry.RoleHolder{}, false
	}
	if strings.ToUpper(clean(p.Enhedstype)) != "VIRKSOMHED" {
		// A person, or a participant of another type: the name only.
		return registry.RoleHolder{Kind: registry.HolderPerson, Name: nm}, true
	}
	h := registry.RoleHolder{Kind: registry.HolderEntity, Name: nm}
	if n, p := idcheck.ParseCVR(string(p.Forretningsnoegle)); p == idcheck.ProblemNone {
		h.ID, h.Country = countrykit.Ptr(n.String()), countrykit.Ptr(countryCode)
	}
	return h, true
}

// orgRoles maps one participant's membership of one organisation.
func orgRoles(org organisation, holder registry.RoleHolder) []registry.Role {
	typ := strings.ToUpper(clean(org.Hovedtype))
	orgName := ""
	if n := current(org.OrganisationsNavn, func(n *name) period { return n.Periode }); n != nil {
		orgName = clean(n.Navn)
	}
	var attrs []attribute
	for _, m := range org.MedlemsData {
		attrs = append(attrs, m.Attributter...)
	}
	var out []registry.Role
	for _, a := range attrs {
		if a.Type != "FUNKTION" {
			continue
		}
		for _, v := range a.Vaerdier {
			fn := clean(string(v.Vaerdi))
			if fn == "" {
				continue
			}
			r := newRole(fn, typ, orgName, holder, v.Periode)
			r.Notes = append(r.Notes, memberNotes(attrs, r.Group, v.Periode)...)
			if r.Group == registry.RoleBeneficialOwner {
				r.Control = control(attrs, v.Periode)
			}
			out = append(out, r)
		}
	}
	if len(out) > 0 {
		return out
	}
	// An organisation without functions (the register of owners): one
	// role spanning its attributes' dates.
	var from, to *registry.Date
	open := false
	for _, a := range attrs {
		for _, v := range a.Vaerdier {
			if d := v.Periode.since(); d != nil && (from == nil || d.Before(*from)) {
				from = d
			}
			if v.Periode.open() {
				open = true
			} else if d := upstream.Date(v.Periode.GyldigTil); d != nil && (to == nil || d.After(*to)) {
				to = d
			}
		}
	}
	if len(attrs) == 0 {
		open = true
	}
	code := typ
	if orgName != "" && typ == "REGISTER" {
		code = strings.ToUpper(orgName)
	}
	span := period{}
	if from != nil {
		span.GyldigFra = from.String()
	}
	if !open && to != nil {
		span.GyldigTil = to.String()
	}
	r := newRole(code, typ, orgName, holder, span)
	if r.Group == registry.RoleOwner || r.Group == registry.RoleBeneficialOwner {
		if s := shares(attrs, span); s != "" {
			r.Notes = append(r.Notes, s)
		}
	}
	if r.Group == registry.RoleBeneficialOwner {
		r.Control = control(attrs, span)
	}
	return []registry.Role{r}
}

// newRole returns the role of function fn (or organisation code) in an
// organisation of hovedtype typ named orgName, held over per.
func newRole(fn, typ, orgName string, holder registry.RoleHolder, per period) registry.Role {
	r := registry.Role{RoleCode: fn, RoleLocal: countrykit.Ptr(fn), Holder: holder, Current: per.open(),
		AppointedAt: per.since(), Control: []string{}, Notes: []string{}}
	if !r.Current {
		r.ResignedAt = upstream.Date(per.GyldigTil)
	}
	if t, ok := lookupRoleType(fn); ok {
		r.Group, r.Role = t.Group, t.English
		return r
	}
	// A function not in the table: classify by the organisation.
	lower := strings.ToLower(orgName)
	switch {
	case typ == "LEDELSESORGAN" && strings.Contains(lower, "direktion"):
		r.Group, r.Role = registry.RoleManagement, "Member of the management ("+fn+")"
	case typ == "LEDELSESORGAN" && (strings.Contains(lower, "bestyrelse") || strings.Contains(lower, "tilsynsråd")):
		r.Group, r.Role = registry.RoleBoard, "Member of the "+orgName+" ("+fn+")"
	case typ == "REVISION":
		r.Group, r.Role = registry.RoleAuditor, "Auditor"
	case typ == "REGISTER" && strings.Contains(lower, "reel"):
		r.Group, r.Role = registry.RoleBeneficialOwner, "Beneficial owner (reel ejer)"
	case typ == "FULDT_ANSVARLIG_DELTAGERE":
		r.Group, r.Role = registry.RolePartner, "Fully liable partner ("+fn+")"
	default:
		r.Group, r.Role = registry.RoleOther, strings.TrimSpace(orgName+" ("+fn+")")
		if orgName == "" {
			r.Role = fn
		}
		if fn == typ {
			r.RoleCode = clean(typ)
		}
	}
	return r
}

// valuesAt returns the values of the attributes of type typ that overlap
// per: those in force while the role was, newest first.
func valuesAt(attrs []attribute, typ string, per period) []string {
	type dated struct{ v, from string }
	var ds []dated
	for _, a := range attrs {
		if a.Type != typ {
			continue
		}
		for _, v := range a.Vaerdier {
			if s := clean(string(v.Vaerdi)); s != "" && overlaps(v.Periode, per) {
				ds = append(ds, dated{s, v.Periode.GyldigFra})
			}
		}
	}
	slices.SortStableFunc(ds, func(a, b dated) int { return strings.Compare(b.from, a.from) })
	var out []string
	for _, d := range ds {
		if !slices.Contains(out, d.v) {
			out = append(out, d.v)
		}
	}
	return out
}

// overlaps reports whether a value held during a role: for a current role,
// a value in force now; for a former one, a value that began before the
// role ended and ended on or after its start.
func overlaps(v, role period) bool {
	if role.open() {
		return v.open()
	}
	end := strings.TrimSpace(role.GyldigTil)
	vFrom, vTo := strings.TrimSpace(v.GyldigFra), strings.TrimSpace(v.GyldigTil)
	return (vFrom == "" || vFrom <= end) && (v.open() || vTo >= strings.TrimSpace(role.GyldigFra))
}

// percent writes a share such as 0.3333 as "33.33 %".
func percent(s string) (string, bool) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || x < 0 || x > 1 {
		return "", false
	}
	return strconv.FormatFloat(float64(int64(x*10000+0.5))/100, 'f', -1, 64) + " %", true
}

// shares describes the newest share of the capital and of the votes held
// during per, or "".
func shares(attrs []attribute, per period) string {
	var parts []string
	if v := valuesAt(attrs, "EJERANDEL_PROCENT", per); len(v) > 0 {
		if p, ok := percent(v[0]); ok {
			parts = append(parts, p+" of the capital")
		}
	}
	if v := valuesAt(attrs, "EJERANDEL_STEMMERET_PROCENT", per); len(v) > 0 {
		if p, ok := percent(v[0]); ok {
			parts = append(parts, p+" of the votes")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Registered share: " + strings.Join(parts, " and ") + "."
}

// control lists a beneficial owner's natures of control during per, in
// plain English: the shares and the special ownership and influence the
// register gives.
func control(attrs []attribute, per period) []string {
	out := []string{}
	if s := shares(attrs, per); s != "" {
		out = append(out, strings.TrimSuffix(strings.TrimPrefix(s, "Registered share: "), "."))
	}
	texts := controlTexts()
	for _, typ := range []string{"SÆRLIGE_EJERFORHOLD", "BETYDELIG_INDFLYDELSE_VIA_ROLLE"} {
		for _, v := range valuesAt(attrs, typ, per) {
			if en, ok := texts[strings.ToUpper(v)]; ok {
				out = append(out, en)
			} else {
				out = append(out, v)
			}
		}
	}
	return out
}

// memberNotes are the notes of a board or management role: how a board
// member was elected (VALGFORM).
func memberNotes(attrs []attribute, group registry.RoleGroup, per period) []string {
	if group != registry.RoleBoard {
		return nil
	}
	var out []string
	for _, v := range valuesAt(attrs, "VALGFORM", per) {
		switch l := strings.ToLower(v); {
		case l == "generalforsamling":
			out = append(out, "Elected by the general meeting.")
		case strings.Contains(l, "medarbejder"):
			out = append(out, "Elected by the employees ("+v+").")
		default:
			out = append(out, "Elected or appointed by: "+v+".")
		}
	}
	return out
}
