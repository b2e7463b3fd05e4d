package registry

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/companyregistry/registry/cache"
)

// Status is the lifecycle state of a registered entity. The zero value means
// [StatusUnknown] and encodes as "unknown".
type Status string

// The company statuses of the interface.
const (
	StatusActive                     Status = "active"
	StatusUnderLiquidation           Status = "under_liquidation"
	StatusUnderCompulsoryLiquidation Status = "under_compulsory_liquidation"
	StatusBankrupt                   Status = "bankrupt"
	StatusDissolved                  Status = "dissolved"
	StatusDeleted                    Status = "deleted"
	StatusUnknown                    Status = "unknown"
)

// Valid reports whether s is one of the defined statuses (the zero value
// counts as unknown and is valid).
func (s Status) Valid() bool {
	switch s {
	case "", StatusActive, StatusUnderLiquidation, StatusUnderCompulsoryLiquidation,
		StatusBankrupt, StatusDissolved, StatusDeleted, StatusUnknown:
		return true
	}
	return false
}

// MarshalText implements [encoding.TextMarshaler]; the zero value is "unknown".
func (s Status) MarshalText() ([]byte, error) {
	if s == "" {
		return []byte(StatusUnknown), nil
	}
	if !s.Valid() {
		return nil, fmt.Errorf("registry: invalid status %q", string(s))
	}
	return []byte(s), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler]; it rejects values
// outside the defined set.
func (s *Status) UnmarshalText(b []byte) error {
	v := Status(b)
	if v == "" || !v.Valid() {
		return fmt.Errorf("registry: invalid status %q", string(b))
	}
	*s = v
	return nil
}

// DeadlineKind is the stable machine slug of a filing obligation, unique
// within a country ("annual_accounts", "vat_return", ...). Package deadlines
// names the kinds of the countries it computes as constants.
type DeadlineKind string

// Recurrence is how often a filing obligation recurs. The zero value means
// [RecurrenceAnnual] and encodes as "annual".
type Recurrence string

// The deadline recurrences of the interface.
const (
	RecurrenceAnnual     Recurrence = "annual"
	RecurrenceSemiannual Recurrence = "semiannual"
	RecurrenceBimonthly  Recurrence = "bimonthly"
	RecurrenceQuarterly  Recurrence = "quarterly"
	RecurrenceMonthly    Recurrence = "monthly"
	RecurrenceOneOff     Recurrence = "one_off"
)

// Valid reports whether r is one of the defined recurrences (the zero value
// counts as annual and is valid).
func (r Recurrence) Valid() bool {
	switch r {
	case "", RecurrenceAnnual, RecurrenceSemiannual, RecurrenceBimonthly, RecurrenceQuarterly, RecurrenceMonthly, RecurrenceOneOff:
		return true
	}
	return false
}

// MarshalText implements [encoding.TextMarshaler]; the zero value is "annual".
func (r Recurrence) MarshalText() ([]byte, error) {
	if r == "" {
		return []byte(RecurrenceAnnual), nil
	}
	if !r.Valid() {
		return nil, fmt.Errorf("registry: invalid recurrence %q", string(r))
	}
	return []byte(r), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler]; it rejects values
// outside the defined set.
func (r *Recurrence) UnmarshalText(b []byte) error {
	v := Recurrence(b)
	if v == "" || !v.Valid() {
		return fmt.Errorf("registry: invalid recurrence %q", string(b))
	}
	*r = v
	return nil
}

