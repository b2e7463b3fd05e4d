package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/companyregistry/registry/cache"
)

// Registry answers the six operations of the interface over a set of
// national [Country] modules. It owns country-code normalisation, parameter
// validation, identifier normalisation, the cache, the collapsing of
// identical concurrent upstream fetches, the one retry of a retryable
// upstream failure and the mapping of every failure to one of the nine
// [Code] values. A Registry is safe for concurrent use.
type Registry struct {
	byCode      map[string]entry
	codes       []string // sorted
	cache       cache.Cache
	ttl         time.Duration
	notFoundTTL time.Duration
	now         func() time.Time
	log         *slog.Logger
	timeout     time.Duration
	retryPause  time.Duration
	version     string
	stubs       bool
	group       singleflight.Group
}

type entry struct {
	c    Country
	info CountryInfo
}

// New builds a Registry over countries. It returns an error for a nil
// module, two modules with one country code, a module whose [CountryInfo]
// lacks its country code or registry slug, or an invalid option.
func New(countries []Country, opts ...Option) (*Registry, error) {
	o := options{
		ttl:        DefaultCacheTTL,
		now:        time.Now,
		timeout:    DefaultUpstreamTimeout,
		retryPause: DefaultRetryPause,
		version:    Version,
	}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("registry: New: nil option")
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	if o.cache == nil {
		m, err := cache.NewMemory(cache.WithClock(o.now))
		if err != nil {
			return nil, fmt.Errorf("registry: default cache: %w", err)
		}
		o.cache = m
	}
	r := &Registry{
		byCode:      make(map[string]entry, len(countries)),
		cache:       o.cache,
		ttl:         o.ttl,
		notFoundTTL: min(o.ttl, NotFoundTTL),
		now:         o.now,
		log:         o.logger,
		timeout:     o.timeout,
		retryPause:  o.retryPause,
		version:     o.version,
		stubs:       o.includeStubs,
	}
	for i, c := range countries {
		if c == nil {
			return nil, fmt.Errorf("registry: New: country %d is nil", i)
		}
		info := c.Info()
		if !isCountryCode(info.Country) {
			return nil, fmt.Errorf("registry: New: country %d has code %q, want two upper-case letters", i, info.Country)
		}
		if info.Registry == "" {
			return nil, fmt.Errorf("registry: New: country %s has no registry slug", info.Country)
		}
		if _, dup := r.byCode[info.Country]; dup {
			return nil, fmt.Errorf("registry: New: two modules for country %s", info.Country)
		}
		r.byCode[info.Country] = entry{c: c, info: info}
		r.codes = append(r.codes, info.Country)
	}
	slices.Sort(r.codes)
	return r, nil
}

func isCountryCode(s string) bool {
	return len(s) == 2 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z'
}

// normalizeCountry upper-cases an ASCII country code; ok is false for
// anything that cannot be an ISO alpha-2 code.
func normalizeCountry(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) != 2 {
		return "", false
	}
	if isCountryCode(s) {
		return s, true // the usual case, without an allocation
	}
	b := [2]byte{s[0], s[1]}
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	code := string(b[:])
	return code, isCountryCode(code)
}

// country resolves a caller's country code to its module.
func (r *Registry) country(code string) (entry, error) {
	norm, ok := normalizeCountry(code)
	if e, found := r.byCode[norm]; ok && found {
		return e, nil
	}
	msg := "No register module for this country code."
	if ok {
		msg = fmt.Sprintf("No register module for country %s.", norm)
	} else {
		norm = ""
	}
	hint := CodeUnsupportedCountry.DefaultHint()
	if norm == "UK" {
		msg = "UK is not an ISO 3166-1 code: the United Kingdom is GB."
		hint = "Use GB for the United Kingdom; call the countries operation (GET /v1/countries or the list_countries tool) for the full list."
	}
	return entry{}, &Error{Code: CodeUnsupportedCountry, Country: norm, Message: msg, Hint: hint}
}

