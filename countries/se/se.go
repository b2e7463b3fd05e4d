// Package se implements [registry.Country] for Sweden: lookups in
// Bolagsverket's API for the EU high-value datasets ("Värdefulla
// datamängder", OAuth2 client credentials, free on application) and name
// searches in a local index of Bolagsverket's keyless bulk file, which the
// API lacks.
//
// Sweden works as far as the operator's setup allows: with only a bulk file
// ([WithBulkFile] or [WithBulkURL]) search and a basic lookup work; with
// the credential ([WithCredentials]) lookups give the full report; with
// neither the module is not ready. Without a bulk file search is
// not_implemented, and its hint says how to enable it.
//
// # Identifier
//
// The organisation number is parsed by idcheck.ParseOrganisationsnummer:
// ten digits, Luhn, written 556016-0680; the canonical form (the report's
// id, cache keys, the API's body) is the ten digits. A personal identity
// number, which a sole trader is registered under, is refused (invalid_id,
// its check digit unread): this service does not look people up. It never
// reaches the register, the cache, a log line or a URL; the bulk file's
// rows keyed by one are never indexed.
//
// # Lookups
//
// Lookup sends POST /organisationer with the identifier in the body, then
// POST /dokumentlista for the financial year. The token is fetched from the
// token endpoint on demand, one at a time, renewed before it expires and
// once on a 401 (upstream.TokenSource). Every block's fel is read before
// its value: ORGANISATION_FINNS_EJ on the Bolagsverket blocks is not_found,
// an unavailable source keeps what arrived and says what is missing in
// notes.
//
// A Country with a bulk file runs one goroutine that builds and refreshes
// the index; [Country.Close] stops it.
package se

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/se/internal/nameindex"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// Default addresses of the register.
const (
	DefaultBaseURL  = "https://gw.api.bolagsverket.se/vardefulla-datamangder/v1"
	DefaultTokenURL = "https://portal.api.bolagsverket.se/oauth2/token"
	// DefaultBulkURL is where Bolagsverket publishes the bulk file.
	DefaultBulkURL = "https://vardefulla-datamangder.bolagsverket.se/bolagsverket/bolagsverket_bulkfil.zip"
)

// The environment variables the operator sets, named in hints.
const (
	credentialsEnv = "BOLAGSVERKET_CREDENTIALS"
	bulkFileEnv    = "BOLAGSVERKET_BULK_FILE"
	bulkURLEnv     = "BOLAGSVERKET_BULK_URL"
)

const (
	countryCode  = "SE"
	registrySlug = "bolagsverket"
	idScheme     = "organisationsnummer"
	registerName = "Bolagsverket (the Swedish Companies Registration Office), Värdefulla datamängder"
	licenseText  = "Bolagsverket names no licence: its data are open for re-use, commercial or not, as long as the use does not break " +
		"the law on personal data or secrecy. Attribution: Bolagsverket, with SCB (Statistics Sweden) for the SCB fields."
	sourceAPI  = "Bolagsverket, Värdefulla datamängder API v1 (with SCB for the SCB fields)"
	sourceBulk = "Bolagsverket, bulk file of registered organisations (bolagsverket_bulkfil)"
	scope      = "vardefulla-datamangder:read vardefulla-datamangder:ping"
	// maxBodyBytes bounds an answer: an organisation is some 8 KiB, a
	// sole trader's list a few of them.
	maxBodyBytes = 1 << 20
)

// Option configures a [Country]. [New] returns the first option error.
type Option func(*options) error

type options struct {
	api, token        upstream.Config
	clientID, secret  string
	bulkFile, bulkURL string
	dataDir           string
	logger            *slog.Logger
	now               func() time.Time
	checkEvery        time.Duration
}

// WithBaseURL sets the base URL of the API (default [DefaultBaseURL]).
func WithBaseURL(u string) Option { return func(o *options) error { return o.api.SetBaseURL(u) } }

// WithTokenURL sets the token endpoint (default [DefaultTokenURL]).
func WithTokenURL(u string) Option {
	return func(o *options) error {
		if err := o.token.SetBaseURL(u); err != nil {
			return fmt.Errorf("se: WithTokenURL: %w", errors.Unwrap(err))
		}
		return nil
	}
}

// WithCredentials sets the operator's API credential, "client_id:client_secret"
// as Bolagsverket sends it; "" leaves lookups to the bulk file. The error
// never repeats the value.
func WithCredentials(cred string) Option {
	return func(o *options) error {
		if cred == "" {
			return nil
		}
		id, secret, ok := strings.Cut(cred, ":")
		if !ok || strings.TrimSpace(id) == "" || strings.TrimSpace(secret) == "" {
			return errors.New("se: WithCredentials: not client_id:client_secret")
		}
		o.clientID, o.secret = strings.TrimSpace(id), strings.TrimSpace(secret)
		return nil
	}
}