// CompanyReport is the full, country-neutral report on one registered entity.
// Every field is always present on the wire: unknown values are null, and
// lists and maps are [] and {} rather than null. Country modules build one
// with countrykit.NewReport, which sets the defaults of the interface.
type CompanyReport struct {
	Country                      string              `json:"country"`
	Registry                     string              `json:"registry"`
	ID                           string              `json:"id"`
	IDFormatted                  *string             `json:"id_formatted"`
	IDScheme                     *string             `json:"id_scheme"`
	Name                         string              `json:"name"`
	PreviousNames                []string            `json:"previous_names"`
	LegalFormCode                *string             `json:"legal_form_code"`
	LegalForm                    *string             `json:"legal_form"`
	LegalFormLocal               *string             `json:"legal_form_local"`
	LimitedLiability             *bool               `json:"limited_liability"`
	HasBoardDuty                 *bool               `json:"has_board_duty"`
	HasAnnualAccountsDuty        *bool               `json:"has_annual_accounts_duty"`
	Status                       Status              `json:"status"`
	StatusDetail                 *string             `json:"status_detail"`
	IsActive                     bool                `json:"is_active"`
	RegisteredAt                 *Date               `json:"registered_at"`
	FoundedAt                    *Date               `json:"founded_at"`
	BusinessRegisterRegisteredAt *Date               `json:"business_register_registered_at"`
	BankruptcyDate               *Date               `json:"bankruptcy_date"`
	DeregisteredAt               *Date               `json:"deregistered_at"`
	VATRegistered                *bool               `json:"vat_registered"`
	VATRegisteredAt              *Date               `json:"vat_registered_at"`
	VATNumber                    *string             `json:"vat_number"`
	InBusinessRegister           *bool               `json:"in_business_register"`
	Registers                    map[string]bool     `json:"registers"`
	Employees                    *int                `json:"employees"`
	EmployeesReported            *bool               `json:"employees_reported"`
	IndustryCodes                []IndustryCode      `json:"industry_codes"`
	SectorCode                   *string             `json:"sector_code"`
	Sector                       *string             `json:"sector"`
	Purpose                      *string             `json:"purpose"`
	Activity                     *string             `json:"activity"`
	ShareCapital                 *float64            `json:"share_capital"`
	ShareCapitalCurrency         *string             `json:"share_capital_currency"`
	BusinessAddress              *Address            `json:"business_address"`
	PostalAddress                *Address            `json:"postal_address"`
	Website                      *string             `json:"website"`
	Email                        *string             `json:"email"`
	Phone                        *string             `json:"phone"`
	ParentID                     *string             `json:"parent_id"`
	IsSubunit                    bool                `json:"is_subunit"`
	InGroup                      *bool               `json:"in_group"`
	LastAnnualAccountsYear       *int                `json:"last_annual_accounts_year"`
	PublishedDeadlines           []PublishedDeadline `json:"published_deadlines"`
	Confidence                   float64             `json:"confidence"`
	ConfidenceBasis              *string             `json:"confidence_basis"`
	Cached                       bool                `json:"cached"`
	FetchedAt                    *time.Time          `json:"fetched_at"`
	Source                       *string             `json:"source"`
	SourceURL                    *string             `json:"source_url"`
	License                      *string             `json:"license"`
	Notes                        []string            `json:"notes"`
}

// MarshalJSON encodes r with every field present, nil lists and maps as []
// and {}, is_active mirroring status, and fetched_at in UTC.
func (r CompanyReport) MarshalJSON() ([]byte, error) {
	type plain CompanyReport
	r.PreviousNames = nonNil(r.PreviousNames)
	r.IndustryCodes = nonNil(r.IndustryCodes)
	r.PublishedDeadlines = nonNil(r.PublishedDeadlines)
	r.Notes = nonNil(r.Notes)
	if r.Registers == nil {
		r.Registers = map[string]bool{}
	}
	r.IsActive = r.Status == StatusActive
	if r.FetchedAt != nil {
		t := r.FetchedAt.UTC()
		r.FetchedAt = &t
	}
	return json.Marshal(plain(r))
}

// Address is a postal or visiting address as the register holds it.
type Address struct {
	Lines            []string `json:"lines"`
	PostalCode       *string  `json:"postal_code"`
	City             *string  `json:"city"`
	Municipality     *string  `json:"municipality"`
	MunicipalityCode *string  `json:"municipality_code"`
	CountryCode      *string  `json:"country_code"`
	CountryName      *string  `json:"country_name"`
}

