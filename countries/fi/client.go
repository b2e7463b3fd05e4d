package fi

import (
	"context"
	"encoding/json"
	"errors"
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
	// defaultRetryAfter is the back-off, in seconds, given for a 429 that
	// carries no usable Retry-After header.
	defaultRetryAfter = 60
	// maxRetryAfter caps a Retry-After value taken from the register, in
	// seconds.
	maxRetryAfter = 3600
)

// answer is an upstream response: its status, headers and, for a 200, the
// body (bounded by maxBodyBytes).
type answer struct {
	status int
	header http.Header
	body   []byte
}

// get sends one GET /companies with query to the register. An error from
// the HTTP client is returned as is (the Registry classifies timeouts and
// connection errors); a 200 that is not JSON, a body that cannot be read in
// full or is larger than maxBodyBytes is a retryable upstream_error.
func (c *Country) get(ctx context.Context, query url.Values) (*answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+"/companies?"+query.Encode(), nil)
	if err != nil {
		return nil, c.errorf(registry.CodeInternalError, false, err, "The request to PRH's open data API could not be built.")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	a := &answer{status: resp.StatusCode, header: resp.Header}
	if resp.StatusCode != http.StatusOK {
		upstream.Discard(resp.Body)
		return a, nil
	}
	if !upstream.IsJSON(resp.Header.Get("Content-Type")) {
		upstream.Discard(resp.Body)
		return nil, c.errorf(registry.CodeUpstreamError, true, nil,
			"PRH's open data API answered with a page that is not JSON (an error page of a proxy?).")
	}
	a.body, err = upstream.ReadBody(resp.Body, maxBodyBytes)
	switch {
	case errors.Is(err, upstream.ErrTooLarge()):
		return nil, c.errorf(registry.CodeUpstreamError, true, nil,
			fmt.Sprintf("The answer of PRH's open data API is larger than %d bytes and was not read.", maxBodyBytes))
	case err != nil:
		return nil, c.errorf(registry.CodeUpstreamError, true, err, "The answer of PRH's open data API broke off before it was complete.")
	}
	return a, nil
}

// Lookup fetches the report of the company whose business ID is id (in the
// canonical form 0112038-9) from GET /companies?businessId={id}. The
// register answers an unknown business ID with 200 and no company, which
// is not_found.
//
// API docs: https://avoindata.prh.fi/opendata-ytj-api/v3/schema?lang=en
func (c *Country) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	a, err := c.get(ctx, url.Values{"businessId": {id}})
	if err != nil {
		return nil, err
	}
	switch a.status {
	case http.StatusOK:
	case http.StatusBadRequest:
		return nil, &registry.Error{
			Code:           registry.CodeInvalidID,
			Country:        countryCode,
			Registry:       registrySlug,
			UpstreamStatus: a.status,
			Message:        "PRH's open data API rejected the business ID " + id + " as malformed.",
			Hint:           "Do not retry the same ID: give the business ID (Y-tunnus) as seven digits, a hyphen and the check digit, such as 0112038-9, or search by name with the search operation.",
		}
	default:
		return nil, c.statusError(a)
	}
	var res companyResult
	if err := json.Unmarshal(a.body, &res); err != nil {
		return nil, c.errorf(registry.CodeUpstreamError, true, err, "PRH's open data API sent an answer that is not valid JSON.")
	}
	if len(res.Companies) == 0 {
		return nil, &registry.Error{
			Code:     registry.CodeNotFound,
			Country:  countryCode,
			Registry: registrySlug,
			Message:  "No company with business ID " + id + " is in YTJ's open data.",
			Hint:     "Do not retry this ID: check it for a mistyped digit, or search by name with the search operation. Sole traders may be missing from the open data.",
		}
	}
	for i := range res.Companies {
		co := &res.Companies[i]
		if co.BusinessID == nil {
			continue
		}
		if y, p := idcheck.ParseYTunnus(co.BusinessID.Value); p == idcheck.ProblemNone && y.String() == id && mainName(co.Names) != "" {
			return mapCompany(co, id), nil
		}
	}
	return nil, c.errorf(registry.CodeUpstreamError, true, nil,
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
		return nil, &registry.Error{
			Code:     registry.CodeBadRequest,
			Country:  countryCode,
			Registry: registrySlug,
			Message:  fmt.Sprintf("This service sends PRH name queries of at most %d characters; the query has %d.", maxNameRunes, n),
			Hint:     "Search with a shorter part of the name, such as its first distinctive word.",
		}
	}
	a, err := c.get(ctx, url.Values{"name": {strings.TrimSpace(query)}})
	if err != nil {
		return nil, err
	}
	switch a.status {
	case http.StatusOK:
	case http.StatusBadRequest:
		return nil, &registry.Error{
			Code:           registry.CodeBadRequest,
			Country:        countryCode,
			Registry:       registrySlug,
			UpstreamStatus: a.status,
			Message:        "PRH's open data API rejected the search query.",
			Hint:           "Search with a shorter or simpler name (letters, digits and spaces).",
		}
	default:
		return nil, c.statusError(a)
	}
	var res companyResult
	if err := json.Unmarshal(a.body, &res); err != nil {
		return nil, c.errorf(registry.CodeUpstreamError, true, err, "PRH's open data API sent a search answer that is not valid JSON.")
	}
	return searchResult(&res, query, limit), nil
}

// statusError maps an unexpected upstream status: 429 is rate_limited, a
// 5xx a retryable upstream_error, anything else a final upstream_error.
// Each carries the status in UpstreamStatus.
func (c *Country) statusError(a *answer) error {
	var e *registry.Error
	switch {
	case a.status == http.StatusTooManyRequests:
		e = &registry.Error{
			Code:     registry.CodeRateLimited,
			Country:  countryCode,
			Registry: registrySlug,
			Message:  "PRH's open data API is limiting the rate of requests (about 300 a minute, shared by all its users).",
			Hint:     "Back off for details.retry_after seconds, then retry.",
			Details:  map[string]any{"retry_after": upstream.RetryAfter(a.header.Get("Retry-After"), defaultRetryAfter, maxRetryAfter)},
		}
	case a.status >= 500:
		e = c.errorf(registry.CodeUpstreamError, true, nil, fmt.Sprintf("PRH's open data API answered HTTP %d.", a.status))
	default:
		e = c.errorf(registry.CodeUpstreamError, false, nil, fmt.Sprintf("PRH's open data API answered with the unexpected HTTP status %d.", a.status))
	}
	e.UpstreamStatus = a.status
	return e
}

// errorf returns an *registry.Error of this module.
func (c *Country) errorf(code registry.Code, retryable bool, cause error, msg string) *registry.Error {
	return &registry.Error{Code: code, Country: countryCode, Registry: registrySlug, Message: msg, Err: cause, Retryable: retryable}
}
