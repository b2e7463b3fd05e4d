package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/idcheck"
)

// Countries lists the registries that can answer now (modules whose Ready
// returns nil; stubs only with [WithStubs]), sorted by country code.
func (r *Registry) Countries() *CountriesResponse {
	out := &CountriesResponse{Countries: []CountryInfo{}}
	for _, code := range r.codes {
		e := r.byCode[code]
		if e.info.IsStub && !r.stubs {
			continue
		}
		if r.ready(e) != nil {
			continue
		}
		out.Countries = append(out.Countries, e.info)
	}
	return out
}

// Health reports liveness: status ok, the software version, the codes of
// the countries that can answer now, the cache's backend and, for a cache
// on Redis, whether Redis answers. It makes no upstream call; a cache on
// Redis pings it at most once a second, within its operation timeout and
// ctx's deadline (see [cache.Describer]): a caller whose deadline passes
// first gets the state Redis was last seen in.
func (r *Registry) Health(ctx context.Context) *HealthResponse {
	h := &HealthResponse{Status: "ok", Version: r.version, Countries: []string{}}
	for _, c := range r.Countries().Countries {
		h.Countries = append(h.Countries, c.Country)
	}
	d := cache.Describe(ctx, r.cache)
	h.Cache = d.Backend
	if d.Backend == cache.BackendRedis {
		h.Redis = &RedisHealth{Reachable: d.Reachable}
	}
	return h
}

// Version returns the software version that [Registry.Health] reports: the
// library's [Version] unless [WithVersion] set another. It asks nothing of
// the cache.
func (r *Registry) Version() string { return r.version }

// Rules returns the Markdown rules document of a country: its identifier
// rules, legal forms, status mapping and deadline rules, with sources. It
// works whether or not the module is ready.
func (r *Registry) Rules(country string) (doc string, err error) {
	e, err := r.country(country)
	if err != nil {
		return "", err
	}
	defer r.recoverInto(e.info, "rules", &err)
	return e.c.Rules(), nil
}

// Today returns the current date in the time zone of country's register
// (for example Europe/Oslo for Norway), by the Registry's clock: the day a
// local accountant would call today, and the natural argument of
// [Registry.Deadlines]. A module that names no time zone gets the UTC date.
// The error is unsupported_country, or internal_error when the module's
// time zone is unknown to this program (import time/tzdata to embed the
// time zone database).
func (r *Registry) Today(country string) (Date, error) {
	e, err := r.country(country)
	if err != nil {
		return Date{}, err
	}
	now := r.now()
	switch {
	case e.loc != nil:
		return DateOf(now.In(e.loc)), nil
	case e.locErr != nil:
		return Date{}, r.decorate(e.info, &Error{Code: CodeInternalError, Err: e.locErr,
			Message: fmt.Sprintf("The time zone %s of the %s register is unknown to this program.", e.info.TimeZone, e.info.Country),
			Hint:    "Build the program with the time zone database (import _ \"time/tzdata\"), or pass the date yourself."})
	}
	return DateOf(now.UTC()), nil
}

// Validate checks an identifier's format and checksum offline. An invalid
// identifier is a normal result with Valid false, a Reason and a Hint; the
// only error is unsupported_country (or internal_error for a defect).
func (r *Registry) Validate(country, id string) (res *ValidationResult, err error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	defer r.recoverInto(e.info, "validate", &err)
	v := e.c.Validate(id)
	return &v, nil
}

// normalizeID validates id with the module and returns its canonical form,
// or an invalid_id error carrying the module's reason and hint. A module
// that is an [IDNormalizer] gives the canonical form of a valid id without
// a ValidationResult.
func (r *Registry) normalizeID(e entry, id string) (norm string, err error) {
	defer r.recoverInto(e.info, "validate", &err)
	if n, ok := e.c.(IDNormalizer); ok {
		if norm, valid := n.NormalizeID(id); valid && norm != "" {
			return norm, nil
		}
	}
	v := e.c.Validate(id)
	if !v.Valid {
		msg := "The identifier fails the format or checksum of " + e.info.IDScheme + "."
		if v.Reason != nil && *v.Reason != "" {
			msg = *v.Reason
		}
		hint := ""
		if v.Hint != nil {
			hint = *v.Hint
		}
		return "", r.decorate(e.info, &Error{Code: CodeInvalidID, Message: msg, Hint: hint})
	}
	if v.Normalized == nil || *v.Normalized == "" {
		return "", r.decorate(e.info, &Error{Code: CodeInternalError, Message: "The country module accepted an identifier without giving its canonical form."})
	}
	return *v.Normalized, nil
}

