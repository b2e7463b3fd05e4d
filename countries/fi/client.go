package fi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	// maxBodyBytes bounds every upstream body read. A company is some 9
	// KiB and a search page holds at most 100 full companies, about 1 MiB.
	maxBodyBytes = 8 << 20
	// maxNameRunes is the longest name query sent to the register.
	maxNameRunes = 200
)

// get sends one GET /companies with query to the register; see
// [upstream.Client.Get].
func (c *Country) get(ctx context.Context, query url.Values) (*upstream.Response, error) {
	return c.up.Get(ctx, upstream.Request{Path: "/companies", Query: query})
}

// Lookup fetches the report of the company whose business ID is id (the
// canonical 01120389, or any spelling idcheck.ParseYTunnus accepts) from
// GET /companies?businessId={id}, asked in the register's written form
// 0112038-9. The report's id is the canonical form. The register answers an
// unknown business ID with 200 and no company, which is not_found.
//
// API docs: https://avoindata.prh.fi/opendata-ytj-api/v3/schema?lang=en
func (c *Country) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	want, p := idcheck.ParseYTunnus(id)
	if p != idcheck.ProblemNone {
		return nil, c.up.Fail(registry.CodeInvalidID, idcheck.FinlandReason(p), idcheck.FinlandHint(p))
	}
	written := want.String()
	a, err := c.get(ctx, url.Values{"businessId": {written}})
	if err != nil {
		return nil, err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusBadRequest:
		return nil, c.up.Reject(a, registry.CodeInvalidID,
			"PRH's open data API rejected the business ID "+written+" as malformed.",
			"Do not retry the same ID: give the business ID (Y-tunnus) as seven digits, a hyphen and the check digit, such as 0112038-9, or search by name with the search operation.")
	default:
		return nil, c.up.StatusError(a)
	}
	var res companyResult
	if err := c.up.Decode(a.Body, &res, "an answer"); err != nil {
		return nil, err
	}
	if len(res.Companies) == 0 {
		return nil, c.up.Fail(registry.CodeNotFound,
			"No company with business ID "+written+" is in YTJ's open data.",
			"Do not retry this ID: check it for a mistyped digit, or search by name with the search operation. Sole traders may be missing from the open data.")
	}
	for i := range res.Companies {
		co := &res.Companies[i]
		if co.BusinessID == nil {
			continue
		}
		if y, p := idcheck.ParseYTunnus(co.BusinessID.Value); p == idcheck.ProblemNone && y == want && mainName(co.Names) != "" {
			return mapCompany(co, want.Digits()), nil
		}
	}
	return nil, c.up.Error(registry.CodeUpstreamError, true, nil,
		"PRH's open data API sent an answer without the requested business ID or without a name in force.")
}

// Search finds companies by name with GET /companies?name={query}. The
// register searches current, previous, parallel and auxiliary names and
// answers full companies, 100 a page in business ID order; Search maps
// the first limit of the first page in that order (the Registry ranks
// them).
//
// API docs: https://avoindata.prh.fi/opendata-ytj-api/v3/schema?lang=en
func (c *Country) Search(ctx context.Context, query string, limit int) (*registry.SearchResult, error) {
	if n := utf8.RuneCountInString(query); n > maxNameRunes {
		return nil, c.up.Fail(registry.CodeBadRequest,
			fmt.Sprintf("This service sends PRH name queries of at most %d characters; the query has %d.", maxNameRunes, n),
			"Search with a shorter part of the name, such as its first distinctive word.")
	}
	a, err := c.get(ctx, url.Values{"name": {strings.TrimSpace(query)}})
	if err != nil {
		return nil, err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusBadRequest:
		return nil, c.up.Reject(a, registry.CodeBadRequest,
			"PRH's open data API rejected the search query.",
			"Search with a shorter or simpler name (letters, digits and spaces).")
	default:
		return nil, c.up.StatusError(a)
	}
	var res companyResult
	if err := c.up.Decode(a.Body, &res, "a search answer"); err != nil {
		return nil, err
	}
	return searchResult(&res, query, limit), nil
}
