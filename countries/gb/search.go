package gb

import (
	"slices"
	"strings"
	"unicode"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
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
	q := newQuery(query)
	for _, it := range page.Items {
		id, ok := hitID(it.CompanyNumber)
		if !ok {
			continue
		}
		// Search titles carry padding spaces ("YOU  LIMITED") that the
		// registered name does not have.
		hit := registry.NewSearchHit(CountryCode, RegistrySlug, id, strings.Join(strings.Fields(it.Title), " "))
		if code := strings.TrimSpace(it.CompanyType); code != "" {
			hit.LegalFormCode = registry.Ptr(code)
			if lf, ok := legalForms[code]; ok {
				hit.LegalForm = registry.Ptr(lf.label)
			}
		}
		if rule, ok := statusRules[strings.TrimSpace(it.CompanyStatus)]; ok {
			hit.Status = rule.status
		}
		if a := it.Address; a != nil {
			hit.City = registry.StringOrNil(strings.TrimSpace(a.Locality))
			hit.Municipality = registry.StringOrNil(strings.TrimSpace(a.Region))
		}
		hit.RegisteredAt = parseDate(it.DateOfCreation)
		conf, basis := q.score(hit.Name)
		hit.Confidence, hit.ConfidenceBasis = conf, registry.Ptr(basis)
		hit.SourceURL = registry.Ptr(companyURL(id))
		res.Hits = append(res.Hits, hit)
	}
	slices.SortStableFunc(res.Hits, func(a, b registry.SearchHit) int {
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
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
		return registry.Ptr(hintTruncatedMax)
	case hits > 0 && total > hits:
		return registry.Ptr(hintTruncated)
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
		b.WriteString("The query looks like a company number: look it up directly with lookup_company (GET /v1/GB/company/" + n.String() + ").")
	}
	return registry.Ptr(strings.TrimSpace(b.String()))
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

// The confidence anchors of a search hit, shared with the other countries.
const (
	confidenceExact  = 0.95
	confidencePrefix = 0.8
	confidenceTokens = 0.6
	confidenceOther  = 0.4
)

// query is a search query prepared for scoring names: case-folded, with
// runs of spaces collapsed (Companies House titles such as "YOU  LIMITED"
// carry double spaces) and split into words.
type query struct {
	text   string
	tokens []string
}

func newQuery(s string) query {
	return query{text: fold(s), tokens: words(s)}
}

// score returns the confidence of a hit named name and its basis:
// 0.95 when the name equals the query (case-insensitive), 0.8 when it starts
// with the query, 0.6 when it contains every word of the query, and 0.4 for
// any other hit the register returned.
func (q query) score(name string) (float64, string) {
	n := fold(name)
	switch {
	case q.text != "" && n == q.text:
		return confidenceExact, "The name equals the query, ignoring letter case."
	case q.text != "" && strings.HasPrefix(n, q.text):
		return confidencePrefix, "The name starts with the query, ignoring letter case."
	case len(q.tokens) > 0 && containsAll(words(name), q.tokens):
		return confidenceTokens, "The name contains every word of the query, ignoring letter case and order."
	}
	return confidenceOther, "Returned by the register's name search, but the name does not contain every word of the query."
}

// fold lower-cases s, trims it and collapses runs of white space to one
// space.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// words splits s into lower-case words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// containsAll reports whether every token is one of the words.
func containsAll(words, tokens []string) bool {
	for _, t := range tokens {
		if !slices.Contains(words, t) {
			return false
		}
	}
	return true
}
