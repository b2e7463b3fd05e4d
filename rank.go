package registry

import (
	"slices"

	"github.com/companyregistry/registry/match"
)

// SearchWindow is the least number of rows [Registry.Search] asks a
// register for, whatever the limit, so that the best match the register
// returns near the top is ranked even when the caller wants one hit.
const SearchWindow = 20

// searchWindow is the number of rows to ask the module for, for a limit.
func searchWindow(limit int) int { return min(MaxSearchLimit, max(limit, SearchWindow)) }

// Hints of a search result the Registry writes. Every answer with hits
// says that a hit is thin and names the lookup that gives the full report;
// the REST and MCP adapters rewrite "the lookup operation" to their route
// and tool.
const (
	hintNoHits       = "Nothing matches this name: try a shorter or differently spelled name, such as its first distinctive word."
	hintHits         = "A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first."
	hintTruncated    = "More entities match than were returned: raise limit (at most 100) or search with a more specific name. " + hintHits
	hintTruncatedMax = "More entities match than the 100 returned: search with a more specific name. " + hintHits
	// hintTruncatedPage: more match, and the register returns no more
	// rows to one search than the limit (SearchResult.RegisterPage), so a
	// higher limit brings no more.
	hintTruncatedPage = "More entities match than the register returns to one search: search with a more specific name. " + hintHits
)

// rank scores every hit of res against the query, sorts the hits by
// confidence (a stable sort keeps the register's order among equal
// scores), keeps the first limit, and sets total, truncated and the hint:
// an answer with hits always has one, saying how to get a hit's full
// report, and, when more match, whether a higher limit would bring more
// (not past the register's page, SearchResult.RegisterPage).
// A module's own hint is kept for an answer without hits.
func rank(res *SearchResult, query string, limit int) {
	q := match.NewQuery(query)
	for i := range res.Hits {
		c, basis := q.Score(res.Hits[i].Name)
		if match.SameID(query, res.Hits[i].ID) {
			c, basis = match.Identifier, match.BasisIdentifier
		}
		res.Hits[i].Confidence, res.Hits[i].ConfidenceBasis = c, ptr(basis)
	}
	slices.SortStableFunc(res.Hits, func(a, b SearchHit) int {
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
	res.Total = max(res.Total, len(res.Hits))
	if len(res.Hits) > limit {
		res.Hits = res.Hits[:limit]
	}
	if res.Hits == nil {
		res.Hits = []SearchHit{}
	}
	res.Query = query
	res.Truncated = res.Total > len(res.Hits)
	switch {
	case len(res.Hits) == 0:
		if res.Hint == nil || *res.Hint == "" {
			res.Hint = ptr(hintNoHits)
		}
	case res.Truncated && res.RegisterPage > 0 && res.RegisterPage < MaxSearchLimit && limit >= res.RegisterPage:
		// Before the 100 below: at limit 100 a page of 25 did not return 100.
		res.Hint = ptr(hintTruncatedPage)
	case res.Truncated && limit >= MaxSearchLimit:
		res.Hint = ptr(hintTruncatedMax)
	case res.Truncated:
		res.Hint = ptr(hintTruncated)
	default:
		res.Hint = ptr(hintHits)
	}
}
