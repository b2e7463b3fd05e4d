package gb

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// The bounds of one roles report. Every page is one request against the API
// key's quota (600 requests per five minutes) and all of them run inside
// one attempt of the Registry's upstream timeout, so a report makes at most
// maxOfficerPages + maxPSCPages + 1 = 7 requests: 200 officers, 200 persons
// with significant control and 25 PSC statements. A list longer than that
// is cut and the report says so.
const (
	// officersPerPage is the page size asked of /officers: the research
	// advises at most 50 (the service caps some appointment lists at 50).
	officersPerPage = 50
	maxOfficerPages = 4
	// pscPerPage is the largest page the PSC service answers.
	pscPerPage  = 100
	maxPSCPages = 2
	// statementsPerPage is the PSC statements' default page size; one
	// page is read.
	statementsPerPage = 25
)

var _ registry.RolesCountry = (*Country)(nil)

// Roles fetches the officers (GET /company/{n}/officers), the persons with
// significant control (GET /company/{n}/persons-with-significant-control)
// and the PSC statements (GET /company/{n}/persons-with-significant-control-statements)
// of the company described by report, following pages up to the bounds
// above. Resigned officers and ceased PSCs are kept as former roles; PSC
// statements become notes. A 404 of a list, which older versions of the
// API sent for an empty one, is an empty list. Errors are those of
// Lookup; every request goes through the module's client (API key,
// bounded body, no redirects).
//
// API docs: https://developer-specs.company-information.service.gov.uk/companies-house-public-data-api/reference/officers/list
// and https://developer-specs.company-information.service.gov.uk/companies-house-public-data-api/reference/persons-with-significant-control/list
func (c *Country) Roles(ctx context.Context, report *registry.CompanyReport) (*registry.RolesReport, error) {
	id := report.ID
	if n, p := idcheck.ParseCompanyNumber(id); p != idcheck.ProblemNone || n.String() != id {
		return nil, c.errorf(registry.CodeInvalidID, idcheck.UKReason(p), idcheck.UKHint(p))
	}
	base := "/company/" + url.PathEscape(id)
	out := &registry.RolesReport{
		Country:   CountryCode,
		Registry:  RegistrySlug,
		ID:        id,
		Name:      report.Name,
		Roles:     []registry.Role{},
		Source:    countrykit.Ptr(sourceName),
		SourceURL: countrykit.Ptr(companyURL(id) + "/officers"),
		License:   countrykit.Ptr(licence),
		Notes:     []string{},
	}

	officers, err := fetchList[officerItem](ctx, c, base+"/officers", officersPerPage, maxOfficerPages, id)
	if err != nil {
		return nil, err
	}
	for i := range officers.items {
		out.Roles = append(out.Roles, mapOfficer(&officers.items[i]))
	}
	if n := officers.note("officers", officersPerPage, maxOfficerPages); n != "" {
		out.Notes = append(out.Notes, n)
	}

	pscs, err := fetchList[pscItem](ctx, c, base+"/persons-with-significant-control", pscPerPage, maxPSCPages, id)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for i := range pscs.items {
		p := &pscs.items[i]
		out.Roles = append(out.Roles, mapPSC(p))
		if self := strings.TrimSpace(p.Links.Self); self != "" && strings.TrimSpace(p.Name) != "" {
			names[self] = strings.TrimSpace(p.Name)
		}
	}
	if n := pscs.note("persons with significant control", pscPerPage, maxPSCPages); n != "" {
		out.Notes = append(out.Notes, n)
	}

	statements, err := fetchList[statementItem](ctx, c, base+"/persons-with-significant-control-statements", statementsPerPage, 1, id)
	if err != nil {
		return nil, err
	}
	for i := range statements.items {
		if n := statementNote(&statements.items[i], names); n != "" {
			out.Notes = append(out.Notes, n)
		}
	}
	if n := statements.note("PSC statements", statementsPerPage, 1); n != "" {
		out.Notes = append(out.Notes, n)
	}

	if len(officers.items) == 0 {
		out.Notes = append(out.Notes, "Companies House lists no officers for this company.")
	}
	if len(pscs.items) == 0 && len(statements.items) == 0 {
		out.Notes = append(out.Notes, "Companies House lists no persons with significant control and no PSC statement for this company.")
	}
	out.Notes = append(out.Notes, "Companies House registers no chair or chief executive: the board is the set of current directors. "+
		"Persons with significant control (group beneficial_owner) are those the company has notified; their natures of control are Companies House's own descriptions.")
	return out, nil
}

