// Package gb is the United Kingdom module of the registry: a client for the
// Companies House Public Data API (https://api.company-information.service.gov.uk)
// and the mapping of its company profiles and search results to the
// country-neutral shapes of package registry.
//
// Companies House needs an operator credential: a REST API key, sent as the
// user name of HTTP Basic authentication with an empty password. Library
// users pass it with [WithAPIKey]; the example server reads it from the
// environment variable COMPANIES_HOUSE_API_KEY. Without a key the module
// still validates company numbers offline, but [Country.Ready] reports an
// upstream_error and the Registry leaves GB out of its list of countries.
// The key never appears in an error, a log line or a response, and it is
// sent only to the configured base URL: redirects are never followed (a 3xx
// is an upstream_error), and a 200 whose Content-Type is not JSON is a
// retryable upstream_error.
package gb

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// Identity of the module.
const (
	// CountryCode is the ISO 3166-1 alpha-2 code of the United Kingdom.
	CountryCode = "GB"
	// RegistrySlug is the registry slug of Companies House.
	RegistrySlug = "companieshouse"
	// DefaultBaseURL is the base URL of the Companies House Public Data API.
	DefaultBaseURL = "https://api.company-information.service.gov.uk"
	// APIKeyEnv is the environment variable from which the example server
	// reads the Companies House API key.
	APIKeyEnv = "COMPANIES_HOUSE_API_KEY"
)

const (
	idScheme      = "company registration number"
	registerName  = "Companies House"
	sourceName    = "Companies House"
	licence       = "Open Government Licence v3.0 (Crown copyright)"
	publicSiteURL = "https://find-and-update.company-information.service.gov.uk"
)

// Country is the Companies House module. Build one with [New]; it is safe
// for concurrent use.
type Country struct {
	// cred is a pointer so that printing a Country with fmt shows an
	// address, never the key.
	cred  *credential
	up    *upstream.Client
	now   func() time.Time
	rules string // the Markdown of Rules, built once
}

var _ registry.Country = (*Country)(nil)

// Option configures a [Country]. Options validate their input: [New]
// returns the first option error.
type Option func(*options) error

// options is what the options set: the upstream client's configuration,
// the key and the clock.
type options struct {
	upstream.Config
	key string
	now func() time.Time
}

// WithAPIKey sets the Companies House REST API key. An empty key is allowed:
// the module then exists but is not ready (see [Country.Ready]).
func WithAPIKey(key string) Option {
	return func(o *options) error {
		o.key = strings.TrimSpace(key)
		return nil
	}
}

// WithBaseURL sets the base URL of the API, for tests and mirrors. The
// default is [DefaultBaseURL]. It must be an absolute http or https URL
// without user information, query or fragment.
func WithBaseURL(u string) Option {
	return func(o *options) error { return o.SetBaseURL(u) }
}

// WithHTTPClient sets the HTTP client used for upstream calls. It must not
// be nil. The module uses a copy whose CheckRedirect it replaces: redirects
// are never followed, a 3xx answer is an upstream_error. The Registry bounds each attempt with its own timeout, so the
// client needs none.
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) error { return o.SetHTTPClient(c) }
}

// WithContactEmail sets a contact e-mail address sent in the User-Agent
// header, so that Companies House can reach the operator. It must be a
// plain address such as ops@example.org; an empty string leaves it out.
func WithContactEmail(email string) Option {
	return func(o *options) error { return o.SetContactEmail(email) }
}

// WithClock sets the clock used to turn the X-Ratelimit-Reset header into
// a retry_after delay. The default is time.Now.
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("gb: WithClock: nil clock")
		}
		o.now = now
		return nil
	}
}

// New returns a Companies House module configured by opts.
func New(opts ...Option) (*Country, error) {
	o := options{Config: upstream.Config{
		Module: "gb", Country: CountryCode, Registry: RegistrySlug, Name: "Companies House",
		BaseURL: DefaultBaseURL, MaxBodyBytes: maxBodyBytes,
		RateLimitMessage: "Companies House's rate limit for this service's API key is used up (600 requests per five minutes).",
	}, now: time.Now}
	if err := upstream.Apply("gb", &o, opts); err != nil {
		return nil, err
	}
	c := &Country{now: o.now, rules: buildRules()}
	if o.key != "" {
		c.cred = &credential{authorization: upstream.BasicAuthorization(o.key, "")}
		o.Authorization, o.Secret = c.cred.authorization, o.key
	}
	o.RetryAfter = c.retryAfter
	// The client never follows a redirect, so that the caller's client
	// keeps its redirect policy and a redirect to another host never
	// receives the Authorization header: the API does not redirect the
	// calls it makes, and a 3xx answer is an upstream_error.
	up, err := upstream.NewClient(o.Config)
	if err != nil {
		return nil, err
	}
	c.up = up
	return c, nil
}

// credential holds the ready-made Authorization header: HTTP Basic with the
// API key as user name and an empty password.
type credential struct {
	authorization string
}

// String hides the credential from fmt.
func (*credential) String() string { return "[redacted]" }

// GoString hides the credential from fmt's %#v.
func (*credential) GoString() string { return "[redacted]" }

