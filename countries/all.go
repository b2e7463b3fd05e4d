// Package countries assembles the default set of national modules (Norway,
// the United Kingdom, Finland, Denmark, France and Sweden: packages no, gb,
// fi, dk, fr and se), so
// that the root package never imports a country.
package countries

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/dk"
	"github.com/companyregistry/registry/countries/fi"
	"github.com/companyregistry/registry/countries/fr"
	"github.com/companyregistry/registry/countries/gb"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/countries/se"
)

// The country codes of the default modules, for the country argument of the
// Registry's operations (any case is accepted there).
const (
	// NO is Norway: Brønnøysund's Enhetsregisteret (package no).
	NO = "NO"
	// GB is the United Kingdom: Companies House (package gb). The code is
	// GB, never UK.
	GB = "GB"
	// FI is Finland: PRH's YTJ open data (package fi).
	FI = "FI"
	// DK is Denmark: Erhvervsstyrelsen's CVR distribution (package dk).
	DK = "DK"
	// FR is France: Sirene and the RNE through the API Recherche
	// d'entreprises (package fr).
	FR = "FR"
	// SE is Sweden: Bolagsverket (package se).
	SE = "SE"
)

// Config configures the default modules. The zero Config gives Norway,
// Finland and France against the live registers, and the United Kingdom and Denmark
// without a credential (present, but not ready: their lookups answer
// upstream_error naming COMPANIES_HOUSE_API_KEY and CVR_CREDENTIALS).
type Config struct {
	// BrregBaseURL is the base URL of Brønnøysund's Enhetsregisteret API;
	// "" means [no.DefaultBaseURL].
	BrregBaseURL string
	// CompaniesHouseBaseURL is the base URL of the Companies House API;
	// "" means [gb.DefaultBaseURL].
	CompaniesHouseBaseURL string
	// CompaniesHouseAPIKey is the operator's Companies House API key; ""
	// leaves the United Kingdom not ready.
	CompaniesHouseAPIKey string
	// PRHBaseURL is the base URL of PRH's YTJ open data API; "" means
	// [fi.DefaultBaseURL].
	PRHBaseURL string
	// RechercheEntreprisesBaseURL is the base URL of the API Recherche
	// d'entreprises; "" means [fr.DefaultBaseURL].
	RechercheEntreprisesBaseURL string
	// CVRBaseURL is the base URL of the CVR distribution; "" means
	// [dk.DefaultBaseURL].
	CVRBaseURL string
	// CVRCredentials is the operator's credential for the CVR
	// distribution, "username:password"; "" leaves Denmark not ready.
	CVRCredentials string
	// BolagsverketCredentials is the operator's credential of Bolagsverket's
	// API, "client_id:client_secret"; BolagsverketBaseURL and
	// BolagsverketTokenURL its addresses ("" means the defaults of package
	// se). BolagsverketBulkFile (a path) or BolagsverketBulkURL (downloaded
	// weekly) gives the bulk file for Swedish name searches, indexed in
	// DataDir ("" means the user's cache directory). With none of the
	// credential and the bulk file, Sweden is present but not ready.
	BolagsverketCredentials, BolagsverketBaseURL, BolagsverketTokenURL string
	BolagsverketBulkFile, BolagsverketBulkURL, DataDir                 string
	// Logger receives the modules' own records (Sweden's index builds);
	// nil discards them.
	Logger *slog.Logger
	// ContactEmail is sent in the User-Agent to the registers when set.
	ContactEmail string
	// HTTPClient is the client for upstream calls; nil means a client of
	// the modules' own choosing.
	HTTPClient *http.Client
}