// MarshalJSON encodes a with nil Lines as [].
func (a Address) MarshalJSON() ([]byte, error) {
	type plain Address
	a.Lines = nonNil(a.Lines)
	return json.Marshal(plain(a))
}

// IndustryCode is one activity classification of an entity. Rank 1 is the
// primary activity.
type IndustryCode struct {
	Code        string  `json:"code"`
	Description *string `json:"description"`
	Scheme      *string `json:"scheme"`
	Rank        int     `json:"rank"`
}

// PublishedDeadline is a date the upstream register publishes itself, carried
// verbatim. Its Kind is the slug of the matching [Deadline] kind.
type PublishedDeadline struct {
	Kind        DeadlineKind `json:"kind"`
	DueDate     *Date        `json:"due_date"`
	PeriodStart *Date        `json:"period_start"`
	PeriodEnd   *Date        `json:"period_end"`
	Overdue     *bool        `json:"overdue"`
	Source      *string      `json:"source"`
}

// SearchResult is the answer to a name search: thin hits, best first.
type SearchResult struct {
	Country   string      `json:"country"`
	Registry  string      `json:"registry"`
	Query     string      `json:"query"`
	Hits      []SearchHit `json:"hits"`
	Total     int         `json:"total"`
	Truncated bool        `json:"truncated"`
	Cached    bool        `json:"cached"`
	FetchedAt *time.Time  `json:"fetched_at"`
	Hint      *string     `json:"hint"`
	// RegisterPage is for a country module to set: the most rows its
	// register returns to one search, when that is fewer than
	// MaxSearchLimit (France: 25). A caller whose limit is at least that
	// is then not told to raise it when more match. It is not part of the
	// answer on the wire.
	RegisterPage int `json:"-"`
}

// MarshalJSON encodes s with nil Hits as [].
func (s SearchResult) MarshalJSON() ([]byte, error) {
	type plain SearchResult
	s.Hits = nonNil(s.Hits)
	if s.FetchedAt != nil {
		t := s.FetchedAt.UTC()
		s.FetchedAt = &t
	}
	return json.Marshal(plain(s))
}

// SearchHit is a deliberately thin search candidate. Pass its ID to a lookup
// before acting on it. Its Confidence is the Registry's score of the name
// against the query (see [Registry.Search]).
type SearchHit struct {
	Country         string  `json:"country"`
	Registry        string  `json:"registry"`
	ID              string  `json:"id"`
	Name            string  `json:"name"`
	LegalFormCode   *string `json:"legal_form_code"`
	LegalForm       *string `json:"legal_form"`
	Status          Status  `json:"status"`
	City            *string `json:"city"`
	Municipality    *string `json:"municipality"`
	RegisteredAt    *Date   `json:"registered_at"`
	IsSubunit       bool    `json:"is_subunit"`
	Confidence      float64 `json:"confidence"`
	ConfidenceBasis *string `json:"confidence_basis"`
	SourceURL       *string `json:"source_url"`
}

// DeadlineReport is the answer of the deadlines operation: the next
// occurrence of each filing obligation, sorted by due date.
type DeadlineReport struct {
	Country     string     `json:"country"`
	Registry    string     `json:"registry"`
	CompanyID   string     `json:"company_id"`
	CompanyName *string    `json:"company_name"`
	Today       Date       `json:"today"`
	Deadlines   []Deadline `json:"deadlines"`
	Notes       []string   `json:"notes"`
}

// MarshalJSON encodes d with nil Deadlines and Notes as [].
func (d DeadlineReport) MarshalJSON() ([]byte, error) {
	type plain DeadlineReport
	d.Deadlines = nonNil(d.Deadlines)
	d.Notes = nonNil(d.Notes)
	return json.Marshal(plain(d))
}

