// Package fr implements [registry.Country] and [registry.RolesCountry] for
// France: lookups, name searches and officers of the legal units of the
// INSEE's Sirene register and INPI's national companies register (RNE),
// through the State's keyless API Recherche d'entreprises (DINUM) at
// https://recherche-entreprises.api.gouv.fr.
//
// Build a module with [New] and pass it to registry.New. The API needs no
// credential; it accepts at most 7 requests a second per address (and 30
// per autonomous system), answers more with 429 and Retry-After, and asks
// for a descriptive User-Agent: set a contact e-mail with
// [WithContactEmail]. The Registry owns caching, the one retry, timeouts
// and the upstream budget: this package only talks to the API and maps its
// answers. It keeps no state between calls and logs nothing.
//
// # Identifiers
//
// The SIREN (nine digits, Luhn) is the canonical identifier: the report's
// id, the cache key and the API's query. A SIRET (fourteen digits) is
// accepted and looked up as such: the report describes its legal unit and
// a note says which establishment was asked for. An intra-community VAT
// number (FR, a key and the SIREN) resolves to its SIREN. Parsing is
// idcheck.ParseFrenchID.
//
// # Lookups
//
// There is no /siren route: Lookup asks GET /search?q={siren} (or the
// SIRET), which the API answers as a direct lookup. An answer without a
// result, whose result is another unit, or whose unit has no état
// administratif (the API's "phantom" records) is not_found: never the
// report of another company. A 400 is invalid_id, a 429 rate_limited
// (details.retry_after from Retry-After, 60 seconds when it is missing),
// a 5xx, a body that is not JSON, a truncated body or a body over 4 MiB a
// retryable upstream_error; redirects are not followed.
//
// # Personal data
//
// The API writes "[NON-DIFFUSIBLE]" in place of what a person has opposed
// publishing. The decoder turns it into an absent value, so the
// placeholder never reaches a report, a search hit, a role, a cache or a
// log; a note says that the person opted out. An individual entrepreneur's
// record is a person's data; officers' birth dates are kept to the month.
//
// # Mapping
//
// [Country.Rules] documents the mapping: the legal-form table by INSEE
// code with its duties, the status, the personal-data rules and the
// deadline rules of package deadlines.
package fr

import (
	"net/http"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// DefaultBaseURL is the base URL of the API Recherche d'entreprises.
const DefaultBaseURL = "https://recherche-entreprises.api.gouv.fr"

const (
	countryCode  = "FR"
	registrySlug = "sirene"
	idScheme     = "siren"
	registerName = "INSEE Sirene and INPI RNE, through the API Recherche d'entreprises (DINUM)"
	licenseText  = "Licence Ouverte / Open Licence 2.0 (etalab-2.0, https://www.etalab.gouv.fr/licence-ouverte-open-licence): " +
		"name the source and the date of its last update, without suggesting that the State endorses this service. " +
		"Personal-data law still applies to the data of natural persons."
)

// Option configures a [Country]. Options validate their input: [New]
// returns the first option error.
type Option func(*options) error

// options is what the options set: the upstream client's configuration.
type options = upstream.Config

// WithBaseURL sets the base URL of the API, for a mirror or a test server.
// The default is [DefaultBaseURL]. The URL must be absolute http or https
// without user information, query or fragment; a trailing slash is
// ignored.
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
// User-Agent header, as the API asks. It must be a plain address such as
// ops@example.org; an empty string leaves it out.
func WithContactEmail(email string) Option {
	return func(o *options) error { return o.SetContactEmail(email) }
}

// Country is the French module. It implements [registry.Country] and
// [registry.RolesCountry]. Build one with [New]; a Country is safe for
// concurrent use.
type Country struct {
	up    *upstream.Client
	rules string // the Markdown of Rules, built once
}

var _ registry.Country = (*Country)(nil)

// New returns the French module configured by opts.
func New(opts ...Option) (*Country, error) {
	up, err := upstream.New(upstream.Config{
		Module: "fr", Country: countryCode, Registry: registrySlug, Name: "The API Recherche d'entreprises",
		BaseURL: DefaultBaseURL, MaxBodyBytes: maxBodyBytes,
		RateLimitMessage: "The API Recherche d'entreprises is limiting the rate of requests (at most 7 a second per address).",
	}, opts)
	if err != nil {
		return nil, err
	}
	return &Country{up: up, rules: buildRules()}, nil
}

// Info describes the module: country FR, registry sirene, no credential.
// Its SourceURL is the API's public address, also when [WithBaseURL]
// points the module at a mirror.
func (c *Country) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country:   countryCode,
		Registry:  registrySlug,
		Name:      registerName,
		IDScheme:  idScheme,
		IDExample: "552032534",
		IDDescription: "The SIREN: nine digits with a Luhn check digit, such as 552032534 or 552 032 534. A SIRET (fourteen digits, " +
			"the establishment) or the intra-community VAT number (FR27552032534) is accepted and resolves to its SIREN.",
		SourceURL:      DefaultBaseURL,
		License:        licenseText,
		RequiresAPIKey: false,
		TimeZone:       "Europe/Paris",
	}
}

