package changes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/lockedio"
	"github.com/companyregistry/registry/internal/ops"
)

// Limits of the service.
const (
	// MaxIDsPerWatch is the most companies one watch holds.
	MaxIDsPerWatch = 10_000
	// DefaultMaxWatchesPerOwner is how many watches one API token may have
	// unless [ServiceConfig.MaxWatchesPerOwner] says otherwise.
	DefaultMaxWatchesPerOwner = 100
	// DefaultFeedLimit and MaxFeedLimit bound a page of the change feed.
	DefaultFeedLimit, MaxFeedLimit = 100, 1000
	// DefaultDeliveriesLimit and MaxDeliveriesLimit bound a list of
	// deliveries.
	DefaultDeliveriesLimit, MaxDeliveriesLimit = 50, 100
	// DefaultCompanyChangesLimit and MaxCompanyChangesLimit bound a list
	// of one company's changes: the bounds of a search, so that the REST
	// and MCP doors read limit as they do for a search, with the same
	// errors.
	DefaultCompanyChangesLimit, MaxCompanyChangesLimit = registry.DefaultSearchLimit, registry.MaxSearchLimit
	// MaxCursorLength is the longest feed cursor accepted.
	MaxCursorLength = 128
	// DefaultBaselineConcurrency is how many baselines are fetched at once.
	DefaultBaselineConcurrency = 4
	// DefaultBaselineTimeout bounds the baselines taken while a watch is
	// created or changed; the rest are taken afterwards.
	DefaultBaselineTimeout = 20 * time.Second
	// TestEventType is the type of the event [Service.TestWatch] sends.
	TestEventType = "watch.test"
	// DefaultSecretOverlap is how long the secret a rotation replaces
	// keeps signing beside the new one (Standard Webhooks' 24 hours),
	// unless [ServiceConfig.SecretOverlap] says otherwise.
	DefaultSecretOverlap = 24 * time.Hour
)

// WatchKinds returns the kinds a watch may ask for, in their order.
func WatchKinds() []Kind {
	return []Kind{KindStatusChanged, KindNameChanged, KindAddressChanged, KindLegalFormChanged, KindVATChanged,
		KindRolesChanged, KindDeleted}
}

// ServiceConfig configures [NewService].
type ServiceConfig struct {
	// Store keeps the watches and the feed (required).
	Store Store
	// Fetcher takes the baselines (required).
	Fetcher Fetcher
	// Registry validates identifiers and country codes (required).
	Registry *registry.Registry
	// Policy checks the endpoints of watches.
	Policy webhook.Policy
	// Client sends test events; nil is webhook.NewClient with Policy,
	// which [Service.Close] closes. A Client given here stays the
	// caller's to close.
	Client *webhook.Client
	// MaxWatchesPerOwner bounds the watches of one owner (default
	// [DefaultMaxWatchesPerOwner]).
	MaxWatchesPerOwner int
	// BaselineConcurrency and BaselineTimeout bound the baselines taken
	// while a request waits (defaults [DefaultBaselineConcurrency] and
	// [DefaultBaselineTimeout]).
	BaselineConcurrency int
	BaselineTimeout     time.Duration
	// SecretOverlap is how long the secret replaced by
	// [Service.RotateSecret] keeps signing beside the new one (default
	// [DefaultSecretOverlap]).
	SecretOverlap time.Duration
	// Queued, when set, is called after a delivery was queued again
	// (redelivery), so that a dispatcher in this process sends it at once
	// (see dispatch.Dispatcher.Wake).
	Queued func()
	// Now is the clock (default time.Now); Random the source of secrets
	// and ids (default crypto/rand).
	Now    func() time.Time
	Random io.Reader
	// Logger logs baselines taken in the background (default: discard).
	// Nothing the service logs holds a secret, a token or an endpoint.
	Logger *slog.Logger
}

// Service is change monitoring's operations on behalf of an owner (the
// name of an API token): watches, the change feed, deliveries and a test
// event, and the recorded changes of any company. It is safe for
// concurrent use.
type Service struct {
	store      Store
	fetcher    Fetcher
	reg        *registry.Registry
	policy     webhook.Policy
	client     *webhook.Client
	ownClient  bool // client was made here: Close closes it
	maxWatches int
	concurrent int
	timeout    time.Duration
	overlap    time.Duration
	queued     func()
	now        func() time.Time
	random     io.Reader
	log        *slog.Logger

	mu       sync.Mutex
	pending  map[companyRef]struct{} // companies of a watch without a baseline yet
	lastScan time.Time               // of the store, for pending baselines; zero: never
}

type companyRef struct{ country, id string }