// Info describes the module.
func (c *Country) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country:        CountryCode,
		Registry:       RegistrySlug,
		Name:           registerName,
		IDScheme:       idScheme,
		IDExample:      "00002065",
		IDDescription:  "Eight characters: eight digits (England and Wales), or a two-character prefix such as SC, NI, OC or R0 and six digits; shorter numbers are zero-padded; there is no check digit.",
		SourceURL:      DefaultBaseURL,
		License:        licence,
		RequiresAPIKey: true,
		TimeZone:       "Europe/London",
		APIKeyEnv:      countrykit.Ptr(APIKeyEnv),
	}
}

// Ready returns nil when an API key is configured, and otherwise an
// upstream_error whose hint names COMPANIES_HOUSE_API_KEY.
func (c *Country) Ready() error {
	if c.cred != nil {
		return nil
	}
	return c.errorf(registry.CodeUpstreamError,
		"This deployment has no Companies House API key, so it cannot reach the UK register.",
		"The operator must set "+APIKeyEnv+" (a Companies House REST API key) and restart the service; until then the validate operation still works for GB.")
}

// Validate checks a company number offline. The United Kingdom has no
// typographic convention for company numbers, so Formatted is null.
func (c *Country) Validate(input string) registry.ValidationResult {
	n, p := idcheck.ParseCompanyNumber(input)
	// Every lookup validates its identifier, so the strings the result
	// points to share one allocation.
	s := &validationStrings{scheme: idScheme, reason: idcheck.UKReason(p)}
	res := registry.ValidationResult{
		Country:  CountryCode,
		Registry: RegistrySlug,
		IDScheme: &s.scheme,
		Input:    input,
		Valid:    p == idcheck.ProblemNone,
		Reason:   &s.reason,
	}
	if res.Valid {
		s.normalized = n.String()
		res.Normalized = &s.normalized
	} else {
		s.hint = idcheck.UKHint(p)
		res.Hint = &s.hint
	}
	return res
}

// validationStrings holds the strings a [registry.ValidationResult] points
// to, so that they take one allocation.
type validationStrings struct {
	scheme, reason, hint, normalized string
}

// Lookup fetches the company profile of the company number id
// (GET /company/{id}) and maps it to a report. id must be a canonical
// company number: a malformed number is never sent, because Companies House
// answers those with HTTP 500.
func (c *Country) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	// Guard for direct callers: Companies House answers a malformed number with HTTP 500.
	if n, p := idcheck.ParseCompanyNumber(id); p != idcheck.ProblemNone || n.String() != id {
		return nil, c.errorf(registry.CodeInvalidID, idcheck.UKReason(p), idcheck.UKHint(p))
	}
	body, err := c.get(ctx, endpointProfile, "/company/"+url.PathEscape(id), nil, id)
	if err != nil {
		return nil, err
	}
	var prof profile
	if err := c.decode(body, &prof); err != nil {
		return nil, err
	}
	if strings.TrimSpace(prof.CompanyName) == "" && strings.TrimSpace(prof.CompanyNumber) == "" {
		return nil, c.wrap(registry.CodeUpstreamError, true, "Companies House sent a company profile without a name or number.", "", nil)
	}
	return mapProfile(id, &prof), nil
}

// Search finds companies by name (GET /search/companies) and returns at
// most limit hits, best first, scored against query.
func (c *Country) Search(ctx context.Context, query string, limit int) (*registry.SearchResult, error) {
	v := url.Values{}
	v.Set("q", query)
	v.Set("items_per_page", strconv.Itoa(max(limit, minItemsPerPage)))
	body, err := c.get(ctx, endpointSearch, "/search/companies", v, "")
	if err != nil {
		return nil, err
	}
	var page searchPage
	if err := c.decode(body, &page); err != nil {
		return nil, err
	}
	return mapSearch(query, limit, &page), nil
}

// Deadlines computes the next annual accounts and confirmation statement
// deadlines of the company described by rep, with the duties of its company
// type from this module's table; see [deadlines.UnitedKingdom].
func (c *Country) Deadlines(rep *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	return deadlines.UnitedKingdom(rep, dutiesOf(rep), today), nil
}

// errorf returns an *registry.Error of code for GB.
func (c *Country) errorf(code registry.Code, msg, hint string) *registry.Error {
	return c.up.Fail(code, msg, hint)
}

//go:generate go run ./internal/genenum -in testdata/enumerations/constants.yml -out sic_descriptions.go -table "sicDescription=sic_descriptions=returns Companies House's English description of a SIC code: the five-digit codes are UK SIC 2007, the four-digit ones UK SIC 2003"
//go:generate go run ./internal/genenum -in testdata/enumerations/psc_descriptions.yml -out psc_descriptions.go -table "controlDescription=description=returns Companies House's plain-English description of a nature of control of a person with significant control or a registrable beneficial owner" -table "statementDescription=statement_description=returns Companies House's text of a PSC statement code; the text may hold the placeholder {linked_psc_name}" -table "superSecureDescription=super_secure_description=returns Companies House's text for a person with significant control whose details are withheld"
