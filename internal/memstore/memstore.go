// Package memstore is an in-memory [changes.Store] for the tests of the
// service, the dispatcher and the doors: small, single-process, and
// faithful to the contract where those tests look (owners, kinds, the
// feed's cursor and its expiry, claims with a lease, attempts, redelivery).
// It is not a store to run with: it keeps everything in memory.
package memstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
)

// Store is the in-memory store. The zero value is not usable; call [New].
type Store struct {
	mu         sync.Mutex
	now        func() time.Time
	watches    map[string]*watch // by id
	order      []string          // watch ids, oldest first
	snapshots  map[[2]string]changes.Snapshot
	changes    []entry // by seq
	oldest     int64   // the oldest seq kept
	seq        int64
	deliveries map[string]*delivery
	dOrder     []string
	pending    map[string]bool // ids of pending deliveries
	queue      []string        // pending ids in the order they were queued; others are dropped lazily
	queued     map[string]bool // ids in queue
	byID       map[string]int  // change id: index in changes
	cursors    map[string]string
	leases     map[string]lease
	nextID     int
	claims     int
	attempts   int
}

// Counts returns how many deliveries were claimed and how many attempts
// recorded.
func (s *Store) Counts() (claims, attempts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.claims, s.attempts
}

type watch struct {
	changes.Watch
	secret []byte
	// previous are the keys rotations replaced, newest first, with their
	// ends (nil before any rotation).
	previous []webhook.PreviousKey
}

type entry struct {
	change changes.Change
	owners map[string]bool // the owners watching the company when it was recorded
}

type delivery struct {
	changes.Delivery
	owner      string
	leaseUntil time.Time
	worker     string
	redeliver  *time.Time // a redelivery asked for while claimed
}

type lease struct {
	holder string
	until  time.Time
}

var (
	_ changes.Store         = (*Store)(nil)
	_ changes.SecretRotator = (*Store)(nil)
)

// New returns an empty store whose clock (for redeliveries) is now.
func New(now func() time.Time) *Store {
	return &Store{now: now, watches: map[string]*watch{}, snapshots: map[[2]string]changes.Snapshot{},
		deliveries: map[string]*delivery{}, pending: map[string]bool{}, queued: map[string]bool{}, byID: map[string]int{}, cursors: map[string]string{}, leases: map[string]lease{}, oldest: 1}
}

func (s *Store) id(prefix string) string {
	s.nextID++
	return fmt.Sprintf("%s%06d", prefix, s.nextID)
}

// CreateWatch implements [changes.Store].
func (s *Store) CreateWatch(_ context.Context, w changes.Watch, secret []byte, baselines []changes.Snapshot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.watches[w.ID]; ok {
		return fmt.Errorf("memstore: watch %s exists", w.ID)
	}
	w.IDs = slices.Clone(w.IDs)
	w.Kinds = slices.Clone(w.Kinds)
	stale := s.stale(baselines)
	s.watches[w.ID] = &watch{Watch: w, secret: slices.Clone(secret)}
	s.order = append(s.order, w.ID)
	s.putBaselines(baselines, stale)
	return nil
}

// stale returns the companies of baselines that have a snapshot no watch
// holds (before the watch is stored or changed): their baselines replace it.
func (s *Store) stale(baselines []changes.Snapshot) map[[2]string]bool {
	out := map[[2]string]bool{}
	for _, b := range baselines {
		k := [2]string{b.Country, b.CompanyID}
		if _, ok := s.snapshots[k]; ok && !s.watched(b.Country, b.CompanyID) {
			out[k] = true
		}
	}
	return out
}

// putBaselines stores each baseline where its company has no snapshot or
// a stale one (the first of a company in the list wins).
func (s *Store) putBaselines(baselines []changes.Snapshot, stale map[[2]string]bool) {
	for _, b := range baselines {
		k := [2]string{b.Country, b.CompanyID}
		if _, ok := s.snapshots[k]; !ok || stale[k] {
			s.snapshots[k] = b
			delete(stale, k)
		}
	}
}

func (s *Store) owned(owner, id string) (*watch, error) {
	w, ok := s.watches[id]
	if !ok || w.Owner != owner {
		return nil, changes.ErrNotFound
	}
	return w, nil
}

func (w *watch) public() changes.Watch {
	out := w.Watch
	out.IDs = slices.Clone(w.IDs)
	out.Kinds = slices.Clone(w.Kinds)
	return out
}

// Watch implements [changes.Store].
func (s *Store) Watch(_ context.Context, owner, id string) (changes.Watch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.owned(owner, id)
	if err != nil {
		return changes.Watch{}, err
	}
	return w.public(), nil
}

