package fr

import (
	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
)

// hintNoHits is the advice of a search without hits; the Registry writes
// the other hints.
const hintNoHits = "No unit in the register's open data matches this name. The API searches names, acronyms, trade names and " +
	"officers' names: try a shorter or differently spelled name, such as its first distinctive word, without SAS or SARL."

// searchResult maps a search page to the result: at most limit thin hits in
// the API's order (the Registry ranks them). Units without a valid SIREN,
// without an état administratif (phantom records) or whose name is
// withheld are dropped and not counted in total: they cannot be shown.
func searchResult(p *searchPage, query string, limit int) *registry.SearchResult {
	res := &registry.SearchResult{
		Country:  countryCode,
		Registry: registrySlug,
		Query:    query,
		Hits:     []registry.SearchHit{},
		// The API's largest page: a higher limit brings no more hits.
		RegisterPage: maxPerPage,
	}
	dropped := 0
	for i := range p.Results {
		h, ok := mapHit(&p.Results[i])
		switch {
		case !ok:
			dropped++
		case len(res.Hits) < limit:
			res.Hits = append(res.Hits, h)
		}
	}
	res.Total = len(res.Hits)
	if p.TotalResults.Set {
		res.Total = max(res.Total, int(min(max(p.TotalResults.Value-int64(dropped), 0), 1<<31-1)))
	}
	res.Truncated = res.Total > len(res.Hits)
	if len(res.Hits) == 0 {
		res.Hint = countrykit.Ptr(hintNoHits)
	}
	return res
}

// mapHit maps one unit of a search page to a thin hit; ok is false when it
// has no valid SIREN, no état administratif or no published name.
func mapHit(u *unit) (registry.SearchHit, bool) {
	siren, p := idcheck.ParseSIREN(u.SIREN.V)
	name, _ := unitName(u)
	if p != idcheck.ProblemNone || u.SIREN.V != siren.String() || name == "" || u.EtatAdministratif.V == "" {
		return registry.SearchHit{}, false
	}
	h := countrykit.NewHit(countryCode, registrySlug, siren.String(), name)
	if f, ok := lookupForm(u.NatureJuridique.V); ok {
		h.LegalFormCode, h.LegalForm = countrykit.Ptr(f.Code), countrykit.Ptr(f.English)
	}
	h.Status, _ = statusOf(u)
	if s := u.Siege; s != nil {
		if a := mapAddress(s); a != nil {
			h.City, h.Municipality = a.City, a.Municipality
		}
	}
	h.SourceURL = countrykit.Ptr(publicURL(siren.String()))
	return h, true
}
