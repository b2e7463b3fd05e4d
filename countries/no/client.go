package no

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	// The versioned media types of the two registers (brreg.md §1.2).
	acceptUnit    = "application/vnd.brreg.enhetsregisteret.enhet.v2+json"
	acceptSubunit = "application/vnd.brreg.enhetsregisteret.underenhet.v2+json"

	// maxBodyBytes bounds every upstream body read. A unit is a few KiB and
	// a search page of 100 units some 300 KiB.
	maxBodyBytes = 4 << 20
	// maxNameRunes is the longest navn the search endpoint accepts.
	maxNameRunes = 180
)

// get sends one GET to the register with the media type accept; see
// [upstream.Client.Get].
func (c *Country) get(ctx context.Context, path string, query url.Values, accept string) (*upstream.Response, error) {
	return c.up.Get(ctx, upstream.Request{Path: path, Query: query, Accept: accept})
}

// Lookup fetches the report of the unit whose organisation number is id
// from GET /enheter/{id}, falling back to GET /underenheter/{id} when the
// main register answers 404. A unit missing from both is not_found; a unit
// the register has removed from its open data (410) is not_found with Gone
// set, so that the Registry purges it from its cache.
//
// API docs: https://data.brreg.no/enhetsregisteret/api/dokumentasjon/en/index.html
func (c *Country) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	rep, missing, err := c.lookupIn(ctx, id, false)
	if err != nil || !missing {
		return rep, err
	}
	rep, missing, err = c.lookupIn(ctx, id, true)
	if err != nil || !missing {
		return rep, err
	}
	return nil, c.up.Fail(registry.CodeNotFound,
		"No unit with organisation number "+id+" is registered in Enhetsregisteret, neither as a main unit nor as a sub-unit.",
		"Do not retry this number: check it for a mistyped digit, or search by name with the search operation.")
}

// lookupIn asks one of the two registers for id. missing is true for a 404.
func (c *Country) lookupIn(ctx context.Context, id string, subunit bool) (rep *registry.CompanyReport, missing bool, err error) {
	path, accept := "/enheter/", acceptUnit
	if subunit {
		path, accept = "/underenheter/", acceptSubunit
	}
	a, err := c.get(ctx, path+url.PathEscape(id), nil, accept)
	if err != nil {
		return nil, false, err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, true, nil
	case http.StatusGone:
		return nil, false, gone(c.up.Reject(a, registry.CodeNotFound,
			"The unit with organisation number "+id+" has been removed from Enhetsregisteret's open data.",
			"The register has removed this unit from its open data (for example for legal reasons) and asks copies to delete it: do not retry, and do not keep earlier copies. Search by name if you were looking for another unit."))
	case http.StatusBadRequest:
		return nil, false, c.up.Reject(a, registry.CodeInvalidID,
			"Enhetsregisteret rejected the organisation number "+id+" as malformed.",
			"Do not retry the same number: give the nine digits of the organisation number, such as 923 609 016, or search by name with the search operation.")
	default:
		return nil, false, c.up.StatusError(a)
	}
	var u unit
	if err := c.up.Decode(a.Body, &u, "an answer"); err != nil {
		return nil, false, err
	}
	if got := strings.TrimSpace(u.Organisasjonsnummer); got != id || strings.TrimSpace(u.Navn) == "" {
		return nil, false, c.up.Error(registry.CodeUpstreamError, true, nil,
			"Enhetsregisteret sent an answer without the requested organisation number or without a name.")
	}
	return mapUnit(&u, id, subunit), false, nil
}

// Search finds main units by name with GET /enheter?navn=<query>&size=<limit>.
// The query is sent as one escaped parameter. Hits come in the register's
// order; the Registry scores and sorts them (see the confidence anchors in
// the package documentation).
//
// API docs: https://data.brreg.no/enhetsregisteret/api/dokumentasjon/en/index.html
func (c *Country) Search(ctx context.Context, query string, limit int) (*registry.SearchResult, error) {
	if n := utf8.RuneCountInString(query); n > maxNameRunes {
		return nil, c.up.Fail(registry.CodeBadRequest,
			fmt.Sprintf("Enhetsregisteret searches names of at most %d characters; the query has %d.", maxNameRunes, n),
			"Search with a shorter part of the name, such as its first distinctive word.")
	}
	q := url.Values{"navn": {query}, "size": {strconv.Itoa(limit)}}
	a, err := c.get(ctx, "/enheter", q, acceptUnit)
	if err != nil {
		return nil, err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusBadRequest:
		return nil, c.up.Reject(a, registry.CodeBadRequest,
			"Enhetsregisteret rejected the search query.",
			"Search with a shorter or simpler name (letters, digits and spaces).")
	default:
		return nil, c.up.StatusError(a)
	}
	var page searchPage
	if err := c.up.Decode(a.Body, &page, "a search answer"); err != nil {
		return nil, err
	}
	return searchResult(&page, query, limit), nil
}

// gone marks e as the answer for a unit the register has removed from its
// open data (410), so that the Registry purges it from its cache.
func gone(e *registry.Error) *registry.Error {
	e.Gone = true
	return e
}
