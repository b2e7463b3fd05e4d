// Package changes is change monitoring: watch lists of companies, a durable
// feed of what changed in them, and webhooks signed the Standard Webhooks
// way. It embeds without the servers: a [Store] (an embedded SQLite file or
// PostgreSQL), the ingesters that read the registers' change feeds or poll
// watched companies, and a dispatcher that delivers webhooks.
//
// A change is found by comparing the country-neutral report (and roles) of
// a company with the snapshot taken before: a register's own change feed
// only says where to look, never what changed.
package changes

import (
	"context"
	"encoding/json"
	"time"
)

// Kind is the kind of a change, the stable slug of the feed item's "kind"
// and of the webhook's type ("company.<kind>").
type Kind string

// The kinds of change.
const (
	// KindStatusChanged is a change of the report's status (for example
	// active to bankrupt, or to dissolved); old and new are the statuses.
	KindStatusChanged Kind = "status_changed"
	// KindNameChanged is a change of the registered name.
	KindNameChanged Kind = "name_changed"
	// KindAddressChanged is a change of the business or postal address.
	KindAddressChanged Kind = "address_changed"
	// KindLegalFormChanged is a change of the legal form.
	KindLegalFormChanged Kind = "legal_form_changed"
	// KindVATChanged is a change of the VAT registration (registered,
	// deregistered, or a new VAT number).
	KindVATChanged Kind = "vat_changed"
	// KindRolesChanged is a change of who runs or may sign for the company
	// (board, executives, signatories, auditor).
	KindRolesChanged Kind = "roles_changed"
	// KindDeleted is a company removed from the register.
	KindDeleted Kind = "deleted"
	// KindUpdated is an update a register's own feed reported for a
	// company no watch follows, which touches none of the fields of the
	// kinds above or does not say which fields it touches (Brønnøysund's
	// feed is kept whole, so that any Norwegian company's changes can be
	// listed). Old is null and New is the register's own account of the
	// update. It is never the result of comparing two snapshots.
	KindUpdated Kind = "updated"
)

// Change is one item of the change feed and the data of a webhook. Old and
// New hold the JSON of the values before and after (a status string, a
// name, an address object, a roles summary …); null when absent.
type Change struct {
	// ID is the change's stable identifier ("chg_" + a ULID); it is the
	// webhook-id of every delivery of the change.
	ID string `json:"id"`
	// Country and CompanyID identify the company (CompanyID is canonical).
	Country   string `json:"country"`
	CompanyID string `json:"company_id"`
	// CompanyName is the company's name after the change, when known.
	CompanyName *string `json:"company_name"`
	// Kind says what changed.
	Kind Kind `json:"kind"`
	// Old and New are the values before and after, as JSON.
	Old json.RawMessage `json:"old"`
	New json.RawMessage `json:"new"`
	// RegisteredAt is when the register recorded the change, when it says.
	RegisteredAt *time.Time `json:"registered_at"`
	// DetectedAt is when this service saw it.
	DetectedAt time.Time `json:"detected_at"`
	// SourceURL is the register's document the change was read from.
	SourceURL *string `json:"source_url"`

	// Seq is the change's position in the store's feed (the cursor's
	// basis); it is not part of the wire document.
	Seq int64 `json:"-"`
	// SourceEventID is the register's own event id (Brønnøysund's
	// oppdateringsid, a Companies House timepoint) or "" for a poll; with
	// Country, CompanyID and Kind it makes re-processing the same event
	// idempotent. Not part of the wire document.
	SourceEventID string `json:"-"`
}

// Watch is a caller's list of companies of one country whose changes are
// recorded for them and sent to their endpoint.
type Watch struct {
	ID        string    `json:"id"`
	Owner     string    `json:"-"` // the API token's name that created it
	Country   string    `json:"country"`
	IDs       []string  `json:"ids"`
	Kinds     []Kind    `json:"kinds"` // empty: every kind
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"created_at"`
	// Disabled is true once the endpoint answered 410 or failed for about
	// three days; DisabledReason says which.
	Disabled       bool       `json:"disabled"`
	DisabledReason *string    `json:"disabled_reason"`
	DisabledAt     *time.Time `json:"disabled_at"`
	// LastAttemptAt, LastStatusCode and LastError are the outcome of the
	// last delivery attempt to the endpoint (of any of the watch's
	// deliveries): when, the HTTP status (nil when no answer came) and why
	// it failed (nil when it succeeded); all nil before the first. An
	// endpoint that keeps answering 4xx is retried, and shows it here.
	LastAttemptAt  *time.Time `json:"last_attempt_at"`
	LastStatusCode *int       `json:"last_status_code"`
	LastError      *string    `json:"last_error"`
}

// Snapshot is the last known state of one company: what a later report is
// compared with.
type Snapshot struct {
	Country   string
	CompanyID string
	// Report is the country-neutral report's JSON, as the Registry
	// answered it (cache fields cleared).
	Report json.RawMessage
	// Roles is the roles report's JSON, or nil where the country has none.
	Roles json.RawMessage
	// TakenAt is when the report was fetched.
	TakenAt time.Time
	// Misses counts consecutive polls that found no company (a company is
	// reported deleted only after two).
	Misses int
	// RolesMisses counts, of a company found, consecutive answers whose
	// roles report lacks a whole group of roles the snapshot holds
	// (reported only after two; see [RolesVanished]).
	RolesMisses int
}

// DeliveryStatus is where a delivery stands.
type DeliveryStatus string

// The delivery states.
const (
	DeliveryPending   DeliveryStatus = "pending"   // waiting for its next attempt
	DeliverySucceeded DeliveryStatus = "succeeded" // the endpoint answered 2xx
	DeliveryFailed    DeliveryStatus = "failed"    // given up (410, or about three days of failure)
)

// Delivery is one change sent (or to be sent) to one watch's endpoint.
type Delivery struct {
	ID             string         `json:"id"`
	WatchID        string         `json:"watch_id"`
	ChangeID       string         `json:"change_id"` // the webhook-id
	Status         DeliveryStatus `json:"status"`
	Attempts       int            `json:"attempts"`
	NextAttemptAt  *time.Time     `json:"next_attempt_at"`
	LastAttemptAt  *time.Time     `json:"last_attempt_at"`
	LastStatusCode *int           `json:"last_status_code"`
	LastError      *string        `json:"last_error"`
	CreatedAt      time.Time      `json:"created_at"`
}

// Fetcher fetches the current state of a company from its register,
// bypassing every cache (a change must be read from the register, not from
// a cached answer) but within the register's upstream budget. A company
// the register does not know is an error matching registry.CodeNotFound.
type Fetcher interface {
	Fetch(ctx context.Context, country, companyID string) (Snapshot, error)
}