// Deadline is the next occurrence of one statutory filing obligation.
type Deadline struct {
	Country        string       `json:"country"`
	Registry       string       `json:"registry"`
	Kind           DeadlineKind `json:"kind"`
	Name           string       `json:"name"`
	LocalName      *string      `json:"local_name"`
	Authority      string       `json:"authority"`
	StatutoryDate  Date         `json:"statutory_date"`
	DueDate        Date         `json:"due_date"`
	RolledForward  bool         `json:"rolled_forward"`
	PeriodLabel    *string      `json:"period_label"`
	PeriodStart    *Date        `json:"period_start"`
	PeriodEnd      *Date        `json:"period_end"`
	Recurrence     Recurrence   `json:"recurrence"`
	Mandatory      bool         `json:"mandatory"`
	AppliesBecause string       `json:"applies_because"`
	DaysUntil      *int         `json:"days_until"`
	SourceURL      *string      `json:"source_url"`
}

// ValidationResult is the offline verdict on an identifier's format and
// checksum. A valid result does not imply the entity exists.
type ValidationResult struct {
	Country    string  `json:"country"`
	Registry   string  `json:"registry"`
	IDScheme   *string `json:"id_scheme"`
	Input      string  `json:"input"`
	Valid      bool    `json:"valid"`
	Normalized *string `json:"normalized"`
	Formatted  *string `json:"formatted"`
	Reason     *string `json:"reason"`
	Hint       *string `json:"hint"`
}

// CountriesResponse lists the registries that can answer now, sorted by
// country code.
type CountriesResponse struct {
	Countries []CountryInfo `json:"countries"`
}

// MarshalJSON encodes c with nil Countries as [].
func (c CountriesResponse) MarshalJSON() ([]byte, error) {
	type plain CountriesResponse
	c.Countries = nonNil(c.Countries)
	return json.Marshal(plain(c))
}

// CountryInfo describes one national registry module.
type CountryInfo struct {
	Country        string  `json:"country"`
	Registry       string  `json:"registry"`
	Name           string  `json:"name"`
	IDScheme       string  `json:"id_scheme"`
	IDExample      string  `json:"id_example"`
	IDDescription  string  `json:"id_description"`
	SourceURL      string  `json:"source_url"`
	License        string  `json:"license"`
	IsStub         bool    `json:"is_stub"`
	RequiresAPIKey bool    `json:"requires_api_key"`
	APIKeyEnv      *string `json:"api_key_env"`

	// TimeZone is the IANA name of the register's own time zone (for
	// example "Europe/Oslo"), used by [Registry.Today]. It is not part of
	// the document on the wire.
	TimeZone string `json:"-"`
}

// HealthResponse is the liveness answer.
type HealthResponse struct {
	Status    string   `json:"status"`
	Version   string   `json:"version"`
	Countries []string `json:"countries"`
	// Cache names the cache: "memory" (in process, the default), "redis" (shared by
	// replicas), "none" ([WithoutCache]) or "custom" (a [cache.Cache] that
	// does not describe itself, see [cache.Describer]).
	Cache string `json:"cache"`
	// Redis is null unless the cache is on Redis; then it says whether
	// Redis answers. An unreachable Redis changes neither Status nor the
	// HTTP status of /health: every replica keeps answering on its own.
	Redis *RedisHealth `json:"redis"`
}

// RedisHealth is the state of the Redis server the cache is on.
type RedisHealth struct {
	// Reachable is true when Redis answered its last call (a ping at most
	// once a second from the health report, or any cache operation).
	Reachable bool `json:"reachable"`
}

// MarshalJSON encodes h with an empty Status as "ok", nil Countries as []
// and an empty Cache as "memory" (a Registry's default cache).
func (h HealthResponse) MarshalJSON() ([]byte, error) {
	type plain HealthResponse
	if h.Status == "" {
		h.Status = "ok"
	}
	if h.Cache == "" {
		h.Cache = cache.BackendMemory
	}
	h.Countries = nonNil(h.Countries)
	return json.Marshal(plain(h))
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func ptr[T any](v T) *T { return &v }

func stringOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
