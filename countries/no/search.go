package no

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
)

// hintNoHits is the advice of a search without hits; the Registry writes
// the other hints.
const hintNoHits = "No unit in Enhetsregisteret matches this name. Norwegian names are registered in upper case and often end in AS, ASA or NUF: try a shorter or differently spelled name, such as its first distinctive word."

// searchResult maps a search page to the result: at most limit thin hits in
// the register's order (the Registry ranks them). Entries without a valid
// organisation number are dropped.
func searchResult(p *searchPage, query string, limit int) *registry.SearchResult {
	res := &registry.SearchResult{
		Country:  countryCode,
		Registry: registrySlug,
		Query:    query,
		Hits:     []registry.SearchHit{},
	}
	if p.Embedded != nil {
		for i := range p.Embedded.Enheter {
			if len(res.Hits) == limit {
				break
			}
			if h, ok := mapHit(&p.Embedded.Enheter[i]); ok {
				res.Hits = append(res.Hits, h)
			}
		}
	}
	res.Total = len(res.Hits)
	if p.Page != nil && p.Page.TotalElements.Set && p.Page.TotalElements.Value > int64(res.Total) {
		res.Total = int(min(p.Page.TotalElements.Value, 1<<31-1))
	}
	res.Truncated = res.Total > len(res.Hits)
	if len(res.Hits) == 0 {
		res.Hint = countrykit.Ptr(hintNoHits)
	}
	return res
}

// mapHit maps one unit of a search page to a thin hit; ok is false when
// the unit has no valid organisation number.
func mapHit(u *unit) (registry.SearchHit, bool) {
	n, p := idcheck.ParseOrgNr(strings.TrimSpace(u.Organisasjonsnummer))
	name := strings.TrimSpace(u.Navn)
	if p != idcheck.ProblemNone || name == "" {
		return registry.SearchHit{}, false
	}
	id := n.String()
	h := countrykit.NewHit(countryCode, registrySlug, id, name)
	if f := u.Organisasjonsform; f != nil {
		code := strings.TrimSpace(f.Kode)
		h.LegalFormCode = countrykit.StringOrNil(code)
		if lf, ok := lookupForm(code); ok {
			h.LegalForm = countrykit.Ptr(lf.English)
		}
	}
	h.Status = statusCode(u)
	if a := u.Forretningsadresse; a != nil {
		h.City = countrykit.StringOrNil(strings.TrimSpace(a.Poststed))
		h.Municipality = countrykit.StringOrNil(strings.TrimSpace(a.Kommune))
	}
	h.RegisteredAt = date(u.RegistreringsdatoEnhetsregisteret)
	h.SourceURL = countrykit.Ptr(humanURL(id, false))
	return h, true
}
