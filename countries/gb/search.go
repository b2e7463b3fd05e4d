package gb

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// searchPage is the part of the GET /search/companies answer the module
// reads. items may be absent when there are no hits.
type searchPage struct {
	TotalResults int          `json:"total_results"`
	Items        []searchItem `json:"items"`
}

type searchItem struct {
	Title          string   `json:"title"`
	CompanyNumber  string   `json:"company_number"`
	CompanyStatus  string   `json:"company_status"`
	CompanyType    string   `json:"company_type"`
	DateOfCreation string   `json:"date_of_creation"`
	Address        *address `json:"address"`
}

// minItemsPerPage works around a Companies House defect: items_per_page=1
// answers with no items at all (page_number 2), so the module asks for at
// least two and trims.
const minItemsPerPage = 2

// Hints of a search result.
const (
	hintNoHits       = "No company at Companies House matches this name. Try a shorter or differently spelled name, without suffixes such as LTD, LIMITED or PLC. Sole traders are not registered at Companies House, so a sole trader cannot be found here."
	hintTruncated    = "More companies match than were returned: raise limit (at most 100) or search with a more specific name. Look up a hit's id before acting on it."
	hintTruncatedMax = "More companies match than the 100 returned: search with a more specific name. Look up a hit's id before acting on it."
)

// mapSearch turns a search page into a result for query with at most limit
// hits, best first.
func mapSearch(query string, limit int, page *searchPage) *registry.SearchResult {
	res := &registry.SearchResult{
		Country:  CountryCode,
		Registry: RegistrySlug,
		Query:    query,
		Hits:     make([]registry.SearchHit, 0, min(len(page.Items), limit)),
	}
	for _, it := range page.Items {
		id, ok := hitID(it.CompanyNumber)
		if !ok {
			continue
		}
		// Search titles carry padding spaces ("YOU  LIMITED") that the
		// registered name does not have.
		hit := countrykit.NewHit(CountryCode, RegistrySlug, id, strings.Join(strings.Fields(it.Title), " "))
		if code := strings.TrimSpace(it.CompanyType); code != "" {
			hit.LegalFormCode = countrykit.Ptr(code)
			if lf, ok := legalForms[code]; ok {
				hit.LegalForm = countrykit.Ptr(lf.label)
			}
		}
		// A UK establishment is a branch of an overseas company, as in
		// the company report.
		hit.IsSubunit = strings.TrimSpace(it.CompanyType) == "uk-establishment" || strings.HasPrefix(id, "BR")
		if rule, ok := statusRules[strings.TrimSpace(it.CompanyStatus)]; ok {
			hit.Status = rule.status
		}
		if a := it.Address; a != nil {
			hit.City = countrykit.StringOrNil(strings.TrimSpace(a.Locality))
			hit.Municipality = countrykit.StringOrNil(strings.TrimSpace(a.Region))
		}
		hit.RegisteredAt = upstream.Date(it.DateOfCreation)
		hit.SourceURL = countrykit.Ptr(companyURL(id))
		res.Hits = append(res.Hits, hit)
	}
	if len(res.Hits) > limit {
		res.Hits = res.Hits[:limit]
	}
	res.Total = max(page.TotalResults, len(res.Hits))
	res.Truncated = res.Total > len(res.Hits)
	res.Hint = searchHint(query, limit, len(res.Hits), res.Total)
	return res
}

// searchHint returns the next-step advice for a search with hits hits out
// of total for a limit, or nil when all matches were returned.
func searchHint(query string, limit, hits, total int) *string {
	switch {
	case hits > 0 && total > hits && limit >= registry.MaxSearchLimit:
		return countrykit.Ptr(hintTruncatedMax)
	case hits > 0 && total > hits:
		return countrykit.Ptr(hintTruncated)
	case hits > 0:
		return nil
	}
	var b strings.Builder
	if total > 0 {
		b.WriteString("Companies House counted matches but returned none on this page; retry once, or search with a longer part of the name. ")
	} else {
		b.WriteString(hintNoHits + " ")
	}
	if n, p := idcheck.ParseCompanyNumber(query); p == idcheck.ProblemNone {
		b.WriteString("The query looks like a company number: look " + n.String() + " up directly with the lookup operation.")
	}
	return countrykit.Ptr(strings.TrimSpace(b.String()))
}

// hitID returns the canonical form of a company number from a search item;
// ok is false for one the module could not look up.
func hitID(s string) (string, bool) {
	n, p := idcheck.ParseCompanyNumber(s)
	if p != idcheck.ProblemNone {
		return "", false
	}
	return n.String(), true
}
