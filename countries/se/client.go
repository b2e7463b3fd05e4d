package se

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/se/internal/nameindex"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// AnswersLocally implements [registry.LocalAnswers]: a search is answered
// from the bulk file's index (or refused: the API has no name search), and
// so is a lookup without the credential; the Registry's upstream budget is
// only drawn on by the API's lookups.
func (c *Country) AnswersLocally(operation string) bool {
	switch operation {
	case "search":
		return true
	case "lookup":
		return c.api == nil
	}
	return false
}

var _ registry.LocalAnswers = (*Country)(nil)

// Lookup fetches the report of the organisation with the organisation
// number id (ten digits): from the API when a credential is set, else the
// basic report from the bulk file's index.
//
// API docs: the OpenAPI document of Värdefulla datamängder v1 (POST
// /organisationer, POST /dokumentlista).
func (c *Country) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	if c.api == nil {
		return c.lookupIndexed(ctx, id)
	}
	body, err := json.Marshal(map[string]string{"identitetsbeteckning": id})
	if err != nil {
		return nil, err
	}
	a, err := c.api.Post(ctx, upstream.Request{Path: "/organisationer"}, body)
	if err != nil {
		return nil, err
	}
	if e := c.statusError(a); e != nil {
		return nil, e
	}
	var res organisationerAnswer
	if err := c.api.Decode(a.Body, &res, "an answer"); err != nil {
		return nil, err
	}
	o := pick(res.Organisationer, id)
	if o == nil {
		return nil, c.notFound(id)
	}
	rep := mapOrganisation(o, id)
	if rep.Name == "" {
		return nil, c.api.Error(registry.CodeUpstreamError, true, nil, "Bolagsverket's API answered without the organisation's name: "+
			"the source of its names was unavailable (OTILLGANGLIG_UPPGIFTSKALLA or TIMEOUT), and a report needs a name.")
	}
	c.addFinancialYear(ctx, rep, body)
	return rep, nil
}

// statusError maps an answer other than 200.
func (c *Country) statusError(a *upstream.Response) error {
	switch a.Status {
	case http.StatusOK:
		return nil
	case http.StatusBadRequest:
		return c.api.Reject(a, registry.CodeInvalidID, "Bolagsverket's API rejected the organisation number (a check digit it does not accept, or, in its test environment, a number not on its list).",
			"Do not retry the same number: check it, or search by name with the search operation.")
	case http.StatusUnauthorized, http.StatusForbidden:
		return c.api.Reject(a, registry.CodeUpstreamError, "Bolagsverket's API refused this service's access token.",
			"The operator checks "+credentialsEnv+" (and that the application covers the production API).")
	}
	return c.api.StatusError(a)
}

// pick returns the organisation with identifier id whose Bolagsverket
// blocks do not say ORGANISATION_FINNS_EJ, the lowest namnskyddslöpnummer
// first; nil when there is none.
func pick(orgs []organisation, id string) *organisation {
	var best *organisation
	for i := range orgs {
		o := &orgs[i]
		if o.Organisationsidentitet != nil && o.Organisationsidentitet.Identitetsbeteckning != "" && o.Organisationsidentitet.Identitetsbeteckning != id {
			continue
		}
		if notFound(o) {
			continue
		}
		if best == nil || lopnr(o) < lopnr(best) {
			best = o
		}
	}
	return best
}

func lopnr(o *organisation) int {
	if o.Namnskyddslopnummer == nil {
		return 0
	}
	return *o.Namnskyddslopnummer
}

// notFound reports whether Bolagsverket's own blocks say the organisation
// does not exist (SCB may still answer for a person).
func notFound(o *organisation) bool {
	if o.Organisationsnamn == nil && o.Organisationsform == nil {
		return true
	}
	return (o.Organisationsnamn != nil && o.Organisationsnamn.Fel.is(felFinnsEj)) ||
		(o.Organisationsform != nil && o.Organisationsform.Fel.is(felFinnsEj))
}

