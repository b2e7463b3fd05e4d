// Package no implements [registry.Country] for Norway: lookups and name
// searches in Enhetsregisteret, the Central Coordinating Register for Legal
// Entities kept by the Brønnøysund Register Centre (Brønnøysundregistrene),
// through its open API at https://data.brreg.no/enhetsregisteret/api.
//
// Build a module with [New] and pass it to registry.New. The register needs
// no credential; set a contact e-mail with [WithContactEmail] so that the
// register can reach the operator. The Registry owns caching, the one retry
// and timeouts: this package only talks to the register and maps its
// answers. It keeps no state between calls and logs nothing.
//
// # Lookups
//
// Lookup asks GET /enheter/{orgnr} and, when the main register answers 404,
// GET /underenheter/{orgnr}. A unit missing from both is not_found. A
// deleted unit (200 with slettedato) is a report with status deleted. A
// unit the register has removed from its open data (410 Gone) is not_found
// with [registry.Error.Gone] set, so the Registry purges any cached copy.
// A 400 is invalid_id, a 429 rate_limited (details.retry_after is the
// Retry-After header's seconds, at least 1 and at most 3600; 60 when the
// header is missing or not a number of seconds), and a 5xx, a body that is not valid
// JSON, a 200 whose Content-Type is not JSON (a proxy's HTML page), a
// truncated body or a body over 4 MiB a retryable upstream_error. Redirects
// are not followed: a 3xx is a final upstream_error.
//
// # Search
//
// Search asks GET /enheter?navn=<query>&size=<limit>, with the query sent as
// one escaped parameter, and returns the hits in the register's order; the
// Registry scores and ranks them (package match).
//
// # Mapping
//
// [Country.Rules] documents the mapping: the organisation form table with
// liability, board and accounts duties, the status precedence (deleted,
// bankrupt, under compulsory liquidation, under liquidation, active) and
// the deadline rules of package deadlines.
//
// # Deadlines
//
// The organisation form table is the one owner of each form's facts: the
// report's limited_liability, has_board_duty and has_annual_accounts_duty,
// and which form-dependent deadlines apply (tax return, shareholder register
// statement, annual accounts, general meeting) and why. [Country.Deadlines]
// passes the row of the report's form to the pure engine
// ([deadlines.Norway]), so the report's flags and its deadlines always
// agree.
package no

import (
	"net/http"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// DefaultBaseURL is the base URL of the Enhetsregisteret API.
const DefaultBaseURL = "https://data.brreg.no/enhetsregisteret/api"

const (
	countryCode  = "NO"
	registrySlug = "brreg"
	idScheme     = "organisasjonsnummer"
	registerName = "Brønnøysund Register Centre, Central Coordinating Register for Legal Entities (Enhetsregisteret)"
	licenseText  = "NLOD 2.0 (https://data.norge.no/nlod/en/2.0): Contains data under the Norwegian licence for Open Government data (NLOD) distributed by the Brønnøysund Register Centre (Brønnøysundregistrene)."
)

// Option configures a [Country]. Options validate their input: [New]
// returns the first option error.
type Option func(*options) error

// options is what the options set: the upstream client's configuration.
type options = upstream.Config

// WithBaseURL sets the base URL of the Enhetsregisteret API, for a mirror or
// a test server. The default is [DefaultBaseURL]. The URL must be absolute
// http or https without user information, query or fragment; a trailing
// slash is ignored.
func WithBaseURL(u string) Option {
	return func(o *options) error { return o.SetBaseURL(u) }
}

// WithHTTPClient sets the HTTP client used for every upstream request; the
// module keeps a copy of *c, whose CheckRedirect it replaces: redirects are
// never followed, a 3xx answer is an upstream_error. The default is a client with no timeout of its
// own (the Registry bounds each attempt). A nil client is rejected.
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

// Country is the Norwegian module. It implements [registry.Country]. Build
// one with [New]; a Country is safe for concurrent use.
type Country struct {
	up    *upstream.Client
	rules string // the Markdown of Rules, built once
}

var (
	_ registry.Country      = (*Country)(nil)
	_ registry.IDNormalizer = (*Country)(nil)
)

// New returns the Norwegian module configured by opts.
func New(opts ...Option) (*Country, error) {
	up, err := upstream.New(upstream.Config{
		Module: "no", Country: countryCode, Registry: registrySlug, Name: "Enhetsregisteret",
		BaseURL: DefaultBaseURL, MaxBodyBytes: maxBodyBytes,
		RateLimitMessage: "Enhetsregisteret is limiting the rate of requests from this service.",
	}, opts)
	if err != nil {
		return nil, err
	}
	return &Country{up: up, rules: buildRules()}, nil
}

// Info describes the module: country NO, registry brreg, no credential.
// Its SourceURL is the register's public API, also when [WithBaseURL]
// points the module at a mirror.
func (c *Country) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country:        countryCode,
		Registry:       registrySlug,
		Name:           registerName,
		IDScheme:       idScheme,
		IDExample:      "923609016",
		IDDescription:  "Nine digits, the ninth a MOD11 check digit (weights 3, 2, 7, 6, 5, 4, 3, 2), written with or without spaces; the VAT form adds NO before and MVA after.",
		SourceURL:      DefaultBaseURL,
		License:        licenseText,
		RequiresAPIKey: false,
		TimeZone:       "Europe/Oslo",
	}
}

// Ready returns nil: the register needs no credential.
func (c *Country) Ready() error { return nil }

// Validate checks a Norwegian organisation number offline (format and MOD11
// check digit).
func (c *Country) Validate(input string) registry.ValidationResult {
	n, p := idcheck.ParseOrgNr(input)
	// Every lookup validates its identifier, so the strings the result
	// points to share one allocation, and the two forms of the number
	// another: two allocations instead of seven.
	s := &validationStrings{scheme: idScheme, reason: idcheck.NorwayReason(p), hint: idcheck.NorwayHint(p)}
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
		var buf [20]byte
		both := string(append(append(buf[:0], n.String()...), n.Formatted()...))
		s.normalized, s.formatted = both[:9], both[9:]
		res.Normalized, res.Formatted = &s.normalized, &s.formatted
	}
	return res
}

// NormalizeID returns the canonical nine digits of a valid organisation
// number, as Validate's Normalized, without building the
// ValidationResult (registry.IDNormalizer): the input itself when it is
// already those nine digits, which spares the cached lookup's identifier
// every allocation.
func (c *Country) NormalizeID(input string) (string, bool) {
	n, p := idcheck.ParseOrgNr(input)
	if p != idcheck.ProblemNone {
		return "", false
	}
	if input == string(n[:]) {
		return input, true
	}
	return n.String(), true
}

// validationStrings holds the strings a [registry.ValidationResult] points
// to, so that they take one allocation.
type validationStrings struct {
	scheme, reason, hint, normalized, formatted string
}

// Deadlines computes the next Norwegian filing deadlines of the unit. It is
// pure: the duties of the report's legal form come from this package's
// legal-form table (the row that also filled the report's duty flags), and
// the dates from package deadlines.
func (c *Country) Deadlines(report *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	return deadlines.Norway(report, dutiesOf(report), today), nil
}