// WatchSecret implements [changes.Store].
func (s *Store) WatchSecret(_ context.Context, owner, id string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.owned(owner, id)
	if err != nil {
		return nil, err
	}
	return slices.Clone(w.secret), nil
}

// RotateSecret implements [changes.SecretRotator].
func (s *Store) RotateSecret(_ context.Context, owner, id string, secret []byte, now, until time.Time) error {
	if len(secret) == 0 {
		return errors.New("memstore: rotate secret: an empty secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.owned(owner, id)
	if err != nil {
		return err
	}
	previous := []webhook.PreviousKey{{Key: w.secret, Until: until}}
	for _, p := range w.previous {
		if len(previous) < changes.MaxPreviousSecrets && p.Until.After(now) {
			previous = append(previous, p)
		}
	}
	w.previous, w.secret = previous, slices.Clone(secret)
	return nil
}

// clonePrevious copies previous keys for a caller.
func clonePrevious(previous []webhook.PreviousKey) []webhook.PreviousKey {
	if previous == nil {
		return nil
	}
	out := make([]webhook.PreviousKey, len(previous))
	for i, p := range previous {
		out[i] = webhook.PreviousKey{Key: slices.Clone(p.Key), Until: p.Until}
	}
	return out
}

// WatchKeys implements [changes.SecretRotator].
func (s *Store) WatchKeys(_ context.Context, owner, id string) (changes.WatchKeys, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.owned(owner, id)
	if err != nil {
		return changes.WatchKeys{}, err
	}
	return changes.WatchKeys{Current: slices.Clone(w.secret), Previous: clonePrevious(w.previous)}, nil
}

// Watches implements [changes.Store].
func (s *Store) Watches(_ context.Context, owner string) ([]changes.Watch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []changes.Watch
	for _, id := range s.order {
		if w := s.watches[id]; w.Owner == owner {
			out = append(out, w.public())
		}
	}
	return out, nil
}

// UpdateWatch implements [changes.Store].
func (s *Store) UpdateWatch(_ context.Context, owner, id string, u changes.WatchUpdate, baselines []changes.Snapshot) (changes.Watch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.owned(owner, id)
	if err != nil {
		return changes.Watch{}, err
	}
	stale := s.stale(baselines)
	for _, a := range u.AddIDs {
		if !slices.Contains(w.IDs, a) {
			w.IDs = append(w.IDs, a)
		}
	}
	w.IDs = slices.DeleteFunc(w.IDs, func(x string) bool { return slices.Contains(u.RemoveIDs, x) })
	if u.Kinds != nil {
		w.Kinds = slices.Clone(*u.Kinds)
	}
	if u.URL != nil {
		w.URL = *u.URL
	}
	if u.Enable || u.URL != nil {
		w.Disabled, w.DisabledReason, w.DisabledAt = false, nil, nil
	}
	s.putBaselines(baselines, stale)
	return w.public(), nil
}

// DeleteWatch implements [changes.Store].
func (s *Store) DeleteWatch(_ context.Context, owner, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.owned(owner, id); err != nil {
		return err
	}
	delete(s.watches, id)
	s.order = slices.DeleteFunc(s.order, func(x string) bool { return x == id })
	for did, d := range s.deliveries {
		if d.WatchID == id && d.Status == changes.DeliveryPending {
			delete(s.deliveries, did)
			delete(s.pending, did)
			s.dOrder = slices.DeleteFunc(s.dOrder, func(x string) bool { return x == did })
		}
	}
	return nil
}

// CountWatches implements [changes.Store].
func (s *Store) CountWatches(_ context.Context, owner string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, w := range s.watches {
		if w.Owner == owner {
			n++
		}
	}
	return n, nil
}

// WatchedIDs implements [changes.Store].
func (s *Store) WatchedIDs(_ context.Context, country string) (map[string]struct{}, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]struct{}{}
	for _, w := range s.watches {
		if w.Country == country {
			for _, id := range w.IDs {
				out[id] = struct{}{}
			}
		}
	}
	return out, nil
}

// WatchedAmong implements [changes.Store].
func (s *Store) WatchedAmong(_ context.Context, country string, ids []string) (map[string]struct{}, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	out := map[string]struct{}{}
	for _, w := range s.watches {
		if w.Country == country {
			for _, id := range w.IDs {
				if want[id] {
					out[id] = struct{}{}
				}
			}
		}
	}
	return out, nil
}

// OldestSnapshot implements [changes.Store].
func (s *Store) OldestSnapshot(_ context.Context, country string) (time.Time, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var at time.Time
	found := false
	for _, w := range s.watches {
		if w.Country != country {
			continue
		}
		for _, id := range w.IDs {
			snap, ok := s.snapshots[[2]string{country, id}]
			if ok && !snap.TakenAt.IsZero() && (!found || snap.TakenAt.Before(at)) {
				at, found = snap.TakenAt, true
			}
		}
	}
	return at, found, nil
}

// Snapshot implements [changes.Store].
func (s *Store) Snapshot(_ context.Context, country, companyID string) (changes.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap, ok := s.snapshots[[2]string{country, companyID}]
	if !ok {
		return changes.Snapshot{}, changes.ErrNotFound
	}
	return snap, nil
}

// Apply implements [changes.Store]. A fenced batch (b.Lease) is
// refused with [changes.ErrLeaseLost] unless its holder holds the lease
// (expiry not compared, as the contract says); one whose b.Expect names a
// company whose snapshot is not the one expected, with a
// *[changes.SnapshotChangedError].
func (s *Store) Apply(_ context.Context, b changes.Batch) ([]changes.Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := b.Lease; f != nil {
		if l, ok := s.leases[f.Name]; !ok || l.holder != f.Holder {
			return nil, changes.ErrLeaseLost
		}
	}
	if err := changes.CheckExpected(b.Expect, func(country, id string) *changes.Snapshot {
		if snap, ok := s.snapshots[[2]string{country, id}]; ok {
			return &snap
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for _, p := range b.Purge {
		s.purge(p, b.Changes)
	}
	var out []changes.Change
	for _, c := range b.Changes {
		if c.SourceEventID != "" && s.recorded(c) {
			continue
		}
		s.seq++
		c.Seq = s.seq
		if c.ID == "" {
			c.ID = s.id(changes.PrefixChange)
		}
		e := entry{change: c, owners: map[string]bool{}}
		for _, id := range s.order {
			w := s.watches[id]
			if w.Country != c.Country || !slices.Contains(w.IDs, c.CompanyID) {
				continue
			}
			if len(w.Kinds) > 0 && !slices.Contains(w.Kinds, c.Kind) {
				continue
			}
			e.owners[w.Owner] = true
			if w.Disabled {
				continue
			}
			at := c.DetectedAt
			d := &delivery{Delivery: changes.Delivery{ID: s.id(changes.PrefixDelivery), WatchID: w.ID, ChangeID: c.ID,
				Status: changes.DeliveryPending, NextAttemptAt: &at, CreatedAt: c.DetectedAt}, owner: w.Owner}
			s.deliveries[d.ID] = d
			s.dOrder = append(s.dOrder, d.ID)
			s.queue1(d.ID)
		}
		s.byID[c.ID] = len(s.changes)
		s.changes = append(s.changes, e)
		out = append(out, c)
	}
	for _, snap := range b.Snapshots {
		s.snapshots[[2]string{snap.Country, snap.CompanyID}] = snap
	}
	s.putBaselines(b.Baselines, nil)
	for k, v := range b.Cursors {
		s.cursors[k] = v
	}
	return out, nil
}

func (s *Store) recorded(c changes.Change) bool {
	for _, e := range s.changes {
		o := e.change
		if o.Country == c.Country && o.CompanyID == c.CompanyID && o.Kind == c.Kind && o.SourceEventID == c.SourceEventID {
			return true
		}
	}
	return false
}

// Cursor implements [changes.Store].
func (s *Store) Cursor(_ context.Context, name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cursors[name], nil
}

// Changes implements [changes.Store]. A cursor is the decimal seq of the
// last change read.
func (s *Store) Changes(_ context.Context, owner, cursor string, limit int) ([]changes.Change, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	after := s.oldest - 1
	if cursor != "" {
		n, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || n < 0 || n > s.seq {
			return nil, "", changes.ErrInvalidCursor
		}
		if n < s.oldest-1 {
			return nil, "", &changes.CursorExpiredError{Oldest: strconv.FormatInt(s.oldest-1, 10)}
		}
		after = n
	}
	var out []changes.Change
	next := after
	for _, e := range s.changes {
		if e.change.Seq <= after || !e.owners[owner] {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, e.change)
		next = e.change.Seq
	}
	return out, strconv.FormatInt(next, 10), nil
}

// CompanyChanges implements [changes.Store].
func (s *Store) CompanyChanges(_ context.Context, country, companyID string, limit int) ([]changes.Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []changes.Change
	for i := len(s.changes) - 1; i >= 0 && len(out) < limit; i-- {
		if c := s.changes[i].change; c.Country == country && c.CompanyID == companyID {
			out = append(out, c)
		}
	}
	return out, nil
}

// purge deletes the changes of p, and their deliveries, but those of
// the source events in batch and p's deletion itself (kind deleted);
// those it keeps lose the company's name.
func (s *Store) purge(p changes.CompanyRef, batch []changes.Change) {
	keep := map[string]bool{}
	for _, c := range batch {
		if c.Country == p.Country && c.CompanyID == p.CompanyID && c.SourceEventID != "" {
			keep[c.SourceEventID] = true
		}
	}
	gone := map[string]bool{}
	kept := s.changes[:0]
	for _, e := range s.changes {
		c := e.change
		if c.Country == p.Country && c.CompanyID == p.CompanyID && c.Kind != changes.KindDeleted &&
			(c.SourceEventID == "" || !keep[c.SourceEventID]) {
			gone[c.ID] = true
			continue
		}
		if c.Country == p.Country && c.CompanyID == p.CompanyID {
			e.change.CompanyName = nil
		}
		kept = append(kept, e)
	}
	s.changes = kept
	if len(gone) == 0 {
		return
	}
	clear(s.byID)
	for i, e := range s.changes {
		s.byID[e.change.ID] = i
	}
	for did, d := range s.deliveries {
		if gone[d.ChangeID] {
			delete(s.deliveries, did)
			delete(s.pending, did)
		}
	}
	s.dOrder = slices.DeleteFunc(s.dOrder, func(x string) bool { _, ok := s.deliveries[x]; return !ok })
}

// Prune implements [changes.Store].
func (s *Store) Prune(_ context.Context, before time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.changes[:0]
	for _, e := range s.changes {
		if e.change.DetectedAt.Before(before) {
			s.oldest = e.change.Seq + 1
			continue
		}
		kept = append(kept, e)
	}
	s.changes = kept
	clear(s.byID)
	for i, e := range s.changes {
		s.byID[e.change.ID] = i
	}
	for k, snap := range s.snapshots {
		if snap.TakenAt.Before(before) && !s.watched(k[0], k[1]) {
			delete(s.snapshots, k)
		}
	}
	return nil
}

// watched reports whether a watch holds the company.
func (s *Store) watched(country, id string) bool {
	for _, w := range s.watches {
		if w.Country == country && slices.Contains(w.IDs, id) {
			return true
		}
	}
	return false
}

func (s *Store) change(id string) changes.Change {
	if i, ok := s.byID[id]; ok {
		return s.changes[i].change
	}
	return changes.Change{}
}

// ClaimDeliveries implements [changes.Store]: pending deliveries due at
// now, of enabled watches, not leased by another worker, in the order they
// were queued.
func (s *Store) ClaimDeliveries(_ context.Context, worker string, now time.Time, n int, leaseFor time.Duration) ([]changes.Claim, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due, rest []*delivery
	inFlight := map[string]int{}
	for id := range s.pending {
		if d := s.deliveries[id]; d.leaseUntil.After(now) {
			inFlight[d.WatchID]++
		}
	}
	kept := s.queue[:0]
	for _, id := range s.queue {
		if !s.pending[id] {
			delete(s.queued, id) // delivered, failed or deleted since it was queued
			continue
		}
		kept = append(kept, id)
		d := s.deliveries[id]
		w, ok := s.watches[d.WatchID]
		if !ok || w.Disabled || d.NextAttemptAt == nil || d.NextAttemptAt.After(now) || d.leaseUntil.After(now) {
			continue
		}
		// First each watch's fair share, then the rest (below).
		if len(due) < n && inFlight[d.WatchID] < changes.FairSharePerWatch {
			inFlight[d.WatchID]++
			due = append(due, d)
		} else {
			rest = append(rest, d)
		}
	}
	due = append(due, rest[:min(len(rest), n-len(due))]...)
	taken := map[*delivery]bool{}
	for _, d := range due {
		taken[d] = true
	}
	due = due[:0]
	for _, id := range kept { // in the queue's order
		if d := s.deliveries[id]; taken[d] {
			due = append(due, d)
		}
	}
	s.queue = kept
	var out []changes.Claim
	for _, d := range due {
		if len(out) == n {
			break
		}
		// This attempt is the redelivery asked for during a claim that
		// ran out unrecorded: it must not leave the delivery pending again.
		d.leaseUntil, d.worker, d.redeliver = now.Add(leaseFor), worker, nil
		w := s.watches[d.WatchID]
		out = append(out, changes.Claim{Delivery: d.Delivery, Change: s.change(d.ChangeID), URL: w.URL, Secret: slices.Clone(w.secret),
			Previous: clonePrevious(w.previous)})
		s.claims++
	}
	return out, nil
}

// queue1 marks a delivery pending and queues it once.
func (s *Store) queue1(id string) {
	s.pending[id] = true
	if !s.queued[id] {
		s.queued[id] = true
		s.queue = append(s.queue, id)
	}
}

// RecordAttempt implements [changes.Store].
func (s *Store) RecordAttempt(_ context.Context, deliveryID string, a changes.Attempt) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deliveries[deliveryID]
	if !ok {
		return changes.ErrNotFound
	}
	if a.Worker != "" && d.worker != a.Worker {
		return changes.ErrClaimLost
	}
	s.attempts++
	d.Attempts++
	at := a.At
	d.LastAttemptAt = &at
	d.LastStatusCode = nil
	if a.StatusCode != 0 {
		code := a.StatusCode
		d.LastStatusCode = &code
	}
	d.LastError = nil
	if a.Error != "" {
		msg := a.Error
		d.LastError = &msg
	}
	if w, ok := s.watches[d.WatchID]; ok && (w.LastAttemptAt == nil || !at.Before(*w.LastAttemptAt)) {
		w.LastAttemptAt, w.LastStatusCode, w.LastError = &at, d.LastStatusCode, d.LastError
	}
	d.leaseUntil, d.worker = time.Time{}, ""
	delete(s.pending, deliveryID)
	switch {
	case a.Succeeded:
		d.Status, d.NextAttemptAt = changes.DeliverySucceeded, nil
	case a.RetryAt != nil:
		next := *a.RetryAt
		d.Status, d.NextAttemptAt = changes.DeliveryPending, &next
		s.queue1(deliveryID)
	default:
		d.Status, d.NextAttemptAt = changes.DeliveryFailed, nil
		if w, ok := s.watches[d.WatchID]; ok && a.Disable {
			reason := a.Reason
			w.Disabled, w.DisabledReason, w.DisabledAt = true, &reason, &at
		}
	}
	if r := d.redeliver; r != nil {
		d.Status, d.NextAttemptAt, d.redeliver = changes.DeliveryPending, r, nil
		s.queue1(deliveryID)
	}
	return nil
}

// Deliveries implements [changes.Store].
func (s *Store) Deliveries(_ context.Context, owner, watchID string, limit int) ([]changes.Delivery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.owned(owner, watchID); err != nil {
		return nil, err
	}
	var out []changes.Delivery
	for i := len(s.dOrder) - 1; i >= 0 && len(out) < limit; i-- {
		if d := s.deliveries[s.dOrder[i]]; d.WatchID == watchID {
			out = append(out, d.Delivery)
		}
	}
	return out, nil
}

// Delivery returns one delivery by id, for tests.
func (s *Store) Delivery(id string) (changes.Delivery, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deliveries[id]
	if !ok {
		return changes.Delivery{}, false
	}
	return d.Delivery, true
}

// Redeliver implements [changes.Store].
func (s *Store) Redeliver(_ context.Context, owner, watchID, deliveryID string) (changes.Delivery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deliveries[deliveryID]
	if !ok || d.WatchID != watchID || d.owner != owner {
		return changes.Delivery{}, changes.ErrNotFound
	}
	now := s.now()
	d.Status, d.NextAttemptAt = changes.DeliveryPending, &now
	if d.worker != "" {
		// Claimed, its lease running or run out unrecorded: kept for when
		// the attempt is recorded (a late record must not overwrite it);
		// the next claim takes it.
		d.redeliver = &now
	}
	s.queue1(deliveryID)
	return d.Delivery, nil
}

// AcquireLease implements [changes.Store].
func (s *Store) AcquireLease(_ context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.leases[name]
	if l.holder != "" && l.holder != holder && l.until.After(now) {
		return false, nil
	}
	s.leases[name] = lease{holder, now.Add(ttl)}
	return true, nil
}

// RenewLease implements [changes.Store].
func (s *Store) RenewLease(_ context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if ttl <= 0 {
		return false, errors.New("memstore: renew lease: the ttl is not positive")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.leases[name]
	if !ok || l.holder != holder {
		return false, nil
	}
	s.leases[name] = lease{holder, now.Add(ttl)}
	return true, nil
}

// ReleaseLease implements [changes.Store].
func (s *Store) ReleaseLease(_ context.Context, name, holder string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leases[name].holder == holder {
		delete(s.leases, name)
	}
	return nil
}

// Close implements [changes.Store].
func (s *Store) Close() error { return nil }
