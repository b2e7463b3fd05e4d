package dk

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	// maxBodyBytes bounds every upstream body read. A full company
	// document is 40–300 KB (the recordings: 40 and 191 KB), a search page
	// of 100 filtered documents a few MB.
	maxBodyBytes = 16 << 20
	// maxNameRunes is the longest name query sent to the register.
	maxNameRunes = 200
	// searchPath is the company index's search endpoint.
	searchPath = "/virksomhed/_search"
)

// The fields of a company document each call reads (Elasticsearch _source
// filtering): a full document is large, mostly because of its
// participants, which only Roles reads.
var (
	lookupExcludes = []string{"Vrvirksomhed.deltagerRelation"}
	searchIncludes = []string{
		"Vrvirksomhed.cvrNummer", "Vrvirksomhed.navne", "Vrvirksomhed.virksomhedsform", "Vrvirksomhed.virksomhedsstatus",
		"Vrvirksomhed.livsforloeb", "Vrvirksomhed.beliggenhedsadresse", "Vrvirksomhed.virksomhedMetadata",
	}
	rolesIncludes = []string{"Vrvirksomhed.cvrNummer", "Vrvirksomhed.deltagerRelation", "Vrvirksomhed.attributter"}
)

// source is the _source filter of a query.
type source struct {
	Includes []string `json:"includes,omitempty"`
	Excludes []string `json:"excludes,omitempty"`
}

// termQuery returns the body of a lookup of the CVR number n (eight
// digits), with the fields filter src.
func termQuery(n string, src source) []byte {
	// n is eight ASCII digits, so the query needs no escaping; the register
	// indexes cvrNummer as a number.
	b, _ := json.Marshal(struct {
		Query  any    `json:"query"`
		Size   int    `json:"size"`
		Source source `json:"_source"`
	}{Query: map[string]any{"term": map[string]json.RawMessage{"Vrvirksomhed.cvrNummer": json.RawMessage(n)}}, Size: 1, Source: src})
	return b
}

// matchQuery returns the body of a name search for query, size rows.
func matchQuery(query string, size int) []byte {
	b, _ := json.Marshal(struct {
		Query  any    `json:"query"`
		Size   int    `json:"size"`
		Source source `json:"_source"`
	}{Query: map[string]any{"match": map[string]string{"Vrvirksomhed.navne.navn": query}}, Size: size, Source: source{Includes: searchIncludes}})
	return b
}

// search sends one query to the company index and decodes a 200 answer;
// what names the answer in messages ("an answer", "a search answer"). A
// 401 or 403 is an upstream_error naming the credential, a 400 is
// badRequest when not nil (the register refused the query), every other
// status as upstream.Client.StatusError maps it.
func (c *Country) search(ctx context.Context, body []byte, what string, badRequest *registry.Error) (*searchAnswer, error) {
	if !c.ready {
		return nil, c.Ready()
	}
	a, err := c.up.Post(ctx, upstream.Request{Path: searchPath}, body)
	if err != nil {
		return nil, err
	}
	switch s := a.Status; {
	case s == http.StatusOK:
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return nil, c.up.Reject(a, registry.CodeUpstreamError,
			fmt.Sprintf("The CVR distribution refused this service's credential (HTTP %d).", s),
			"The operator's CVR credential is wrong, expired or not yet approved: the operator must check "+CredentialsEnv+
				". Retrying will not help until then.")
	case s == http.StatusBadRequest && badRequest != nil:
		badRequest.UpstreamStatus = s
		return nil, badRequest
	default:
		return nil, c.up.StatusError(a)
	}
	var ans searchAnswer
	if err := c.up.Decode(a.Body, &ans, what); err != nil {
		return nil, err
	}
	if !ans.complete() {
		return nil, c.up.Error(registry.CodeUpstreamError, true, nil,
			"The CVR distribution answered only in part (a search shard timed out or failed).")
	}
	return &ans, nil
}

// find returns the document of the company whose CVR number is id, or a
// not_found error; src filters its fields.
func (c *Country) find(ctx context.Context, id string, src source) (*company, error) {
	if n, p := idcheck.ParseCVR(id); p != idcheck.ProblemNone || n.String() != id {
		// Guard for direct callers: only the canonical eight digits are
		// sent (the Registry validates first).
		return nil, c.up.Fail(registry.CodeInvalidID, idcheck.DenmarkReason(p), idcheck.DenmarkHint(p))
	}
	ans, err := c.search(ctx, termQuery(id, src), "an answer", nil)
	if err != nil {
		return nil, err
	}
	for _, co := range ans.companies() {
		if cvrOf(co) == id {
			return co, nil
		}
	}
	if ans.Hits.Total.Set && ans.Hits.Total.Value > 0 {
		return nil, c.up.Error(registry.CodeUpstreamError, true, nil,
			"The CVR distribution answered the lookup without the requested company's document.")
	}
	return nil, c.up.Fail(registry.CodeNotFound,
		"No company with CVR number "+id+" is in the CVR distribution.",
		"Do not retry this number: check it for a mistyped digit, or search by name with the search operation.")
}

// cvrOf returns a document's CVR number as eight digits, or "".
func cvrOf(co *company) string {
	s := strings.TrimSpace(string(co.CVRNummer))
	if n, err := strconv.ParseUint(s, 10, 64); err == nil && n >= 10_000_000 && n <= 99_999_999 {
		return strconv.FormatUint(n, 10)
	}
	return ""
}

// Lookup fetches the report of the company whose CVR number is id (eight
// digits) with a term query on Vrvirksomhed.cvrNummer, without its
// participants. An answer without hits is not_found.
//
// Third-party docs of the distribution: https://github.com/T-Andreasen/cvr-documentation
func (c *Country) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	co, err := c.find(ctx, id, source{Excludes: lookupExcludes})
	if err != nil {
		return nil, err
	}
	if currentName(co) == "" {
		return nil, c.up.Error(registry.CodeUpstreamError, true, nil, "The CVR distribution sent a company without a name.")
	}
	return mapCompany(co, id), nil
}

// Search finds companies by name with a match query on
// Vrvirksomhed.navne.navn (current and former names), asking for limit
// rows; the Registry ranks them.
func (c *Country) Search(ctx context.Context, query string, limit int) (*registry.SearchResult, error) {
	if n := utf8.RuneCountInString(query); n > maxNameRunes {
		return nil, c.up.Fail(registry.CodeBadRequest,
			fmt.Sprintf("This service sends CVR name queries of at most %d characters; the query has %d.", maxNameRunes, n),
			"Search with a shorter part of the name, such as its first distinctive word.")
	}
	limit = min(max(limit, 1), registry.MaxSearchLimit)
	ans, err := c.search(ctx, matchQuery(strings.TrimSpace(query), limit), "a search answer",
		c.up.Fail(registry.CodeBadRequest, "The CVR distribution rejected the search query.",
			"Search with a shorter or simpler name (letters, digits and spaces)."))
	if err != nil {
		return nil, err
	}
	return searchResult(ans, query, limit), nil
}
