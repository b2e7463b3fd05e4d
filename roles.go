package registry

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// RoleGroup is the country-neutral kind of a role: a small closed set into
// which every national role type is mapped. The zero value means
// [RoleOther] and encodes as "other".
type RoleGroup string

// The role groups, in the order [Registry.Roles] lists them.
const (
	// RoleBoard is a member of the board of directors or its equivalent:
	// the chair, deputy chair, members, alternates, observers; UK
	// directors.
	RoleBoard RoleGroup = "board"
	// RoleManagement is the day-to-day management: a chief executive or
	// managing director, a manager of an LLP or EEIG.
	RoleManagement RoleGroup = "management"
	// RoleSignatory holds a registered right to sign for the entity.
	RoleSignatory RoleGroup = "signatory"
	// RoleProcuration holds a registered procuration (prokura).
	RoleProcuration RoleGroup = "procuration"
	// RolePartner is a partner of a partnership or a member of an LLP.
	RolePartner RoleGroup = "partner"
	// RoleOwner is a legal owner of the entity as a register records it:
	// the owner of a sole proprietorship, a municipality owning an entity,
	// or, where a register lists them, a shareholder holding 5 % or more
	// of the capital or votes (Denmark's register of owners), with the
	// registered share in the role's notes. Such an entity may list several
	// owners, none of them its proprietor; role_code tells them apart.
	RoleOwner RoleGroup = "owner"
	// RoleBeneficialOwner is a person with significant control or
	// beneficial owner.
	RoleBeneficialOwner RoleGroup = "beneficial_owner"
	// RoleSecretary is a company secretary.
	RoleSecretary RoleGroup = "secretary"
	// RoleMember is a member of another organ of the entity.
	RoleMember RoleGroup = "member"
	// RoleAuditor is the auditor.
	RoleAuditor RoleGroup = "auditor"
	// RoleAccountant is the external accountant.
	RoleAccountant RoleGroup = "accountant"
	// RoleOther is any other registered role (a contact person, a
	// representative of a foreign entity, a trustee in bankruptcy, ...).
	RoleOther RoleGroup = "other"
)

// RoleGroups returns the groups in the order [Registry.Roles] lists them.
func RoleGroups() []RoleGroup {
	return []RoleGroup{RoleBoard, RoleManagement, RoleSignatory, RoleProcuration, RolePartner, RoleOwner,
		RoleBeneficialOwner, RoleSecretary, RoleMember, RoleAuditor, RoleAccountant, RoleOther}
}

// Valid reports whether g is one of the groups (the zero value counts as
// other).
func (g RoleGroup) Valid() bool { return g == "" || slices.Contains(RoleGroups(), g) }

// MarshalText implements [encoding.TextMarshaler]; the zero value is
// "other".
func (g RoleGroup) MarshalText() ([]byte, error) {
	if g == "" {
		return []byte(RoleOther), nil
	}
	if !g.Valid() {
		return nil, &Error{Code: CodeInternalError, Message: "invalid role group " + string(g)}
	}
	return []byte(g), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler]; it rejects values
// outside the set.
func (g *RoleGroup) UnmarshalText(b []byte) error {
	v := RoleGroup(b)
	if v == "" || !v.Valid() {
		return &Error{Code: CodeInternalError, Message: "invalid role group " + string(b)}
	}
	*g = v
	return nil
}

// rank is g's position in [RoleGroups].
func (g RoleGroup) rank() int {
	if g == "" {
		g = RoleOther
	}
	if i := slices.Index(RoleGroups(), g); i >= 0 {
		return i
	}
	return len(RoleGroups())
}

// The kinds of a [RoleHolder].
const (
	// HolderPerson is a natural person.
	HolderPerson = "person"
	// HolderEntity is a company or another legal person.
	HolderEntity = "entity"
)

// RolesReport is the answer of the roles operation: who runs the entity,
// who may sign for it and who controls it, as the register publishes it.
// Every field is always present on the wire.
type RolesReport struct {
	Country  string `json:"country"`
	Registry string `json:"registry"`
	// ID is the canonical identifier of the entity.
	ID string `json:"id"`
	// Name is the entity's registered name.
	Name string `json:"name"`
	// Roles lists current roles before former ones, then by group in the
	// order of [RoleGroups]; within a group the register's own order
	// (the chair first).
	Roles     []Role     `json:"roles"`
	Cached    bool       `json:"cached"`
	FetchedAt *time.Time `json:"fetched_at"`
	Source    *string    `json:"source"`
	SourceURL *string    `json:"source_url"`
	License   *string    `json:"license"`
	// Notes are caveats to show: where a signing rule is registered, a
	// list cut short, personal data.
	Notes []string `json:"notes"`
}

// MarshalJSON encodes r with nil Roles and Notes as [] and fetched_at in
// UTC.
func (r RolesReport) MarshalJSON() ([]byte, error) {
	type plain RolesReport
	r.Roles = nonNil(r.Roles)
	r.Notes = nonNil(r.Notes)
	if r.FetchedAt != nil {
		t := r.FetchedAt.UTC()
		r.FetchedAt = &t
	}
	return json.Marshal(plain(r))
}

func (r *RolesReport) setCached(c bool) { r.Cached = c }

