package changes

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	registry "github.com/companyregistry/registry"
)

// RegistryFetcher is the [Fetcher] of a [registry.Registry]: it reads a
// company's report and roles with [registry.Registry.Refresh], fresh from
// the register (never a cached answer) and within the upstream budget the
// Registry was given for the country ([registry.WithUpstreamBudget]): an
// empty budget is an error matching registry.ErrRateLimited, and the
// register is not called. Each fetch costs one call of the budget for the
// report and, in a country whose module answers roles, one for the roles.
// It is safe for concurrent use.
type RegistryFetcher struct {
	reg *registry.Registry
	now func() time.Time
}

var _ Fetcher = (*RegistryFetcher)(nil)

// NewRegistryFetcher returns the fetcher of reg, whose clock (now, or
// [time.Now] when nil) stamps each snapshot's TakenAt.
func NewRegistryFetcher(reg *registry.Registry, now func() time.Time) (*RegistryFetcher, error) {
	if reg == nil {
		return nil, errors.New("changes: NewRegistryFetcher: nil registry")
	}
	if now == nil {
		now = time.Now
	}
	return &RegistryFetcher{reg: reg, now: now}, nil
}

// Fetch implements [Fetcher]. The snapshot's CompanyID is the canonical
// identifier, its Report the report's JSON and its Roles the roles
// report's JSON (nil where the country has none), both with cached false
// and fetched_at null (TakenAt says when). The errors are those of
// [registry.Registry.Refresh]: not_found for a company the register does
// not know, with [registry.Error.Gone] set when the register has removed
// it from its open data.
func (f *RegistryFetcher) Fetch(ctx context.Context, country, companyID string) (Snapshot, error) {
	rep, roles, err := f.reg.Refresh(ctx, country, companyID)
	if err != nil {
		return Snapshot{}, err
	}
	rep.Cached, rep.FetchedAt = false, nil
	s := Snapshot{Country: rep.Country, CompanyID: rep.ID, TakenAt: f.now().UTC()}
	if s.Report, err = json.Marshal(rep); err != nil {
		return Snapshot{}, err
	}
	if roles != nil {
		roles.Cached, roles.FetchedAt = false, nil
		if s.Roles, err = json.Marshal(roles); err != nil {
			return Snapshot{}, err
		}
	}
	return s, nil
}