// WithBulkFile sets the path of Bolagsverket's bulk file, the zip or its
// extracted text, which is indexed for searches and basic lookups.
func WithBulkFile(path string) Option {
	return func(o *options) error { o.bulkFile = path; return nil }
}

// WithBulkURL sets the address to download the bulk file from, weekly
// (for example [DefaultBulkURL]).
func WithBulkURL(u string) Option {
	return func(o *options) error {
		if u == "" {
			return nil
		}
		if _, err := upstream.ParseBaseURL(u); err != nil {
			return fmt.Errorf("se: WithBulkURL: %w", err)
		}
		o.bulkURL = u
		return nil
	}
}

// WithDataDir sets the directory of the index (and of the downloaded
// file); the default is the user's cache directory, companyregistry/se.
func WithDataDir(dir string) Option { return func(o *options) error { o.dataDir = dir; return nil } }

// WithHTTPClient sets the HTTP client of every request; redirects are not
// followed for the API and the token endpoint.
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) error {
		if err := o.api.SetHTTPClient(c); err != nil {
			return err
		}
		o.token.HTTPClient = c
		return nil
	}
}

// WithContactEmail sets the contact e-mail sent in the User-Agent.
func WithContactEmail(email string) Option {
	return func(o *options) error {
		if err := o.api.SetContactEmail(email); err != nil {
			return err
		}
		o.token.ContactEmail = email
		return nil
	}
}

// WithLogger sets the logger of the index builds (one record each); the
// default discards.
func WithLogger(l *slog.Logger) Option { return func(o *options) error { o.logger = l; return nil } }

// Country is the Swedish module. Build one with [New]; it is safe for
// concurrent use. Close it to stop its index goroutine.
type Country struct {
	api   *upstream.Client // nil without a credential
	store *nameindex.Store // nil without a bulk file
	rules string

	stop    context.CancelFunc
	done    chan struct{}
	closeMu sync.Once
}

var _ registry.Country = (*Country)(nil)

// New returns the Swedish module configured by opts. With a bulk file it
// opens the index a previous run left and starts the goroutine that builds
// or refreshes it.
func New(opts ...Option) (*Country, error) {
	o, c, err := configure(opts)
	if err != nil {
		return nil, err
	}
	if o.bulkFile != "" || o.bulkURL != "" {
		dir := o.dataDir
		if dir == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				return nil, errors.New("se: no data directory: set REGISTRY_DATA_DIR")
			}
			dir = filepath.Join(cache, "companyregistry")
		}
		store, err := nameindex.NewStore(context.Background(), nameindex.StoreConfig{File: o.bulkFile, URL: o.bulkURL,
			Dir: filepath.Join(dir, "se"), HTTPClient: o.api.HTTPClient, UserAgent: upstream.UserAgent(o.api.ContactEmail),
			Now: o.now, Logger: o.logger})
		if err != nil {
			return nil, fmt.Errorf("se: %w", err)
		}
		c.store = store
		ctx, stop := context.WithCancel(context.Background())
		c.stop, c.done = stop, make(chan struct{})
		go c.refreshLoop(ctx, o.checkEvery)
	}
	return c, nil
}

// Check returns the error of the options that [New] would return, without
// touching the data directory or starting anything: for a program that
// checks its settings one at a time before it builds the module (New with
// a bulk file opens the index and starts building it).
func Check(opts ...Option) error {
	_, _, err := configure(opts)
	return err
}

// configure applies opts and builds the API's clients (no I/O).
func configure(opts []Option) (*options, *Country, error) {
	o := options{
		api: upstream.Config{Module: "se", Country: countryCode, Registry: registrySlug, Name: "Bolagsverket's API",
			BaseURL: DefaultBaseURL, MaxBodyBytes: maxBodyBytes,
			RateLimitMessage: "Bolagsverket's API is limiting the rate of requests (60 a minute per user)."},
		token: upstream.Config{Module: "se", Country: countryCode, Registry: registrySlug, Name: "Bolagsverket's token endpoint",
			BaseURL: DefaultTokenURL, MaxBodyBytes: upstream.MaxTokenBodyBytes,
			RateLimitMessage: "Bolagsverket's token endpoint is limiting the rate of requests."},
		checkEvery: time.Hour,
	}
	if err := upstream.Apply("se", &o, opts); err != nil {
		return nil, nil, err
	}
	if o.bulkFile != "" && o.bulkURL != "" {
		return nil, nil, errors.New("se: give a bulk file or a bulk URL, not both")
	}
	c := &Country{rules: buildRules()}
	if o.secret != "" {
		o.token.Secret = o.secret
		tc, err := upstream.NewClient(o.token)
		if err != nil {
			return nil, nil, err
		}
		o.api.Auth = upstream.NewTokenSource(upstream.TokenConfig{Client: tc, ClientID: o.clientID, ClientSecret: o.secret, Scope: scope,
			RefusedHint: "The operator's " + credentialsEnv + " is wrong or revoked: correct it (client_id:client_secret from Bolagsverket). " +
				"Until then this service cannot look Swedish organisations up in the API.",
			Now: o.now})
		if c.api, err = upstream.NewClient(o.api); err != nil {
			return nil, nil, err
		}
	}
	return &o, c, nil
}

