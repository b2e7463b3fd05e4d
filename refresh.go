package registry

import "context"

// Refresh reads the report of one entity and, where its country's module
// answers the roles operation, its roles from the register now: it never
// answers from the cache, though it stores what it read there for the
// lookups and roles calls that follow. It is for a caller that compares
// a register's state over time (change monitoring), where an answer
// cached before a change would hide it.
//
// Each of the two calls takes its call from the country's upstream budget
// ([WithUpstreamBudget]) and has the timeout, the one retry and the error
// mapping of [Registry.Lookup]; an empty budget is rate_limited and the
// register is not called. Roles is nil for a country whose module does not
// answer roles. Concurrent refreshes of one entity are collapsed into one
// fetch, but a refresh never joins a lookup that started before it.
func (r *Registry) Refresh(ctx context.Context, country, id string) (*CompanyReport, *RolesReport, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, nil, err
	}
	norm, err := r.prepare(e, id)
	if err != nil {
		return nil, nil, err
	}
	ctx = context.WithValue(ctx, refreshKey{}, true)
	b, err := r.lookupLive(ctx, e, r.key(e, kindCompany, norm), norm)
	if err != nil {
		return nil, nil, err
	}
	rep, err := decodeAnswer[CompanyReport](r, e, b)
	if err != nil {
		return nil, nil, err
	}
	rc, ok := e.c.(RolesCountry)
	if !ok {
		return rep, nil, nil
	}
	b, err = r.rolesLive(ctx, e, rc, r.key(e, kindRoles, norm), rep)
	if err != nil {
		return nil, nil, err
	}
	roles, err := decodeAnswer[RolesReport](r, e, b)
	if err != nil {
		return nil, nil, err
	}
	return rep, roles, nil
}

// refreshKey marks the context of a [Registry.Refresh].
type refreshKey struct{}

// refreshGroup prefixes the collapsing key of a refresh, so that it never
// joins a fetch started by a lookup.
const refreshGroup = "refresh\x00"

func isRefresh(ctx context.Context) bool {
	v, _ := ctx.Value(refreshKey{}).(bool)
	return v
}
