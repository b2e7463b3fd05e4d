// Package dk implements [registry.Country] and [registry.RolesCountry] for
// Denmark: lookups, name searches and roles in CVR (Det Centrale
// Virksomhedsregister), kept by Erhvervsstyrelsen (the Danish Business
// Authority), through its system-to-system distribution, an Elasticsearch
// service at http://distribution.virk.dk/cvr-permanent.
//
// Build a module with [New] and pass it to registry.New. The distribution
// needs an operator credential: an HTTP Basic user name and password that
// Erhvervsstyrelsen issues free of charge on application ("System-til-system
// adgang til CVR-data"). Library users pass it with [WithCredentials]; the
// example server reads it from the environment variable CVR_CREDENTIALS
// ("username:password"). Without it the module still validates CVR numbers
// offline, but [Country.Ready] reports an upstream_error naming the
// variable and the Registry leaves DK out of its list of countries. The
// credential never appears in an error, a log line or a response; it is
// sent only to the configured base URL (redirects are never followed).
// The Registry owns caching, the one retry and timeouts: this package only
// talks to the register and maps its answers. It keeps no state between
// calls and logs nothing.
//
// # Identifier
//
// The CVR number is parsed by idcheck.ParseCVR: eight digits with a
// modulus-11 check digit, also written with spaces or as the VAT number
// ("DK13585628"). Its canonical form, used as the report's id, in cache
// keys and in the register's query, is the eight digits.
//
// # Lookups, search and roles
//
// Every call is a POST of an Elasticsearch query to {base}/virksomhed/_search.
// Lookup and Roles ask for the term Vrvirksomhed.cvrNummer; an answer
// without hits is not_found. Search sends a match query on the company's
// names (current and former), asking for as many rows as the Registry
// wants to rank. A 401 or 403 is an upstream_error naming CVR_CREDENTIALS,
// a 429 rate_limited, a 5xx, a body that is not JSON, a partial answer (a
// timed-out or failed shard) or a body over 16 MiB a retryable
// upstream_error.
//
// # Mapping
//
// [Country.Rules] documents the mapping: the legal-form table with its
// duties, the status precedence, the personal-data rules and the deadline
// rules of package deadlines, which follow each company's own financial
// year.
package dk