// refreshLoop builds the index at once and checks for a new bulk file every
// interval until ctx ends.
func (c *Country) refreshLoop(ctx context.Context, every time.Duration) {
	defer close(c.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		_ = c.store.Refresh(ctx) // its error is logged and kept for Status
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close stops the index goroutine (waiting for a build in progress to
// stop) and closes the index. It is safe to call more than once.
func (c *Country) Close() error {
	var err error
	c.closeMu.Do(func() {
		if c.stop != nil {
			c.stop()
			<-c.done
		}
		if c.store != nil {
			err = c.store.Close()
		}
	})
	return err
}

// WaitIndexed blocks until the bulk file's index is ready, a build failed,
// or ctx ends; for programs and tests that want searches at once. It is
// woken by the end of each build, never by polling.
func (c *Country) WaitIndexed(ctx context.Context) error {
	if c.store == nil {
		return errors.New("se: no bulk file is configured")
	}
	return c.store.Wait(ctx)
}

// Info describes the module: country SE, registry bolagsverket, an API key
// named BOLAGSVERKET_CREDENTIALS (the full report needs it).
func (c *Country) Info() registry.CountryInfo {
	env := credentialsEnv
	return registry.CountryInfo{
		Country: countryCode, Registry: registrySlug, Name: registerName, IDScheme: idScheme, IDExample: "5560160680",
		IDDescription: "The organisation number (organisationsnummer): ten digits with a Luhn check digit, written 556016-0680; also accepted " +
			"with the prefix 16 (165560160680) or as the VAT number SE556016068001. A personal identity number (a sole trader's) is refused.",
		SourceURL: DefaultBaseURL, License: licenseText, RequiresAPIKey: true, APIKeyEnv: &env, TimeZone: "Europe/Stockholm",
	}
}

// Ready returns nil when a credential or a bulk file is configured, else
// upstream_error naming both settings.
func (c *Country) Ready() error {
	if c.api != nil || c.store != nil {
		return nil
	}
	return &registry.Error{Code: registry.CodeUpstreamError, Country: countryCode, Registry: registrySlug,
		Message: "Sweden is not configured: neither Bolagsverket's API credential nor its bulk file is set.",
		Hint: "The operator sets " + credentialsEnv + " (client_id:client_secret, free from Bolagsverket) for full reports, and " +
			bulkFileEnv + " or " + bulkURLEnv + " for name searches and basic reports."}
}

// Validate checks an organisation number offline. The canonical form is
// the ten digits, the formatted one 556016-0680.
func (c *Country) Validate(input string) registry.ValidationResult {
	n, p := idcheck.ParseOrganisationsnummer(input)
	scheme, reason, hint := idScheme, idcheck.SwedenReason(p), idcheck.SwedenHint(p)
	res := registry.ValidationResult{Country: countryCode, Registry: registrySlug, IDScheme: &scheme, Input: input,
		Valid: p == idcheck.ProblemNone, Reason: &reason}
	if hint != "" {
		res.Hint = &hint
	}
	if res.Valid {
		norm, formatted := n.String(), n.Formatted()
		res.Normalized, res.Formatted = &norm, &formatted
	}
	return res
}

// Deadlines computes the next Swedish filing deadlines: the duties come
// from this package's legal-form table and the report, the dates from
// deadlines.Sweden.
func (c *Country) Deadlines(report *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	return deadlines.Sweden(report, dutiesOf(report), today), nil
}

// dutiesOf builds the profile deadlines.Sweden computes from.
func dutiesOf(r *registry.CompanyReport) *deadlines.SwedishDuties {
	if r == nil {
		return nil
	}
	d := &deadlines.SwedishDuties{TaxRegistered: deadlines.DutyUnknown}
	if v, ok := r.Registers[registerTaxed]; ok {
		d.TaxRegistered = deadlines.DutyYes
		if !v {
			d.TaxRegistered = deadlines.DutyNo
		}
	}
	d.YearEndMonth, d.YearEndDay, d.YearEndSource = yearEndFrom(r)
	if r.LegalFormCode == nil {
		return d
	}
	if f, ok := lookupForm(*r.LegalFormCode); ok && f.Deadlines != nil {
		d.Code, d.Label = f.Code, f.Deadlines.Label
		d.GeneralMeeting, d.AnnualReport, d.TaxReturn, d.TaxForm = f.Deadlines.GeneralMeeting, f.Deadlines.AnnualReport, f.Deadlines.TaxRet, f.Deadlines.TaxForm
		d.PublicCompany = strings.Contains(strings.ToLower(r.Name), "(publ)")
	}
	return d
}
