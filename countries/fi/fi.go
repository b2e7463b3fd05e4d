// Package fi implements [registry.Country] for Finland: lookups and name
// searches in YTJ, the Finnish Business Information System kept by the
// Finnish Patent and Registration Office (Patentti- ja rekisterihallitus,
// PRH) and the Tax Administration, through PRH's open data API v3 at
// https://avoindata.prh.fi/opendata-ytj-api/v3.
//
// Build a module with [New] and pass it to registry.New. The register needs
// no credential; set a contact e-mail with [WithContactEmail] so that the
// register can reach the operator. PRH allows about 300 queries a minute
// shared by all its users: the Registry's cache and upstream budget keep
// this service's share small. The Registry owns caching, the one retry and
// timeouts: this package only talks to the register and maps its answers.
// It keeps no state between calls and logs nothing.
//
// # Identifier
//
// The business ID (Y-tunnus) is parsed by idcheck.ParseYTunnus. Its
// canonical form, used as the id of reports and hits, in cache keys and as
// validation's normalized, is its eight digits ("01120389"): an id has
// letters and digits only. The written form, the register's own (seven
// digits, a hyphen and the check digit, "0112038-9"), is id_formatted and
// validation's formatted, and is what the register is asked for.
// "0112038-9", "0112038 9" and the VAT number "FI01120389" are accepted and
// normalised.
//
// # Lookups
//
// Lookup asks GET /companies?businessId={id}. The register answers an
// unknown business ID with 200 and totalResults 0, which is not_found. A
// 400 is invalid_id, a 429 rate_limited (details.retry_after is the
// Retry-After header's seconds, at least 1 and at most 3600; 60 when the
// header is missing), and a 5xx, a body that is not valid JSON, a 200 whose
// Content-Type is not JSON, a truncated body or a body over 8 MiB a
// retryable upstream_error. Redirects are not followed: a 3xx is a final
// upstream_error. Every error that comes from an HTTP status carries it in
// [registry.Error.UpstreamStatus].
//
// # Search
//
// Search asks GET /companies?name={query} and returns the register's first
// page (at most 100 companies, in the register's order, which is by
// business ID); the Registry ranks the hits.
//
// # Mapping
//
// [Country.Rules] documents the mapping: the legal-form table with its
// duties, the status precedence, the registers and the deadline rules of
// package deadlines.
package fi

import (
	"net/http"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// DefaultBaseURL is the base URL of PRH's open data API v3 for YTJ.
const DefaultBaseURL = "https://avoindata.prh.fi/opendata-ytj-api/v3"

const (
	countryCode  = "FI"
	registrySlug = "prh"
	idScheme     = "y-tunnus"
	registerName = "Finnish Patent and Registration Office (PRH), YTJ Business Information System"
	licenseText  = "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/): Source: Patentti- ja rekisterihallitus (PRH), YTJ. " +
		"PRH's terms: a service using the data does not use the PRH or YTJ logo and does not look like the official source."
)

// Option configures a [Country]. Options validate their input: [New]
// returns the first option error.
type Option func(*options) error

// options is what the options set: the upstream client's configuration.
type options = upstream.Config

// WithBaseURL sets the base URL of PRH's open data API, for a mirror or a
// test server. The default is [DefaultBaseURL]. The URL must be absolute
// http or https without user information, query or fragment; a trailing
// slash is ignored.
func WithBaseURL(u string) Option {
	return func(o *options) error { return o.SetBaseURL(u) }
}

// WithHTTPClient sets the HTTP client used for every upstream request; the
// module keeps a copy of *c, whose CheckRedirect it replaces: redirects are
// never followed, a 3xx answer is an upstream_error. The default is a
// client with no timeout of its own (the Registry bounds each attempt). A
// nil client is rejected.
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) error { return o.SetHTTPClient(c) }
}

// WithContactEmail sets the operator's contact e-mail address, sent in the
// User-Agent header so that the register can reach the operator. It must
// be a plain address such as ops@example.org; an empty string leaves it
// out.
func WithContactEmail(email string) Option {
	return func(o *options) error { return o.SetContactEmail(email) }
}

// Country is the Finnish module. It implements [registry.Country]. Build
// one with [New]; a Country is safe for concurrent use.
type Country struct {
	up    *upstream.Client
	rules string // the Markdown of Rules, built once
}

var _ registry.Country = (*Country)(nil)

// New returns the Finnish module configured by opts.
func New(opts ...Option) (*Country, error) {
	up, err := upstream.New(upstream.Config{
		Module: "fi", Country: countryCode, Registry: registrySlug, Name: "PRH's open data API",
		BaseURL: DefaultBaseURL, MaxBodyBytes: maxBodyBytes,
		RateLimitMessage: "PRH's open data API is limiting the rate of requests (about 300 a minute, shared by all its users).",
	}, opts)
	if err != nil {
		return nil, err
	}
	return &Country{up: up, rules: buildRules()}, nil
}

// Info describes the module: country FI, registry prh, no credential. Its
// SourceURL is the register's public API, also when [WithBaseURL] points
// the module at a mirror.
func (c *Country) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country:        countryCode,
		Registry:       registrySlug,
		Name:           registerName,
		IDScheme:       idScheme,
		IDExample:      "0112038-9",
		IDDescription:  "The business ID (Y-tunnus): seven digits, a hyphen and a MOD11 check digit (weights 7, 9, 10, 5, 8, 4, 2), such as 0112038-9; also accepted without the hyphen, with spaces, or as the VAT number FI01120389.",
		SourceURL:      DefaultBaseURL,
		License:        licenseText,
		RequiresAPIKey: false,
		TimeZone:       "Europe/Helsinki",
	}
}

// Ready returns nil: the register needs no credential.
func (c *Country) Ready() error { return nil }

// Validate checks a Finnish business ID offline (format and MOD11 check
// digit). The normalised form is the canonical eight digits "01120389",
// the formatted one the written "0112038-9".
func (c *Country) Validate(input string) registry.ValidationResult {
	y, p := idcheck.ParseYTunnus(input)
	// Every lookup validates its identifier: the strings the result points
	// to share one allocation.
	s := &validationStrings{scheme: idScheme, reason: idcheck.FinlandReason(p), hint: idcheck.FinlandHint(p)}
	res := registry.ValidationResult{
		Country:  countryCode,
		Registry: registrySlug,
		IDScheme: &s.scheme,
		Input:    input,
		Valid:    p == idcheck.ProblemNone,
	}
	if s.reason != "" {
		res.Reason = &s.reason
	}
	if s.hint != "" {
		res.Hint = &s.hint
	}
	if res.Valid {
		// Both forms in one string: the eight digits, then the written
		// form.
		var b [17]byte
		copy(b[:8], y[:])
		copy(b[8:15], y[:7])
		b[15], b[16] = '-', y[7]
		both := string(b[:])
		s.normalized, s.formatted = both[:8], both[8:]
		res.Normalized, res.Formatted = &s.normalized, &s.formatted
	}
	return res
}

// validationStrings holds the strings a [registry.ValidationResult] points
// to, so that they take one allocation.
type validationStrings struct {
	scheme, reason, hint, normalized, formatted string
}

// Deadlines computes the next Finnish filing deadlines of the company. It is
// pure: the duties come from this package's legal-form table (see
// [Country.Rules]) and the dates from deadlines.Finland.
func (c *Country) Deadlines(report *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	return deadlines.Finland(report, dutiesOf(report), today), nil
}