// Ready returns nil: the API needs no credential.
func (c *Country) Ready() error { return nil }

// validationStrings holds the strings a [registry.ValidationResult] points
// to, so that they take one allocation.
type validationStrings struct {
	scheme, reason, hint, normalized, formatted string
}

// The answer to a VAT number of Monaco, valid in form but not a SIREN.
const (
	monacoReason = "A VAT number of Monaco (its digits start with 000): valid in form, but not a SIREN, so not in the French register."
	monacoHint   = "Give the nine-digit SIREN of a French company, such as 552 032 534, or search by name with the search operation."
)

// Validate checks a French identifier offline: a SIREN, a SIRET or an
// intra-community VAT number, with or without its FR (format and check). A SIREN and a VAT number
// normalise to the SIREN, a SIRET to itself (its lookup says which
// establishment was asked for). A VAT number of Monaco, valid in form, is
// not a SIREN and is rejected.
func (c *Country) Validate(input string) registry.ValidationResult {
	id, p := idcheck.ParseFrenchID(input)
	s := &validationStrings{scheme: idScheme, reason: idcheck.FranceReason(id.Kind, p), hint: idcheck.FranceHint(id.Kind, p)}
	res := registry.ValidationResult{Country: countryCode, Registry: registrySlug, IDScheme: &s.scheme, Input: input}
	valid := p == idcheck.ProblemNone
	switch {
	case valid && id.Kind == idcheck.FrenchVATNumber && id.VAT.Monaco():
		valid = false
		s.reason, s.hint = monacoReason, monacoHint
	case valid && id.Kind == idcheck.FrenchSIRET:
		s.scheme = "siret"
		s.normalized, s.formatted = id.SIRET.String(), id.SIRET.Formatted()
	case valid && id.Kind == idcheck.FrenchVATNumber:
		s.reason = "A valid French VAT number (" + id.VAT.Formatted() + "): its SIREN " + id.SIREN.Formatted() + " is the identifier."
		s.normalized, s.formatted = id.SIREN.String(), id.SIREN.Formatted()
	case valid:
		s.normalized, s.formatted = id.SIREN.String(), id.SIREN.Formatted()
	}
	res.Valid = valid
	res.Reason = &s.reason
	if s.hint != "" && !valid {
		res.Hint = &s.hint
	}
	if valid {
		res.Normalized, res.Formatted = &s.normalized, &s.formatted
	}
	return res
}

// Deadlines computes the next French filing deadlines of the company. It is
// pure: the duties come from this package's legal-form table (see
// [Country.Rules]) and the register facts of the report, the dates from
// deadlines.France.
func (c *Country) Deadlines(report *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	return deadlines.France(report, dutiesOf(report), today), nil
}