// listPage is one page of an officer, PSC or statement list.
type listPage[T any] struct {
	Items        []T  `json:"items"`
	TotalResults *int `json:"total_results"`
}

// list is the outcome of reading a list page by page.
type list[T any] struct {
	items []T
	// total is the largest total_results the register gave (0 when it
	// gave none).
	total int
	// bounded is true when the page bound stopped the reading while the
	// register counted more items.
	bounded bool
}

// fetchList reads up to maxPages pages of perPage items of path, following
// start_index, and stops at the register's total_results or at an empty
// page. A 404 is an empty list.
func fetchList[T any](ctx context.Context, c *Country, path string, perPage, maxPages int, id string) (list[T], error) {
	var l list[T]
	start := 0
	for page := 0; page < maxPages; page++ {
		q := url.Values{}
		q.Set("items_per_page", strconv.Itoa(perPage))
		q.Set("start_index", strconv.Itoa(start))
		body, err := c.get(ctx, endpointList, path, q, id)
		if err != nil {
			return l, err
		}
		if body == nil {
			return l, nil
		}
		var p listPage[T]
		if err := c.decode(body, &p); err != nil {
			return l, err
		}
		l.items = append(l.items, p.Items...)
		start += len(p.Items)
		if p.TotalResults != nil {
			// The largest count seen: a later page may count anew.
			l.total = max(l.total, *p.TotalResults)
		}
		if len(p.Items) == 0 || start >= l.total {
			return l, nil
		}
		if page == maxPages-1 {
			l.bounded = true
		}
	}
	return l, nil
}

// note says when the report holds fewer items than the register counts.
func (l list[T]) note(what string, perPage, maxPages int) string {
	if l.total <= len(l.items) {
		return ""
	}
	if l.bounded {
		return fmt.Sprintf("Companies House lists %d %s; this report holds the first %d, the most this service reads for one report (%d page(s) of %d). See the register's own page for the rest.",
			l.total, what, len(l.items), maxPages, perPage)
	}
	return fmt.Sprintf("Companies House counts %d %s but sent only %d; the list may be incomplete.", l.total, what, len(l.items))
}

// dateOfBirth is a person's month and year of birth; the register publishes
// no day.
type dateOfBirth struct {
	Month flexString `json:"month"`
	Year  flexString `json:"year"`
}

// yearMonth returns the year and month, or nils when either is unusable.
func (d *dateOfBirth) yearMonth() (*int, *int) {
	if d == nil {
		return nil, nil
	}
	y, err1 := strconv.Atoi(string(d.Year))
	m, err2 := strconv.Atoi(string(d.Month))
	if err1 != nil || err2 != nil || y < 1800 || y > 9999 || m < 1 || m > 12 {
		return nil, nil
	}
	return &y, &m
}

// officerItem is one item of /company/{n}/officers.
type officerItem struct {
	Name               string       `json:"name"`
	OfficerRole        string       `json:"officer_role"`
	AppointedOn        string       `json:"appointed_on"`
	AppointedBefore    string       `json:"appointed_before"`
	ResignedOn         string       `json:"resigned_on"`
	DateOfBirth        *dateOfBirth `json:"date_of_birth"`
	Nationality        string       `json:"nationality"`
	CountryOfResidence string       `json:"country_of_residence"`
	Identification     *struct {
		IdentificationType string `json:"identification_type"`
		RegistrationNumber string `json:"registration_number"`
		PlaceRegistered    string `json:"place_registered"`
		LegalAuthority     string `json:"legal_authority"`
		LegalForm          string `json:"legal_form"`
	} `json:"identification"`
}