// NewService returns a Service.
func NewService(c ServiceConfig) (*Service, error) {
	switch {
	case c.Store == nil:
		return nil, errors.New("changes: NewService: nil Store")
	case c.Fetcher == nil:
		return nil, errors.New("changes: NewService: nil Fetcher")
	case c.Registry == nil:
		return nil, errors.New("changes: NewService: nil Registry")
	case c.MaxWatchesPerOwner < 0 || c.BaselineConcurrency < 0 || c.BaselineTimeout < 0 || c.SecretOverlap < 0:
		return nil, errors.New("changes: NewService: a negative limit")
	}
	s := &Service{store: c.Store, fetcher: c.Fetcher, reg: c.Registry, policy: c.Policy, client: c.Client,
		maxWatches: c.MaxWatchesPerOwner, concurrent: c.BaselineConcurrency, timeout: c.BaselineTimeout, overlap: c.SecretOverlap,
		queued: c.Queued, now: c.Now, random: c.Random, log: c.Logger, pending: map[companyRef]struct{}{}}
	if s.client == nil {
		s.client = webhook.NewClient(webhook.ClientOptions{Policy: c.Policy})
		s.ownClient = true
	}
	if s.maxWatches == 0 {
		s.maxWatches = DefaultMaxWatchesPerOwner
	}
	if s.concurrent == 0 {
		s.concurrent = DefaultBaselineConcurrency
	}
	if s.timeout == 0 {
		s.timeout = DefaultBaselineTimeout
	}
	if s.overlap == 0 {
		s.overlap = DefaultSecretOverlap
	}
	if s.now == nil {
		s.now = time.Now
	}
	// Concurrent calls share the source, which may not be safe for
	// concurrent use.
	s.random = lockedio.NewReader(s.random)
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// Close releases what the service made for itself: the idle connections
// of the webhook client it created when [ServiceConfig.Client] was nil. A
// client given in the configuration, and the store, stay the caller's.
// The service must not be used after Close.
func (s *Service) Close() {
	if s.ownClient {
		s.client.CloseIdleConnections()
	}
}

// CreatedWatch is the answer of a watch's creation: the watch, its signing
// secret (shown this once) and the companies whose baseline is still to be
// taken.
type CreatedWatch struct {
	Watch Watch
	// Secret is "whsec_" and the base64 of the HMAC key of the watch's
	// webhooks. It is never shown again.
	Secret string
	// BaselinePending lists the companies whose baseline could not be
	// taken before answering (the register was slow, failed or its budget
	// was used up); it is taken in the background, before any change of
	// theirs is reported.
	BaselinePending []string
}

// MarshalJSON encodes the watch's members in the order of the interface:
// id, secret, country, ids, kinds, url, created_at, disabled,
// disabled_reason, disabled_at, last_attempt_at, last_status_code,
// last_error, baseline_pending.
func (c CreatedWatch) MarshalJSON() ([]byte, error) {
	w := surfaceWatch(c.Watch)
	return json.Marshal(struct {
		ID              string     `json:"id"`
		Secret          string     `json:"secret"`
		Country         string     `json:"country"`
		IDs             []string   `json:"ids"`
		Kinds           []Kind     `json:"kinds"`
		URL             string     `json:"url"`
		CreatedAt       time.Time  `json:"created_at"`
		Disabled        bool       `json:"disabled"`
		DisabledReason  *string    `json:"disabled_reason"`
		DisabledAt      *time.Time `json:"disabled_at"`
		LastAttemptAt   *time.Time `json:"last_attempt_at"`
		LastStatusCode  *int       `json:"last_status_code"`
		LastError       *string    `json:"last_error"`
		BaselinePending []string   `json:"baseline_pending"`
	}{w.ID, c.Secret, w.Country, w.IDs, w.Kinds, w.URL, w.CreatedAt, w.Disabled, w.DisabledReason, w.DisabledAt,
		w.LastAttemptAt, w.LastStatusCode, w.LastError, nonNil(c.BaselinePending)})
}

// UpdatedWatch is the answer of a watch's change: the watch and the added
// companies whose baseline is still to be taken.
type UpdatedWatch struct {
	Watch           Watch
	BaselinePending []string
}

// MarshalJSON encodes the watch's members and baseline_pending.
func (u UpdatedWatch) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		watchJSON
		BaselinePending []string `json:"baseline_pending"`
	}{watchJSON(surfaceWatch(u.Watch)), nonNil(u.BaselinePending)})
}

// RotatedSecret is the answer of a secret's rotation: the watch's new
// signing secret (shown this once) and when the secret it replaced stops
// signing.
type RotatedSecret struct {
	WatchID string
	// Secret is "whsec_" and the base64 of the new HMAC key, made as
	// CreateWatch makes one. It is never shown again.
	Secret string
	// PreviousSecretExpiresAt is when the replaced secret stops signing
	// (or sooner: a third rotation within the overlap ends the oldest
	// replaced secret at once): until then every webhook carries a
	// signature under each secret still signing. After a rotation retried
	// for a lost answer it is the end of the lost answer's secret; the
	// secret before it ends at the end the lost answer held.
	PreviousSecretExpiresAt time.Time
}

// MarshalJSON encodes the members in this order: watch_id, secret,
// previous_secret_expires_at.
func (r RotatedSecret) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		WatchID   string    `json:"watch_id"`
		Secret    string    `json:"secret"`
		ExpiresAt time.Time `json:"previous_secret_expires_at"`
	}{r.WatchID, r.Secret, r.PreviousSecretExpiresAt.UTC()})
}

// watchJSON encodes as Watch does, without a MarshalJSON of its own.
type watchJSON Watch

// WatchList is the answer of the list of an owner's watches, oldest
// first.
type WatchList struct {
	Watches []Watch `json:"watches"`
}

// Feed is a page of the change feed.
type Feed struct {
	Changes []Change `json:"changes"`
	// NextCursor is where the next page starts: pass it as the cursor of
	// the next call, also when this page was empty.
	NextCursor string `json:"next_cursor"`
}

// DeliveryList is the answer of the list of a watch's deliveries, newest
// first.
type DeliveryList struct {
	Deliveries []Delivery `json:"deliveries"`
}

// CompanyChanges is the answer of the list of one company's recorded
// changes, newest first.
type CompanyChanges struct {
	Country   string   `json:"country"`
	CompanyID string   `json:"company_id"`
	Changes   []Change `json:"changes"`
	// Notes say why a list is empty.
	Notes []string `json:"notes"`
}

// TestResult is the answer of a test event: whether the endpoint answered
// 2xx, its status or why none came.
type TestResult struct {
	// WebhookID is the webhook-id the event was sent with.
	WebhookID string `json:"webhook_id"`
	// Type is [TestEventType].
	Type       string  `json:"type"`
	Delivered  bool    `json:"delivered"`
	StatusCode *int    `json:"status_code"`
	Error      *string `json:"error"`
}

