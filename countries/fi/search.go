package fi

import (
	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// hintNoHits is the advice of a search without hits; the Registry writes
// the other hints.
const hintNoHits = "No company in YTJ's open data matches this name. The register searches current, previous, parallel and " +
	"auxiliary names: try a shorter or differently spelled name, such as its first distinctive word, without Oy or Oyj."

// searchResult maps a search page to the result: at most limit thin hits in
// the register's order (the Registry ranks them). Companies without a
// valid business ID or a name in force are dropped.
func searchResult(p *companyResult, query string, limit int) *registry.SearchResult {
	res := &registry.SearchResult{
		Country:  countryCode,
		Registry: registrySlug,
		Query:    query,
		Hits:     []registry.SearchHit{},
	}
	for i := range p.Companies {
		if len(res.Hits) >= limit {
			break
		}
		if h, ok := mapHit(&p.Companies[i]); ok {
			res.Hits = append(res.Hits, h)
		}
	}
	res.Total = len(res.Hits)
	if p.TotalResults.Set && p.TotalResults.Value > int64(res.Total) {
		res.Total = int(min(p.TotalResults.Value, 1<<31-1))
	}
	res.Truncated = res.Total > len(res.Hits)
	if len(res.Hits) == 0 {
		res.Hint = countrykit.Ptr(hintNoHits)
	}
	return res
}

// mapHit maps one company of a search page to a thin hit; ok is false when
// it has no valid business ID or no name in force.
func mapHit(c *company) (registry.SearchHit, bool) {
	if c.BusinessID == nil {
		return registry.SearchHit{}, false
	}
	y, p := idcheck.ParseYTunnus(c.BusinessID.Value)
	name := mainName(c.Names)
	if p != idcheck.ProblemNone || name == "" {
		return registry.SearchHit{}, false
	}
	id := y.Digits()
	h := countrykit.NewHit(countryCode, registrySlug, id, name)
	if f := currentForm(c.CompanyForms); f != nil {
		h.LegalFormCode = countrykit.StringOrNil(string(f.Type))
		h.LegalForm = countrykit.StringOrNil(describe(f.Descriptions, langEnglish))
		if h.LegalForm == nil {
			if row, ok := lookupForm(string(f.Type), describe(f.Descriptions, langFinnish)); ok {
				h.LegalForm = countrykit.Ptr(row.English)
			}
		}
	}
	h.Status = statusOf(c).status
	for i := range c.Addresses {
		if a := &c.Addresses[i]; string(a.Type) == "1" {
			if m := mapAddress(a); m != nil {
				h.City = m.City
			}
			break
		}
	}
	h.RegisteredAt = upstream.Date(c.BusinessID.RegistrationDate)
	h.SourceURL = countrykit.Ptr(publicURL(y.String()))
	return h, true
}