// ConfigFromEnv reads a Config from the environment variables of the
// example server (DESIGN §3), through getenv (for example [os.Getenv]),
// with surrounding spaces trimmed:
//
//	BRREG_BASE_URL            BrregBaseURL
//	COMPANIES_HOUSE_BASE_URL  CompaniesHouseBaseURL
//	COMPANIES_HOUSE_API_KEY   CompaniesHouseAPIKey
//	PRH_BASE_URL              PRHBaseURL
//	RECHERCHE_ENTREPRISES_BASE_URL RechercheEntreprisesBaseURL
//	CVR_BASE_URL              CVRBaseURL
//	CVR_CREDENTIALS           CVRCredentials
//	BOLAGSVERKET_CREDENTIALS  BolagsverketCredentials
//	BOLAGSVERKET_BASE_URL     BolagsverketBaseURL
//	BOLAGSVERKET_TOKEN_URL    BolagsverketTokenURL
//	BOLAGSVERKET_BULK_FILE    BolagsverketBulkFile
//	BOLAGSVERKET_BULK_URL     BolagsverketBulkURL
//	REGISTRY_DATA_DIR         DataDir
//	REGISTRY_CONTACT_EMAIL    ContactEmail
//
// An unset or blank variable leaves its field empty, which means the
// field's default. HTTPClient is left nil. The values are not checked here;
// [All] refuses the ones its modules do not accept.
func ConfigFromEnv(getenv func(string) string) Config {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	return Config{
		BrregBaseURL:          get("BRREG_BASE_URL"),
		CompaniesHouseBaseURL: get("COMPANIES_HOUSE_BASE_URL"),
		CompaniesHouseAPIKey:  get("COMPANIES_HOUSE_API_KEY"),
		PRHBaseURL:            get("PRH_BASE_URL"),
		CVRBaseURL:            get("CVR_BASE_URL"),
		CVRCredentials:        get("CVR_CREDENTIALS"),
		ContactEmail:          get("REGISTRY_CONTACT_EMAIL"),

		RechercheEntreprisesBaseURL: get("RECHERCHE_ENTREPRISES_BASE_URL"),

		BolagsverketCredentials: get("BOLAGSVERKET_CREDENTIALS"),
		BolagsverketBaseURL:     get("BOLAGSVERKET_BASE_URL"),
		BolagsverketTokenURL:    get("BOLAGSVERKET_TOKEN_URL"),
		BolagsverketBulkFile:    get("BOLAGSVERKET_BULK_FILE"),
		BolagsverketBulkURL:     get("BOLAGSVERKET_BULK_URL"),
		DataDir:                 get("REGISTRY_DATA_DIR"),
	}
}

// All returns the default modules, Norway (NO), the United Kingdom (GB),
// Finland (FI), Denmark (DK), France (FR) and Sweden (SE), configured by
// cfg. It returns the first module's configuration error, which never
// repeats a credential. Sweden with a bulk file runs a goroutine that
// indexes it: release the modules with [Close].
func All(cfg Config) ([]registry.Country, error) {
	noOpts := []no.Option{}
	if cfg.BrregBaseURL != "" {
		noOpts = append(noOpts, no.WithBaseURL(cfg.BrregBaseURL))
	}
	if cfg.ContactEmail != "" {
		noOpts = append(noOpts, no.WithContactEmail(cfg.ContactEmail))
	}
	if cfg.HTTPClient != nil {
		noOpts = append(noOpts, no.WithHTTPClient(cfg.HTTPClient))
	}
	norway, err := no.New(noOpts...)
	if err != nil {
		return nil, fmt.Errorf("countries: NO: %w", err)
	}

	gbOpts := []gb.Option{gb.WithAPIKey(cfg.CompaniesHouseAPIKey)}
	if cfg.CompaniesHouseBaseURL != "" {
		gbOpts = append(gbOpts, gb.WithBaseURL(cfg.CompaniesHouseBaseURL))
	}
	if cfg.ContactEmail != "" {
		gbOpts = append(gbOpts, gb.WithContactEmail(cfg.ContactEmail))
	}
	if cfg.HTTPClient != nil {
		gbOpts = append(gbOpts, gb.WithHTTPClient(cfg.HTTPClient))
	}
	uk, err := gb.New(gbOpts...)
	if err != nil {
		return nil, fmt.Errorf("countries: GB: %w", err)
	}
	finland, err := fi.New(moduleOptions(cfg.PRHBaseURL, cfg, fi.WithBaseURL, fi.WithContactEmail, fi.WithHTTPClient)...)
	if err != nil {
		return nil, fmt.Errorf("countries: FI: %w", err)
	}
	denmark, err := dk.New(append(moduleOptions(cfg.CVRBaseURL, cfg, dk.WithBaseURL, dk.WithContactEmail, dk.WithHTTPClient),
		dk.WithCredentials(cfg.CVRCredentials))...)
	if err != nil {
		return nil, fmt.Errorf("countries: DK: %w", err)
	}
	france, err := fr.New(moduleOptions(cfg.RechercheEntreprisesBaseURL, cfg, fr.WithBaseURL, fr.WithContactEmail, fr.WithHTTPClient)...)
	if err != nil {
		return nil, fmt.Errorf("countries: FR: %w", err)
	}
	sweden, err := newSweden(cfg)
	if err != nil {
		return nil, fmt.Errorf("countries: SE: %w", err)
	}
	return []registry.Country{norway, uk, finland, denmark, france, sweden}, nil
}