import (
	"errors"
	"net/http"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// Identity of the module.
const (
	// DefaultBaseURL is the base URL of the CVR distribution.
	DefaultBaseURL = "http://distribution.virk.dk/cvr-permanent"
	// CredentialsEnv is the environment variable from which the example
	// server reads the credential, "username:password".
	CredentialsEnv = "CVR_CREDENTIALS"
)

const (
	countryCode  = "DK"
	registrySlug = "cvr"
	idScheme     = "CVR-nummer"
	registerName = "Det Centrale Virksomhedsregister (CVR), Erhvervsstyrelsen"
	licenseText  = "CVR data are free to re-use; attribute them as \"Erhvervsstyrelsen / CVR\". Erhvervsstyrelsen's terms bind users of " +
		"the data to respect a company's protection against advertising (reklamebeskyttelse)."
)

// Option configures a [Country]. Options validate their input: [New]
// returns the first option error.
type Option func(*options) error

// options is what the options set: the upstream client's configuration and
// the credential.
type options struct {
	upstream.Config
	user, password string
}

// WithCredentials sets the credential of the CVR distribution, as
// CVR_CREDENTIALS holds it: the user name, a colon and the password
// ("username:password"; the password may contain colons). An empty string
// is allowed: the module then exists but is not ready (see
// [Country.Ready]). A credential without a colon, or with an empty user
// name or password, is an error that does not repeat it.
func WithCredentials(credentials string) Option {
	return func(o *options) error {
		credentials = strings.TrimSpace(credentials)
		if credentials == "" {
			o.user, o.password = "", ""
			return nil
		}
		user, password, ok := strings.Cut(credentials, ":")
		if !ok || user == "" || password == "" {
			return errors.New("dk: WithCredentials: the credential is not username:password")
		}
		o.user, o.password = user, password
		return nil
	}
}

// WithBaseURL sets the base URL of the CVR distribution, for a mirror or a
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

// Country is the Danish module. It implements [registry.Country] and
// [registry.RolesCountry]. Build one with [New]; a Country is safe for
// concurrent use.
type Country struct {
	up    *upstream.Client
	ready bool   // a credential is configured
	rules string // the Markdown of Rules, built once
}

var (
	_ registry.Country      = (*Country)(nil)
	_ registry.RolesCountry = (*Country)(nil)
)

// New returns the Danish module configured by opts.
func New(opts ...Option) (*Country, error) {
	o := options{Config: upstream.Config{
		Module: "dk", Country: countryCode, Registry: registrySlug, Name: "The CVR distribution",
		BaseURL: DefaultBaseURL, MaxBodyBytes: maxBodyBytes,
		RateLimitMessage: "The CVR distribution is limiting the rate of requests from this service.",
	}}
	if err := upstream.Apply("dk", &o, opts); err != nil {
		return nil, err
	}
	c := &Country{rules: buildRules()}
	if o.user != "" {
		c.ready = true
		o.Authorization, o.Secret = upstream.BasicAuthorization(o.user, o.password), o.password
	}
	up, err := upstream.NewClient(o.Config)
	if err != nil {
		return nil, err
	}
	c.up = up
	return c, nil
}

// Info describes the module: country DK, registry cvr, a credential in
// CVR_CREDENTIALS. Its SourceURL is the distribution's address, also when
// [WithBaseURL] points the module at a mirror.
func (c *Country) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country:        countryCode,
		Registry:       registrySlug,
		Name:           registerName,
		IDScheme:       idScheme,
		IDExample:      "22756214",
		IDDescription:  "The CVR number: eight digits, the first not 0, the last a modulus-11 check digit (weights 2, 7, 6, 5, 4, 3, 2, 1), such as 22756214; also accepted with spaces or as the VAT number DK22756214.",
		SourceURL:      DefaultBaseURL,
		License:        licenseText,
		RequiresAPIKey: true,
		APIKeyEnv:      countrykit.Ptr(CredentialsEnv),
		TimeZone:       "Europe/Copenhagen",
	}
}

// Ready returns nil when a credential is configured, and otherwise an
// upstream_error whose hint names CVR_CREDENTIALS.
func (c *Country) Ready() error {
	if c.ready {
		return nil
	}
	return c.up.Fail(registry.CodeUpstreamError,
		"This deployment has no credential for the CVR distribution, so it cannot reach the Danish register.",
		"The operator must set "+CredentialsEnv+" (username:password, issued free by Erhvervsstyrelsen for system-to-system access "+
			"to CVR) and restart the service; until then the validate operation still works for DK.")
}

// Validate checks a CVR number offline (format and modulus-11 check
// digit). The normalised and the formatted form are both the eight digits.
func (c *Country) Validate(input string) registry.ValidationResult {
	n, p := idcheck.ParseCVR(input)
	// Every lookup validates its identifier: the strings the result points
	// to share one allocation.
	s := &validationStrings{scheme: idScheme, reason: idcheck.DenmarkReason(p), hint: idcheck.DenmarkHint(p)}
	res := registry.ValidationResult{
		Country:  countryCode,
		Registry: registrySlug,
		IDScheme: &s.scheme,
		Input:    input,
		Valid:    p == idcheck.ProblemNone,
		Reason:   &s.reason,
	}
	if s.hint != "" {
		res.Hint = &s.hint
	}
	if res.Valid {
		s.normalized = n.String()
		res.Normalized, res.Formatted = &s.normalized, &s.normalized
	}
	return res
}

// validationStrings holds the strings a [registry.ValidationResult] points
// to, so that they take one allocation.
type validationStrings struct {
	scheme, reason, hint, normalized string
}

// Deadlines computes the next Danish filing deadlines of the company. It is
// pure: the duties come from this package's legal-form table (see
// [Country.Rules]), the financial year from the report (the register's
// REGNSKABSÅR, carried in its notes), and the dates from deadlines.Denmark.
func (c *Country) Deadlines(report *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	return deadlines.Denmark(report, dutiesOf(report), today), nil
}