// surfaceWatch returns w with [] for empty lists.
func surfaceWatch(w Watch) Watch {
	w.IDs = nonNil(w.IDs)
	w.Kinds = nonNil(w.Kinds)
	return w
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// notFoundWatch is the error of an unknown watch (or another owner's).
func notFoundWatch() *registry.Error {
	return &registry.Error{Code: registry.CodeNotFound, Message: "There is no watch with this id.",
		Hint: "List your watches to find the id; a watch of another API token is not visible to yours."}
}

func storeError(err error) error {
	if errors.Is(err, ErrNotFound) {
		return notFoundWatch()
	}
	return err
}

// CreateWatch creates a watch for owner: it validates the country, the
// identifiers (canonical, duplicates collapsed, at most [MaxIDsPerWatch]),
// the kinds (none is every kind) and the endpoint URL, checks the owner's
// number of watches, takes a baseline of each company that has none (or
// whose snapshot no watch holds: a stale one), and stores the watch with a
// new secret; the store keeps a company's snapshot if another watch of it
// was stored meanwhile. A company already watched gets no baseline of its
// own: its watchers' shared snapshot, as recent as its ingester keeps it
// (about a minute behind the register for Norway's feeds, seconds for the
// Companies House stream, up to a poll interval for a polled country),
// serves as the new watch's, so a change the ingester had not recorded
// yet when the watch was created is reported to the new watch too; so is
// a change between two creations at once, the second keeping the
// first's snapshot. A company whose snapshot served as its baseline
// but went before the watch was stored (its other watches deleted, then
// pruned) has its baseline taken then.
//
// Baselines are fetched with bounded concurrency for up to the baseline
// timeout. A company the register does not know fails the creation
// (not_found, with details.not_found listing them). A company whose
// register failed, was slow or whose budget was used up does not: it is
// listed in BaselinePending and its baseline is taken by
// [Service.TakeBaselines] later; no change of that company is reported
// before it has a baseline.
func (s *Service) CreateWatch(ctx context.Context, owner string, req WatchRequest) (*CreatedWatch, error) {
	if owner == "" {
		return nil, errors.New("changes: CreateWatch: no owner")
	}
	country, ids, err := s.canonicalIDs(req.Country, "ids", req.IDs, true)
	if err != nil {
		return nil, err
	}
	if len(ids) > MaxIDsPerWatch {
		return nil, s.tooMany(country, len(ids))
	}
	kinds, err := validKinds(req.Kinds)
	if err != nil {
		return nil, err
	}
	if err := s.checkURL(ctx, req.URL); err != nil {
		return nil, err
	}
	if err := s.checkReady(country.code, country.registry); err != nil {
		return nil, err
	}
	n, err := s.store.CountWatches(ctx, owner)
	if err != nil {
		return nil, err
	}
	if n >= s.maxWatches {
		return nil, &registry.Error{Code: registry.CodeBadRequest,
			Message: fmt.Sprintf("This API token already has %d watches, the most it may have.", n),
			Hint:    "Delete a watch you no longer need, or add the identifiers to one of your watches instead."}
	}
	base, err := s.baselines(ctx, country, ids)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	id, err := NewID(PrefixWatch, now, s.random)
	if err != nil {
		return nil, err
	}
	secret, key, err := s.newSecret()
	if err != nil {
		return nil, err
	}
	w := Watch{ID: id, Owner: owner, Country: country.code, IDs: ids, Kinds: kinds, URL: req.URL, CreatedAt: now}
	if err := s.store.CreateWatch(ctx, w, key, base.snaps); err != nil {
		return nil, err
	}
	pending := s.settle(ctx, country, base)
	s.addPending(country.code, pending)
	return &CreatedWatch{Watch: w, Secret: secret, BaselinePending: pending}, nil
}

// Watch returns the owner's watch.
func (s *Service) Watch(ctx context.Context, owner, id string) (*Watch, error) {
	w, err := s.store.Watch(ctx, owner, id)
	if err != nil {
		return nil, storeError(err)
	}
	w = surfaceWatch(w)
	return &w, nil
}

// Watches lists the owner's watches, oldest first.
func (s *Service) Watches(ctx context.Context, owner string) (*WatchList, error) {
	ws, err := s.store.Watches(ctx, owner)
	if err != nil {
		return nil, err
	}
	out := &WatchList{Watches: make([]Watch, 0, len(ws))}
	for _, w := range ws {
		out.Watches = append(out.Watches, surfaceWatch(w))
	}
	return out, nil
}

// UpdateWatch changes the owner's watch: identifiers added (validated,
// baselines taken as for [Service.CreateWatch]) and removed, the kinds,
// the URL (validated; a new URL enables a disabled watch), or enables it.
func (s *Service) UpdateWatch(ctx context.Context, owner, id string, p WatchPatch) (*UpdatedWatch, error) {
	w, err := s.store.Watch(ctx, owner, id)
	if err != nil {
		return nil, storeError(err)
	}
	country, add, err := s.canonicalIDs(w.Country, "add_ids", p.AddIDs, false)
	if err != nil {
		return nil, err
	}
	_, remove, err := s.canonicalIDs(w.Country, "remove_ids", p.RemoveIDs, false)
	if err != nil {
		return nil, err
	}
	adding := make(map[string]bool, len(add))
	for _, a := range add {
		adding[a] = true
	}
	for _, r := range remove {
		if adding[r] {
			return nil, &registry.Error{Code: registry.CodeBadRequest, Country: country.code, Registry: country.registry,
				Message: fmt.Sprintf("The identifier %s is both added and removed.", r),
				Hint:    "Put each identifier in add_ids or in remove_ids, not both."}
		}
	}
	have := make(map[string]bool, len(w.IDs))
	for _, x := range w.IDs {
		have[x] = true
	}
	var added []string
	for _, a := range add {
		if !have[a] {
			added = append(added, a)
			have[a] = true
		}
	}
	for _, r := range remove {
		delete(have, r)
	}
	if len(have) > MaxIDsPerWatch {
		return nil, s.tooMany(country, len(have))
	}
	if len(have) == 0 {
		return nil, &registry.Error{Code: registry.CodeBadRequest, Country: country.code, Registry: country.registry,
			Message: "The change would leave the watch without companies.",
			Hint:    "Keep at least one identifier, or delete the watch."}
	}
	u := WatchUpdate{AddIDs: added, RemoveIDs: remove, URL: p.URL, Enable: p.Enable}
	if p.Kinds != nil {
		kinds, err := validKinds(*p.Kinds)
		if err != nil {
			return nil, err
		}
		u.Kinds = &kinds
	}
	if p.URL != nil {
		if err := s.checkURL(ctx, *p.URL); err != nil {
			return nil, err
		}
	}
	var base baselineSet
	if len(added) > 0 {
		if base, err = s.baselines(ctx, country, added); err != nil {
			return nil, err
		}
	}
	w, err = s.store.UpdateWatch(ctx, owner, id, u, base.snaps)
	if err != nil {
		return nil, storeError(err)
	}
	pending := s.settle(ctx, country, base)
	s.addPending(country.code, pending)
	return &UpdatedWatch{Watch: surfaceWatch(w), BaselinePending: pending}, nil
}

// DeleteWatch deletes the owner's watch and its pending deliveries.
func (s *Service) DeleteWatch(ctx context.Context, owner, id string) error {
	return storeError(s.store.DeleteWatch(ctx, owner, id))
}

// RotateSecret gives the owner's watch a new signing secret, made as
// CreateWatch makes one and shown this once. The secret it replaces keeps
// signing beside it for the secret overlap ([DefaultSecretOverlap], 24
// hours): until PreviousSecretExpiresAt every webhook of the watch
// (deliveries, redeliveries and test events) carries its signature after
// the new secret's, so that the receiver can switch to the new secret at
// any time within the overlap; after it, the replaced secret no longer
// signs.
//
// Rotating again within the overlap replaces the new secret in turn and
// keeps every secret replaced before until its own end: each signs, newest
// first, until the time its rotation answered. So a caller that lost the
// answer and rotates again does not end the secret its receiver still
// holds: that one signs until its end, and the receiver takes the last
// answer's secret within that time. A watch keeps at most
// [MaxPreviousSecrets] replaced secrets: a third rotation within one
// overlap drops the oldest at once, and a replaced secret past its end is
// dropped at the next rotation. A disabled watch may rotate too.
// PreviousSecretExpiresAt is to the microsecond, as the stores keep it.
//
// An unknown watch, or another owner's, is not_found. A store that does
// not implement [SecretRotator] cannot rotate: not_implemented, and
// nothing changes.
func (s *Service) RotateSecret(ctx context.Context, owner, id string) (*RotatedSecret, error) {
	if owner == "" {
		return nil, errors.New("changes: RotateSecret: no owner")
	}
	rot, ok := s.store.(SecretRotator)
	if !ok {
		return nil, &registry.Error{Code: registry.CodeNotImplemented,
			Message: "This deployment's store cannot rotate a watch's secret.",
			Hint:    "Ask the operator for a store that rotates secrets (the SQLite and PostgreSQL stores do), or create a new watch for a new secret."}
	}
	secret, key, err := s.newSecret()
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	until := now.Add(s.overlap).Truncate(time.Microsecond)
	if err := rot.RotateSecret(ctx, owner, id, key, now, until); err != nil {
		return nil, storeError(err)
	}
	return &RotatedSecret{WatchID: id, Secret: secret, PreviousSecretExpiresAt: until}, nil
}

// newSecret makes a watch's signing secret ("whsec_…", shown once) and
// its HMAC key.
func (s *Service) newSecret() (secret string, key []byte, err error) {
	if secret, err = webhook.NewSecret(s.random); err != nil {
		return "", nil, err
	}
	if key, err = webhook.ParseSecret(secret); err != nil {
		return "", nil, err
	}
	return secret, key, nil
}

// watchKeys returns the keys that sign the owner's watch's webhooks: the
// store's WatchKeys when it rotates secrets, else WatchSecret alone.
func (s *Service) watchKeys(ctx context.Context, owner, id string) (WatchKeys, error) {
	if rot, ok := s.store.(SecretRotator); ok {
		return rot.WatchKeys(ctx, owner, id)
	}
	key, err := s.store.WatchSecret(ctx, owner, id)
	return WatchKeys{Current: key}, err
}

// TestWatch sends a signed test event to the owner's watch's endpoint now,
// once, whether or not the watch is disabled, and says what the endpoint
// answered. The event is not a change: it is not stored, not retried and
// not in the feed. Its body is
//
//	{"type":"watch.test","timestamp":"…","data":{"watch_id":"…","country":"NO","message":"…"}}
//
// and its webhook-id starts "tst_". While a secret a rotation replaced
// still signs (see [Service.RotateSecret]) the event carries its
// signature too, as a delivery does. An endpoint that does not answer 2xx
// is a normal answer with delivered false.
func (s *Service) TestWatch(ctx context.Context, owner, id string) (*TestResult, error) {
	w, err := s.store.Watch(ctx, owner, id)
	if err != nil {
		return nil, storeError(err)
	}
	keys, err := s.watchKeys(ctx, owner, id)
	if err != nil {
		return nil, storeError(err)
	}
	now := s.now().UTC()
	msgID, err := NewID(PrefixTest, now, s.random)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(struct {
		Type      string    `json:"type"`
		Timestamp time.Time `json:"timestamp"`
		Data      any       `json:"data"`
	}{TestEventType, now, struct {
		WatchID string `json:"watch_id"`
		Country string `json:"country"`
		Message string `json:"message"`
	}{w.ID, w.Country, "A test event of this watch: verify its signature and answer 2xx."}})
	if err != nil {
		return nil, err
	}
	res := &TestResult{WebhookID: msgID, Type: TestEventType}
	resp, err := s.client.Send(ctx, w.URL, webhook.Message{ID: msgID, At: now, Body: body, Key: keys.Current,
		Previous: keys.Previous})
	var se *webhook.SendError
	switch {
	case errors.As(err, &se):
		res.Error = &se.Reason
	case err != nil:
		return nil, err
	default:
		res.StatusCode = &resp.StatusCode
		res.Delivered = resp.Succeeded()
		if !res.Delivered {
			msg := fmt.Sprintf("the endpoint answered %d, not 2xx", resp.StatusCode)
			res.Error = &msg
		}
	}
	return res, nil
}

// Feed returns the owner's changes after cursor ("" for the oldest kept),
// oldest first, at most limit (1 to [MaxFeedLimit]; the doors pass
// [DefaultFeedLimit] when the caller gives none). A cursor older than the
// changes kept is cursor_expired with details.oldest_cursor.
func (s *Service) Feed(ctx context.Context, owner, cursor string, limit int) (*Feed, error) {
	if err := checkLimit("", "", limit, MaxFeedLimit); err != nil {
		return nil, err
	}
	if !validCursor(cursor) {
		return nil, badCursor(nil)
	}
	list, next, err := s.store.Changes(ctx, owner, cursor, limit)
	var expired *CursorExpiredError
	if errors.Is(err, ErrInvalidCursor) {
		// Well formed, but not a cursor the store gave out (garbled,
		// truncated or made up): the caller's error.
		return nil, badCursor(err)
	}
	if errors.As(err, &expired) {
		return nil, &registry.Error{Code: registry.CodeCursorExpired,
			Message: "The cursor is older than the changes kept (at least 30 days are kept).",
			Details: map[string]any{"oldest_cursor": expired.Oldest}, Err: err}
	}
	if err != nil {
		return nil, err
	}
	if next == "" {
		next = cursor
	}
	return &Feed{Changes: nonNil(list), NextCursor: next}, nil
}

// badCursor is the error of a cursor this service did not give out.
func badCursor(err error) *registry.Error {
	return &registry.Error{Code: registry.CodeBadRequest,
		Message: fmt.Sprintf("The cursor is not one this service gave (at most %d letters, digits and -_.~).", MaxCursorLength),
		Hint:    "Pass the next_cursor of the previous page as it was, or no cursor to start from the oldest change kept.",
		Err:     err}
}

func validCursor(c string) bool {
	if len(c) > MaxCursorLength {
		return false
	}
	for i := 0; i < len(c); i++ {
		b := c[i]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || strings.IndexByte("-_.~", b) >= 0) {
			return false
		}
	}
	return true
}