// officerRole is the mapping of one officer_role value.
type officerRole struct {
	Code  string
	Group registry.RoleGroup
	// Label is the value's English label in Companies House's
	// enumeration (constants.yml, officer_role).
	Label string
}

// officerRoles returns the table of officer_role values: every value of
// Companies House's enumeration, each with its group.
func officerRoles() []officerRole {
	return []officerRole{
		{"director", registry.RoleBoard, "Director"},
		{"corporate-director", registry.RoleBoard, "Director"},
		{"nominee-director", registry.RoleBoard, "Nominee Director"},
		{"corporate-nominee-director", registry.RoleBoard, "Nominee Director"},
		{"secretary", registry.RoleSecretary, "Secretary"},
		{"corporate-secretary", registry.RoleSecretary, "Secretary"},
		{"nominee-secretary", registry.RoleSecretary, "Nominee Secretary"},
		{"corporate-nominee-secretary", registry.RoleSecretary, "Nominee Secretary"},
		{"llp-member", registry.RolePartner, "LLP Member"},
		{"corporate-llp-member", registry.RolePartner, "LLP Member"},
		{"llp-designated-member", registry.RolePartner, "LLP Designated Member"},
		{"corporate-llp-designated-member", registry.RolePartner, "LLP Designated Member"},
		{"general-partner-in-a-limited-partnership", registry.RolePartner, "General partner"},
		{"corporate-general-partner-in-a-limited-partnership", registry.RolePartner, "General partner"},
		{"limited-partner-in-a-limited-partnership", registry.RolePartner, "Limited partner"},
		{"corporate-limited-partner-in-a-limited-partnership", registry.RolePartner, "Limited partner"},
		{"managing-officer", registry.RoleManagement, "Managing Officer"},
		{"corporate-managing-officer", registry.RoleManagement, "Managing Officer"},
		{"manager-of-an-eeig", registry.RoleManagement, "Manager of an EEIG"},
		{"corporate-manager-of-an-eeig", registry.RoleManagement, "Manager of an EEIG"},
		{"cic-manager", registry.RoleManagement, "CIC Manager"},
		{"member-of-a-management-organ", registry.RoleMember, "Member of a Management Organ"},
		{"corporate-member-of-a-management-organ", registry.RoleMember, "Member of a Management Organ"},
		{"member-of-a-supervisory-organ", registry.RoleMember, "Member of a Supervisory Organ"},
		{"corporate-member-of-a-supervisory-organ", registry.RoleMember, "Member of a Supervisory Organ"},
		{"member-of-an-administrative-organ", registry.RoleMember, "Member of an Administrative Organ"},
		{"corporate-member-of-an-administrative-organ", registry.RoleMember, "Member of an Administrative Organ"},
		{"judicial-factor", registry.RoleOther, "Judicial Factor"},
		{"receiver-and-manager", registry.RoleOther, "Receiver and Manager"},
		{"person-authorised-to-accept", registry.RoleOther, "Person Authorised to Accept"},
		{"person-authorised-to-represent", registry.RoleOther, "Person Authorised to Represent"},
		{"person-authorised-to-represent-and-accept", registry.RoleOther, "Person Authorised to Represent and Accept"},
	}
}

// lookupOfficerRole returns the mapping of an officer_role value.
func lookupOfficerRole(code string) (officerRole, bool) {
	for _, r := range officerRoles() {
		if r.Code == code {
			return r, true
		}
	}
	return officerRole{}, false
}