// Role is one registered role of one holder.
type Role struct {
	// Group is the country-neutral kind of the role.
	Group RoleGroup `json:"group"`
	// RoleCode is the register's own code of the role type (NO "LEDE", GB
	// "director").
	RoleCode string `json:"role_code"`
	// Role is the English label of the role type ("Chair of the board").
	Role string `json:"role"`
	// RoleLocal is the register's own label ("Styrets leder"), or null.
	RoleLocal *string `json:"role_local"`
	// Holder is who holds the role.
	Holder RoleHolder `json:"holder"`
	// AppointedAt is when the role began, when the register says.
	AppointedAt *Date `json:"appointed_at"`
	// ResignedAt is when the role ended, when the register says.
	ResignedAt *Date `json:"resigned_at"`
	// Current is false for a role the holder has left (resigned,
	// deregistered, ceased).
	Current bool `json:"current"`
	// Control lists the natures of control of a beneficial owner in plain
	// English; empty for other roles.
	Control []string `json:"control"`
	// Notes are caveats about this role (who elected a board member, a
	// partner's share of liability, a deceased holder).
	Notes []string `json:"notes"`
}

// MarshalJSON encodes r with nil lists as [].
func (r Role) MarshalJSON() ([]byte, error) {
	type plain Role
	r.Control = nonNil(r.Control)
	r.Notes = nonNil(r.Notes)
	return json.Marshal(plain(r))
}

// RoleHolder is a person or an entity holding a role. Fields that do not
// apply to its kind, or that the register does not publish, are null. A
// person's birth date is never more than its year and month.
type RoleHolder struct {
	// Kind is [HolderPerson] or [HolderEntity].
	Kind string `json:"kind"`
	// Name is the holder's name as registered (a person's full name).
	Name string `json:"name"`
	// BirthYear and BirthMonth are a person's year and month of birth.
	BirthYear  *int `json:"birth_year"`
	BirthMonth *int `json:"birth_month"`
	// Nationality is a person's nationality as registered.
	Nationality *string `json:"nationality"`
	// CountryOfResidence is a person's country of residence as
	// registered.
	CountryOfResidence *string `json:"country_of_residence"`
	// Deceased is true when the register marks the person as dead.
	Deceased *bool `json:"deceased"`
	// ID is an entity's national identifier, where given.
	ID *string `json:"id"`
	// Country is where an entity is registered, as the register gives it
	// (an ISO 3166-1 alpha-2 code where it can be told).
	Country *string `json:"country"`
	// LegalForm is an entity's legal form as registered.
	LegalForm *string `json:"legal_form"`
}

// RolesCountry is implemented by the country modules that answer the roles
// operation, beside [Country]. A module without it still compiles and
// works; [Registry.Roles] answers not_implemented for its country.
type RolesCountry interface {
	// Roles fetches the roles of the entity described by report, which
	// the Registry has looked up first (so the identifier is canonical
	// and the entity exists). Like Lookup, it is called only when the
	// module is ready, under the Registry's timeout, retry and cache.
	Roles(ctx context.Context, report *CompanyReport) (*RolesReport, error)
}

// Roles returns who runs the entity, who may sign for it and who controls
// it, as the register publishes it. The entity is looked up first (through
// the cache), so the errors of [Registry.Lookup] apply; a country whose
// module does not answer roles is not_implemented. The answer is cached as
// long as a lookup (up to 24 hours).
//
// Roles are sorted current before former, then by group in the order of
// [RoleGroups] (board first), keeping the register's order within a group
// (the chair first).
func (r *Registry) Roles(ctx context.Context, country, id string) (*RolesReport, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	b, err := r.rolesJSON(ctx, e, id)
	if err != nil {
		return nil, err
	}
	return decodeAnswer[RolesReport](r, e, b)
}

// rolesJSON returns the roles report's JSON encoding: the stored bytes on a
// cache hit, which the caller must not modify.
func (r *Registry) rolesJSON(ctx context.Context, e entry, id string) ([]byte, error) {
	rc, ok := e.c.(RolesCountry)
	if !ok {
		return nil, r.decorate(e.info, &Error{Code: CodeNotImplemented,
			Message: "The " + e.info.Country + " module does not answer the roles operation.",
			Hint:    "Use the lookup, search, deadlines or validate operation for this country, or list the countries and choose one that answers roles."})
	}
	norm, err := r.prepare(e, id)
	if err != nil {
		return nil, err
	}
	key := r.key(e, kindRoles, norm)
	if b, hit, err := r.cachedAnswer(ctx, key, tagRoles); hit {
		return b, err
	}
	lb, err := r.lookupJSON(ctx, e, norm)
	if err != nil {
		return nil, err
	}
	rep, err := decodeAnswer[CompanyReport](r, e, lb)
	if err != nil {
		return nil, err
	}
	return r.rolesLive(ctx, e, rc, key, rep)
}

// rolesLive fetches roles that are not in the cache (see lookupLive).
func (r *Registry) rolesLive(ctx context.Context, e entry, rc RolesCountry, key string, rep *CompanyReport) ([]byte, error) {
	return fetch(ctx, r, e, key, tagRoles, func(ctx context.Context) (*RolesReport, error) {
		out, err := rc.Roles(ctx, rep)
		if err == nil && out == nil {
			err = &Error{Code: CodeInternalError, Message: "The country module returned no roles report and no error."}
		}
		if err != nil {
			return nil, err
		}
		if out.FetchedAt == nil {
			out.FetchedAt = ptr(r.now().UTC().Truncate(time.Second))
		}
		sortRoles(out.Roles)
		return out, nil
	})
}

// sortRoles orders roles current first, then by group; a stable sort keeps
// the module's order within a group.
func sortRoles(roles []Role) {
	slices.SortStableFunc(roles, func(a, b Role) int {
		switch {
		case a.Current && !b.Current:
			return -1
		case !a.Current && b.Current:
			return 1
		}
		return a.Group.rank() - b.Group.rank()
	})
}