// Deliveries lists the deliveries of the owner's watch, newest first, at
// most limit (1 to [MaxDeliveriesLimit]).
func (s *Service) Deliveries(ctx context.Context, owner, watchID string, limit int) (*DeliveryList, error) {
	if err := checkLimit("", "", limit, MaxDeliveriesLimit); err != nil {
		return nil, err
	}
	if _, err := s.store.Watch(ctx, owner, watchID); err != nil {
		return nil, storeError(err)
	}
	list, err := s.store.Deliveries(ctx, owner, watchID, limit)
	if err != nil {
		return nil, storeError(err)
	}
	return &DeliveryList{Deliveries: nonNil(list)}, nil
}

// Redeliver queues one delivery of the owner's watch again, for an attempt
// now with the same webhook-id, whatever its state; the watch's other
// deliveries are untouched. It returns the delivery as queued. A disabled
// watch is sent nothing, so a redelivery to it is refused (bad_request)
// rather than queued for an attempt that would wait until the watch is
// enabled: enable it, then ask again.
func (s *Service) Redeliver(ctx context.Context, owner, watchID, deliveryID string) (*Delivery, error) {
	w, err := s.store.Watch(ctx, owner, watchID)
	if err != nil {
		return nil, storeError(err)
	}
	if w.Disabled {
		return nil, &registry.Error{Code: registry.CodeBadRequest,
			Message: "The watch is disabled, so nothing is sent to its endpoint; a redelivery would wait until it is enabled.",
			Hint:    `Enable the watch first (update it with "disabled": false, or give it a new url), then ask for the redelivery again.`}
	}
	d, err := s.store.Redeliver(ctx, owner, watchID, deliveryID)
	if errors.Is(err, ErrNotFound) {
		return nil, &registry.Error{Code: registry.CodeNotFound, Message: "There is no delivery with this id in this watch.",
			Hint: "List the watch's deliveries to find the id."}
	}
	if err != nil {
		return nil, err
	}
	if s.queued != nil {
		s.queued()
	}
	return &d, nil
}