// prepare normalises id (invalid_id before anything else) and checks that
// the module is ready.
func (r *Registry) prepare(e entry, id string) (string, error) {
	norm, err := r.normalizeID(e, id)
	if err != nil {
		return "", err
	}
	if err := r.ready(e); err != nil {
		return "", err
	}
	return norm, nil
}

// Lookup returns the full report of one entity. The identifier is
// normalised first (spaces, dots, a country prefix and, for Norway, a
// trailing MVA are accepted); an identifier that fails format or checksum is
// invalid_id and the register is not called. A cached answer has Cached true
// and keeps the FetchedAt of the live fetch.
func (r *Registry) Lookup(ctx context.Context, country, id string) (*CompanyReport, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	b, err := r.lookupJSON(ctx, e, id)
	if err != nil {
		return nil, err
	}
	return decodeAnswer[CompanyReport](r, e, b)
}

// lookupJSON normalises id and returns the report's JSON encoding: the
// stored bytes on a cache hit, which the caller must not modify.
func (r *Registry) lookupJSON(ctx context.Context, e entry, id string) ([]byte, error) {
	norm, err := r.prepare(e, id)
	if err != nil {
		return nil, err
	}
	key := r.key(e, kindCompany, norm)
	if b, hit, err := r.cachedAnswer(ctx, key, tagReport); hit {
		return b, err
	}
	return r.lookupLive(ctx, e, key, norm)
}

// lookupLive fetches a report that is not in the cache. It is apart from
// lookupJSON so that a cache hit does not pay for the closure's captured
// variables, which escape to the heap.
func (r *Registry) lookupLive(ctx context.Context, e entry, key, id string) ([]byte, error) {
	e = unbudgeted(e, "lookup")
	return fetch(ctx, r, e, key, tagReport, func(ctx context.Context) (*CompanyReport, error) {
		rep, err := e.c.Lookup(ctx, id)
		if err == nil && rep == nil {
			err = &Error{Code: CodeInternalError, Message: "The country module returned no report and no error."}
		}
		if err != nil {
			return nil, err
		}
		if rep.FetchedAt == nil {
			rep.FetchedAt = ptr(r.now().UTC().Truncate(time.Second))
		}
		// An exact identifier lookup: the interface's anchor.
		rep.Confidence = 1.0
		if rep.ConfidenceBasis == nil {
			rep.ConfidenceBasis = ptr("Exact lookup by the " + e.info.IDScheme + ".")
		}
		rep.IsActive = rep.Status == StatusActive
		return rep, nil
	})
}

// Search finds entities by name and returns at most limit thin hits, best
// first. query must not be empty or blank and is at most [MaxQueryLength]
// bytes; limit must be from 1 to [MaxSearchLimit] (the adapters apply
// [DefaultSearchLimit] when their caller gives none). Both are bad_request
// otherwise, never clamped. A query that holds what has the form of a
// Swedish personal identity number ([idcheck.ContainsPersonalNumber]) is
// bad_request in every country, whose error does not quote it: it is never
// part of a cache key, sent to a register or echoed in an answer, since
// this service does not look people up. Zero hits is a success whose Hint says what to
// try; an answer with hits has a Hint too, saying that a hit is thin and
// naming the lookup that gives its full report.
//
// The Registry ranks the hits, the same way for every country: it asks the
// register for at least [SearchWindow] rows (so that an exact or prefix
// match the register returns near the top is not lost to a small limit),
// gives each hit the confidence of the interface's anchors (1.0 the query
// is the hit's identifier, 0.95 the name equals the query ignoring case, 0.8 it starts with the query, 0.6 it
// contains every word of the query, 0.4 any other hit), sorts them by
// confidence keeping the register's order among equals, and keeps the
// first limit.
func (r *Registry) Search(ctx context.Context, country, query string, limit int) (*SearchResult, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	b, err := r.searchJSON(ctx, e, query, limit)
	if err != nil {
		return nil, err
	}
	return decodeAnswer[SearchResult](r, e, b)
}

