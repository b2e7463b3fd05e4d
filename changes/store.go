package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/companyregistry/registry/changes/webhook"
)

// Store keeps watches, snapshots, the change feed, deliveries, the
// ingesters' cursors and the leader lease. Implementations are safe for
// concurrent use by several goroutines and, for PostgreSQL, by several
// replicas. Every method that takes an owner only sees that owner's rows.
// A method that looks a watch or a delivery up by its id answers
// ErrNotFound for any id that names none, one that is not text (invalid
// UTF-8, a NUL) included: the doors pass a request's path to it as sent.
type Store interface {
	// CreateWatch stores w (w.ID, w.CreatedAt set by the caller) with its
	// signing secret and baselines, in one transaction. A baseline is
	// stored where its company has no snapshot, or has one that no watch
	// held before the call (a stale snapshot, which no ingester keeps up
	// to date, waiting for Prune: the baseline replaces it); a company a
	// watch held keeps its snapshot, which is kept up to date. The
	// decision and the write are one step with respect to every other
	// CreateWatch and UpdateWatch, on every replica: of two calls that
	// store watches of one company at once, the second sees the first's
	// watch and keeps its baseline.
	CreateWatch(ctx context.Context, w Watch, secret []byte, baselines []Snapshot) error
	// Watch returns the owner's watch, or ErrNotFound.
	Watch(ctx context.Context, owner, id string) (Watch, error)
	// Watches lists the owner's watches, oldest first.
	Watches(ctx context.Context, owner string) ([]Watch, error)
	// UpdateWatch applies u to the owner's watch and stores the
	// baselines of added companies as CreateWatch does (where the company
	// has no snapshot, or one no watch held before the call), in one
	// transaction, and returns the result.
	UpdateWatch(ctx context.Context, owner, id string, u WatchUpdate, baselines []Snapshot) (Watch, error)
	// DeleteWatch removes the owner's watch and its pending deliveries.
	DeleteWatch(ctx context.Context, owner, id string) error
	// CountWatches returns how many watches the owner has.
	CountWatches(ctx context.Context, owner string) (int, error)
	// WatchSecret returns the current signing key of the owner's watch
	// (CreateWatch's secret, or the last rotation's in a store that
	// implements [SecretRotator]), or ErrNotFound. A test
	// event of a store without SecretRotator is signed with it; a
	// rotating store's are signed with [SecretRotator.WatchKeys].
	WatchSecret(ctx context.Context, owner, id string) ([]byte, error)

	// WatchedIDs returns the canonical ids of the country watched by any
	// watch (enabled or not), for an ingester's filter.
	WatchedIDs(ctx context.Context, country string) (map[string]struct{}, error)
	// WatchedAmong returns those of ids (canonical ids of the country)
	// that any watch (enabled or not) holds now: the cheap check of an
	// ingester that meets a company missing from the set WatchedIDs gave
	// it earlier (a watch created since, maybe on another replica).
	WatchedAmong(ctx context.Context, country string, ids []string) (map[string]struct{}, error)
	// Snapshot returns the stored snapshot, or ErrNotFound.
	Snapshot(ctx context.Context, country, companyID string) (Snapshot, error)
	// OldestSnapshot returns the earliest TakenAt of the snapshots of the
	// companies of country that a watch (enabled or not) holds, a zero
	// TakenAt not counted; ok is false when there is none. An ingester that reads a feed for the
	// first time reads it from there, so that no change after a baseline
	// is missed.
	OldestSnapshot(ctx context.Context, country string) (at time.Time, ok bool, err error)

	// Apply records what an ingester found, in one transaction: it stores
	// each change not already recorded (same Country, CompanyID, Kind and
	// non-empty SourceEventID: skipped), assigning ID when empty and Seq;
	// puts it in the feed of every owner with a watch of the company whose
	// kinds include the change's kind, and queues a delivery for every such
	// watch that is enabled; replaces the snapshots; stores the baselines
	// of companies that have no snapshot; and sets the cursors.
	// The changes of the companies in Purge are deleted first.
	// It returns the changes it recorded, with ID and Seq.
	//
	// With b.Lease set, Apply first checks, inside the same transaction
	// and before it writes anything, that the named lease's holder (as
	// AcquireLease last stored it) is b.Lease.Holder; otherwise it writes
	// nothing and returns [ErrLeaseLost]. The check is serialized with
	// AcquireLease and ReleaseLease: another holder that takes the lease
	// either waits for the Apply to commit or makes it fail. Every
	// implementation must honour the fence; a nil b.Lease is not checked.
	//
	// With b.Expect set, Apply then checks, in the same transaction and
	// before it writes anything, that the stored snapshot of each company
	// named there is the one expected (see [ExpectedSnapshot.Matches]);
	// otherwise it writes nothing and returns a *[SnapshotChangedError]
	// naming every company whose snapshot is not. The check and the
	// writes are one step with respect to CreateWatch, UpdateWatch and
	// every other Apply, on every replica: a baseline stored after the
	// check waits for the Apply, or the Apply sees it. Every
	// implementation must honour it: an Apply that ignored b.Expect would
	// record, in a new watch's feed, a change made before its baseline.
	Apply(ctx context.Context, b Batch) ([]Change, error)
	// Cursor returns an ingester's stored cursor ("" when none).
	Cursor(ctx context.Context, name string) (string, error)

	// Changes lists the owner's changes (changes of companies in the
	// owner's watches, recorded while they were watched by a watch whose
	// kinds include the change's kind) after the cursor
	// ("" = from the oldest kept), oldest first, at most limit, and the
	// cursor of the last one ("" cursor in, none found: the cursor to
	// resume from). A cursor older than the retention is a
	// *[CursorExpiredError]; one it did not give out, or one ahead of its
	// newest change, is [ErrInvalidCursor].
	Changes(ctx context.Context, owner, cursor string, limit int) ([]Change, string, error)
	// CompanyChanges lists the changes recorded for one company, newest
	// first, at most limit (the MCP tool; not limited to an owner).
	CompanyChanges(ctx context.Context, country, companyID string, limit int) ([]Change, error)
	// Prune removes changes and finished deliveries recorded before
	// before (the oldest cursor kept moves with it), and the snapshots
	// taken before before of companies no watch holds any more. Removing
	// a snapshot is atomic with respect to CreateWatch and UpdateWatch:
	// it never removes the snapshot of a company a stored watch holds,
	// so that a caller that finds a snapshot of a company after its watch
	// was stored can rely on it staying.
	Prune(ctx context.Context, before time.Time) error

	// ClaimDeliveries marks at most n pending deliveries due at now as
	// taken by worker until now+lease (so that no other worker or replica
	// sends them meanwhile) and returns them with what sending needs.
	// It takes first, of each watch with due deliveries, the oldest due
	// up to [FairSharePerWatch] in flight (claimed and not yet recorded),
	// oldest due first; then, with room left, more of any watch, oldest
	// due first. So one endpoint's backlog uses every worker only while
	// no other watch has a delivery due, and another watch's delivery is
	// taken at the first claim after it is due.
	//
	// now, and so the claim's end, is the claimer's clock, and a claim
	// has ended when the next claimer's now passes its end: the store
	// compares the clocks of the claimers, which must agree to well
	// within the lease minus the time an attempt may take (NTP), or a
	// claimer takes a delivery another still sends.
	ClaimDeliveries(ctx context.Context, worker string, now time.Time, n int, lease time.Duration) ([]Claim, error)
	// RecordAttempt records the outcome of one attempt of a claimed
	// delivery, on the delivery and as the watch's last attempt: success,
	// a retry at a later time, or failure (which, with Disable set,
	// disables the watch too). A redelivery asked for while the delivery
	// was claimed is kept: the delivery is pending again, due when it
	// was asked for, whatever the outcome. With a.Worker set, an attempt
	// of a delivery that worker no longer holds (its lease ended and
	// another worker claimed it) is not recorded: [ErrClaimLost].
	RecordAttempt(ctx context.Context, deliveryID string, a Attempt) error
	// Deliveries lists the deliveries of the owner's watch, newest first.
	Deliveries(ctx context.Context, owner, watchID string, limit int) ([]Delivery, error)
	// Redeliver queues the owner's delivery again (a new attempt now,
	// same webhook-id), even if it succeeded or failed.
	Redeliver(ctx context.Context, owner, watchID, deliveryID string) (Delivery, error)

	// AcquireLease takes or renews the named lease for holder until
	// now+ttl and reports whether holder has it.
	AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error)
	// RenewLease extends the named lease to now+ttl while holder holds
	// it (its stored holder is holder, run out or not), and reports
	// whether it did. Unlike AcquireLease it never takes a lease that is
	// free (never taken, or released) or another holder's: a holder that
	// was replaced while it could not renew (another took the lease, then
	// released it or let it run out) learns it lost the lease, instead of
	// taking it back under a write of its old tenure still on its way.
	RenewLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error)
	// ReleaseLease gives the lease up if holder has it.
	ReleaseLease(ctx context.Context, name, holder string) error

	// Close releases the store's connections.
	Close() error
}

