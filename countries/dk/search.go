package dk

import (
	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// hintNoHits is the advice of a search without hits; the Registry writes
// the other hints.
const hintNoHits = "No company in CVR matches this name. The register searches current and former names: try a shorter or " +
	"differently spelled name, such as its first distinctive word, without ApS or A/S."

// searchResult maps a search answer to the result: at most limit thin hits
// in the register's order (the Registry ranks them). Documents without a
// valid CVR number or a name are dropped. total is the register's count
// of matches.
func searchResult(a *searchAnswer, query string, limit int) *registry.SearchResult {
	res := &registry.SearchResult{
		Country:  countryCode,
		Registry: registrySlug,
		Query:    query,
		Hits:     []registry.SearchHit{},
	}
	for _, co := range a.companies() {
		if len(res.Hits) >= limit {
			break
		}
		if h, ok := mapHit(co); ok {
			res.Hits = append(res.Hits, h)
		}
	}
	res.Total = len(res.Hits)
	if t := a.Hits.Total; t.Set && t.Value > int64(res.Total) {
		res.Total = int(min(t.Value, 1<<31-1))
	}
	res.Truncated = res.Total > len(res.Hits)
	if len(res.Hits) == 0 {
		res.Hint = countrykit.Ptr(hintNoHits)
	}
	return res
}

// mapHit maps one company document to a thin hit; ok is false when it has
// no valid CVR number or no name.
func mapHit(co *company) (registry.SearchHit, bool) {
	id, nm := cvrOf(co), currentName(co)
	if id == "" || nm == "" {
		return registry.SearchHit{}, false
	}
	h := countrykit.NewHit(countryCode, registrySlug, id, nm)
	if f := currentForm(co); f != nil {
		h.LegalFormCode = countrykit.StringOrNil(string(f.Virksomhedsformkode))
		if row, ok := lookupForm(string(f.Virksomhedsformkode)); ok {
			h.LegalForm = countrykit.Ptr(row.English)
		}
	}
	h.Status = statusOf(co).status
	if a := current(co.Beliggenhedsadresse, func(a *address) period { return a.Periode }); a != nil {
		if m := mapAddress(a); m != nil {
			h.City, h.Municipality = m.City, m.Municipality
		}
	}
	for _, l := range co.Livsforloeb {
		if d := l.Periode.since(); d != nil && (h.RegisteredAt == nil || d.Before(*h.RegisteredAt)) {
			h.RegisteredAt = d
		}
	}
	h.SourceURL = countrykit.Ptr(publicPage + id)
	return h, true
}