// newSweden builds the Swedish module from cfg.
func newSweden(cfg Config) (*se.Country, error) { return se.New(swedenOptions(cfg)...) }

// swedenOptions returns the options of the Swedish module from cfg.
func swedenOptions(cfg Config) []se.Option {
	opts := moduleOptions(cfg.BolagsverketBaseURL, cfg, se.WithBaseURL, se.WithContactEmail, se.WithHTTPClient)
	opts = append(opts, se.WithCredentials(cfg.BolagsverketCredentials), se.WithBulkFile(cfg.BolagsverketBulkFile),
		se.WithBulkURL(cfg.BolagsverketBulkURL))
	if cfg.BolagsverketTokenURL != "" {
		opts = append(opts, se.WithTokenURL(cfg.BolagsverketTokenURL))
	}
	if cfg.DataDir != "" {
		opts = append(opts, se.WithDataDir(cfg.DataDir))
	}
	if cfg.Logger != nil {
		opts = append(opts, se.WithLogger(cfg.Logger))
	}
	return opts
}

// Check returns the configuration error [All] would return for cfg
// without starting anything: All with a Swedish bulk file opens its index
// in DataDir and starts building it, which a program that checks its
// settings one at a time must not do for each of them.
func Check(cfg Config) error {
	bulkless := cfg
	bulkless.BolagsverketBulkFile, bulkless.BolagsverketBulkURL = "", ""
	cs, err := All(bulkless)
	if err != nil {
		return err
	}
	if err := Close(cs); err != nil {
		return err
	}
	if err := se.Check(swedenOptions(cfg)...); err != nil {
		return fmt.Errorf("countries: SE: %w", err)
	}
	return nil
}

// Close releases the modules that hold resources (Sweden's index and its
// goroutine): each module that has a Close method is closed. It returns
// the errors joined.
func Close(cs []registry.Country) error {
	var errs []error
	for _, c := range cs {
		if cl, ok := c.(io.Closer); ok {
			errs = append(errs, cl.Close())
		}
	}
	return errors.Join(errs...)
}

// moduleOptions returns the options of a keyless module from cfg: its base
// URL when set, the contact e-mail when set and the HTTP client when set,
// built with the module's own option constructors.
func moduleOptions[O any](baseURL string, cfg Config, withBaseURL, withContactEmail func(string) O, withHTTPClient func(*http.Client) O) []O {
	var opts []O
	if baseURL != "" {
		opts = append(opts, withBaseURL(baseURL))
	}
	if cfg.ContactEmail != "" {
		opts = append(opts, withContactEmail(cfg.ContactEmail))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, withHTTPClient(cfg.HTTPClient))
	}
	return opts
}
