package fr

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	// maxBodyBytes bounds every upstream body read. A unit with its
	// officers is some 10 KiB and a page holds at most 25 units.
	maxBodyBytes = 4 << 20
	// maxPerPage is the API's largest page (per_page at most 25).
	maxPerPage = 25
	// minQueryRunes is the API's shortest search term: shorter queries
	// are refused with 400 ("3 caractères minimum").
	minQueryRunes = 3
	// maxQueryRunes is the longest name query sent to the API.
	maxQueryRunes = 200
)

// search sends one GET /search with q, the first page of perPage results;
// see [upstream.Client.Get].
func (c *Country) search(ctx context.Context, q string, perPage int) (*upstream.Response, error) {
	return c.up.Get(ctx, upstream.Request{Path: "/search", Query: url.Values{
		"q": {q}, "page": {"1"}, "per_page": {strconv.Itoa(perPage)},
	}})
}

// fetchUnit asks the API for the unit of id (a SIREN, or a SIRET whose unit
// is wanted) and returns the unit whose SIREN is asked's, or a not_found
// error: an answer without a result, with only other units, or whose unit
// has no état administratif (the API's phantom records) is never taken
// for the unit asked for.
func (c *Country) fetchUnit(ctx context.Context, asked idcheck.FrenchID) (*unit, error) {
	q := asked.SIREN.String()
	if asked.Kind == idcheck.FrenchSIRET {
		q = asked.SIRET.String()
	}
	a, err := c.search(ctx, q, 1)
	if err != nil {
		return nil, err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusBadRequest:
		return nil, c.up.Reject(a, registry.CodeInvalidID,
			"The API Recherche d'entreprises rejected the identifier "+q+".",
			"Do not retry the same identifier: give the nine digits of the SIREN, such as 552 032 534, or search by name with the search operation.")
	default:
		return nil, c.up.StatusError(a)
	}
	var page searchPage
	if err := c.up.Decode(a.Body, &page, "an answer"); err != nil {
		return nil, err
	}
	for i := range page.Results {
		u := &page.Results[i]
		if u.SIREN.V == asked.SIREN.String() && u.EtatAdministratif.V != "" {
			return u, nil
		}
	}
	what := "SIREN " + asked.SIREN.Formatted()
	if asked.Kind == idcheck.FrenchSIRET {
		what = "SIRET " + asked.SIRET.Formatted()
	}
	return nil, c.up.Fail(registry.CodeNotFound,
		"No unit with the "+what+" is in the register's open data (Sirene through the API Recherche d'entreprises).",
		"Do not retry this identifier: check it for a mistyped digit, or search by name with the search operation. "+
			"Units whose owners refused all publication are not in the open data.")
}

// Lookup fetches the report of the legal unit of id: a SIREN, or a SIRET
// (the report then says which establishment was asked for), in canonical
// form; a VAT number, which [Country.Validate] normalises to its SIREN, is
// looked up by that SIREN too. It asks GET /search?q={id}, the API's direct
// lookup.
//
// API docs: https://recherche-entreprises.api.gouv.fr/docs/
func (c *Country) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	asked, p := idcheck.ParseFrenchID(id)
	if p != idcheck.ProblemNone {
		return nil, c.up.Fail(registry.CodeInvalidID, idcheck.FranceReason(asked.Kind, p), idcheck.FranceHint(asked.Kind, p))
	}
	if asked.Kind == idcheck.FrenchVATNumber {
		if asked.VAT.Monaco() {
			return nil, c.up.Fail(registry.CodeInvalidID, monacoReason, monacoHint)
		}
		// Validation normalises a VAT number to its SIREN: so does the lookup.
		asked = idcheck.FrenchID{Kind: idcheck.FrenchSIREN, SIREN: asked.SIREN}
	}
	u, err := c.fetchUnit(ctx, asked)
	if err != nil {
		return nil, err
	}
	return mapUnit(u, asked), nil
}

// Search finds legal units by name with GET /search?q={query}, the first
// page of min(limit, 25) results in the API's order (the Registry ranks
// them). The API refuses terms shorter than three characters: such a
// query is bad_request without a call.
//
// API docs: https://recherche-entreprises.api.gouv.fr/docs/
func (c *Country) Search(ctx context.Context, query string, limit int) (*registry.SearchResult, error) {
	q := strings.Join(strings.Fields(query), " ")
	switch n := utf8.RuneCountInString(q); {
	case n < minQueryRunes:
		return nil, c.up.Fail(registry.CodeBadRequest,
			"The API Recherche d'entreprises searches names of at least three characters.",
			"Search with a longer part of the name, at least three letters.")
	case n > maxQueryRunes:
		return nil, c.up.Fail(registry.CodeBadRequest,
			fmt.Sprintf("This service sends name queries of at most %d characters; the query has %d.", maxQueryRunes, n),
			"Search with a shorter part of the name, such as its first distinctive word.")
	}
	a, err := c.search(ctx, q, min(max(limit, 1), maxPerPage))
	if err != nil {
		return nil, err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusBadRequest:
		return nil, c.up.Reject(a, registry.CodeBadRequest,
			"The API Recherche d'entreprises rejected the search query.",
			"Search with a simpler name of at least three characters (letters, digits and spaces).")
	default:
		return nil, c.up.StatusError(a)
	}
	var page searchPage
	if err := c.up.Decode(a.Body, &page, "a search answer"); err != nil {
		return nil, err
	}
	return searchResult(&page, query, limit), nil
}
