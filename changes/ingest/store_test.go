package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// memStore is a small in-memory changes.Store for the tests: the methods
// the ingesters and the leader use, with the contract's semantics
// (Apply's idempotency on a non-empty SourceEventID, deliveries for the
// watches of the kind, the lease by time). The tests reach it only
// through the interface, so that they pass against any Store.
type memStore struct {
	changes.Store // the methods the ingesters never call panic

	mu         sync.Mutex
	watches    []changes.Watch
	watchIDs   []map[string]struct{} // the ids of each watch, for lookups
	events     map[string]struct{}   // Country, CompanyID, Kind, SourceEventID of the recorded changes
	snapshots  map[string]changes.Snapshot
	log        []changes.Change
	deliveries []changes.Delivery
	cursors    map[string]string
	leaseBy    string
	leaseTill  time.Time
	seq        int64
	applies    int
	refused    int // fenced Applies refused (another holder, or none)
	// applied receives the batch of each Apply, when not nil (tests that
	// wait for one set it; a full channel is not waited on).
	applied chan changes.Batch
	// failApply, when set, fails every Apply.
	failApply error
}

func newMemStore() *memStore {
	return &memStore{snapshots: map[string]changes.Snapshot{}, cursors: map[string]string{}, events: map[string]struct{}{}}
}

func key(country, id string) string { return country + "/" + id }

func (s *memStore) CreateWatch(_ context.Context, w changes.Watch, _ []byte, baselines []changes.Snapshot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watches = append(s.watches, w)
	ids := map[string]struct{}{}
	for _, id := range w.IDs {
		ids[id] = struct{}{}
	}
	s.watchIDs = append(s.watchIDs, ids)
	for _, b := range baselines {
		if _, ok := s.snapshots[key(b.Country, b.CompanyID)]; !ok {
			s.snapshots[key(b.Country, b.CompanyID)] = b
		}
	}
	return nil
}

func (s *memStore) WatchedIDs(_ context.Context, country string) (map[string]struct{}, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]struct{}{}
	for i, w := range s.watches {
		if w.Country == country {
			for id := range s.watchIDs[i] {
				out[id] = struct{}{}
			}
		}
	}
	return out, nil
}

func (s *memStore) WatchedAmong(ctx context.Context, country string, ids []string) (map[string]struct{}, error) {
	all, _ := s.WatchedIDs(ctx, country)
	out := map[string]struct{}{}
	for _, id := range ids {
		if _, ok := all[id]; ok {
			out[id] = struct{}{}
		}
	}
	return out, nil
}

func (s *memStore) OldestSnapshot(_ context.Context, country string) (time.Time, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var at time.Time
	found := false
	for i, w := range s.watches {
		if w.Country != country {
			continue
		}
		for id := range s.watchIDs[i] {
			if snap, ok := s.snapshots[key(country, id)]; ok && !snap.TakenAt.IsZero() && (!found || snap.TakenAt.Before(at)) {
				at, found = snap.TakenAt, true
			}
		}
	}
	return at, found, nil
}

func (s *memStore) Snapshot(_ context.Context, country, id string) (changes.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap, ok := s.snapshots[key(country, id)]
	if !ok {
		return changes.Snapshot{}, changes.ErrNotFound
	}
	return snap, nil
}