func (c *Country) notFound(id string) *registry.Error {
	return &registry.Error{Code: registry.CodeNotFound, Country: countryCode, Registry: registrySlug,
		Message: "No organisation with organisation number " + id + " is registered with Bolagsverket.",
		Hint:    "Do not retry this number: check it for a mistyped digit, or search by name with the search operation."}
}

// addFinancialYear asks /dokumentlista for the annual reports filed and
// adds the latest period to rep; a failure leaves a note instead.
func (c *Country) addFinancialYear(ctx context.Context, rep *registry.CompanyReport, body []byte) {
	fail := func(why string) {
		rep.Notes = append(rep.Notes, "The list of filed annual reports could not be read ("+why+"), so the financial year is not known from it.")
	}
	a, err := c.api.Post(ctx, upstream.Request{Path: "/dokumentlista"}, body)
	switch {
	case err != nil:
		fail("Bolagsverket's API did not answer")
		return
	case a.Status != http.StatusOK:
		fail("HTTP " + strconv.Itoa(a.Status))
		return
	}
	var d dokumentlistaAnswer
	if json.Unmarshal(a.Body, &d) != nil {
		fail("the answer is not valid JSON")
		return
	}
	end, registered := yearEndOf(&d)
	financialYear(rep, end, registered)
}

