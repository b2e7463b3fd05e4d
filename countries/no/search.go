package no

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/match"
)

const (
	hintNoHits    = "No unit in Enhetsregisteret matches this name. Norwegian names are registered in upper case and often end in AS, ASA or NUF: try a shorter or differently spelled name, such as its first distinctive word."
	hintTruncated = "More units match than were returned: raise limit (at most 100) or search with a more specific name. Look up a hit's id before acting on it."
)

// searchResult maps a search page to the result: thin hits scored against
// query and sorted best first (a stable sort keeps the register's order
// among equal scores). Entries without a valid organisation number are
// dropped.
func searchResult(p *searchPage, query string, limit int) *registry.SearchResult {
	res := &registry.SearchResult{
		Country:  countryCode,
		Registry: registrySlug,
		Query:    query,
		Hits:     []registry.SearchHit{},
	}
	q := match.NewQuery(query)
	if p.Embedded != nil {
		for i := range p.Embedded.Enheter {
			if len(res.Hits) == limit {
				break
			}
			if h, ok := mapHit(&p.Embedded.Enheter[i], &q); ok {
				res.Hits = append(res.Hits, h)
			}
		}
	}
	match.Sort(res.Hits)
	res.Total = len(res.Hits)
	if p.Page != nil && p.Page.TotalElements.Set && p.Page.TotalElements.Value > int64(res.Total) {
		res.Total = int(min(p.Page.TotalElements.Value, 1<<31-1))
	}
	res.Truncated = res.Total > len(res.Hits)
	switch {
	case len(res.Hits) == 0:
		res.Hint = registry.Ptr(hintNoHits)
	case res.Truncated:
		res.Hint = registry.Ptr(hintTruncated)
	}
	return res
}

// mapHit maps one unit of a search page to a thin hit; ok is false when
// the unit has no valid organisation number.
func mapHit(u *unit, q *match.Query) (registry.SearchHit, bool) {
	n, p := idcheck.ParseOrgNr(strings.TrimSpace(u.Organisasjonsnummer))
	name := strings.TrimSpace(u.Navn)
	if p != idcheck.ProblemNone || name == "" {
		return registry.SearchHit{}, false
	}
	id := n.String()
	h := registry.NewSearchHit(countryCode, registrySlug, id, name)
	if f := u.Organisasjonsform; f != nil {
		code := strings.TrimSpace(f.Kode)
		h.LegalFormCode = registry.StringOrNil(code)
		if lf, ok := lookupForm(code); ok {
			h.LegalForm = registry.Ptr(lf.English)
		}
	}
	h.Status = statusCode(u)
	if a := u.Forretningsadresse; a != nil {
		h.City = registry.StringOrNil(strings.TrimSpace(a.Poststed))
		h.Municipality = registry.StringOrNil(strings.TrimSpace(a.Kommune))
	}
	h.RegisteredAt = date(u.RegistreringsdatoEnhetsregisteret)
	c, basis := q.Score(name)
	h.Confidence, h.ConfidenceBasis = c, registry.Ptr(basis)
	h.SourceURL = registry.Ptr(humanURL(id, false))
	return h, true
}