// BadRequest returns the error for a parameter problem that an adapter
// found before calling an operation for country: the Registry's own
// unsupported_country error when no module serves country (the country is
// checked first, as every operation does), and otherwise a bad_request with
// message and hint, its country and registry filled in.
func (r *Registry) BadRequest(country, message, hint string) *Error {
	e, err := r.country(country)
	if err != nil {
		return AsError(err)
	}
	return r.decorate(e.info, NewBadRequest("", message, hint))
}

// InvalidToday returns the error of a today parameter that is not a date
// (including one given but empty): the same bad_request that
// [Registry.Deadlines] returns for an unparseable today, or
// unsupported_country for an unknown country.
func (r *Registry) InvalidToday(country string) *Error {
	return r.BadRequest(country, "today must be a date written YYYY-MM-DD.",
		"Pass today as YYYY-MM-DD (for example 2026-01-15), or leave it out for the current UTC date.")
}

// ParseLimit reads the search limit of a call for country as the caller
// wrote it: absent (present false) is [DefaultSearchLimit]; present, it must
// be a decimal integer (an empty value is not), else the error is
// bad_request, or unsupported_country for an unknown country. The range is
// checked by [Registry.Search].
func (r *Registry) ParseLimit(country, raw string, present bool) (int, error) {
	if !present {
		return DefaultSearchLimit, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		const show = 40
		if len(raw) > show {
			raw = raw[:show] + "..."
		}
		return 0, r.BadRequest(country, fmt.Sprintf("limit must be an integer from 1 to %d; got %q.", MaxSearchLimit, raw), limitHint())
	}
	return n, nil
}

func limitHint() string {
	return fmt.Sprintf("Retry with limit between 1 and %d (default %d).", MaxSearchLimit, DefaultSearchLimit)
}

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

// AllCountries describes every module the Registry was built with, ready or
// not and stub or not, sorted by country code. Documentation generators use
// it; callers choosing a country use [Registry.Countries].
func (r *Registry) AllCountries() []CountryInfo {
	out := make([]CountryInfo, 0, len(r.codes))
	for _, code := range r.codes {
		out = append(out, r.byCode[code].info)
	}
	return out
}

// Health reports liveness: status ok, the software version and the codes of
// the countries that can answer now. It makes no upstream call.
func (r *Registry) Health() *HealthResponse {
	h := &HealthResponse{Status: "ok", Version: r.version, Countries: []string{}}
	for _, c := range r.Countries().Countries {
		h.Countries = append(h.Countries, c.Country)
	}
	return h
}