// lookupIndexed answers a lookup from the bulk file's index.
func (c *Country) lookupIndexed(ctx context.Context, id string) (*registry.CompanyReport, error) {
	var rep *registry.CompanyReport
	err := c.withIndex(func(x *nameindex.Index) error {
		orgs, err := x.Lookup(ctx, id)
		if err != nil {
			return err
		}
		if len(orgs) > 0 {
			rep = mapIndexed(&orgs[0], x.Meta("built_at"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rep == nil {
		e := c.notFound(id)
		e.Message = "No organisation with organisation number " + id + " is in Bolagsverket's bulk file."
		e.Hint += " The bulk file is published weekly; an organisation registered since then is not in it yet."
		return nil, e
	}
	return rep, nil
}

// withIndex runs fn with the bulk file's index, or answers why there is
// none: not_implemented without a bulk file (for search), upstream_error
// while it is being built or when the build failed.
func (c *Country) withIndex(fn func(*nameindex.Index) error) error {
	if c.store == nil {
		return &registry.Error{Code: registry.CodeUpstreamError, Country: countryCode, Registry: registrySlug,
			Message: "Sweden has neither Bolagsverket's API credential nor its bulk file.",
			Hint:    "The operator sets " + credentialsEnv + " or " + bulkFileEnv + "."}
	}
	err := c.store.With(fn)
	if !errors.Is(err, nameindex.ErrNotReady) {
		if err != nil && !errors.As(err, new(*registry.Error)) {
			return &registry.Error{Code: registry.CodeInternalError, Country: countryCode, Registry: registrySlug,
				Message: "The index of Bolagsverket's bulk file could not be read.", Err: err}
		}
		return err
	}
	e := &registry.Error{Code: registry.CodeUpstreamError, Country: countryCode, Registry: registrySlug,
		Message: "The index of Bolagsverket's bulk file is being built.",
		Hint:    "Retry in a few minutes: the first build of the index takes a few minutes."}
	if _, building, lastErr := c.store.Status(); !building && lastErr != nil {
		e.Message, e.Hint = indexFailure(lastErr)
	}
	return e
}

// indexFailure returns the message and hint of a failed index build for a
// caller: what failed and what the operator checks, never the error's
// text, which names the server's file path or the download URL (the store
// logs it, and [Country.WaitIndexed] returns it to the operator).
func indexFailure(err error) (message, hint string) {
	const retry = " The service's log has the cause; the index is retried every hour."
	switch {
	case errors.Is(err, nameindex.ErrOpen):
		return "The index of Bolagsverket's bulk file could not be built: the bulk file cannot be opened.",
			"The operator checks that " + bulkFileEnv + " names a file that exists and the service may read." + retry
	case errors.Is(err, nameindex.ErrDownload):
		return "The index of Bolagsverket's bulk file could not be built: the bulk file cannot be downloaded.",
			"The operator checks that " + bulkURLEnv + " answers Bolagsverket's bulk file (bolagsverket_bulkfil.zip) to this server." + retry
	}
	return "The index of Bolagsverket's bulk file could not be built: the bulk file could not be read or indexed.",
		"The operator checks that " + bulkFileEnv + " or " + bulkURLEnv + " gives Bolagsverket's bulk file (bolagsverket_bulkfil.zip " +
			"or its text), and that the data directory (REGISTRY_DATA_DIR) is writable and has room." + retry
}

// CheckQuery implements [registry.QueryChecker]: a query that is, or
// holds, a personal identity number in any spelling
// [idcheck.ParseOrganisationsnummer] reads ([idcheck.ContainsPersonalNumber])
// is bad_request, so that the Registry refuses it before the number is
// part of a cache key, and it is neither searched for nor echoed.
func (c *Country) CheckQuery(query string) error {
	if !idcheck.ContainsPersonalNumber(query) {
		return nil
	}
	return &registry.Error{Code: registry.CodeBadRequest, Country: countryCode, Registry: registrySlug,
		Message: "The search query holds what has the form of a Swedish personal identity number (personnummer): this service does not " +
			"look people up, so it neither searches for nor keeps such a number.",
		Hint: "Search by the name of a company, or look a company up by its organisation number (its third and fourth digits are 20 or more)."}
}

var _ registry.QueryChecker = (*Country)(nil)

// Search finds organisations by name in the bulk file's index. Without a
// bulk file it is not_implemented: the API has no name search. A query
// that is, or holds, a personal identity number is bad_request
// ([Country.CheckQuery]; a Registry refuses such a query itself, for
// every country, before it calls the module). The query is
// matched in Unicode normal form C, so a name typed with decomposed
// letters (a followed by U+0308 for ä) finds what its precomposed
// spelling finds; the result's Query is the query as given.
func (c *Country) Search(ctx context.Context, query string, limit int) (*registry.SearchResult, error) {
	if err := c.CheckQuery(query); err != nil {
		return nil, err
	}
	if c.store == nil {
		return nil, &registry.Error{Code: registry.CodeNotImplemented, Country: countryCode, Registry: registrySlug,
			Message: "Bolagsverket's API has no name search, and this deployment has no copy of its bulk file.",
			Hint: "Look the organisation up by its organisation number; or the operator sets " + bulkFileEnv + " (the path of " +
				"bolagsverket_bulkfil.zip) or " + bulkURLEnv + " (downloaded weekly) to enable Swedish name searches."}
	}
	out := &registry.SearchResult{Country: countryCode, Registry: registrySlug, Query: query, Hits: []registry.SearchHit{}}
	err := c.withIndex(func(x *nameindex.Index) error {
		res, err := x.Search(ctx, query, limit)
		if err != nil {
			return err
		}
		out.Total = res.Total
		for i := range res.Orgs {
			o := &res.Orgs[i]
			h := countrykit.NewHit(countryCode, registrySlug, o.ID, o.Name)
			if f, ok := lookupForm(o.Form); ok {
				h.LegalFormCode, h.LegalForm = countrykit.Ptr(f.Code), countrykit.Ptr(f.English)
			} else {
				h.LegalFormCode = countrykit.StringOrNil(o.Form)
			}
			h.Status = statusOf(o.DeregisteredAt, o.DeregReason, "", o.Procedures).status
			h.City = countrykit.StringOrNil(o.Address.City)
			h.RegisteredAt = upstream.Date(o.RegisteredAt)
			out.Hits = append(out.Hits, h)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Truncated = out.Total > len(out.Hits)
	if len(out.Hits) == 0 {
		out.Hint = countrykit.Ptr("No organisation in Bolagsverket's bulk file has a name with every word of this query. " +
			"Try a shorter or differently spelled name, such as its first distinctive word, without AB.")
	}
	return out, nil
}
