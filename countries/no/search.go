package no

import (
	"slices"
	"strings"
	"unicode"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
)

// The confidence anchors of search hits.
const (
	confidenceExact  = 0.95
	confidencePrefix = 0.8
	confidenceTokens = 0.6
	confidenceOther  = 0.4
)

const (
	basisExact  = "The name equals the query, ignoring letter case."
	basisPrefix = "The name starts with the query, ignoring letter case."
	basisTokens = "The name contains every word of the query, ignoring letter case and order."
	basisOther  = "Returned by the register's name search, but the name does not contain every word of the query."

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
	q := newMatcher(query)
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
	slices.SortStableFunc(res.Hits, func(a, b registry.SearchHit) int {
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
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
func mapHit(u *unit, q *matcher) (registry.SearchHit, bool) {
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
	h.Status = statusOf(u).status
	if a := u.Forretningsadresse; a != nil {
		h.City = registry.StringOrNil(strings.TrimSpace(a.Poststed))
		h.Municipality = registry.StringOrNil(strings.TrimSpace(a.Kommune))
	}
	h.RegisteredAt = date(u.RegistreringsdatoEnhetsregisteret)
	h.Confidence, h.ConfidenceBasis = q.score(name)
	h.SourceURL = registry.Ptr(humanURL(id, false))
	return h, true
}

// matcher scores names against one query.
type matcher struct {
	folded string   // the query, lower-cased with runs of spaces collapsed
	tokens []string // the query's words, lower-cased
}

// newMatcher prepares query for scoring. A trailing wildcard (*), which
// the register's name search accepts, is query syntax and not part of the
// name, so it is ignored.
func newMatcher(query string) matcher {
	query = strings.TrimRight(strings.TrimSpace(query), "*")
	return matcher{folded: fold(query), tokens: words(query)}
}

// score returns the confidence anchor of name for the query and its basis:
// 0.95 when the name equals the query, 0.8 when it starts with it, 0.6
// when it contains every word of the query, 0.4 otherwise. Comparisons
// ignore letter case and runs of white space.
func (m *matcher) score(name string) (float64, *string) {
	n := fold(name)
	switch {
	case m.folded != "" && n == m.folded:
		return confidenceExact, registry.Ptr(basisExact)
	case m.folded != "" && strings.HasPrefix(n, m.folded):
		return confidencePrefix, registry.Ptr(basisPrefix)
	case len(m.tokens) > 0 && containsAll(words(name), m.tokens):
		return confidenceTokens, registry.Ptr(basisTokens)
	}
	return confidenceOther, registry.Ptr(basisOther)
}

// fold lower-cases s and collapses every run of white space to one space.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// words splits s into lower-case words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