// mapOfficer maps one officer. A corporate officer (a corporate-* role or
// one with identification) is an entity; everyone else a person, whose
// birth is a month and a year.
func mapOfficer(o *officerItem) registry.Role {
	code := strings.TrimSpace(o.OfficerRole)
	r := registry.Role{RoleCode: code, Control: []string{}, Notes: []string{}}
	if t, ok := lookupOfficerRole(code); ok {
		r.Group, r.Role = t.Group, t.Label
	} else {
		r.Group, r.Role = registry.RoleOther, "Officer role not in Companies House's enumeration: "+code
	}
	r.AppointedAt = upstream.Date(strings.TrimSpace(o.AppointedOn))
	if r.AppointedAt == nil {
		if d := upstream.Date(strings.TrimSpace(o.AppointedBefore)); d != nil {
			r.Notes = append(r.Notes, "Appointed before "+d.String()+": Companies House holds no exact date for appointments made before 1992.")
		}
	}
	r.ResignedAt = upstream.Date(strings.TrimSpace(o.ResignedOn))
	r.Current = strings.TrimSpace(o.ResignedOn) == ""

	name := strings.TrimSpace(o.Name)
	if strings.HasPrefix(code, "corporate-") || o.Identification != nil {
		h := registry.RoleHolder{Kind: registry.HolderEntity, Name: name}
		if id := o.Identification; id != nil {
			typ := strings.TrimSpace(id.IdentificationType)
			if num := strings.TrimSpace(id.RegistrationNumber); num != "" {
				if n, p := idcheck.ParseCompanyNumber(num); typ == "uk-limited-company" && p == idcheck.ProblemNone {
					num = n.String()
				}
				h.ID = &num
			}
			if typ == "uk-limited-company" || ukCountryName(id.PlaceRegistered) {
				h.Country = countrykit.Ptr(CountryCode)
			}
			h.LegalForm = countrykit.StringOrNil(strings.TrimSpace(id.LegalForm))
			if s := identificationNote(typ, id.PlaceRegistered, id.LegalAuthority); s != "" {
				r.Notes = append(r.Notes, s)
			}
		}
		r.Holder = h
		return r
	}
	r.Holder = registry.RoleHolder{Kind: registry.HolderPerson, Name: name,
		Nationality:        countrykit.StringOrNil(strings.TrimSpace(o.Nationality)),
		CountryOfResidence: countrykit.StringOrNil(strings.TrimSpace(o.CountryOfResidence))}
	r.Holder.BirthYear, r.Holder.BirthMonth = o.DateOfBirth.yearMonth()
	return r
}