// FairSharePerWatch is how many deliveries of one watch in flight
// (claimed, lease not ended, attempt not recorded) a claim takes before
// it takes more of any watch: see [Store.ClaimDeliveries].
const FairSharePerWatch = 4

// WatchUpdate is a change to a watch; nil fields are left as they are.
type WatchUpdate struct {
	AddIDs    []string
	RemoveIDs []string
	Kinds     *[]Kind
	URL       *string
	// Enable re-enables a disabled watch (a new URL also does).
	Enable bool
}

// Batch is what one ingester pass found: changes, new snapshots and the
// cursors to store, applied in one transaction by [Store.Apply].
type Batch struct {
	Changes   []Change
	Snapshots []Snapshot
	// Baselines are stored only where the company has no snapshot (after
	// Snapshots, so a company in both keeps its entry of Snapshots): the
	// first snapshot of a company that a watch waits for, fetched while an
	// ingester may have stored a newer one, which it must not step back.
	Baselines []Snapshot
	Cursors   map[string]string
	// Purge lists companies the register removed from its open data
	// (Brønnøysund's Fjernet: copies must remove them too). Apply first
	// deletes every change stored of each, with its feed entries and its
	// deliveries (sent or pending), except those the batch records again
	// (the same source event) and the company's deletion (KindDeleted:
	// a later answer that purges the company again must not take the
	// deletion from its watchers); the changes it keeps lose the
	// company's name. Then it records the batch.
	Purge []CompanyRef
	// Lease, when set, fences the batch by a lease: Apply records it only
	// while Lease.Holder holds the lease Lease.Name, and otherwise writes
	// nothing and returns [ErrLeaseLost]. An ingester run by a leader
	// (changes/ingest's Leader) gets its leader's fence, so that a leader
	// that another replica has replaced (paused, or cut off from the
	// store) cannot finish a write over the new leader's. Nil: no check.
	Lease *LeaseFence
	// Expect makes the batch conditional on the stored snapshots of the
	// companies an ingester diffed: Apply writes it only while the stored
	// snapshot of each company named is the one the ingester read (or
	// the company still has none, when it read none), and otherwise
	// writes nothing and returns a *[SnapshotChangedError] naming those
	// companies. The ingester then stores the batch again without them,
	// and reads them again against the snapshot stored now (a watch's
	// new baseline, say), so that it never records a change diffed
	// against a snapshot another writer replaced. A company named twice
	// must match both. Empty: no check.
	Expect []ExpectedSnapshot
}