// CompanyChanges lists the recorded changes of one company, newest first,
// at most limit (1 to [MaxCompanyChangesLimit]): any company a watch
// follows, and for a country whose register publishes a change feed
// (Norway), any company of that feed. It is not limited to an owner. The
// identifier is validated (invalid_id) but the register is not called.
func (s *Service) CompanyChanges(ctx context.Context, country, id string, limit int) (*CompanyChanges, error) {
	v, err := s.reg.Validate(country, id)
	if err != nil {
		return nil, err
	}
	if err := checkLimit(v.Country, v.Registry, limit, MaxCompanyChangesLimit); err != nil {
		return nil, err
	}
	if !v.Valid || v.Normalized == nil {
		return nil, invalidID(v)
	}
	list, err := s.store.CompanyChanges(ctx, v.Country, *v.Normalized, limit)
	if err != nil {
		return nil, err
	}
	out := &CompanyChanges{Country: v.Country, CompanyID: *v.Normalized, Changes: nonNil(list), Notes: []string{}}
	if len(list) == 0 {
		out.Notes = append(out.Notes, "No change of this company is recorded. Changes are recorded for the companies "+
			"of watch lists and, where the register publishes a change feed (Norway), for every company in it, from "+
			"when this service started to follow them.")
	}
	return out, nil
}