// Rules returns the Markdown rules document of a country (identifier rules,
// legal forms and deadline rules). It works whether or not the module is
// ready.
func (r *Registry) Rules(country string) (doc string, err error) {
	e, err := r.country(country)
	if err != nil {
		return "", err
	}
	defer r.recoverInto(e.info, "rules", &err)
	return e.c.Rules(), nil
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
// or an invalid_id error carrying the module's reason and hint.
func (r *Registry) normalizeID(e entry, id string) (norm string, err error) {
	defer r.recoverInto(e.info, "validate", &err)
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

// ready calls the module's Ready, treating a panic as not ready.
func (r *Registry) ready(e entry) (err error) {
	defer r.recoverInto(e.info, "ready", &err)
	if err := e.c.Ready(); err != nil {
		return r.decorate(e.info, err)
	}
	return nil
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
	a, err := r.lookupID(ctx, country, id)
	if err != nil {
		return nil, err
	}
	return a.decode()
}

// lookupID resolves the country, normalises id and looks it up.
func (r *Registry) lookupID(ctx context.Context, country, id string) (answer[CompanyReport], error) {
	e, err := r.country(country)
	if err != nil {
		return answer[CompanyReport]{}, err
	}
	norm, err := r.prepare(e, id)
	if err != nil {
		return answer[CompanyReport]{}, err
	}
	return r.lookup(ctx, e, norm)
}

// Cache entries start with one byte saying what follows.
const (
	tagReport   = 'r' // a CompanyReport JSON, already marked cached
	tagNotFound = 'n' // an error envelope JSON
	tagSearch   = 's' // a SearchResult JSON, already marked cached
)

// LookupJSON is [Registry.Lookup] returning the report's JSON encoding, the
// exact bytes the REST and MCP adapters send. A cache hit returns the stored
// bytes without decoding or re-encoding them. The caller must not modify the
// returned slice.
func (r *Registry) LookupJSON(ctx context.Context, country, id string) ([]byte, error) {
	a, err := r.lookupID(ctx, country, id)
	if err != nil {
		return nil, err
	}
	return a.encode()
}

// answer is a lookup or search result before the caller picks its form: a
// value owned by this caller, and/or JSON bytes that may be shared with other
// callers (a cache entry or a shared fetch) and so must not be modified.
type answer[T any] struct {
	value *T
	raw   []byte
}

func (a answer[T]) decode() (*T, error) {
	if a.value != nil {
		return a.value, nil
	}
	v := new(T)
	if err := json.Unmarshal(a.raw, v); err != nil {
		return nil, &Error{Code: CodeInternalError, Message: "A stored answer could not be decoded.", Err: err}
	}
	return v, nil
}

func (a answer[T]) encode() ([]byte, error) {
	if a.raw != nil {
		return a.raw, nil
	}
	b, err := json.Marshal(a.value)
	if err != nil {
		return nil, &Error{Code: CodeInternalError, Message: "The answer could not be encoded.", Err: err}
	}
	return b, nil
}

func (r *Registry) lookup(ctx context.Context, e entry, id string) (answer[CompanyReport], error) {
	key := e.info.Country + "/company/" + id
	if b, ok := r.cacheGet(ctx, key); ok {
		switch b[0] {
		case tagReport:
			return answer[CompanyReport]{raw: b[1:]}, nil
		case tagNotFound:
			var cerr Error
			if json.Unmarshal(b[1:], &cerr) == nil {
				return answer[CompanyReport]{}, &cerr
			}
		}
		// An entry of another kind is treated as a miss and overwritten.
	}
	return r.lookupLive(ctx, e, key, id)
}

// lookupLive fetches a report that is not in the cache. It is apart from
// lookup so that a cache hit does not pay for the closure's captured
// variables, which escape to the heap.
func (r *Registry) lookupLive(ctx context.Context, e entry, key, id string) (answer[CompanyReport], error) {
	return fetch(ctx, r, key, tagReport, e.info, func(ctx context.Context) (*CompanyReport, error) {
		rep, err := e.c.Lookup(ctx, id)
		if err == nil && rep == nil {
			err = &Error{Code: CodeInternalError, Message: "The country module returned no report and no error."}
		}
		if err != nil {
			return nil, err
		}
		if rep.FetchedAt == nil {
			rep.FetchedAt = Ptr(r.now().UTC().Truncate(time.Second))
		}
		rep.Cached = false
		rep.IsActive = rep.Status == StatusActive
		return rep, nil
	})
}

// Search finds entities by name. query must not be empty or blank and is at
// most [MaxQueryLength] bytes; limit must be from 1 to [MaxSearchLimit]
// (adapters apply [DefaultSearchLimit] when the caller gives none). Both are
// bad_request otherwise, never clamped. Zero hits is a success.
func (r *Registry) Search(ctx context.Context, country, query string, limit int) (*SearchResult, error) {
	a, err := r.search(ctx, country, query, limit)
	if err != nil {
		return nil, err
	}
	return a.decode()
}

// SearchJSON is [Registry.Search] returning the result's JSON encoding; a
// cache hit returns the stored bytes. The caller must not modify the
// returned slice.
func (r *Registry) SearchJSON(ctx context.Context, country, query string, limit int) ([]byte, error) {
	a, err := r.search(ctx, country, query, limit)
	if err != nil {
		return nil, err
	}
	return a.encode()
}

func (r *Registry) search(ctx context.Context, country, query string, limit int) (answer[SearchResult], error) {
	e, err := r.country(country)
	if err != nil {
		return answer[SearchResult]{}, err
	}
	q := strings.TrimSpace(query)
	switch {
	case q == "":
		return answer[SearchResult]{}, r.decorate(e.info, NewBadRequest("", "The search query is missing or empty.",
			"Pass a company name or part of one, for example equinor."))
	case len(q) > MaxQueryLength:
		return answer[SearchResult]{}, r.decorate(e.info, NewBadRequest("", fmt.Sprintf("The search query is longer than %d bytes.", MaxQueryLength),
			"Search with a shorter part of the name."))
	case limit < 1 || limit > MaxSearchLimit:
		return answer[SearchResult]{}, r.decorate(e.info, NewBadRequest("", fmt.Sprintf("limit must be an integer from 1 to %d; got %d.", MaxSearchLimit, limit),
			limitHint()))
	}
	if err := r.ready(e); err != nil {
		return answer[SearchResult]{}, err
	}
	key := e.info.Country + "/search/" + strconv.Itoa(limit) + "/" + q
	if b, ok := r.cacheGet(ctx, key); ok && b[0] == tagSearch {
		return answer[SearchResult]{raw: b[1:]}, nil
	}
	return r.searchLive(ctx, e, key, q, limit)
}

// searchLive runs a search that is not in the cache (see lookupLive).
func (r *Registry) searchLive(ctx context.Context, e entry, key, q string, limit int) (answer[SearchResult], error) {
	return fetch(ctx, r, key, tagSearch, e.info, func(ctx context.Context) (*SearchResult, error) {
		res, err := e.c.Search(ctx, q, limit)
		if err == nil && res == nil {
			err = &Error{Code: CodeInternalError, Message: "The country module returned no search result and no error."}
		}
		if err != nil {
			return nil, err
		}
		if res.FetchedAt == nil {
			res.FetchedAt = Ptr(r.now().UTC().Truncate(time.Second))
		}
		res.Cached = false
		return res, nil
	})
}

// Deadlines computes the next statutory filing deadline of each kind for an
// entity. The report is looked up first (through the cache). today is
// "YYYY-MM-DD", or "" for the current UTC date by the Registry's clock; any
// other value is bad_request.
func (r *Registry) Deadlines(ctx context.Context, country, id, today string) (*DeadlineReport, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	day := DateOf(r.now().UTC())
	if today != "" {
		d, perr := ParseDate(today)
		if perr != nil {
			return nil, r.InvalidToday(country)
		}
		day = d
	}
	a, err := r.lookupID(ctx, country, id)
	if err != nil {
		return nil, err
	}
	rep, err := a.decode()
	if err != nil {
		return nil, r.decorate(e.info, err)
	}
	return r.computeDeadlines(e, rep, day)
}

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

// fetchResult is what a shared fetch hands to every waiting caller: the
// value, which only a sole caller may keep, and its live JSON encoding
// (cached false), which callers of a shared fetch decode or send.
type fetchResult struct {
	value any
	live  []byte
}

// fetch runs call at most once for all concurrent callers of key, under a
// context that no caller can cancel, with a per-attempt timeout and one retry
// of a retryable failure, and caches the answer under key with tag. Each
// caller waits under its own ctx. A sole caller gets the value itself;
// callers of a shared fetch get the shared JSON, from which each decodes its
// own copy.
func fetch[T any](ctx context.Context, r *Registry, key string, tag byte, info CountryInfo, call func(context.Context) (*T, error)) (answer[T], error) {
	ch := r.group.DoChan(key, func() (any, error) {
		bg := context.WithoutCancel(ctx)
		v, err := r.attempts(bg, func(ctx context.Context) (any, error) { return call(ctx) }, info)
		if err != nil {
			r.remember(bg, key, err)
			return nil, err
		}
		live, err := json.Marshal(v)
		if err != nil {
			return nil, r.decorate(info, &Error{Code: CodeInternalError, Message: "The answer could not be encoded.", Err: err})
		}
		stored, ok := cacheEntry(tag, live)
		if !ok {
			return nil, r.decorate(info, &Error{Code: CodeInternalError, Message: "The answer could not be prepared for the cache."})
		}
		r.cacheSet(bg, key, stored, r.ttl)
		return fetchResult{value: v, live: live}, nil
	})
	select {
	case <-ctx.Done():
		return answer[T]{}, r.decorate(info, &Error{Code: CodeUpstreamTimeout,
			Message: "The request was cancelled or timed out before the register answered.", Err: ctx.Err()})
	case res := <-ch:
		if res.Err != nil {
			return answer[T]{}, res.Err
		}
		fr := res.Val.(fetchResult)
		if res.Shared {
			return answer[T]{raw: fr.live}, nil
		}
		return answer[T]{value: fr.value.(*T), raw: fr.live}, nil
	}
}

// cachedFalse is the top-level field of a live answer's JSON; in both
// documents only fetched_at and string fields follow it.
const cachedFalse = `"cached":false`

// cacheEntry turns the live JSON of a report or search result (cached
// false) into a cache entry: the tag byte and the same JSON with cached set
// to true, so that a hit is sent as stored. The top-level field is the last
// occurrence: the fields after it are strings, dates and a list of strings,
// and a JSON string cannot hold the unescaped quotes of the pattern, so only
// an earlier map key (registers) could match, never a later one.
func cacheEntry(tag byte, live []byte) ([]byte, bool) {
	i := bytes.LastIndex(live, []byte(cachedFalse))
	if i < 0 {
		return nil, false
	}
	out := make([]byte, 0, len(live)+2)
	out = append(out, tag)
	out = append(out, live[:i]...)
	out = append(out, `"cached":true`...)
	return append(out, live[i+len(cachedFalse):]...), true
}

// attempts runs call once, and once more after a pause when the first
// failure is retryable. It never panics.
func (r *Registry) attempts(ctx context.Context, call func(context.Context) (any, error), info CountryInfo) (any, error) {
	var last *Error
	for attempt := 1; attempt <= 2; attempt++ {
		if attempt == 2 {
			time.Sleep(r.retryPause)
		}
		v, err := r.attempt(ctx, call, info)
		if err == nil {
			return v, nil
		}
		last = err
		r.log.LogAttrs(ctx, slog.LevelWarn, "upstream attempt failed",
			slog.String("country", info.Country), slog.String("registry", info.Registry),
			slog.Int("attempt", attempt), slog.String("code", string(err.Code)), slog.Bool("retryable", err.Retryable))
		if !err.Retryable {
			break
		}
	}
	return nil, last
}

// attempt runs call once under the per-attempt timeout and classifies its
// failure.
func (r *Registry) attempt(ctx context.Context, call func(context.Context) (any, error), info CountryInfo) (v any, err *Error) {
	actx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			r.logPanic(info, "fetch", p)
			v, err = nil, r.decorate(info, &Error{Code: CodeInternalError, Message: "A defect in the country module stopped this request."})
		}
	}()
	v, cerr := call(actx)
	if cerr == nil {
		return v, nil
	}
	return nil, r.classify(actx, cerr, info)
}