// ExpectedSnapshot is the stored snapshot of one company as an ingester
// read it before it diffed a fetch against it: see [Batch.Expect].
type ExpectedSnapshot struct {
	Country   string
	CompanyID string
	// Snapshot is what [Store.Snapshot] returned, or nil when it
	// answered [ErrNotFound].
	Snapshot *Snapshot
}

// Matches reports whether stored (nil: the company has no snapshot) is
// the snapshot e expects: none when e expects none; otherwise the same
// Report and Roles (byte for byte), TakenAt (the same instant, as the
// store keeps it, which is what Store.Snapshot returned), Misses and
// RolesMisses. A Store may compare in its own terms (a query); it must
// agree with Matches.
func (e ExpectedSnapshot) Matches(stored *Snapshot) bool {
	if e.Snapshot == nil || stored == nil {
		return e.Snapshot == nil && stored == nil
	}
	x := e.Snapshot
	return bytes.Equal(x.Report, stored.Report) && bytes.Equal(x.Roles, stored.Roles) &&
		x.TakenAt.Equal(stored.TakenAt) && x.Misses == stored.Misses && x.RolesMisses == stored.RolesMisses
}

// SnapshotChangedError is a batch refused by [Store.Apply] because the
// stored snapshot of some companies of its [Batch.Expect] is not the one
// expected: another writer (a watch's baseline, another ingester)
// replaced it since it was read. Nothing of the batch was written.
type SnapshotChangedError struct {
	// Companies are the companies whose snapshot is not the one
	// expected, each once, in the order of Batch.Expect.
	Companies []CompanyRef
}

func (e *SnapshotChangedError) Error() string {
	return fmt.Sprintf("changes: the stored snapshot of %d companies changed since it was read; nothing was written", len(e.Companies))
}

// CheckExpected returns nil when every company of expect has the snapshot
// it expects, stored giving the stored snapshot of a company (nil: none),
// and otherwise a *[SnapshotChangedError] naming each company that has
// not, once, in the order of expect: the check of [Batch.Expect] for a
// Store that reads its snapshots one by one.
func CheckExpected(expect []ExpectedSnapshot, stored func(country, companyID string) *Snapshot) error {
	var out []CompanyRef
	seen := map[CompanyRef]bool{}
	for _, e := range expect {
		ref := CompanyRef{Country: e.Country, CompanyID: e.CompanyID}
		if seen[ref] || e.Matches(stored(e.Country, e.CompanyID)) {
			continue
		}
		seen[ref] = true
		out = append(out, ref)
	}
	if len(out) == 0 {
		return nil
	}
	return &SnapshotChangedError{Companies: out}
}