// searchJSON checks the query and limit and returns the result's JSON
// encoding: the stored bytes on a cache hit, which the caller must not
// modify.
func (r *Registry) searchJSON(ctx context.Context, e entry, query string, limit int) ([]byte, error) {
	q := strings.TrimSpace(query)
	switch {
	case q == "":
		return nil, r.badRequest(e, "The search query is missing or empty.",
			"Pass a company name or part of one, for example equinor.")
	case len(q) > MaxQueryLength:
		return nil, r.badRequest(e, fmt.Sprintf("The search query is longer than %d bytes.", MaxQueryLength),
			"Search with a shorter part of the name.")
	case limit < 1 || limit > MaxSearchLimit:
		return nil, r.badRequest(e, fmt.Sprintf("limit must be an integer from 1 to %d; got %s.", MaxSearchLimit, shownLimit(limit)),
			limitHint)
	}
	if idcheck.ContainsPersonalNumber(q) {
		// One rule for every country's search, before the module's own
		// check, the cache and the register: this service does not look
		// people up, and no module is handed the number.
		return nil, r.badRequest(e, personalNumberQueryMessage, personalNumberQueryHint)
	}
	if err := r.checkQuery(e, q); err != nil {
		return nil, err
	}
	if err := r.ready(e); err != nil {
		return nil, err
	}
	key := r.key(e, kindSearch, fmt.Sprint(limit), q)
	if b, hit, err := r.cachedAnswer(ctx, key, tagSearch); hit {
		return b, err
	}
	return r.searchLive(ctx, e, key, q, limit)
}

// searchLive runs a search that is not in the cache (see lookupLive).
func (r *Registry) searchLive(ctx context.Context, e entry, key, q string, limit int) ([]byte, error) {
	e = unbudgeted(e, "search")
	return fetch(ctx, r, e, key, tagSearch, func(ctx context.Context) (*SearchResult, error) {
		res, err := e.c.Search(ctx, q, searchWindow(limit))
		if err == nil && res == nil {
			err = &Error{Code: CodeInternalError, Message: "The country module returned no search result and no error."}
		}
		if err != nil {
			return nil, err
		}
		rank(res, q, limit)
		if res.FetchedAt == nil {
			res.FetchedAt = ptr(r.now().UTC().Truncate(time.Second))
		}
		return res, nil
	})
}

// Deadlines computes the next statutory filing deadline of each kind for an
// entity, counted from today (inclusive). The report is looked up first
// (through the cache), so the errors of [Registry.Lookup] apply. today must
// be a real calendar date; [Registry.Today] gives the current date in the
// register's own time zone. A zero or impossible today is bad_request.
func (r *Registry) Deadlines(ctx context.Context, country, id string, today Date) (*DeadlineReport, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	if !today.valid() {
		return nil, r.badRequest(e, "today must be a real calendar date.", todayHint)
	}
	b, err := r.lookupJSON(ctx, e, id)
	if err != nil {
		return nil, err
	}
	rep, err := decodeAnswer[CompanyReport](r, e, b)
	if err != nil {
		return nil, err
	}
	return r.computeDeadlines(e, rep, today)
}

// Hints of parameter errors.
const (
	limitHint = "Retry with limit between 1 and 100 (default 10)."
	todayHint = "Pass today as a real calendar date, for example 2026-01-15."
)

func (r *Registry) computeDeadlines(e entry, rep *CompanyReport, today Date) (out *DeadlineReport, err error) {
	defer r.recoverInto(e.info, "deadlines", &err)
	out, err = e.c.Deadlines(rep, today)
	if err != nil {
		return nil, r.decorate(e.info, err)
	}
	if out == nil {
		return nil, r.decorate(e.info, &Error{Code: CodeInternalError, Message: "The country module returned no deadline report and no error."})
	}
	return out, nil
}

// decodeAnswer decodes the JSON of a report or search result into a value
// the caller owns.
func decodeAnswer[T any](r *Registry, e entry, b []byte) (*T, error) {
	v := new(T)
	if err := json.Unmarshal(b, v); err != nil {
		return nil, r.decorate(e.info, &Error{Code: CodeInternalError, Message: "A stored answer could not be decoded.", Err: err})
	}
	return v, nil
}

// personalNumberQueryMessage and personalNumberQueryHint are the refusal of
// a search query that holds what has the form of a Swedish personal
// identity number ([idcheck.ContainsPersonalNumber]), in every country: the
// message is the Swedish module's own (countries/se, CheckQuery), which
// TestSearchRefusesPersonalNumberAsSweden keeps equal; the hint names no
// country's identifiers, Sweden's included (the module's own CheckQuery,
// for a caller of its Search without a Registry, names its organisation
// numbers).
const (
	personalNumberQueryMessage = "The search query holds what has the form of a Swedish personal identity number (personnummer): " +
		"this service does not look people up, so it neither searches for nor keeps such a number."
	personalNumberQueryHint = "Search by the name of a company, or look a company up by its identifier."
)

// shownLimit is an out-of-range limit as its error quotes it: the number,
// unless its digits have the form of a Swedish personal identity number
// (the rule by which the doors quote any value a caller sent, ops.Number
// in the internal packages, which cannot be imported here: an error never
// carries personal data, not even the caller's own).
func shownLimit(limit int) string {
	if s := strconv.Itoa(limit); !idcheck.ContainsPersonalNumber(s) {
		return s
	}
	return "(not quoted: it has the form of a personal identity number)"
}