func (s *memStore) Apply(_ context.Context, b changes.Batch) ([]changes.Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failApply != nil {
		return nil, s.failApply
	}
	if f := b.Lease; f != nil && (f.Name != LeaseName || s.leaseBy == "" || s.leaseBy != f.Holder) {
		s.refused++
		return nil, changes.ErrLeaseLost
	}
	if err := changes.CheckExpected(b.Expect, func(country, id string) *changes.Snapshot {
		if snap, ok := s.snapshots[key(country, id)]; ok {
			return &snap
		}
		return nil
	}); err != nil {
		return nil, err
	}
	s.applies++
	for _, p := range b.Purge {
		keep := map[string]bool{}
		for _, c := range b.Changes {
			if c.Country == p.Country && c.CompanyID == p.CompanyID && c.SourceEventID != "" {
				keep[c.SourceEventID] = true
			}
		}
		gone := map[string]bool{}
		s.log = slices.DeleteFunc(s.log, func(c changes.Change) bool {
			g := c.Country == p.Country && c.CompanyID == p.CompanyID && c.Kind != changes.KindDeleted &&
				(c.SourceEventID == "" || !keep[c.SourceEventID])
			gone[c.ID] = g
			return g
		})
		for i := range s.log {
			if c := &s.log[i]; c.Country == p.Country && c.CompanyID == p.CompanyID {
				c.CompanyName = nil
			}
		}
		s.deliveries = slices.DeleteFunc(s.deliveries, func(d changes.Delivery) bool { return gone[d.ChangeID] })
	}
	var out []changes.Change
	for _, c := range b.Changes {
		ev := c.Country + "\x00" + c.CompanyID + "\x00" + string(c.Kind) + "\x00" + c.SourceEventID
		if _, dup := s.events[ev]; dup && c.SourceEventID != "" {
			continue
		}
		s.events[ev] = struct{}{}
		s.seq++
		c.Seq = s.seq
		if c.ID == "" {
			c.ID = fmt.Sprintf("chg_%04d", s.seq)
		}
		s.log = append(s.log, c)
		out = append(out, c)
		for i, w := range s.watches {
			if _, in := s.watchIDs[i][c.CompanyID]; w.Disabled || w.Country != c.Country || !in ||
				(len(w.Kinds) > 0 && !slices.Contains(w.Kinds, c.Kind)) {
				continue
			}
			s.deliveries = append(s.deliveries, changes.Delivery{ID: fmt.Sprintf("dlv_%d", len(s.deliveries)+1),
				WatchID: w.ID, ChangeID: c.ID, Status: changes.DeliveryPending})
		}
	}
	for _, snap := range b.Snapshots {
		s.snapshots[key(snap.Country, snap.CompanyID)] = snap
	}
	for k, v := range b.Cursors {
		s.cursors[k] = v
	}
	if s.applied != nil {
		select {
		case s.applied <- b:
		default:
		}
	}
	return out, nil
}

func (s *memStore) Cursor(_ context.Context, name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cursors[name], nil
}

func (s *memStore) CompanyChanges(_ context.Context, country, id string, limit int) ([]changes.Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []changes.Change
	for i := len(s.log) - 1; i >= 0 && len(out) < limit; i-- {
		if c := s.log[i]; c.Country == country && c.CompanyID == id {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *memStore) AcquireLease(_ context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name != LeaseName {
		return false, errors.New("unexpected lease name " + name)
	}
	if s.leaseBy != "" && s.leaseBy != holder && now.Before(s.leaseTill) {
		return false, nil
	}
	s.leaseBy, s.leaseTill = holder, now.Add(ttl)
	return true, nil
}

func (s *memStore) RenewLease(_ context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name != LeaseName {
		return false, errors.New("unexpected lease name " + name)
	}
	if s.leaseBy != holder {
		return false, nil
	}
	s.leaseTill = now.Add(ttl)
	return true, nil
}

func (s *memStore) ReleaseLease(_ context.Context, _, holder string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leaseBy == holder {
		s.leaseBy = ""
	}
	return nil
}

func (s *memStore) Close() error { return nil }

// all returns every recorded change, oldest first.
func (s *memStore) all() []changes.Change {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

func (s *memStore) deliveryCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.deliveries)
}

func (s *memStore) applyCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.applies
}

// watch adds a watch of ids in country (all kinds) with the baselines.
func watch(t *testing.T, s changes.Store, country string, ids []string, baselines ...changes.Snapshot) {
	t.Helper()
	w := changes.Watch{ID: "wch_" + country + ids[0], Owner: "test", Country: country, IDs: ids, URL: "https://example.test/hook",
		CreatedAt: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)}
	if err := s.CreateWatch(t.Context(), w, []byte("secret"), baselines); err != nil {
		t.Fatal(err)
	}
}

// cursor returns the stored cursor name, or fails the test.
func cursor(t *testing.T, s changes.Store, name string) string {
	t.Helper()
	c, err := s.Cursor(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// companyChanges lists a company's changes oldest first.
func companyChanges(t *testing.T, s changes.Store, country, id string) []changes.Change {
	t.Helper()
	cs, err := s.CompanyChanges(t.Context(), country, id, 1000)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(cs, func(a, b changes.Change) int { return cmp.Compare(a.Seq, b.Seq) })
	return cs
}