// LeaseFence names the lease holder a [Batch] is written for: the name
// and holder given to [Store.AcquireLease]. The store compares holders
// only, never the lease's expiry: its times are the callers' clocks, and
// a lease that ran out but that no other holder took is still the
// holder's.
type LeaseFence struct {
	Name   string
	Holder string
}

// CompanyRef names one company of a country.
type CompanyRef struct {
	Country   string
	CompanyID string
}

// Claim is a delivery taken by a worker, with what sending it needs.
type Claim struct {
	Delivery Delivery
	Change   Change
	URL      string
	Secret   []byte
	// Previous are the keys the watch's rotations replaced, newest first,
	// each with its end, filled by a store that implements
	// [SecretRotator] (nil before any rotation, and for other stores).
	// The sender signs with each too while its attempt's time is before
	// the key's Until, judged when it sends.
	Previous []webhook.PreviousKey
}

// MaxPreviousSecrets is how many replaced keys a watch keeps beside its
// current one (see [SecretRotator]): a rotation while two replaced keys
// still sign drops the older of them.
const MaxPreviousSecrets = 2

// SecretRotator is the optional part of a [Store] that replaces a watch's
// signing secret, for [Service.RotateSecret]; a Store without it keeps
// every other operation, and a rotation answers not_implemented.
//
// A store that implements it keeps per watch the current key
// (CreateWatch's secret, then each rotation's) and up to
// [MaxPreviousSecrets] keys that rotations replaced, each with the time it
// stops signing. It fills [Claim.Previous] from them in ClaimDeliveries,
// in the same read as Claim.Secret.
type SecretRotator interface {
	// RotateSecret makes secret the current key of the owner's watch and
	// the key it replaces the newest previous one, signing beside it
	// until until. The previous keys whose Until is after now stay,
	// after it, newest first; those whose Until is not after now are
	// dropped, and so are the oldest beyond [MaxPreviousSecrets]. It is
	// one atomic step with respect to ClaimDeliveries and WatchKeys: a
	// reader sees the keys before or after it, never the new key without
	// the ones it kept. An unknown watch, or another owner's, is
	// ErrNotFound; a disabled watch rotates as any other.
	RotateSecret(ctx context.Context, owner, id string, secret []byte, now, until time.Time) error
	// WatchKeys returns the keys of the owner's watch as RotateSecret
	// left them (Previous nil before any rotation; a previous key is kept
	// once expired, unused, until a rotation drops it), or ErrNotFound:
	// a test event is signed with them.
	WatchKeys(ctx context.Context, owner, id string) (WatchKeys, error)
}

// WatchKeys are a watch's signing keys (see [SecretRotator]).
type WatchKeys struct {
	// Current signs every webhook.
	Current []byte
	// Previous are the keys rotations replaced, newest first, at most
	// [MaxPreviousSecrets]: each signs beside Current while the time of
	// sending is before its Until.
	Previous []webhook.PreviousKey
}

// Attempt is the outcome of one delivery attempt.
type Attempt struct {
	// Worker is the claimer that made the attempt (its ClaimDeliveries
	// worker name), or "" to record it whoever holds the delivery.
	Worker     string
	At         time.Time
	StatusCode int    // 0 when no HTTP answer came
	Error      string // why it failed; never a secret or a body
	// Succeeded, or else RetryAt for another attempt, or else failed for
	// good (Disable: the watch is disabled with Reason).
	Succeeded bool
	RetryAt   *time.Time
	Disable   bool
	Reason    string
}

// ErrNotFound is a watch, delivery or snapshot that does not exist (or is
// not the owner's).
var ErrNotFound = errors.New("changes: not found")

// ErrClaimLost is an attempt recorded by a worker that no longer holds
// the delivery: its lease ended and another worker claimed it, whose
// outcome counts.
var ErrClaimLost = errors.New("changes: the delivery is no longer claimed by this worker")

// ErrLeaseLost is a fenced [Batch] refused by [Store.Apply]: its lease is
// held by another holder, or by none (never taken, released, or taken
// and released by another, unless the holder has taken it again since).
// Nothing of the batch was written.
var ErrLeaseLost = errors.New("changes: the lease is no longer held by this holder")

// ErrInvalidCursor is a feed cursor that the store did not give out
// (garbled, truncated or made up), or one ahead of the feed's newest
// change (a cursor of another store, or of this one before a restore from
// a backup), which would hide the changes recorded until the feed passed
// it; a caller's error, not the store's.
var ErrInvalidCursor = errors.New("changes: the cursor is not one this service gave out")

// CursorExpiredError is a feed cursor older than the changes kept.
type CursorExpiredError struct {
	// Oldest is the oldest cursor still kept.
	Oldest string
}

func (e *CursorExpiredError) Error() string {
	return "changes: the cursor has expired; the oldest cursor kept is " + e.Oldest
}