// identificationNote describes a corporate holder's registration.
func identificationNote(typ, place, authority string) string {
	var parts []string
	switch typ = strings.TrimSpace(typ); typ {
	case "":
	case "uk-limited-company":
		parts = append(parts, "a UK limited company")
	case "eea":
		parts = append(parts, "registered in the European Economic Area")
	case "non-eea":
		parts = append(parts, "registered outside the European Economic Area")
	case "other-corporate-body-or-firm":
		parts = append(parts, "another corporate body or firm")
	default:
		parts = append(parts, "identification type "+typ)
	}
	if s := strings.TrimSpace(place); s != "" {
		parts = append(parts, "place of registration "+s)
	}
	if s := strings.TrimSpace(authority); s != "" {
		parts = append(parts, "legal authority "+s)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Corporate holder: " + strings.Join(parts, "; ") + "."
}

// pscItem is one item of /company/{n}/persons-with-significant-control.
type pscItem struct {
	Kind               string       `json:"kind"`
	Name               string       `json:"name"`
	DateOfBirth        *dateOfBirth `json:"date_of_birth"`
	Nationality        string       `json:"nationality"`
	CountryOfResidence string       `json:"country_of_residence"`
	NotifiedOn         string       `json:"notified_on"`
	CeasedOn           string       `json:"ceased_on"`
	Ceased             *bool        `json:"ceased"`
	NaturesOfControl   []string     `json:"natures_of_control"`
	Description        string       `json:"description"`
	Identification     *struct {
		LegalForm          string `json:"legal_form"`
		LegalAuthority     string `json:"legal_authority"`
		CountryRegistered  string `json:"country_registered"`
		PlaceRegistered    string `json:"place_registered"`
		RegistrationNumber string `json:"registration_number"`
	} `json:"identification"`
	Links struct {
		Self string `json:"self"`
	} `json:"links"`
}

// pscKindLabel returns the English label of a PSC kind and whether its
// holder is a person.
func pscKindLabel(kind string) (label string, person bool) {
	switch kind {
	case "individual-person-with-significant-control":
		return "Person with significant control (an individual)", true
	case "corporate-entity-person-with-significant-control":
		return "Person with significant control (a corporate entity)", false
	case "legal-person-person-with-significant-control":
		return "Person with significant control (a legal person that is not a company)", false
	case "super-secure-person-with-significant-control":
		return "Person with significant control (details withheld)", true
	case "individual-beneficial-owner":
		return "Registrable beneficial owner (an individual)", true
	case "corporate-entity-beneficial-owner":
		return "Registrable beneficial owner (a corporate entity)", false
	case "legal-person-beneficial-owner":
		return "Registrable beneficial owner (a legal person that is not a company)", false
	case "super-secure-beneficial-owner":
		return "Registrable beneficial owner (details withheld)", true
	}
	return "Person with significant control of a kind not known to this service: " + kind,
		!strings.Contains(kind, "corporate") && !strings.Contains(kind, "legal-person")
}

// mapPSC maps one person with significant control; a ceased one is former.
func mapPSC(p *pscItem) registry.Role {
	kind := strings.TrimSpace(p.Kind)
	label, person := pscKindLabel(kind)
	r := registry.Role{Group: registry.RoleBeneficialOwner, RoleCode: kind, Role: label, Control: []string{}, Notes: []string{},
		AppointedAt: upstream.Date(strings.TrimSpace(p.NotifiedOn)),
		ResignedAt:  upstream.Date(strings.TrimSpace(p.CeasedOn))}
	r.Current = strings.TrimSpace(p.CeasedOn) == "" && (p.Ceased == nil || !*p.Ceased)
	if !r.Current && r.ResignedAt == nil {
		r.Notes = append(r.Notes, "Companies House marks this person with significant control as ceased without a valid date.")
	}
	for _, code := range p.NaturesOfControl {
		code = strings.TrimSpace(code)
		if code == "" {
			continue
		}
		if d, ok := controlDescription(code); ok {
			r.Control = append(r.Control, d)
		} else {
			r.Control = append(r.Control, "A nature of control not in Companies House's enumeration: "+code)
		}
	}
	name := strings.TrimSpace(p.Name)
	if strings.HasPrefix(kind, "super-secure") {
		if d, ok := superSecureDescription(strings.TrimSpace(p.Description)); ok {
			r.Notes = append(r.Notes, d+".")
		} else {
			r.Notes = append(r.Notes, "Companies House withholds this person's details.")
		}
	}
	if person {
		r.Holder = registry.RoleHolder{Kind: registry.HolderPerson, Name: name,
			Nationality:        countrykit.StringOrNil(strings.TrimSpace(p.Nationality)),
			CountryOfResidence: countrykit.StringOrNil(strings.TrimSpace(p.CountryOfResidence))}
		r.Holder.BirthYear, r.Holder.BirthMonth = p.DateOfBirth.yearMonth()
		return r
	}
	h := registry.RoleHolder{Kind: registry.HolderEntity, Name: name}
	if id := p.Identification; id != nil {
		h.ID = countrykit.StringOrNil(strings.TrimSpace(id.RegistrationNumber))
		h.LegalForm = countrykit.StringOrNil(strings.TrimSpace(id.LegalForm))
		if c := strings.TrimSpace(id.CountryRegistered); c != "" {
			if ukCountryName(c) {
				c = CountryCode
			}
			h.Country = &c
		}
		if s := identificationNote("", id.PlaceRegistered, id.LegalAuthority); s != "" {
			r.Notes = append(r.Notes, s)
		}
	}
	r.Holder = h
	return r
}

// statementItem is one item of
// /company/{n}/persons-with-significant-control-statements.
type statementItem struct {
	Statement  string `json:"statement"`
	NotifiedOn string `json:"notified_on"`
	CeasedOn   string `json:"ceased_on"`
	Links      struct {
		PersonWithSignificantControl string `json:"person_with_significant_control"`
	} `json:"links"`
}

// statementNote turns a PSC statement into a note, with Companies House's
// text; the PSC a statement names is looked up in names (PSC link to name).
func statementNote(s *statementItem, names map[string]string) string {
	code := strings.TrimSpace(s.Statement)
	if code == "" {
		return ""
	}
	text, ok := statementDescription(code)
	if !ok {
		text = "A statement not in Companies House's enumeration: " + code
	}
	who := names[strings.TrimSpace(s.Links.PersonWithSignificantControl)]
	if who == "" {
		who = "A person with significant control"
	}
	text = strings.ReplaceAll(text, "{linked_psc_name}", who)
	prefix := "PSC statement"
	if d := upstream.Date(strings.TrimSpace(s.NotifiedOn)); d != nil {
		prefix += " of " + d.String()
	}
	if d := upstream.Date(strings.TrimSpace(s.CeasedOn)); d != nil {
		prefix = "Former " + prefix + " (withdrawn " + d.String() + ")"
	}
	return prefix + ": " + strings.TrimSuffix(text, ".") + "."
}

// rolesRules is the roles section of the rules document.
func rolesRules() string {
	var b strings.Builder
	b.WriteString("\n## Roles\n\n")
	b.WriteString("The roles operation reads three lists: `GET /company/{number}/officers`, " +
		"`GET /company/{number}/persons-with-significant-control` and " +
		"`GET /company/{number}/persons-with-significant-control-statements`.\n\n")
	fmt.Fprintf(&b, "- Pages: officers %d per page, at most %d pages; persons with significant control %d per page, "+
		"at most %d pages; statements one page of %d. A report therefore costs at most %d requests against the API "+
		"key's 600 per five minutes, all inside one upstream attempt. When the register counts more items than were "+
		"read, a note says how many are missing. A 404 of a list is an empty list.\n",
		officersPerPage, maxOfficerPages, pscPerPage, maxPSCPages, statementsPerPage, maxOfficerPages+maxPSCPages+1)
	b.WriteString("- Officers: `role_code` is `officer_role` and `role` its label in Companies House's enumeration. " +
		"Resigned officers stay listed with `resigned_at` and `current: false`. `appointed_at` is `appointed_on`; an " +
		"appointment before 1992 has only `appointed_before`, given in a note. A person's birth is `date_of_birth`, " +
		"which holds only month and year; `nationality` and `country_of_residence` as registered. A corporate " +
		"officer (a `corporate-` role or one with `identification`) is an entity: `id` is its registration number " +
		"(zero-padded for a UK limited company), `country` GB when it is a UK company, `legal_form` as registered.\n")
	b.WriteString("- There is no chair or chief executive in this register: the board is the set of current directors.\n")
	b.WriteString("- Persons with significant control are group `beneficial_owner`; `role_code` is the item `kind`. " +
		"`control` holds each `natures_of_control` code in Companies House's own words (the `description` table of " +
		"psc_descriptions.yml). `appointed_at` is `notified_on`, `resigned_at` `ceased_on`; a ceased one is former. " +
		"Corporate entities and legal persons are entities (registration number, legal form, country of " +
		"registration); a super-secure person's details are withheld and the report says so.\n")
	b.WriteString("- PSC statements (for example that the company knows of no registrable person) become notes in " +
		"Companies House's words, dated, with the person they name when that person is in the list.\n\n")
	b.WriteString("| officer_role | group | label |\n|---|---|---|\n")
	for _, r := range officerRoles() {
		b.WriteString("| `" + r.Code + "` | " + string(r.Group) + " | " + r.Label + " |\n")
	}
	return b.String()
}
