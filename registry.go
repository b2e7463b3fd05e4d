package registry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/companyregistry/registry/cache"
)

// Registry answers the operations of the interface over a set of national
// [Country] modules. It owns country-code normalisation, parameter
// validation, identifier normalisation, the cache, the collapsing of
// identical concurrent upstream fetches, the one retry of a retryable
// upstream failure, the ranking of search hits and the mapping of every
// failure to a [Code]. A Registry is safe for concurrent use.
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
	flights     flights
	observer    FetchObserver // nil: none
	// batchConcurrency bounds the identifiers of a batch worked on at once.
	batchConcurrency int
	// budgetWait bounds the wait for an upstream budget; wait paces it and
	// the batches.
	budgetWait time.Duration
	wait       waiter
	// packs compresses the answers fetches stored plain, one at a time.
	packs packQueue
}

type entry struct {
	c    Country
	info CountryInfo
	loc  *time.Location // nil when info.TimeZone is empty or unknown here
	// locErr says why loc is nil although info.TimeZone is set.
	locErr error
	// budget is the upstream budget of the register, or nil.
	budget UpstreamBudget
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
		batch:      DefaultBatchConcurrency,
		budgetWait: DefaultBudgetWait,
		waiter:     realWaiter(),
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
		if o.noCache {
			o.cache = noCache{}
		} else {
			m, err := cache.NewMemory(cache.WithClock(o.now), cache.WithCompression())
			if err != nil {
				return nil, fmt.Errorf("registry: default cache: %w", err)
			}
			o.cache = m
		}
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
		observer:    o.observer,

		batchConcurrency: o.batch,
		budgetWait:       o.budgetWait,
		wait:             o.waiter,
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
		e := entry{c: c, info: info, budget: o.budgets[info.Country]}
		if info.TimeZone != "" {
			e.loc, e.locErr = time.LoadLocation(info.TimeZone)
		}
		r.byCode[info.Country] = e
		r.codes = append(r.codes, info.Country)
	}
	slices.Sort(r.codes)
	for cc := range o.budgets {
		if _, ok := r.byCode[cc]; !ok {
			return nil, fmt.Errorf("registry: WithUpstreamBudget: no module for country %s", cc)
		}
	}
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
		hint = "Use GB for the United Kingdom; call the countries operation for the full list."
	}
	return entry{}, &Error{Code: CodeUnsupportedCountry, Country: norm, Message: msg, Hint: hint}
}

// ready calls the module's Ready, treating a panic as not ready.
func (r *Registry) ready(e entry) (err error) {
	defer r.recoverInto(e.info, "ready", &err)
	if err := e.c.Ready(); err != nil {
		return r.decorate(e.info, err)
	}
	return nil
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

// badRequest returns a bad_request error of a call for the module of e.
func (r *Registry) badRequest(e entry, message, hint string) *Error {
	return r.decorate(e.info, &Error{Code: CodeBadRequest, Message: message, Hint: hint})
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