// CompanyChangesJSON is [Service.CompanyChanges] as the JSON document the
// REST and MCP doors send.
func (s *Service) CompanyChangesJSON(ctx context.Context, country, id string, limit int) ([]byte, error) {
	doc, err := s.CompanyChanges(ctx, country, id, limit)
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

func invalidID(v *registry.ValidationResult) *registry.Error {
	msg := "The identifier fails the format or checksum."
	if v.Reason != nil && *v.Reason != "" {
		msg = *v.Reason
	}
	e := &registry.Error{Code: registry.CodeInvalidID, Country: v.Country, Registry: v.Registry, Message: msg}
	if v.Hint != nil {
		e.Hint = *v.Hint
	}
	return e
}

func checkLimit(country, reg string, limit, most int) error {
	if limit >= 1 && limit <= most {
		return nil
	}
	return &registry.Error{Code: registry.CodeBadRequest, Country: country, Registry: reg,
		Message: fmt.Sprintf("limit must be an integer from 1 to %d; got %s.", most, ops.Number(limit)),
		Hint:    fmt.Sprintf("Retry with limit between 1 and %d, or leave it out.", most)}
}

// ParseLimit reads a limit as a caller wrote it: absent (present false) is
// def; present, it must be a decimal integer (the range is checked by the
// operation). A malformed one is bad_request.
func ParseLimit(raw string, present bool, def int) (int, error) {
	if !present {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, &registry.Error{Code: registry.CodeBadRequest,
			Message: fmt.Sprintf("limit must be an integer; got %s.", ops.Quote(raw)),
			Hint:    fmt.Sprintf("Retry with a whole number such as %d, or leave limit out.", def)}
	}
	return n, nil
}

// countryRef is a country as the Registry names it.
type countryRef struct{ code, registry string }

// canonicalIDs validates ids for country and returns the country's code
// and the canonical identifiers, duplicates collapsed, in their first
// order. required: an empty list is an error. An invalid identifier is
// invalid_id with details.invalid listing each (index, id, reason); the id
// is null, and the message names the identifier by its place only, when
// ops.Quotable refuses it (it, or its quote cut to 40 bytes, holds what has
// the form of a Swedish personal identity number): personal data is never
// part of an error.
func (s *Service) canonicalIDs(country, member string, ids []string, required bool) (countryRef, []string, error) {
	probe, err := s.reg.Validate(country, "")
	if err != nil {
		return countryRef{}, nil, err
	}
	c := countryRef{probe.Country, probe.Registry}
	if required && len(ids) == 0 {
		return c, nil, &registry.Error{Code: registry.CodeBadRequest, Country: c.code, Registry: c.registry,
			Message: member + " is empty; a watch holds 1 to " + fmt.Sprint(MaxIDsPerWatch) + " identifiers.",
			Hint:    "Give at least one identifier."}
	}
	if len(ids) > 2*MaxIDsPerWatch {
		return c, nil, s.tooMany(c, len(ids))
	}
	type bad struct {
		Index  int     `json:"index"`
		ID     *string `json:"id"`
		Reason string  `json:"reason"`
	}
	var invalid []bad
	nInvalid := 0
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		v, err := s.reg.Validate(c.code, id)
		if err != nil {
			return c, nil, err
		}
		if !v.Valid || v.Normalized == nil {
			nInvalid++
			if len(invalid) < 100 {
				reason := "fails the format or checksum"
				if v.Reason != nil {
					reason = *v.Reason
				}
				// ops.Quotable checks the quote too, as cut and as a
				// message writes it (rev-fix11, rev-omega11).
				var quoted *string
				if t, ok := ops.Quotable(id); ok {
					quoted = &t
				}
				invalid = append(invalid, bad{i, quoted, reason})
			}
			continue
		}
		if n := *v.Normalized; !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if nInvalid > 0 {
		first := invalid[0]
		which := fmt.Sprintf("%s[%d]", member, first.Index)
		if first.ID != nil {
			which += fmt.Sprintf(" %q", *first.ID)
		}
		return c, nil, &registry.Error{Code: registry.CodeInvalidID, Country: c.code, Registry: c.registry,
			Message: fmt.Sprintf("%d of the %d identifiers of %s are not valid; the first is %s: %s", nInvalid, len(ids),
				member, which, first.Reason),
			Hint:    "Correct or remove the identifiers listed in details.invalid (the first 100) and send the request again.",
			Details: map[string]any{"invalid": invalid}}
	}
	return c, out, nil
}

func (s *Service) tooMany(c countryRef, n int) *registry.Error {
	return &registry.Error{Code: registry.CodeBadRequest, Country: c.code, Registry: c.registry,
		Message: fmt.Sprintf("The watch would hold %d identifiers; a watch holds at most %d.", n, MaxIDsPerWatch),
		Hint:    fmt.Sprintf("Split the identifiers over several watches of at most %d each.", MaxIDsPerWatch)}
}

// validKinds checks kinds against [WatchKinds] and returns them without
// duplicates in that order; nil for none (every kind).
func validKinds(kinds []Kind) ([]Kind, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	all := WatchKinds()
	var out []Kind
	for _, k := range all {
		if slices.Contains(kinds, k) {
			out = append(out, k)
		}
	}
	for _, k := range kinds {
		if !slices.Contains(all, k) {
			names := make([]string, len(all))
			for i, a := range all {
				names[i] = string(a)
			}
			return nil, &registry.Error{Code: registry.CodeBadRequest,
				Message: ops.Quote(string(k)) + " is not a kind of change.",
				Hint:    "Use kinds from " + strings.Join(names, ", ") + ", or leave kinds out for all of them."}
		}
	}
	return out, nil
}

func (s *Service) checkURL(ctx context.Context, u string) error {
	err := s.policy.CheckURL(ctx, u)
	var ue *webhook.URLError
	if errors.As(err, &ue) {
		return &registry.Error{Code: registry.CodeBadRequest, Message: "The url is refused: " + ue.Reason + ".",
			Hint: fmt.Sprintf("Give an https URL of a host with a public address, at most %d bytes, without a user name or "+
				"password; the address is checked again at every delivery, and redirects are not followed.", webhook.MaxURLLength)}
	}
	return err
}

// checkReady refuses a country whose module cannot answer in this
// deployment (it needs an operator credential): its companies could never
// be fetched.
func (s *Service) checkReady(code, reg string) error {
	for _, c := range s.reg.Countries().Countries {
		if c.Country == code {
			return nil
		}
	}
	return &registry.Error{Code: registry.CodeUpstreamError, Country: code, Registry: reg,
		Message: fmt.Sprintf("The %s register cannot answer in this deployment (an operator credential is missing), so its companies cannot be watched.", code),
		Hint:    "Ask the operator to configure the register's credential, or watch companies of another country."}
}

// baselineSet is what [Service.baselines] found before a watch is stored.
type baselineSet struct {
	// snaps are the baselines fetched, of companies with no snapshot or a
	// stale one: the store keeps each unless a watch holds its company by
	// the time the watch is stored (see [Store.CreateWatch]).
	snaps []Snapshot
	// pending are the companies whose fetch failed or was not made.
	pending []string
	// relied are the companies whose stored snapshot, held by a watch,
	// serves as their baseline: [Service.settle] checks them again once
	// the watch is stored.
	relied []string
	// deadline ends the baseline timeout, which starts when the first
	// fetches start and bounds the fetches after the watch is stored too.
	deadline time.Time
}

// baselines fetches the snapshot of each company of ids that has none,
// or whose snapshot no watch holds (a stale one: no ingester reads it, it
// waits for Prune; the fresh one replaces it), with bounded concurrency,
// for up to the baseline timeout. It writes nothing: the store decides,
// in the transaction that stores the watch, which of the baselines to
// keep, so that a watch of the company stored meanwhile by another replica
// keeps its own. A company the register does not know is not_found
// (details.not_found lists them); a failure of the store or the caller's
// cancellation is returned as it is.
func (s *Service) baselines(ctx context.Context, c countryRef, ids []string) (baselineSet, error) {
	var out baselineSet
	watched, err := s.store.WatchedAmong(ctx, c.code, ids)
	if err != nil {
		return out, err
	}
	var need []string
	for _, id := range ids {
		_, err := s.store.Snapshot(ctx, c.code, id)
		switch {
		case errors.Is(err, ErrNotFound):
			need = append(need, id)
		case err != nil:
			return out, err
		default:
			if _, ok := watched[id]; ok {
				out.relied = append(out.relied, id)
			} else {
				need = append(need, id)
			}
		}
	}
	out.deadline = time.Now().Add(s.timeout)
	snaps, pending, notFound, err := s.fetchBaselines(ctx, c, need, out.deadline)
	if err != nil {
		return out, err
	}
	if len(notFound) > 0 {
		shown := notFound
		if len(shown) > 100 {
			shown = shown[:100]
		}
		return out, &registry.Error{Code: registry.CodeNotFound, Country: c.code, Registry: c.registry,
			Message: fmt.Sprintf("%d of the identifiers are not known to the %s register, the first %s.", len(notFound), c.code, notFound[0]),
			Hint: "Remove the identifiers listed in details.not_found (the first 100) and send the request again; " +
				"search by name to find the right ones.",
			Details: map[string]any{"not_found": shown}}
	}
	out.snaps, out.pending = snaps, pending
	return out, nil
}

// fetchBaselines fetches the companies ids with bounded concurrency until
// deadline and returns the snapshots taken, the companies not taken (a
// failure, the register's budget used up, or the deadline) and those the
// register does not know. The caller's cancellation is an error.
func (s *Service) fetchBaselines(ctx context.Context, c countryRef, ids []string, deadline time.Time) (snaps []Snapshot, pending, notFound []string, err error) {
	if len(ids) == 0 {
		return nil, nil, nil, nil
	}
	fctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	type result struct {
		snap Snapshot
		err  error
		done bool
	}
	results := make([]result, len(ids))
	var wg sync.WaitGroup
	var stopped atomic.Bool // the register's budget ran out: fetch no more
	slots := make(chan struct{}, s.concurrent)
	for i, id := range ids {
		slots <- struct{}{} // a slot first, so that the check below sees every fetch before it that ended
		if stopped.Load() || fctx.Err() != nil {
			<-slots
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			snap, err := s.fetcher.Fetch(fctx, c.code, id)
			results[i] = result{snap, err, true}
			if errors.Is(err, registry.ErrRateLimited) {
				stopped.Store(true)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	for i, r := range results {
		switch {
		case r.done && r.err == nil:
			snaps = append(snaps, r.snap)
		case r.done && errors.Is(r.err, registry.ErrNotFound):
			notFound = append(notFound, ids[i])
		default:
			pending = append(pending, ids[i])
		}
	}
	return snaps, pending, notFound, nil
}

// settle runs once the watch is stored, and returns the companies whose
// baseline is pending. A company whose stored snapshot served as its
// baseline (b.relied) may have lost it before the watch was stored: its
// other watches deleted, then a Prune on any replica. Its baseline is
// taken now (stored only where the company still has no snapshot, so that
// an ingester's newer one is not stepped back), and one whose fetch fails
// is pending, as at creation. A check after the store's commit is enough:
// Prune never removes the snapshot of a company a stored watch holds (on
// every store it is atomic with CreateWatch and UpdateWatch: see
// [Store.Prune]), so a snapshot found now stays. A company the register no
// longer knows gets no baseline (as in [Service.TakeBaselines]: the
// ingester reports it if it appears). A failure of the store here makes
// the company pending: the watch is stored, and TakeBaselines looks again.
func (s *Service) settle(ctx context.Context, c countryRef, b baselineSet) []string {
	pending := b.pending
	var gone []string
	for _, id := range b.relied {
		_, err := s.store.Snapshot(ctx, c.code, id)
		switch {
		case errors.Is(err, ErrNotFound):
			gone = append(gone, id)
		case err != nil:
			pending = append(pending, id)
		}
	}
	if len(gone) == 0 {
		return pending
	}
	snaps, failed, _, err := s.fetchBaselines(ctx, c, gone, b.deadline)
	if err != nil {
		return append(pending, gone...)
	}
	if len(snaps) > 0 {
		if _, err := s.store.Apply(ctx, Batch{Baselines: snaps}); err != nil {
			for _, sn := range snaps {
				pending = append(pending, sn.CompanyID)
			}
		}
	}
	return append(pending, failed...)
}

func (s *Service) addPending(country string, ids []string) {
	if len(ids) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		s.pending[companyRef{country, id}] = struct{}{}
	}
}

// rescanEvery is how often TakeBaselines looks through the store for
// watched companies without a baseline (a watch created by another
// replica, or before a restart).
const rescanEvery = time.Hour

// TakeBaselines takes the baselines still pending (a company added to a
// watch whose register failed or was slow) and returns how many it took.
// It stops at the first company whose register's budget is used up or
// whose register fails, to try again on the next call. Once an hour (and
// on the first call) it looks through the store for watched companies
// without a snapshot, so that companies of a watch created by another
// replica or before a restart are not missed. Run it on one replica (see
// [Service.RunBaselines]).
func (s *Service) TakeBaselines(ctx context.Context) (int, error) {
	if err := s.rescan(ctx); err != nil {
		return 0, err
	}
	s.mu.Lock()
	todo := make([]companyRef, 0, len(s.pending))
	for k := range s.pending {
		todo = append(todo, k)
	}
	s.mu.Unlock()
	slices.SortFunc(todo, func(a, b companyRef) int {
		return strings.Compare(a.country+"/"+a.id, b.country+"/"+b.id)
	})
	taken := 0
	for _, k := range todo {
		if err := ctx.Err(); err != nil {
			return taken, err
		}
		_, err := s.store.Snapshot(ctx, k.country, k.id)
		if err == nil { // taken meanwhile (by an ingester)
			s.dropPending(k)
			continue
		}
		if !errors.Is(err, ErrNotFound) {
			return taken, err
		}
		snap, err := s.fetcher.Fetch(ctx, k.country, k.id)
		if errors.Is(err, registry.ErrNotFound) {
			s.dropPending(k) // nothing to compare with; the ingester reports it when it appears
			continue
		}
		if err != nil {
			s.log.LogAttrs(ctx, slog.LevelWarn, "baseline not taken", slog.String("country", k.country),
				slog.String("code", string(registry.AsError(err).Code)))
			return taken, nil
		}
		// Stored only where the company still has no snapshot: an
		// ingester may have stored its own baseline and a newer state
		// since the look above, which this older fetch must not replace.
		if _, err := s.store.Apply(ctx, Batch{Baselines: []Snapshot{snap}}); err != nil {
			return taken, err
		}
		s.dropPending(k)
		taken++
	}
	return taken, nil
}

func (s *Service) dropPending(k companyRef) {
	s.mu.Lock()
	delete(s.pending, k)
	s.mu.Unlock()
}

// rescan adds every watched company without a snapshot to the pending
// set, once an hour.
func (s *Service) rescan(ctx context.Context) error {
	now := s.now()
	s.mu.Lock()
	due := s.lastScan.IsZero() || now.Sub(s.lastScan) >= rescanEvery
	s.mu.Unlock()
	if !due {
		return nil
	}
	var missing []companyRef
	for _, c := range s.reg.Countries().Countries {
		ids, err := s.store.WatchedIDs(ctx, c.Country)
		if err != nil {
			return err
		}
		for id := range ids {
			_, err := s.store.Snapshot(ctx, c.Country, id)
			switch {
			case errors.Is(err, ErrNotFound):
				missing = append(missing, companyRef{c.Country, id})
			case err != nil:
				return err
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range missing {
		s.pending[k] = struct{}{}
	}
	s.lastScan = now
	return nil
}

// PruneLease is the name of the store lease [Service.RunPrune] holds, so
// that one replica at a time prunes.
const PruneLease = "prune"

// RunPrune removes what the store no longer needs, every interval while
// holder holds the store's [PruneLease], until ctx is done: the changes
// detected more than keep ago (the store keeps at least its own retention,
// 30 days for changes/sqlstore, whatever keep says) with their deliveries,
// the finished deliveries of that age, and the snapshots of that age of
// companies no watch holds (see [Store.Prune]). The first pass runs at
// once. A failed pass is logged and tried again at the next tick.
func (s *Service) RunPrune(ctx context.Context, holder string, every, keep time.Duration) error {
	if every <= 0 || keep <= 0 {
		return errors.New("changes: RunPrune: the interval and the age kept must be positive")
	}
	t := time.NewTicker(every)
	defer t.Stop()
	defer func() {
		_ = s.store.ReleaseLease(context.WithoutCancel(ctx), PruneLease, holder)
	}()
	for {
		now := s.now()
		held, err := s.store.AcquireLease(ctx, PruneLease, holder, now, 2*every+time.Minute)
		if err == nil && held {
			err = s.store.Prune(ctx, now.Add(-keep))
		}
		if err != nil && ctx.Err() == nil {
			s.log.LogAttrs(ctx, slog.LevelWarn, "prune pass failed", slog.String("error", err.Error()))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// BaselineLease is the name of the store lease [Service.RunBaselines]
// holds, so that one replica at a time takes pending baselines.
const BaselineLease = "baselines"

// RunBaselines calls [Service.TakeBaselines] every interval while holder
// holds the store's [BaselineLease], until ctx is done. A failed pass is
// logged and tried again at the next tick.
func (s *Service) RunBaselines(ctx context.Context, holder string, every time.Duration) error {
	if every <= 0 {
		return errors.New("changes: RunBaselines: the interval must be positive")
	}
	t := time.NewTicker(every)
	defer t.Stop()
	defer func() {
		_ = s.store.ReleaseLease(context.WithoutCancel(ctx), BaselineLease, holder)
	}()
	for {
		held, err := s.store.AcquireLease(ctx, BaselineLease, holder, s.now(), 2*every+time.Minute)
		if err == nil && held {
			_, err = s.TakeBaselines(ctx)
		}
		if err != nil && ctx.Err() == nil {
			s.log.LogAttrs(ctx, slog.LevelWarn, "baselines pass failed", slog.String("error", err.Error()))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