// classify maps a module's failure to an *Error with the right code and
// retryability. A plain error from an HTTP client becomes upstream_timeout
// or upstream_error (retryable); anything else unknown is internal_error.
func (r *Registry) classify(actx context.Context, err error, info CountryInfo) *Error {
	timedOut := errors.Is(actx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		timedOut = true
	}
	var e *Error
	if errors.As(err, &e) {
		e = r.decorate(info, e)
		if e.Retryable && timedOut && e.Code == CodeUpstreamError {
			e.Code = CodeUpstreamTimeout
		}
		return e
	}
	if timedOut {
		return r.decorate(info, &Error{Code: CodeUpstreamTimeout, Retryable: true, Err: err,
			Message: fmt.Sprintf("The %s register did not answer within %v.", info.Country, r.timeout)})
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.As(err, &se) || errors.As(err, &te) {
		return r.decorate(info, &Error{Code: CodeUpstreamError, Retryable: true, Err: err,
			Message: fmt.Sprintf("The %s register could not be reached or sent an unreadable answer.", info.Country)})
	}
	return r.decorate(info, &Error{Code: CodeInternalError, Err: err,
		Message: "An unexpected error occurred inside the service."})
}

// remember caches a not_found answer for the not_found TTL, and purges the
// key for an entity the register says is gone. Other failures are not cached.
func (r *Registry) remember(ctx context.Context, key string, err error) {
	var e *Error
	if !errors.As(err, &e) {
		return
	}
	switch {
	case e.Gone:
		if derr := r.cache.Delete(ctx, key); derr != nil {
			r.log.LogAttrs(ctx, slog.LevelWarn, "cache delete failed", slog.String("error", derr.Error()))
		}
	case e.Code == CodeNotFound:
		b, merr := json.Marshal(e)
		if merr == nil {
			r.cacheSet(ctx, key, append([]byte{tagNotFound}, b...), r.notFoundTTL)
		}
	}
}

func (r *Registry) cacheGet(ctx context.Context, key string) ([]byte, bool) {
	b, ok, err := r.cache.Get(ctx, key)
	if err != nil {
		r.log.LogAttrs(ctx, slog.LevelWarn, "cache get failed", slog.String("error", err.Error()))
		return nil, false
	}
	return b, ok && len(b) > 0
}

func (r *Registry) cacheSet(ctx context.Context, key string, b []byte, ttl time.Duration) {
	if err := r.cache.Set(ctx, key, b, ttl); err != nil {
		r.log.LogAttrs(ctx, slog.LevelWarn, "cache set failed", slog.String("error", err.Error()))
	}
}

// decorate returns a copy of err as an *Error with the country, registry and
// hint filled in where the module left them empty. It never mutates the
// module's value.
func (r *Registry) decorate(info CountryInfo, err error) *Error {
	e := *AsError(err)
	if e.Country == "" {
		e.Country = info.Country
	}
	if e.Registry == "" {
		e.Registry = info.Registry
	}
	if e.Hint == "" {
		e.Hint = e.Code.DefaultHint()
	}
	if e.Message == "" {
		e.Message = defaultMessage(e.Code)
	}
	return &e
}

func defaultMessage(c Code) string {
	switch c {
	case CodeNotFound:
		return "No entity with this identifier is registered."
	case CodeUpstreamError:
		return "The national register answered with an error."
	case CodeUpstreamTimeout:
		return "The national register did not answer in time."
	case CodeRateLimited:
		return "Too many requests."
	}
	return "The operation failed (" + string(c) + ")."
}

// recoverInto turns a panic in a country module into an internal_error in
// *err. It must be deferred directly.
func (r *Registry) recoverInto(info CountryInfo, op string, err *error) {
	if p := recover(); p != nil {
		r.logPanic(info, op, p)
		*err = r.decorate(info, &Error{Code: CodeInternalError, Message: "A defect in the country module stopped this request."})
	}
}

func (r *Registry) logPanic(info CountryInfo, op string, p any) {
	r.log.LogAttrs(context.Background(), slog.LevelError, "panic in country module",
		slog.String("country", info.Country), slog.String("op", op),
		slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
}
