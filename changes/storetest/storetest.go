// Package storetest is the conformance suite of [changes.Store]: every
// implementation runs it, so that a service behaves the same on each.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) changes.Store {
//			s, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "changes.db"))
//			if err != nil {
//				t.Fatal(err)
//			}
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
//
// open returns a new, empty store for each subtest and closes it when the
// subtest ends. The store's own clock must read the real time (deliveries
// are due when queued, and the suite claims them at the real time plus an
// hour or later) with a retention of at most a few years (the suite's
// changes are detected in 2020 and pruned by that date). Subtests run in
// parallel.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// T0 is the suite's epoch: every time it passes is T0 or later.
var t0 = time.Date(2020, 3, 2, 10, 0, 0, 0, time.UTC)

// opts compare what the contract leaves open: nil and empty slices alike.
var opts = cmp.Options{cmpopts.EquateEmpty()}

// Run runs the suite.
func Run(t *testing.T, open func(t *testing.T) changes.Store) {
	RunSome(t, open)
}

// check is one named check of the contract.
type check struct {
	name string
	fn   func(t *testing.T, s changes.Store)
}

// RunSome runs the checks of [Run] whose names are given (all when none
// is), each on a new store from open: for a store that keeps only part of
// the contract, such as a test fake. A name that is no check's is an
// error of the test.
func RunSome(t *testing.T, open func(t *testing.T) changes.Store, names ...string) {
	tests := []check{
		{"CreateAndReadWatch", testCreateAndReadWatch},
		{"WatchesOwnerIsolation", testWatchesOwnerIsolation},
		{"CreateWatchBaselines", testCreateWatchBaselines},
		{"BaselinesReplaceStale", testBaselinesReplaceStale},
		{"UpdateWatch", testUpdateWatch},
		{"DeleteWatch", testDeleteWatch},
		{"WatchedIDs", testWatchedIDs},
		{"WatchedAmong", testWatchedAmong},
		{"OldestSnapshot", testOldestSnapshot},
		{"ApplyRecords", testApplyRecords},
		{"ApplyIdempotent", testApplyIdempotent},
		{"ApplyFanOut", testApplyFanOut},
		{"ApplyIsOneTransaction", testApplyIsOneTransaction},
		{"ApplyPurge", testApplyPurge},
		{"ApplyPurgeKeepsNoName", testApplyPurgeKeepsNoName},
		{"SnapshotsAndCursors", testSnapshotsAndCursors},
		{"ApplyBaselines", testApplyBaselines},
		{"ApplyExpectMismatch", testApplyExpectMismatch},
		{"ApplyExpectMatch", testApplyExpectMatch},
		{"ApplyExpectMissing", testApplyExpectMissing},
		{"ApplyExpectAbsent", testApplyExpectAbsent},
		{"ApplyExpectRolesAndMisses", testApplyExpectRolesAndMisses},
		{"ApplyRefusedWritesNoPurgeNorBaseline", testApplyRefusedWritesNoPurgeNorBaseline},
		{"FeedPaging", testFeedPaging},
		{"FeedOnlyWhileWatched", testFeedOnlyWhileWatched},
		{"FeedOnlyKindsWanted", testFeedOnlyKindsWanted},
		{"FeedInvalidCursor", testFeedInvalidCursor},
		{"PruneAndExpiredCursor", testPruneAndExpiredCursor},
		{"PruneKeepsPendingDeliveries", testPruneKeepsPendingDeliveries},
		{"PruneUnwatchedSnapshots", testPruneUnwatchedSnapshots},
		{"CompanyChanges", testCompanyChanges},
		{"Claim", testClaim},
		{"ClaimLeaseExpires", testClaimLeaseExpires},
		{"ClaimFairShare", testClaimFairShare},
		{"RecordAttempt", testRecordAttempt},
		{"RecordAttemptDisables", testRecordAttemptDisables},
		{"DeliveriesAndRedeliver", testDeliveriesAndRedeliver},
		{"RedeliverWhileClaimed", testRedeliverWhileClaimed},
		{"RedeliverAfterLeaseEnded", testRedeliverAfterLeaseEnded},
		{"RecordAttemptClaimLost", testRecordAttemptClaimLost},
		{"Lease", testLease},
		{"RenewLease", testRenewLease},
		{"ConcurrentClaims", testConcurrentClaims},
		{"ConcurrentLease", testConcurrentLease},
		{"ConcurrentApply", testConcurrentApply},
		{"ApplyFenceHeld", testApplyFenceHeld},
		{"ApplyFenceNeverTaken", testApplyFenceNeverTaken},
		{"ApplyFenceTakenOver", testApplyFenceTakenOver},
		{"ApplyNoFence", testApplyNoFence},
		{"ConcurrentApplyFence", testConcurrentApplyFence},
		{"BadInput", testBadInput},
		{"IDsNotTextNotFound", testIDsNotTextNotFound},
		{"RotateSecret", testRotateSecret},
		{"RotateSecretWithinOverlap", testRotateSecretWithinOverlap},
		{"RotateSecretDropsExpired", testRotateSecretDropsExpired},
		{"RotateSecretNotFound", testRotateSecretNotFound},
		{"ConcurrentRotateAndClaim", testConcurrentRotateAndClaim},
	}
	for _, name := range names {
		if !slices.ContainsFunc(tests, func(tc check) bool { return tc.name == name }) {
			// A renamed check would otherwise be skipped in silence.
			t.Errorf("storetest: no check named %q", name)
		}
	}
	for _, tc := range tests {
		if len(names) > 0 && !slices.Contains(names, tc.name) {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

// --- helpers ---

func ctx() context.Context { return context.Background() }

func ptr[T any](v T) *T { return &v }

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func watch(owner, id, country string, kinds []changes.Kind, ids ...string) changes.Watch {
	return changes.Watch{
		ID: id, Owner: owner, Country: country, IDs: ids, Kinds: kinds,
		URL: "https://hooks.example.com/" + id, CreatedAt: t0,
	}
}

func create(t *testing.T, s changes.Store, w changes.Watch) {
	t.Helper()
	if err := s.CreateWatch(ctx(), w, []byte("secret-"+w.ID), nil); err != nil {
		t.Fatalf("CreateWatch(%s): %v", w.ID, err)
	}
}

func change(country, id string, kind changes.Kind, event string, at time.Time) changes.Change {
	return changes.Change{
		Country: country, CompanyID: id, CompanyName: ptr("Company " + id), Kind: kind,
		Old: raw(`"active"`), New: raw(`"bankrupt"`), RegisteredAt: ptr(at.Add(-time.Hour)),
		DetectedAt: at, SourceURL: ptr("https://register.example/" + id), SourceEventID: event,
	}
}

func apply(t *testing.T, s changes.Store, cs ...changes.Change) []changes.Change {
	t.Helper()
	got, err := s.Apply(ctx(), changes.Batch{Changes: cs})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return got
}

func feed(t *testing.T, s changes.Store, owner, cursor string, limit int) ([]changes.Change, string) {
	t.Helper()
	got, next, err := s.Changes(ctx(), owner, cursor, limit)
	if err != nil {
		t.Fatalf("Changes(%s, %q, %d): %v", owner, cursor, limit, err)
	}
	return got, next
}

func ids(cs []changes.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.CompanyID + "/" + string(c.Kind)
	}
	return out
}

func claim(t *testing.T, s changes.Store, worker string, now time.Time, n int) []changes.Claim {
	t.Helper()
	got, err := s.ClaimDeliveries(ctx(), worker, now, n, time.Minute)
	if err != nil {
		t.Fatalf("ClaimDeliveries: %v", err)
	}
	return got
}

func claimedIDs(cs []changes.Claim) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Delivery.WatchID + ":" + c.Change.CompanyID
	}
	return out
}

func diff(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got, opts); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

// --- watches ---

func testCreateAndReadWatch(t *testing.T, s changes.Store) {
	w := watch("alice", "wch_1", "NO", []changes.Kind{changes.KindStatusChanged, changes.KindNameChanged},
		"923609016", "914375916", "923609016")
	create(t, s, w)
	got, err := s.Watch(ctx(), "alice", "wch_1")
	if err != nil {
		t.Fatal(err)
	}
	want := w
	want.IDs = []string{"923609016", "914375916"} // a repeated id is kept once, in first order
	diff(t, "Watch", want, got)
	if n, err := s.CountWatches(ctx(), "alice"); err != nil || n != 1 {
		t.Errorf("CountWatches = %d, %v; want 1", n, err)
	}
	if err := s.CreateWatch(ctx(), w, []byte("x"), nil); err == nil {
		t.Errorf("CreateWatch with an existing id: no error")
	}
	if secret, err := s.WatchSecret(ctx(), "alice", "wch_1"); err != nil || string(secret) != "secret-wch_1" {
		t.Errorf("WatchSecret = %q, %v; want the secret given to CreateWatch", secret, err)
	}
	if _, err := s.WatchSecret(ctx(), "bob", "wch_1"); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("bob reading alice's secret: %v, want ErrNotFound", err)
	}
	if _, err := s.WatchSecret(ctx(), "alice", "wch_none"); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("WatchSecret of an unknown watch: %v, want ErrNotFound", err)
	}
	// Every kind: an empty list reads back empty.
	all := watch("alice", "wch_2", "NO", nil, "923609016")
	create(t, s, all)
	got, err = s.Watch(ctx(), "alice", "wch_2")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "Watch with every kind", all, got)
}

func testWatchesOwnerIsolation(t *testing.T, s changes.Store) {
	a2 := watch("alice", "wch_a2", "GB", nil, "00445790")
	a2.CreatedAt = t0.Add(time.Hour)
	a1 := watch("alice", "wch_a1", "NO", nil, "923609016")
	b1 := watch("bob", "wch_b1", "NO", nil, "923609016")
	for _, w := range []changes.Watch{a2, a1, b1} {
		create(t, s, w)
	}
	got, err := s.Watches(ctx(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "Watches(alice), oldest first", []changes.Watch{a1, a2}, got)
	if _, err := s.Watch(ctx(), "bob", "wch_a1"); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("bob reading alice's watch: %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateWatch(ctx(), "bob", "wch_a1", changes.WatchUpdate{URL: ptr("https://evil.example/")}, nil); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("bob updating alice's watch: %v, want ErrNotFound", err)
	}
	if err := s.DeleteWatch(ctx(), "bob", "wch_a1"); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("bob deleting alice's watch: %v, want ErrNotFound", err)
	}
	if n, _ := s.CountWatches(ctx(), "carol"); n != 0 {
		t.Errorf("CountWatches(carol) = %d", n)
	}
	if got, err := s.Watches(ctx(), "carol"); err != nil || len(got) != 0 {
		t.Errorf("Watches(carol) = %v, %v", got, err)
	}
}

func testCreateWatchBaselines(t *testing.T, s changes.Store) {
	first := changes.Snapshot{Country: "NO", CompanyID: "923609016", Report: raw(`{"name":"EQUINOR ASA"}`),
		Roles: raw(`{"board":[]}`), TakenAt: t0}
	w := watch("alice", "wch_1", "NO", nil, "923609016")
	if err := s.CreateWatch(ctx(), w, []byte("s"), []changes.Snapshot{first}); err != nil {
		t.Fatal(err)
	}
	later := first
	later.Report, later.TakenAt = raw(`{"name":"OTHER"}`), t0.Add(time.Hour)
	second := changes.Snapshot{Country: "NO", CompanyID: "914375916", Report: raw(`{"name":"TOLLBUGATA 17 OSLO AS"}`), TakenAt: t0}
	w2 := watch("bob", "wch_2", "NO", nil, "923609016", "914375916")
	if err := s.CreateWatch(ctx(), w2, []byte("s"), []changes.Snapshot{later, second}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Snapshot(ctx(), "NO", "923609016")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "a baseline does not replace the snapshot a company has", first, got)
	got, err = s.Snapshot(ctx(), "NO", "914375916")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "a new company's baseline", second, got)
	if _, err := s.Snapshot(ctx(), "NO", "999999999"); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("Snapshot of an unknown company: %v, want ErrNotFound", err)
	}
}

// named is a snapshot whose report names what it is.
func named(id, name string, at time.Time) changes.Snapshot {
	return changes.Snapshot{Country: "NO", CompanyID: id, Report: raw(`{"name":"` + name + `"}`), TakenAt: at}
}

// reports reads the stored report of each company ("" for none).
func reports(t *testing.T, s changes.Store, ids ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, id := range ids {
		got, err := s.Snapshot(ctx(), "NO", id)
		switch {
		case errors.Is(err, changes.ErrNotFound):
			out[id] = ""
		case err != nil:
			t.Fatalf("Snapshot(%s): %v", id, err)
		default:
			out[id] = string(got.Report)
		}
	}
	return out
}

// CreateWatch and UpdateWatch store a baseline where the company has no
// snapshot or has one that no watch held before the call (stale: nothing
// keeps it up to date, and the baseline replaces it); a company a watch
// held keeps its snapshot, which an ingester keeps up to date.
func testBaselinesReplaceStale(t *testing.T, s changes.Store) {
	old := t0.Add(-24 * time.Hour)
	create(t, s, watch("carol", "wch_c", "NO", nil, "2", "5"))
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{
		named("1", "stale 1", old), named("2", "kept 2", old), named("4", "stale 4", old), named("5", "kept 5", old),
	}}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWatch(ctx(), watch("alice", "wch_a", "NO", nil, "1", "2", "3"), []byte("s"), []changes.Snapshot{
		named("1", "fresh 1", t0), named("2", "fresh 2", t0), named("3", "fresh 3", t0),
	}); err != nil {
		t.Fatal(err)
	}
	diff(t, "snapshots after CreateWatch", map[string]string{
		"1": `{"name":"fresh 1"}`, "2": `{"name":"kept 2"}`, "3": `{"name":"fresh 3"}`,
	}, reports(t, s, "1", "2", "3"))
	// 1 is alice's now: a baseline of it in an update keeps alice's.
	if _, err := s.UpdateWatch(ctx(), "alice", "wch_a", changes.WatchUpdate{AddIDs: []string{"4", "5", "6", "1"}}, []changes.Snapshot{
		named("4", "fresh 4", t0), named("5", "fresh 5", t0), named("6", "fresh 6", t0), named("1", "again 1", t0),
	}); err != nil {
		t.Fatal(err)
	}
	diff(t, "snapshots after UpdateWatch", map[string]string{
		"1": `{"name":"fresh 1"}`, "4": `{"name":"fresh 4"}`, "5": `{"name":"kept 5"}`, "6": `{"name":"fresh 6"}`,
	}, reports(t, s, "1", "4", "5", "6"))
}

// Apply stores a batch's Baselines only where the company has no
// snapshot, after its Snapshots (a company in both keeps the snapshot).
func testApplyBaselines(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2", "3"))
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{named("3", "ingester 3", t0)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx(), changes.Batch{
		Snapshots: []changes.Snapshot{named("1", "ingester 1", t0.Add(time.Hour))},
		Baselines: []changes.Snapshot{named("1", "baseline 1", t0), named("2", "baseline 2", t0), named("3", "baseline 3", t0)},
	}); err != nil {
		t.Fatal(err)
	}
	diff(t, "snapshots", map[string]string{
		"1": `{"name":"ingester 1"}`, "2": `{"name":"baseline 2"}`, "3": `{"name":"ingester 3"}`,
	}, reports(t, s, "1", "2", "3"))
}

// read returns the stored snapshot of a company of NO as an ingester
// reads it before a diff: the expectation of [changes.Batch.Expect].
func read(t *testing.T, s changes.Store, id string) changes.ExpectedSnapshot {
	t.Helper()
	got, err := s.Snapshot(ctx(), "NO", id)
	if err != nil {
		t.Fatalf("Snapshot(%s): %v", id, err)
	}
	return changes.ExpectedSnapshot{Country: "NO", CompanyID: id, Snapshot: &got}
}

// expectBatch is an ingester's batch of a rename of each of ids, diffed
// against expect, with a cursor.
func expectBatch(expect []changes.ExpectedSnapshot, ids ...string) changes.Batch {
	b := changes.Batch{Expect: expect, Cursors: map[string]string{"no/poll": "after"}}
	for _, id := range ids {
		b.Changes = append(b.Changes, change("NO", id, changes.KindNameChanged, "", t0.Add(2*time.Hour)))
		b.Snapshots = append(b.Snapshots, named(id, "renamed "+id, t0.Add(2*time.Hour)))
	}
	return b
}

// applied is what a store holds of the batches of the Expect checks:
// alice's feed, the reports of companies 1 to 3 and the cursor.
func applied(t *testing.T, s changes.Store) map[string]any {
	t.Helper()
	got, _ := feed(t, s, "alice", "", 100)
	cur, err := s.Cursor(ctx(), "no/poll")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"feed": ids(got), "reports": reports(t, s, "1", "2", "3"), "cursor": cur}
}

// wantChanged checks that err is a *changes.SnapshotChangedError naming
// the companies ids of NO, in order.
func wantChanged(t *testing.T, err error, ids ...string) {
	t.Helper()
	var sc *changes.SnapshotChangedError
	if !errors.As(err, &sc) {
		t.Fatalf("Apply: %v, want a *changes.SnapshotChangedError (the batch's Expect was not checked)", err)
	}
	var want []changes.CompanyRef
	for _, id := range ids {
		want = append(want, changes.CompanyRef{Country: "NO", CompanyID: id})
	}
	diff(t, "the companies whose snapshot changed", want, sc.Companies)
}

// Apply with Expect writes nothing when the stored snapshot of a company
// named there is not the one the ingester read (another writer replaced
// it: a later time, or another report), and names those companies only;
// the same batch without them is written.
func testApplyExpectMismatch(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2", "3"))
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{named("1", "one", t0), named("2", "two", t0), named("3", "three", t0)}}); err != nil {
		t.Fatal(err)
	}
	expect := []changes.ExpectedSnapshot{read(t, s, "1"), read(t, s, "2"), read(t, s, "3")}
	// Other writers replace the snapshots of 2 (the same report, taken
	// later) and 3 (another report, the same time) after the ingester
	// read them.
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{named("2", "two", t0.Add(time.Hour)), named("3", "three b", t0)}}); err != nil {
		t.Fatal(err)
	}
	before := applied(t, s)
	_, err := s.Apply(ctx(), expectBatch(expect, "1", "2", "3"))
	wantChanged(t, err, "2", "3")
	diff(t, "the store after the refused batch (nothing written)", before, applied(t, s))

	if _, err := s.Apply(ctx(), expectBatch(expect[:1], "1")); err != nil {
		t.Fatal(err)
	}
	diff(t, "the store after the batch without 2 and 3", map[string]any{
		"feed":    []string{"1/name_changed"},
		"reports": map[string]string{"1": `{"name":"renamed 1"}`, "2": `{"name":"two"}`, "3": `{"name":"three b"}`},
		"cursor":  "after",
	}, applied(t, s))
}

// Apply with Expect writes the batch when each stored snapshot is the one
// read, whatever precision the store keeps of its time.
func testApplyExpectMatch(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	odd := named("1", "one", t0.Add(1234567*time.Nanosecond))
	odd.Roles, odd.Misses, odd.RolesMisses = raw(`{"officers":[]}`), 1, 1
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{odd, named("2", "two", t0)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx(), expectBatch([]changes.ExpectedSnapshot{read(t, s, "1"), read(t, s, "2")}, "1", "2")); err != nil {
		t.Fatal(err)
	}
	diff(t, "the store after the batch", map[string]any{
		"feed":    []string{"1/name_changed", "2/name_changed"},
		"reports": map[string]string{"1": `{"name":"renamed 1"}`, "2": `{"name":"renamed 2"}`, "3": ""},
		"cursor":  "after",
	}, applied(t, s))
}

// Apply with Expect naming a snapshot where the company has none (Prune
// removed it, say) writes nothing.
func testApplyExpectMissing(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{named("1", "one", t0)}}); err != nil {
		t.Fatal(err)
	}
	gone := named("2", "two", t0)
	before := applied(t, s)
	_, err := s.Apply(ctx(), expectBatch([]changes.ExpectedSnapshot{read(t, s, "1"), {Country: "NO", CompanyID: "2", Snapshot: &gone}}, "1", "2"))
	wantChanged(t, err, "2")
	diff(t, "the store after the refused batch (nothing written)", before, applied(t, s))
}

// Apply with Expect naming a company with no snapshot (Snapshot nil)
// writes the batch while the company has none, and nothing once it has
// one (a watch's baseline stored since).
func testApplyExpectAbsent(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	none := []changes.ExpectedSnapshot{{Country: "NO", CompanyID: "1"}}
	b := changes.Batch{Expect: none, Snapshots: []changes.Snapshot{named("1", "first read", t0)}, Cursors: map[string]string{"no/poll": "first"}}
	if _, err := s.Apply(ctx(), b); err != nil {
		t.Fatal(err)
	}
	diff(t, "the store after the first read", map[string]any{
		"feed": []string{}, "reports": map[string]string{"1": `{"name":"first read"}`, "2": "", "3": ""}, "cursor": "first",
	}, applied(t, s))
	// Read again with no snapshot expected: it has one now.
	b.Snapshots, b.Cursors = []changes.Snapshot{named("1", "second read", t0.Add(time.Hour))}, map[string]string{"no/poll": "second"}
	_, err := s.Apply(ctx(), b)
	wantChanged(t, err, "1")
	diff(t, "the store after the refused batch (nothing written)", map[string]any{
		"feed": []string{}, "reports": map[string]string{"1": `{"name":"first read"}`, "2": "", "3": ""}, "cursor": "first",
	}, applied(t, s))
}

// Apply with Expect compares the whole snapshot: a stored snapshot with
// the report and time read but other roles, misses or roles' misses (an
// ingester that counted a miss since, say) is not the one read.
func testApplyExpectRolesAndMisses(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2", "3"))
	stored := func(id string) changes.Snapshot {
		sn := named(id, "name "+id, t0)
		sn.Roles, sn.Misses, sn.RolesMisses = raw(`{"board":["A"]}`), 1, 1
		return sn
	}
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{stored("1"), stored("2"), stored("3")}}); err != nil {
		t.Fatal(err)
	}
	// What an ingester read before another writer replaced each: other
	// roles (1), another count of misses (2), of roles' misses (3).
	roles, misses, rolesMisses := stored("1"), stored("2"), stored("3")
	roles.Roles = raw(`{"board":["B"]}`)
	misses.Misses = 0
	rolesMisses.RolesMisses = 0
	before := applied(t, s)
	for _, x := range []changes.Snapshot{roles, misses, rolesMisses} {
		_, err := s.Apply(ctx(), expectBatch([]changes.ExpectedSnapshot{{Country: "NO", CompanyID: x.CompanyID, Snapshot: &x}}, x.CompanyID))
		wantChanged(t, err, x.CompanyID)
	}
	diff(t, "the store after the refused batches (nothing written)", before, applied(t, s))
}

// A batch that Apply refuses (its Expect not met) writes nothing of its
// Purge (the purged company's changes stay, with its name) or of its
// Baselines (a company with no snapshot still has none).
func testApplyRefusedWritesNoPurgeNorBaseline(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2", "3"))
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{named("1", "one", t0)}}); err != nil {
		t.Fatal(err)
	}
	expect := []changes.ExpectedSnapshot{read(t, s, "1")}
	kept := apply(t, s, change("NO", "2", changes.KindStatusChanged, "ev-2", t0))
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{named("1", "one b", t0.Add(time.Hour))}}); err != nil {
		t.Fatal(err)
	}
	b := expectBatch(expect, "1")
	b.Purge = []changes.CompanyRef{{Country: "NO", CompanyID: "2"}}
	b.Baselines = []changes.Snapshot{named("3", "baseline 3", t0)}
	before := applied(t, s)
	_, err := s.Apply(ctx(), b)
	wantChanged(t, err, "1")
	diff(t, "the store after the refused batch (nothing written)", before, applied(t, s))
	got, err := s.CompanyChanges(ctx(), "NO", "2", 10)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "the changes of the company the refused batch purged", kept, got)
}

func testUpdateWatch(t *testing.T, s changes.Store) {
	w := watch("alice", "wch_1", "NO", nil, "1", "2", "3")
	create(t, s, w)
	got, err := s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{
		AddIDs: []string{"4", "2", "5"}, RemoveIDs: []string{"1", "5"},
		Kinds: ptr([]changes.Kind{changes.KindDeleted}),
	}, []changes.Snapshot{{Country: "NO", CompanyID: "4", Report: raw(`{}`), TakenAt: t0}})
	if err != nil {
		t.Fatal(err)
	}
	want := w
	want.IDs = []string{"2", "3", "4", "5"} // removed first, then added at the end (5 is in both: added)
	want.Kinds = []changes.Kind{changes.KindDeleted}
	diff(t, "UpdateWatch", want, got)
	read, err := s.Watch(ctx(), "alice", "wch_1")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "Watch after UpdateWatch", want, read)
	if _, err := s.Snapshot(ctx(), "NO", "4"); err != nil {
		t.Errorf("the added company's baseline: %v", err)
	}
	// Nothing to change still answers the watch.
	got, err = s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "an empty update", want, got)
	if _, err := s.UpdateWatch(ctx(), "alice", "wch_none", changes.WatchUpdate{}, nil); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("UpdateWatch of an unknown watch: %v, want ErrNotFound", err)
	}
}

func testDeleteWatch(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "923609016"))
	recorded := apply(t, s, change("NO", "923609016", changes.KindNameChanged, "", t0))
	if err := s.DeleteWatch(ctx(), "alice", "wch_1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Watch(ctx(), "alice", "wch_1"); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("Watch after DeleteWatch: %v", err)
	}
	if err := s.DeleteWatch(ctx(), "alice", "wch_1"); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("DeleteWatch twice: %v", err)
	}
	if _, err := s.Deliveries(ctx(), "alice", "wch_1", 10); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("Deliveries of a deleted watch: %v", err)
	}
	if got := claim(t, s, "w1", t0.Add(time.Hour), 10); len(got) != 0 {
		t.Errorf("a deleted watch's pending delivery was claimed: %v", claimedIDs(got))
	}
	// The change was recorded while the company was watched: it stays in
	// the owner's feed.
	got, _ := feed(t, s, "alice", "", 10)
	diff(t, "feed after DeleteWatch", recorded, got)
	if ids, _ := s.WatchedIDs(ctx(), "NO"); len(ids) != 0 {
		t.Errorf("WatchedIDs after DeleteWatch = %v", ids)
	}
}

func testWatchedIDs(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	create(t, s, watch("bob", "wch_2", "NO", nil, "2", "3"))
	create(t, s, watch("bob", "wch_3", "GB", nil, "00445790"))
	// A disabled watch's companies are still watched (changes are recorded
	// for its feed).
	d := watch("carol", "wch_4", "NO", nil, "4")
	d.Disabled, d.DisabledAt, d.DisabledReason = true, ptr(t0), ptr("gone")
	create(t, s, d)
	got, err := s.WatchedIDs(ctx(), "NO")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "WatchedIDs(NO)", map[string]struct{}{"1": {}, "2": {}, "3": {}, "4": {}}, got)
	got, _ = s.WatchedIDs(ctx(), "GB")
	diff(t, "WatchedIDs(GB)", map[string]struct{}{"00445790": {}}, got)
	if _, err := s.UpdateWatch(ctx(), "bob", "wch_2", changes.WatchUpdate{RemoveIDs: []string{"2", "3"}}, nil); err != nil {
		t.Fatal(err)
	}
	got, _ = s.WatchedIDs(ctx(), "NO")
	diff(t, "WatchedIDs(NO) after a removal", map[string]struct{}{"1": {}, "2": {}, "4": {}}, got)
	got, _ = s.WatchedIDs(ctx(), "FI")
	diff(t, "WatchedIDs(FI)", map[string]struct{}{}, got)
	rd, err := s.Watch(ctx(), "carol", "wch_4")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "a watch created disabled", d, rd)
}

func testWatchedAmong(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	d := watch("carol", "wch_2", "NO", nil, "4")
	d.Disabled, d.DisabledAt, d.DisabledReason = true, ptr(t0), ptr("gone")
	create(t, s, d)
	create(t, s, watch("bob", "wch_3", "GB", nil, "3"))
	got, err := s.WatchedAmong(ctx(), "NO", []string{"1", "3", "4", "5", "1"})
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "WatchedAmong(NO, 1 3 4 5 1)", map[string]struct{}{"1": {}, "4": {}}, got)
	got, err = s.WatchedAmong(ctx(), "NO", nil)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "WatchedAmong(NO, none)", map[string]struct{}{}, got)
	// More ids than one query of a SQL store takes.
	many := make([]string, 0, 1201)
	for i := range 1200 {
		many = append(many, fmt.Sprintf("9%05d", i))
	}
	many = append(many, "2")
	got, err = s.WatchedAmong(ctx(), "NO", many)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "WatchedAmong(NO, 1,201 ids)", map[string]struct{}{"2": {}}, got)
	if _, err := s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{AddIDs: []string{"7"}, RemoveIDs: []string{"2"}}, nil); err != nil {
		t.Fatal(err)
	}
	got, _ = s.WatchedAmong(ctx(), "NO", []string{"2", "7"})
	diff(t, "WatchedAmong(NO, 2 7) after an update", map[string]struct{}{"7": {}}, got)
}

// --- Apply ---

func testApplyRecords(t *testing.T, s changes.Store) {
	c1 := change("NO", "923609016", changes.KindStatusChanged, "25152016", t0)
	c2 := change("NO", "923609016", changes.KindNameChanged, "", t0.Add(time.Minute))
	c2.ID = "chg_GIVEN"
	c2.Old, c2.New, c2.CompanyName, c2.RegisteredAt, c2.SourceURL = nil, raw(`{"name":"X"}`), nil, nil, nil
	c3 := change("GB", "00445790", changes.KindDeleted, "", time.Time{}) // DetectedAt set by the store
	got := apply(t, s, c1, c2, c3)
	if len(got) != 3 {
		t.Fatalf("Apply recorded %d changes, want 3", len(got))
	}
	if got[0].ID == "" || got[0].ID[:4] != "chg_" || got[2].ID[:4] != "chg_" || got[0].ID == got[2].ID {
		t.Errorf("assigned ids %q, %q: want distinct chg_ ids", got[0].ID, got[2].ID)
	}
	if !(got[0].Seq > 0 && got[1].Seq > got[0].Seq && got[2].Seq > got[1].Seq) {
		t.Errorf("Seq not increasing: %d, %d, %d", got[0].Seq, got[1].Seq, got[2].Seq)
	}
	if got[2].DetectedAt.IsZero() {
		t.Errorf("DetectedAt left zero")
	}
	want := []changes.Change{c1, c2, c3}
	for i := range want {
		want[i].ID, want[i].Seq = got[i].ID, got[i].Seq
	}
	want[2].DetectedAt = got[2].DetectedAt
	diff(t, "Apply's answer", want, got)
	// What is stored reads back the same.
	stored, err := s.CompanyChanges(ctx(), "NO", "923609016", 10)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "CompanyChanges(NO 923609016)", []changes.Change{got[1], got[0]}, stored)
	stored, _ = s.CompanyChanges(ctx(), "GB", "00445790", 10)
	if len(stored) != 1 || !stored[0].DetectedAt.Equal(got[2].DetectedAt) {
		t.Errorf("stored DetectedAt %v, answered %v", stored, got[2].DetectedAt)
	}
	// An empty batch is fine.
	if got, err := s.Apply(ctx(), changes.Batch{}); err != nil || len(got) != 0 {
		t.Errorf("Apply(empty) = %v, %v", got, err)
	}
}

func testApplyIdempotent(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "923609016"))
	ev := change("NO", "923609016", changes.KindStatusChanged, "25152016", t0)
	first := apply(t, s, ev, ev) // twice in one batch: once
	if len(first) != 1 {
		t.Fatalf("the same event twice in a batch recorded %d changes", len(first))
	}
	if again := apply(t, s, ev); len(again) != 0 {
		t.Errorf("re-applying event 25152016 recorded %v", ids(again))
	}
	// Another kind from the same event, or another company, is another change.
	other := ev
	other.Kind = changes.KindNameChanged
	otherCo := ev
	otherCo.CompanyID = "914375916"
	if got := apply(t, s, other, otherCo); len(got) != 2 {
		t.Errorf("another kind and another company of one event: recorded %d, want 2", len(got))
	}
	// Polls have no event id: never collapsed.
	poll := change("NO", "923609016", changes.KindAddressChanged, "", t0)
	if got := apply(t, s, poll, poll); len(got) != 2 {
		t.Errorf("two poll changes recorded %d, want 2", len(got))
	}
	dl, err := s.Deliveries(ctx(), "alice", "wch_1", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(dl) != 4 { // status, name, address ×2 (914375916 is not watched)
		t.Errorf("%d deliveries, want 4 (one per recorded change of the watched company)", len(dl))
	}
}

func testApplyFanOut(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_all", "NO", nil, "923609016"))
	create(t, s, watch("alice", "wch_status", "NO", []changes.Kind{changes.KindStatusChanged}, "923609016"))
	create(t, s, watch("bob", "wch_name", "NO", []changes.Kind{changes.KindNameChanged}, "923609016"))
	off := watch("carol", "wch_off", "NO", nil, "923609016")
	off.Disabled, off.DisabledAt = true, ptr(t0)
	create(t, s, off)
	create(t, s, watch("dave", "wch_gb", "GB", nil, "923609016")) // same id, another country
	got := apply(t, s,
		change("NO", "923609016", changes.KindStatusChanged, "1", t0),
		change("NO", "923609016", changes.KindNameChanged, "2", t0))
	count := func(owner, w string) int {
		t.Helper()
		dl, err := s.Deliveries(ctx(), owner, w, 100)
		if err != nil {
			t.Fatalf("Deliveries(%s): %v", w, err)
		}
		return len(dl)
	}
	diff(t, "deliveries per watch", map[string]int{"wch_all": 2, "wch_status": 1, "wch_name": 1, "wch_off": 0, "wch_gb": 0},
		map[string]int{"wch_all": count("alice", "wch_all"), "wch_status": count("alice", "wch_status"),
			"wch_name": count("bob", "wch_name"), "wch_off": count("carol", "wch_off"), "wch_gb": count("dave", "wch_gb")})
	// Each owner's feed lists each change once that one of its watches
	// asks for, whether or not the watch's endpoint is disabled.
	for owner, want := range map[string][]changes.Change{"alice": got, "bob": got[1:], "carol": got} {
		f, _ := feed(t, s, owner, "", 10)
		diff(t, "feed of "+owner, want, f)
	}
	if f, _ := feed(t, s, "dave", "", 10); len(f) != 0 {
		t.Errorf("dave's feed (GB watch) lists %v", ids(f))
	}
	// The deliveries are due at once, with what sending needs.
	claims := claim(t, s, "w1", time.Now().Add(time.Hour), 100)
	if len(claims) != 4 {
		t.Fatalf("claimed %d deliveries, want 4", len(claims))
	}
	for _, c := range claims {
		if c.URL != "https://hooks.example.com/"+c.Delivery.WatchID || string(c.Secret) != "secret-"+c.Delivery.WatchID {
			t.Errorf("claim of %s: URL %q secret %q", c.Delivery.WatchID, c.URL, c.Secret)
		}
		if c.Delivery.ChangeID != c.Change.ID || c.Delivery.Status != changes.DeliveryPending || c.Delivery.Attempts != 0 {
			t.Errorf("claim %+v", c.Delivery)
		}
	}
}

func testApplyIsOneTransaction(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "923609016"))
	before := changes.Snapshot{Country: "NO", CompanyID: "923609016", Report: raw(`{"v":1}`), TakenAt: t0}
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{before}, Cursors: map[string]string{"no/enheter": "100"}}); err != nil {
		t.Fatal(err)
	}
	first := apply(t, s, change("NO", "923609016", changes.KindNameChanged, "1", t0))
	// A batch whose second change reuses the first change's id fails in
	// the database, after the first change was written: nothing of the
	// batch stays.
	dup := change("NO", "923609016", changes.KindStatusChanged, "3", t0)
	dup.ID = first[0].ID
	_, err := s.Apply(ctx(), changes.Batch{
		Changes:   []changes.Change{change("NO", "923609016", changes.KindAddressChanged, "2", t0), dup},
		Snapshots: []changes.Snapshot{{Country: "NO", CompanyID: "923609016", Report: raw(`{"v":2}`), TakenAt: t0.Add(time.Hour)}},
		Cursors:   map[string]string{"no/enheter": "200"},
	})
	if err == nil {
		t.Fatal("Apply with a duplicate change id: no error")
	}
	if c, _ := s.Cursor(ctx(), "no/enheter"); c != "100" {
		t.Errorf("cursor after a failed Apply = %q, want 100", c)
	}
	if sn, _ := s.Snapshot(ctx(), "NO", "923609016"); string(sn.Report) != `{"v":1}` {
		t.Errorf("snapshot after a failed Apply = %s", sn.Report)
	}
	if cs, _ := s.CompanyChanges(ctx(), "NO", "923609016", 10); len(cs) != 1 {
		t.Errorf("changes after a failed Apply: %v", ids(cs))
	}
	if f, _ := feed(t, s, "alice", "", 10); len(f) != 1 {
		t.Errorf("feed after a failed Apply: %v", ids(f))
	}
	if dl, _ := s.Deliveries(ctx(), "alice", "wch_1", 10); len(dl) != 1 {
		t.Errorf("deliveries after a failed Apply: %d, want 1", len(dl))
	}
	// The failed batch's event ids were not taken: applying it again
	// without the duplicate records it.
	if got := apply(t, s, change("NO", "923609016", changes.KindAddressChanged, "2", t0)); len(got) != 1 {
		t.Errorf("re-applying after a failed batch recorded %d", len(got))
	}
}

// testApplyPurge: a company removed from the register's open data
// (Batch.Purge) loses every change stored of it, from the company's
// changes, the owners' feeds and the deliveries, but the deletion the
// batch records; other companies keep theirs, applying the batch again
// records nothing twice, and a later purge keeps the deletion.
func testApplyPurge(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "enheter/1", t0))
	kept := apply(t, s, change("NO", "2", changes.KindNameChanged, "enheter/2", t0))
	apply(t, s, change("NO", "1", changes.KindAddressChanged, "", t0))
	gone := change("NO", "1", changes.KindDeleted, "enheter/3", t0)
	gone.CompanyName = nil
	b := changes.Batch{Changes: []changes.Change{gone}, Purge: []changes.CompanyRef{{Country: "NO", CompanyID: "1"}}}
	recorded, err := s.Apply(ctx(), b)
	if err != nil {
		t.Fatal(err)
	}
	if len(recorded) != 1 {
		t.Fatalf("recorded %d changes, want the deletion", len(recorded))
	}
	got, err := s.CompanyChanges(ctx(), "NO", "1", 10)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "the removed company's changes", recorded, got)
	f, _ := feed(t, s, "alice", "", 10)
	diff(t, "the owner's feed", append(slices.Clone(kept), recorded...), f)
	ds, err := s.Deliveries(ctx(), "alice", "wch_1", 10)
	if err != nil {
		t.Fatal(err)
	}
	var of []string
	for _, d := range ds {
		of = append(of, d.ChangeID)
	}
	slices.Sort(of)
	want := []string{kept[0].ID, recorded[0].ID}
	slices.Sort(want)
	diff(t, "the deliveries left", want, of)
	// The same batch again: the deletion stays, once.
	if again, err := s.Apply(ctx(), b); err != nil || len(again) != 0 {
		t.Errorf("the batch again recorded %d, %v", len(again), err)
	}
	got, _ = s.CompanyChanges(ctx(), "NO", "1", 10)
	diff(t, "the removed company's changes after the batch again", recorded, got)
	// A later purge of the company (the register answers 410 again, with
	// nothing new to record) keeps the deletion and its delivery.
	if _, err := s.Apply(ctx(), changes.Batch{Purge: b.Purge}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.CompanyChanges(ctx(), "NO", "1", 10)
	diff(t, "the removed company's changes after a second purge", recorded, got)
	ds, _ = s.Deliveries(ctx(), "alice", "wch_1", 10)
	of = of[:0]
	for _, d := range ds {
		of = append(of, d.ChangeID)
	}
	slices.Sort(of)
	diff(t, "the deliveries left after a second purge", want, of)
}

// testApplyPurgeKeepsNoName: a deletion recorded before the company was
// removed from the register's open data (a dissolution, which names the
// company) is kept by the purge, with its delivery, so that its watchers
// still learn of it, but without the removed company's name (Brønnøysund's
// Fjernet: copies must remove the unit too).
func testApplyPurgeKeepsNoName(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	dissolved := apply(t, s, change("NO", "1", changes.KindDeleted, "enheter/1", t0))
	if len(dissolved) != 1 || dissolved[0].CompanyName == nil {
		t.Fatalf("the dissolution recorded %+v, want one change with a name", dissolved)
	}
	if _, err := s.Apply(ctx(), changes.Batch{Purge: []changes.CompanyRef{{Country: "NO", CompanyID: "1"}}}); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(dissolved)
	want[0].CompanyName = nil
	got, err := s.CompanyChanges(ctx(), "NO", "1", 10)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "the removed company's changes", want, got)
	f, _ := feed(t, s, "alice", "", 10)
	diff(t, "the owner's feed", want, f)
	var sent []changes.Change
	for _, c := range claim(t, s, "w1", time.Now().Add(time.Hour), 10) {
		sent = append(sent, c.Change)
	}
	diff(t, "the changes the pending deliveries send", want, sent)
}

func testSnapshotsAndCursors(t *testing.T, s changes.Store) {
	if c, err := s.Cursor(ctx(), "gb/companies"); err != nil || c != "" {
		t.Errorf("Cursor before any = %q, %v", c, err)
	}
	a := changes.Snapshot{Country: "NO", CompanyID: "1", Report: raw(`{"a":1}`), Roles: raw(`[]`), TakenAt: t0, Misses: 1, RolesMisses: 1}
	b := changes.Snapshot{Country: "NO", CompanyID: "1", Report: raw(`{"a":2}`), TakenAt: t0.Add(time.Hour), Misses: 0}
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{a}, Cursors: map[string]string{"gb/companies": "t1", "no/roller": "r1"}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Snapshot(ctx(), "NO", "1")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "snapshot", a, got)
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{b}, Cursors: map[string]string{"gb/companies": "t2"}}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Snapshot(ctx(), "NO", "1")
	diff(t, "snapshot replaced (roles gone)", b, got)
	c1, _ := s.Cursor(ctx(), "gb/companies")
	c2, _ := s.Cursor(ctx(), "no/roller")
	diff(t, "cursors", []string{"t2", "r1"}, []string{c1, c2})
}

// --- the feed ---

func testFeedPaging(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	_, start := feed(t, s, "alice", "", 10)
	if start == "" {
		t.Fatal(`an empty feed answers no cursor to resume from`)
	}
	var all []changes.Change
	for i := range 5 {
		all = append(all, apply(t, s, change("NO", fmt.Sprint(1+i%2), changes.KindNameChanged, "", t0.Add(time.Duration(i)*time.Minute)))...)
	}
	page1, c1 := feed(t, s, "alice", "", 2)
	page2, c2 := feed(t, s, "alice", c1, 2)
	page3, c3 := feed(t, s, "alice", c2, 2)
	page4, c4 := feed(t, s, "alice", c3, 2)
	diff(t, "pages", [][]changes.Change{all[:2], all[2:4], all[4:], nil}, [][]changes.Change{page1, page2, page3, page4})
	if c4 == "" {
		t.Errorf("an exhausted page answered no cursor")
	}
	fromStart, _ := feed(t, s, "alice", start, 10)
	diff(t, "from the cursor an empty feed gave", all, fromStart)
	// The cursor of the last page resumes after it.
	more := apply(t, s, change("NO", "2", changes.KindDeleted, "", t0.Add(time.Hour)))
	next, _ := feed(t, s, "alice", c4, 10)
	diff(t, "after the last cursor", more, next)
	next, _ = feed(t, s, "alice", c3, 10)
	diff(t, "after the third page's cursor", more, next)
}

func testFeedOnlyWhileWatched(t *testing.T, s changes.Store) {
	before := apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0)) // nobody watches 1 yet
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	create(t, s, watch("bob", "wch_2", "NO", nil, "2"))
	during := apply(t, s, change("NO", "1", changes.KindStatusChanged, "", t0), change("NO", "2", changes.KindStatusChanged, "", t0))
	if _, err := s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{RemoveIDs: []string{"1"}}, nil); err != nil {
		t.Fatal(err)
	}
	apply(t, s, change("NO", "1", changes.KindAddressChanged, "", t0)) // no longer watched
	if _, err := s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{AddIDs: []string{"1"}}, nil); err != nil {
		t.Fatal(err)
	}
	again := apply(t, s, change("NO", "1", changes.KindDeleted, "", t0))
	got, _ := feed(t, s, "alice", "", 100)
	diff(t, "alice's feed: only while 1 was in her watch", []changes.Change{during[0], again[0]}, got)
	got, _ = feed(t, s, "bob", "", 100)
	diff(t, "bob's feed: only his company", []changes.Change{during[1]}, got)
	if cs, _ := s.CompanyChanges(ctx(), "NO", "1", 100); len(cs) != 4 || cs[3].ID != before[0].ID {
		t.Errorf("CompanyChanges lists every change of the company, newest first: %v", ids(cs))
	}
}

// A watch's kinds filter the owner's feed as they filter deliveries (the
// issue: a watch has "the event kinds wanted" and the feed "lists the
// caller's changes"): an owner who asked for status changes only does not
// read name changes in the feed. Kinds changed later apply to changes
// recorded after.
func testFeedOnlyKindsWanted(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_status", "NO", []changes.Kind{changes.KindStatusChanged}, "1", "2"))
	create(t, s, watch("alice", "wch_name", "NO", []changes.Kind{changes.KindNameChanged}, "2"))
	create(t, s, watch("bob", "wch_all", "NO", []changes.Kind{}, "1"))
	first := apply(t, s,
		change("NO", "1", changes.KindStatusChanged, "", t0),
		change("NO", "1", changes.KindNameChanged, "", t0),
		change("NO", "2", changes.KindNameChanged, "", t0),
		change("NO", "2", changes.KindStatusChanged, "", t0),
		change("NO", "2", changes.KindAddressChanged, "", t0))
	got, _ := feed(t, s, "alice", "", 100)
	diff(t, "alice's feed: status changes of 1 and 2 (wch_status) and the name change of 2 (wch_name), once each",
		[]changes.Change{first[0], first[2], first[3]}, got)
	got, _ = feed(t, s, "bob", "", 100)
	diff(t, "bob's feed: every kind of 1", first[:2], got)
	if _, err := s.UpdateWatch(ctx(), "alice", "wch_status", changes.WatchUpdate{Kinds: &[]changes.Kind{changes.KindAddressChanged}}, nil); err != nil {
		t.Fatal(err)
	}
	later := apply(t, s, change("NO", "1", changes.KindStatusChanged, "", t0), change("NO", "1", changes.KindAddressChanged, "", t0))
	got, _ = feed(t, s, "alice", "", 100)
	diff(t, "alice's feed after the kinds changed: what was listed stays; of the new changes only the address change",
		[]changes.Change{first[0], first[2], first[3], later[1]}, got)
	// Deliveries follow the same kinds.
	if dl, _ := s.Deliveries(ctx(), "alice", "wch_status", 100); len(dl) != 3 {
		t.Errorf("wch_status has %d deliveries, want 3 (two status changes, then one address change)", len(dl))
	}
}

func testFeedInvalidCursor(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0))
	_, good := feed(t, s, "alice", "", 10)
	for _, bad := range []string{"garbage", good[:len(good)-1], good + "A", "0", "-1", "null", "\x00", string([]byte{0xff, 0xfe})} {
		if _, _, err := s.Changes(ctx(), "alice", bad, 10); !errors.Is(err, changes.ErrInvalidCursor) {
			t.Errorf("Changes(cursor %q) error %v, want ErrInvalidCursor", bad, err)
		}
	}
	// One flipped character.
	b := []byte(good)
	if b[3] == 'A' {
		b[3] = 'B'
	} else {
		b[3] = 'A'
	}
	if _, _, err := s.Changes(ctx(), "alice", string(b), 10); !errors.Is(err, changes.ErrInvalidCursor) {
		t.Errorf("Changes(a cursor with one character changed) error %v, want ErrInvalidCursor", err)
	}
}

func testPruneAndExpiredCursor(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	_, start := feed(t, s, "alice", "", 10)
	day := 24 * time.Hour
	var all []changes.Change
	for i := range 4 {
		all = append(all, apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0.Add(time.Duration(i)*day)))...)
	}
	// Every delivery succeeded.
	now := time.Now().Add(time.Hour)
	for _, c := range claim(t, s, "w", now, 100) {
		if err := s.RecordAttempt(ctx(), c.Delivery.ID, changes.Attempt{At: now, StatusCode: 200, Succeeded: true}); err != nil {
			t.Fatal(err)
		}
	}
	_, afterFirst := feed(t, s, "alice", "", 1)
	if err := s.Prune(ctx(), t0.Add(2*day)); err != nil { // the changes of days 0 and 1 go
		t.Fatal(err)
	}
	for _, c := range []string{start, afterFirst} {
		_, _, err := s.Changes(ctx(), "alice", c, 10)
		var exp *changes.CursorExpiredError
		if !errors.As(err, &exp) {
			t.Fatalf("Changes(a cursor older than the oldest kept): %v, want *CursorExpiredError", err)
		}
		if exp.Oldest == "" {
			t.Fatalf("the expired cursor's error names no oldest cursor")
		}
		got, _ := feed(t, s, "alice", exp.Oldest, 10)
		diff(t, "from the oldest cursor kept", all[2:], got)
	}
	got, _ := feed(t, s, "alice", "", 10)
	diff(t, "from the start after Prune", all[2:], got)
	cs, _ := s.CompanyChanges(ctx(), "NO", "1", 10)
	diff(t, "CompanyChanges after Prune", []changes.Change{all[3], all[2]}, cs)
	dl, err := s.Deliveries(ctx(), "alice", "wch_1", 10)
	if err != nil {
		t.Fatal(err)
	}
	kept := []string{}
	for _, d := range dl {
		kept = append(kept, d.ChangeID)
	}
	diff(t, "deliveries kept: those of the changes kept", []string{all[3].ID, all[2].ID}, kept)
	// Pruning again at the same limit changes nothing.
	if err := s.Prune(ctx(), t0.Add(2*day)); err != nil {
		t.Fatal(err)
	}
	got, _ = feed(t, s, "alice", "", 10)
	diff(t, "after a second Prune", all[2:], got)
}

// Prune removes the snapshots, taken before its limit, of companies that
// no watch holds (removed from their watches, or whose watch was deleted):
// nothing compares with them, and a company watched again gets a new
// baseline. A watched company's snapshot stays however old it is.
func testPruneUnwatchedSnapshots(t *testing.T, s changes.Store) {
	day := 24 * time.Hour
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	create(t, s, watch("bob", "wch_2", "NO", nil, "4"))
	snap := func(id string, at time.Time) changes.Snapshot {
		return changes.Snapshot{Country: "NO", CompanyID: id, Report: raw(`{"name":"` + id + `"}`), TakenAt: at}
	}
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{
		snap("1", t0), snap("2", t0), snap("3", t0), snap("4", t0), snap("5", t0.Add(3*day)),
	}}); err != nil {
		t.Fatal(err)
	}
	// 2 leaves alice's watch, bob's watch (of 4) is deleted, 3 and 5 were
	// never watched (5 was taken after the limit).
	if _, err := s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{RemoveIDs: []string{"2"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteWatch(ctx(), "bob", "wch_2"); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(ctx(), t0.Add(2*day)); err != nil {
		t.Fatal(err)
	}
	kept := map[string]bool{}
	for _, id := range []string{"1", "2", "3", "4", "5"} {
		_, err := s.Snapshot(ctx(), "NO", id)
		switch {
		case err == nil:
			kept[id] = true
		case !errors.Is(err, changes.ErrNotFound):
			t.Fatalf("Snapshot(%s): %v", id, err)
		}
	}
	diff(t, "snapshots kept", map[string]bool{"1": true, "5": true}, kept)
}

func testPruneKeepsPendingDeliveries(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	day := 24 * time.Hour
	var all []changes.Change
	for i := range 3 {
		all = append(all, apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0.Add(time.Duration(i)*day)))...)
	}
	now := time.Now().Add(time.Hour)
	claims := claim(t, s, "w", now, 100)
	if len(claims) != 3 {
		t.Fatalf("claimed %d", len(claims))
	}
	// The second change's delivery is still pending (a retry): Prune stops
	// before it, so only the first change goes.
	retry := now.Add(day)
	for _, c := range claims {
		a := changes.Attempt{At: now, StatusCode: 200, Succeeded: true}
		if c.Change.ID == all[1].ID {
			a = changes.Attempt{At: now, StatusCode: 503, Error: "503", RetryAt: &retry}
		}
		if err := s.RecordAttempt(ctx(), c.Delivery.ID, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Prune(ctx(), t0.Add(10*day)); err != nil {
		t.Fatal(err)
	}
	got, _ := feed(t, s, "alice", "", 10)
	diff(t, "kept: from the change with a pending delivery on", all[1:], got)
	again := claim(t, s, "w", retry, 10)
	if len(again) != 1 || again[0].Change.ID != all[1].ID {
		t.Fatalf("the pending delivery after Prune: %v", claimedIDs(again))
	}
	if err := s.RecordAttempt(ctx(), again[0].Delivery.ID, changes.Attempt{At: retry, StatusCode: 204, Succeeded: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(ctx(), t0.Add(10*day)); err != nil {
		t.Fatal(err)
	}
	got, _ = feed(t, s, "alice", "", 10)
	diff(t, "after the delivery succeeded, Prune goes on", []changes.Change(nil), got)
}

func testCompanyChanges(t *testing.T, s changes.Store) {
	var all []changes.Change
	for i := range 4 {
		all = append(all, apply(t, s, change("NO", "1", changes.KindNameChanged, fmt.Sprint(i), t0))...)
	}
	apply(t, s, change("NO", "2", changes.KindNameChanged, "", t0), change("GB", "1", changes.KindNameChanged, "", t0))
	got, err := s.CompanyChanges(ctx(), "NO", "1", 3)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "CompanyChanges newest first, limited", []changes.Change{all[3], all[2], all[1]}, got)
	if got, _ := s.CompanyChanges(ctx(), "FI", "1", 3); len(got) != 0 {
		t.Errorf("CompanyChanges of an unknown company: %v", ids(got))
	}
}

// --- deliveries ---

func testClaim(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2", "3"))
	recorded := apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0), change("NO", "2", changes.KindNameChanged, "", t0),
		change("NO", "3", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour) // due: created at the store's clock
	first := claim(t, s, "w1", now, 2)
	if len(first) != 2 {
		t.Fatalf("claimed %d of 3 with n=2", len(first))
	}
	diff(t, "the claimed changes", recorded[:2], []changes.Change{first[0].Change, first[1].Change})
	// Held by w1: nobody else gets them; the third is left.
	second := claim(t, s, "w2", now, 10)
	diff(t, "w2's claim", []string{"wch_1:3"}, claimedIDs(second))
	if got := claim(t, s, "w3", now.Add(59*time.Second), 10); len(got) != 0 {
		t.Errorf("claimed while every lease holds: %v", claimedIDs(got))
	}
	// Not due yet: nothing.
	if got := claim(t, s, "w4", t0.Add(-time.Hour), 10); len(got) != 0 {
		t.Errorf("claimed before due: %v", claimedIDs(got))
	}
}

// testClaimFairShare: a claim takes first, of each watch with due
// deliveries, its fair share (changes.FairSharePerWatch in flight), then
// the oldest due of any watch; so a watch whose backlog holds every
// worker does not keep another watch's newer delivery waiting.
func testClaimFairShare(t *testing.T, s changes.Store) {
	var ids []string
	for i := range 20 {
		ids = append(ids, fmt.Sprint(100+i))
	}
	create(t, s, watch("alice", "wch_1", "NO", nil, ids...))
	create(t, s, watch("bob", "wch_2", "NO", nil, "900"))
	create(t, s, watch("carol", "wch_3", "NO", nil, "950"))
	for _, id := range ids {
		apply(t, s, change("NO", id, changes.KindNameChanged, "", t0))
	}
	apply(t, s, change("NO", "900", changes.KindStatusChanged, "", t0))
	now := time.Now().Add(time.Hour)
	share := changes.FairSharePerWatch
	// wch_1's share, wch_2's one, then the oldest due: more of wch_1.
	var want []string
	for _, id := range ids[:share+1] {
		want = append(want, "wch_1:"+id)
	}
	want = append(want, "wch_2:900")
	diff(t, "a claim of "+fmt.Sprint(share+2)+" with a backlog on wch_1", want, claimedIDs(claim(t, s, "w1", now, share+2)))
	// wch_1 has more than its share in flight: a new delivery of another
	// watch comes first.
	apply(t, s, change("NO", "950", changes.KindStatusChanged, "", t0))
	diff(t, "a claim of one while wch_1 holds its share", []string{"wch_3:950"}, claimedIDs(claim(t, s, "w2", now, 1)))
	diff(t, "then", []string{"wch_1:" + ids[share+1]}, claimedIDs(claim(t, s, "w2", now, 1)))
	// The leases end (the workers died): wch_1 has its share again.
	want = nil
	for _, id := range ids[:share] {
		want = append(want, "wch_1:"+id)
	}
	diff(t, "after the leases ended", append(want, "wch_2:900", "wch_3:950"), claimedIDs(claim(t, s, "w3", now.Add(2*time.Minute), share+2)))
}

func testClaimLeaseExpires(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour)
	first := claim(t, s, "w1", now, 10)
	if len(first) != 1 {
		t.Fatalf("claimed %d", len(first))
	}
	// w1 dies without recording; its lease (a minute) ends; w2 sends the
	// same delivery, with the same change id (the webhook-id).
	again := claim(t, s, "w2", now.Add(time.Minute), 10)
	if len(again) != 1 {
		t.Fatalf("after the lease ended, claimed %d", len(again))
	}
	diff(t, "the delivery claimed again", first[0], again[0])
}

func testRecordAttempt(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2", "3"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0), change("NO", "2", changes.KindNameChanged, "", t0),
		change("NO", "3", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour)
	cl := claim(t, s, "w1", now, 10)
	if len(cl) != 3 {
		t.Fatalf("claimed %d", len(cl))
	}
	retry := now.Add(30 * time.Second)
	attempts := []changes.Attempt{
		{At: now, StatusCode: 200, Succeeded: true},
		{At: now, StatusCode: 503, Error: "the endpoint answered 503", RetryAt: &retry},
		{At: now, Error: "connection refused"},
	}
	for i, a := range attempts {
		if err := s.RecordAttempt(ctx(), cl[i].Delivery.ID, a); err != nil {
			t.Fatal(err)
		}
	}
	dl, err := s.Deliveries(ctx(), "alice", "wch_1", 10)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]changes.Delivery{}
	for _, d := range dl {
		byID[d.ID] = d
	}
	want := []changes.Delivery{
		{ID: cl[0].Delivery.ID, WatchID: "wch_1", ChangeID: cl[0].Change.ID, Status: changes.DeliverySucceeded, Attempts: 1,
			LastAttemptAt: &now, LastStatusCode: ptr(200)},
		{ID: cl[1].Delivery.ID, WatchID: "wch_1", ChangeID: cl[1].Change.ID, Status: changes.DeliveryPending, Attempts: 1,
			NextAttemptAt: &retry, LastAttemptAt: &now, LastStatusCode: ptr(503), LastError: ptr("the endpoint answered 503")},
		{ID: cl[2].Delivery.ID, WatchID: "wch_1", ChangeID: cl[2].Change.ID, Status: changes.DeliveryFailed, Attempts: 1,
			LastAttemptAt: &now, LastError: ptr("connection refused")},
	}
	got := []changes.Delivery{byID[cl[0].Delivery.ID], byID[cl[1].Delivery.ID], byID[cl[2].Delivery.ID]}
	if d := cmp.Diff(want, got, opts, cmpopts.IgnoreFields(changes.Delivery{}, "CreatedAt"), cmpopts.EquateApproxTime(time.Microsecond)); d != "" {
		t.Errorf("deliveries after the attempts (-want +got):\n%s", d)
	}
	// The watch shows the last attempt recorded (all three at one time).
	lastOf := func() []any {
		t.Helper()
		w, err := s.Watch(ctx(), "alice", "wch_1")
		if err != nil {
			t.Fatal(err)
		}
		return []any{w.LastAttemptAt, w.LastStatusCode, w.LastError}
	}
	if d := cmp.Diff([]any{&now, (*int)(nil), ptr("connection refused")}, lastOf(), cmpopts.EquateApproxTime(time.Microsecond)); d != "" {
		t.Errorf("the watch's last attempt (-want +got):\n%s", d)
	}
	// The retry is claimable at its time, by anyone (the claim ended), and
	// not before.
	if got := claim(t, s, "w2", retry.Add(-time.Second), 10); len(got) != 0 {
		t.Errorf("claimed before the retry time: %v", claimedIDs(got))
	}
	if got := claim(t, s, "w2", retry, 10); len(got) != 1 || got[0].Delivery.ID != cl[1].Delivery.ID {
		t.Errorf("claim at the retry time: %v", claimedIDs(got))
	}
	// A 4xx is retried (see package dispatch) and shows on the watch; an
	// attempt recorded late, older than the last, does not replace it.
	again := retry.Add(5 * time.Minute)
	if err := s.RecordAttempt(ctx(), cl[1].Delivery.ID, changes.Attempt{At: retry, StatusCode: 401, Error: "the endpoint answered 401", RetryAt: &again}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordAttempt(ctx(), cl[0].Delivery.ID, changes.Attempt{At: now.Add(-time.Minute), StatusCode: 200, Succeeded: true}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]any{&retry, ptr(401), ptr("the endpoint answered 401")}, lastOf(), cmpopts.EquateApproxTime(time.Microsecond)); d != "" {
		t.Errorf("the watch's last attempt after a 401 (-want +got):\n%s", d)
	}
	if err := s.RecordAttempt(ctx(), "dlv_none", changes.Attempt{At: now, Succeeded: true}); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("RecordAttempt of an unknown delivery: %v, want ErrNotFound", err)
	}
}

func testRecordAttemptDisables(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0), change("NO", "2", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour)
	cl := claim(t, s, "w1", now, 1)
	if len(cl) != 1 {
		t.Fatalf("claimed %d", len(cl))
	}
	at := now.Add(time.Second).Truncate(time.Microsecond)
	if err := s.RecordAttempt(ctx(), cl[0].Delivery.ID, changes.Attempt{At: at, StatusCode: 410, Error: "410 Gone", Disable: true, Reason: "the endpoint answered 410 Gone"}); err != nil {
		t.Fatal(err)
	}
	w, err := s.Watch(ctx(), "alice", "wch_1")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "the disabled watch", []any{true, ptr("the endpoint answered 410 Gone"), &at}, []any{w.Disabled, w.DisabledReason, w.DisabledAt})
	// Its other pending delivery waits; new changes queue none, but stay
	// in the feed.
	if got := claim(t, s, "w2", now.Add(time.Hour), 10); len(got) != 0 {
		t.Errorf("a disabled watch's delivery was claimed: %v", claimedIDs(got))
	}
	apply(t, s, change("NO", "1", changes.KindDeleted, "", t0))
	if dl, _ := s.Deliveries(ctx(), "alice", "wch_1", 10); len(dl) != 2 {
		t.Errorf("deliveries after a change to a disabled watch: %d, want 2", len(dl))
	}
	if f, _ := feed(t, s, "alice", "", 10); len(f) != 3 {
		t.Errorf("the feed of a disabled watch lists %d changes, want 3", len(f))
	}
	// Enabling it again: the waiting delivery goes out.
	w, err = s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{Enable: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.Disabled || w.DisabledReason != nil || w.DisabledAt != nil {
		t.Errorf("enabled watch: %+v", w)
	}
	if got := claim(t, s, "w2", now.Add(time.Hour), 10); len(got) != 1 {
		t.Errorf("after Enable claimed %d, want 1", len(got))
	}
	// A new URL enables too.
	if err := s.RecordAttempt(ctx(), claimOne(t, s, now.Add(4*time.Hour)), changes.Attempt{At: at, Disable: true, Reason: "failing for three days"}); err != nil {
		t.Fatal(err)
	}
	w, err = s.UpdateWatch(ctx(), "alice", "wch_1", changes.WatchUpdate{URL: ptr("https://new.example.com/hook")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.Disabled || w.URL != "https://new.example.com/hook" {
		t.Errorf("a new URL: %+v", w)
	}
}

// claimOne claims the delivery of a fresh change of company 1 of wch_1
// and returns its id.
func claimOne(t *testing.T, s changes.Store, now time.Time) string {
	t.Helper()
	apply(t, s, change("NO", "1", changes.KindAddressChanged, "", t0))
	cl := claim(t, s, "w9", now, 1)
	if len(cl) != 1 {
		t.Fatalf("claimOne: claimed %d", len(cl))
	}
	return cl[0].Delivery.ID
}

func testDeliveriesAndRedeliver(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	create(t, s, watch("alice", "wch_2", "NO", nil, "1"))
	var recorded []changes.Change
	for i := range 3 {
		recorded = append(recorded, apply(t, s, change("NO", "1", changes.KindNameChanged, fmt.Sprint(i), t0))...)
	}
	dl, err := s.Deliveries(ctx(), "alice", "wch_1", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(dl) != 2 {
		t.Fatalf("Deliveries(limit 2) = %d", len(dl))
	}
	diff(t, "newest first", []string{recorded[2].ID, recorded[1].ID}, []string{dl[0].ChangeID, dl[1].ChangeID})
	for _, d := range dl {
		if d.CreatedAt.IsZero() || d.NextAttemptAt == nil || d.Status != changes.DeliveryPending {
			t.Errorf("a new delivery: %+v", d)
		}
	}
	if _, err := s.Deliveries(ctx(), "bob", "wch_1", 10); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("bob listing alice's deliveries: %v", err)
	}
	// Send everything, then redeliver one.
	now := time.Now().Add(time.Hour)
	for _, c := range claim(t, s, "w1", now, 100) {
		if err := s.RecordAttempt(ctx(), c.Delivery.ID, changes.Attempt{At: now, StatusCode: 200, Succeeded: true}); err != nil {
			t.Fatal(err)
		}
	}
	target := dl[1]
	if _, err := s.Redeliver(ctx(), "bob", "wch_1", target.ID); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("bob redelivering: %v", err)
	}
	if _, err := s.Redeliver(ctx(), "alice", "wch_2", target.ID); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("redelivering through another watch: %v", err)
	}
	got, err := s.Redeliver(ctx(), "alice", "wch_1", target.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != target.ID || got.ChangeID != target.ChangeID || got.Status != changes.DeliveryPending || got.Attempts != 1 || got.NextAttemptAt == nil {
		t.Errorf("Redeliver = %+v", got)
	}
	again := claim(t, s, "w2", now.Add(time.Hour), 100)
	if len(again) != 1 || again[0].Delivery.ID != target.ID || again[0].Change.ID != target.ChangeID {
		t.Errorf("claimed after Redeliver: %v", claimedIDs(again))
	}
}

// --- leases ---

// testRedeliverWhileClaimed: a redelivery asked for while a worker
// sends the delivery is not lost when that worker records its outcome
// (success or failure): the delivery is pending again and claimed again.
func testRedeliverWhileClaimed(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0), change("NO", "2", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour)
	cl := claim(t, s, "w1", now, 10)
	if len(cl) != 2 {
		t.Fatalf("claimed %d of 2", len(cl))
	}
	for _, c := range cl {
		if _, err := s.Redeliver(ctx(), "alice", "wch_1", c.Delivery.ID); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now()
	if err := s.RecordAttempt(ctx(), cl[0].Delivery.ID, changes.Attempt{Worker: "w1", At: at, StatusCode: 200, Succeeded: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordAttempt(ctx(), cl[1].Delivery.ID, changes.Attempt{Worker: "w1", At: at, StatusCode: 500, Error: "500"}); err != nil {
		t.Fatal(err)
	}
	again := claim(t, s, "w2", now, 10)
	diff(t, "claimed again after the attempts", claimedIDs(cl), claimedIDs(again))
	for _, c := range again {
		if c.Delivery.Attempts != 1 || c.Change.ID != cl[0].Change.ID && c.Change.ID != cl[1].Change.ID {
			t.Errorf("the redelivered delivery: %+v", c.Delivery)
		}
	}
	// Recorded now, without a redelivery: done.
	for _, c := range again {
		if err := s.RecordAttempt(ctx(), c.Delivery.ID, changes.Attempt{Worker: "w2", At: at, StatusCode: 200, Succeeded: true}); err != nil {
			t.Fatal(err)
		}
	}
	if got := claim(t, s, "w3", now.Add(time.Hour), 10); len(got) != 0 {
		t.Errorf("claimed after the redeliveries succeeded: %v", claimedIDs(got))
	}
}

// testRedeliverAfterLeaseEnded: a redelivery asked for after a worker's
// lease ended, before any other claim, is kept when that worker records
// its older attempt late; the next claim takes it, and once that attempt
// is recorded the delivery is done.
func testRedeliverAfterLeaseEnded(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0))
	// A lease of a millisecond: it has ended when Redeliver reads the
	// store's clock, and no one has claimed the delivery since.
	cl, err := s.ClaimDeliveries(ctx(), "w1", time.Now(), 1, time.Millisecond)
	if err != nil || len(cl) != 1 {
		t.Fatalf("claimed %d of 1: %v", len(cl), err)
	}
	time.Sleep(2 * time.Millisecond) // the lease's end, on the store's clock; not a synchronisation
	id := cl[0].Delivery.ID
	if _, err := s.Redeliver(ctx(), "alice", "wch_1", id); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordAttempt(ctx(), id, changes.Attempt{Worker: "w1", At: time.Now(), StatusCode: 200, Succeeded: true}); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	again := claim(t, s, "w2", later, 10)
	diff(t, "claimed after the late record", claimedIDs(cl), claimedIDs(again))
	if err := s.RecordAttempt(ctx(), id, changes.Attempt{Worker: "w2", At: later, StatusCode: 200, Succeeded: true}); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, s, "w3", later.Add(time.Hour), 10); len(got) != 0 {
		t.Errorf("claimed after the redelivery succeeded: %v", claimedIDs(got))
	}
}

// testRecordAttemptClaimLost: a worker whose lease ended while another
// worker claimed the delivery cannot record its attempt over the new
// holder's; the holder records its own.
func testRecordAttemptClaimLost(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour)
	first := claim(t, s, "w1", now, 1)
	if len(first) != 1 {
		t.Fatal("nothing claimed")
	}
	id := first[0].Delivery.ID
	second := claim(t, s, "w2", now.Add(2*time.Minute), 1) // w1's lease of a minute ended
	if len(second) != 1 {
		t.Fatal("not claimed again after the lease ended")
	}
	retry := now.Add(time.Hour)
	err := s.RecordAttempt(ctx(), id, changes.Attempt{Worker: "w1", At: now, StatusCode: 500, Error: "500", RetryAt: &retry})
	if !errors.Is(err, changes.ErrClaimLost) {
		t.Errorf("the late worker's RecordAttempt = %v, want ErrClaimLost", err)
	}
	if err := s.RecordAttempt(ctx(), id, changes.Attempt{Worker: "w2", At: now, StatusCode: 200, Succeeded: true}); err != nil {
		t.Fatal(err)
	}
	ds, err := s.Deliveries(ctx(), "alice", "wch_1", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Status != changes.DeliverySucceeded || ds[0].Attempts != 1 {
		t.Errorf("the delivery after both: %+v; want succeeded after one attempt recorded", ds)
	}
	if err := s.RecordAttempt(ctx(), "dlv_unknown", changes.Attempt{Worker: "w1", At: now, Succeeded: true}); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("RecordAttempt of an unknown delivery = %v, want ErrNotFound", err)
	}
}

func testLease(t *testing.T, s changes.Store) {
	const ttl = 30 * time.Second
	acquire := func(holder string, at time.Time) bool {
		t.Helper()
		ok, err := s.AcquireLease(ctx(), "ingest", holder, at, ttl)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	steps := []struct {
		holder string
		at     time.Duration
		want   bool
	}{
		{"a", 0, true},                 // free
		{"b", 10 * time.Second, false}, // a holds it
		{"a", 20 * time.Second, true},  // a renews: until 50 s
		{"b", 49 * time.Second, false}, // still a's
		{"b", 50 * time.Second, true},  // expired: b takes it
		{"a", 51 * time.Second, false}, // a lost it
		{"a", 79*time.Second + time.Millisecond, false},
	}
	for _, st := range steps {
		if got := acquire(st.holder, t0.Add(st.at)); got != st.want {
			t.Errorf("%s at %v: got the lease %v, want %v", st.holder, st.at, got, st.want)
		}
	}
	// Another lease is independent.
	if !acquire2(t, s, "other", "a", t0) {
		t.Errorf("a second lease name was refused")
	}
	// Releasing: only the holder can; then anyone may take it at once.
	if err := s.ReleaseLease(ctx(), "ingest", "a"); err != nil {
		t.Fatal(err)
	}
	if acquire("c", t0.Add(60*time.Second)) {
		t.Errorf("a non-holder's release freed the lease")
	}
	if err := s.ReleaseLease(ctx(), "ingest", "b"); err != nil {
		t.Fatal(err)
	}
	if !acquire("c", t0.Add(60*time.Second)) {
		t.Errorf("after the holder released, the lease was refused")
	}
}

// testRenewLease: RenewLease extends only the holder's own lease, run out
// or not; it never takes a free lease (never taken, released) or another
// holder's, so a holder replaced meanwhile learns it lost the lease.
func testRenewLease(t *testing.T, s changes.Store) {
	const ttl = 30 * time.Second
	renew := func(holder string, at time.Duration) bool {
		t.Helper()
		ok, err := s.RenewLease(ctx(), "ingest", holder, t0.Add(at), ttl)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	acquire := func(holder string, at time.Duration) bool {
		t.Helper()
		ok, err := s.AcquireLease(ctx(), "ingest", holder, t0.Add(at), ttl)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if renew("a", 0) {
		t.Fatal("a lease never taken was renewed (taken)")
	}
	if !acquire("b", 0) {
		t.Fatal("the free lease was refused after a refused renewal")
	}
	if renew("a", time.Second) {
		t.Error("another holder's lease was renewed")
	}
	if !renew("b", 20*time.Second) { // until 50 s
		t.Error("the holder's renewal was refused")
	}
	if acquire("a", 49*time.Second) {
		t.Error("a renewed lease was taken before its new end")
	}
	if !renew("b", 60*time.Second) { // run out at 50 s, nobody took it: until 90 s
		t.Error("the holder's run-out lease, nobody else's, was not renewed")
	}
	if acquire("a", 89*time.Second) {
		t.Error("a lease renewed after it ran out was taken before its new end")
	}
	if err := s.ReleaseLease(ctx(), "ingest", "b"); err != nil {
		t.Fatal(err)
	}
	if renew("b", 91*time.Second) {
		t.Error("a released lease was renewed (taken back) by its old holder")
	}
	if !acquire("a", 92*time.Second) {
		t.Error("the released lease was not free after a refused renewal")
	}
	if renew("b", 200*time.Second) {
		t.Error("the old holder renewed the lease another took, even long after it ran out")
	}
	if _, err := s.RenewLease(ctx(), "ingest", "a", t0, 0); err == nil {
		t.Error("RenewLease with ttl 0: no error")
	}
}

func acquire2(t *testing.T, s changes.Store, name, holder string, at time.Time) bool {
	t.Helper()
	ok, err := s.AcquireLease(ctx(), name, holder, at, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// --- concurrency ---

func testConcurrentClaims(t *testing.T, s changes.Store) {
	const companies, workers = 120, 8
	var idList []string
	for i := range companies {
		idList = append(idList, fmt.Sprint(1000+i))
	}
	create(t, s, watch("alice", "wch_1", "NO", nil, idList...))
	create(t, s, watch("bob", "wch_2", "NO", nil, idList...))
	var batch []changes.Change
	for _, id := range idList {
		batch = append(batch, change("NO", id, changes.KindNameChanged, "", t0))
	}
	apply(t, s, batch...)
	now := time.Now().Add(time.Hour)
	var mu sync.Mutex
	holder := map[string]string{}
	var dups []string
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("worker-%d", w)
			// Bounded: a store that hands out held deliveries must fail
			// the test, not loop for ever.
			for range 2 * companies {
				got, err := s.ClaimDeliveries(ctx(), name, now, 7, time.Hour)
				if err != nil {
					errs <- err
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, c := range got {
					if prev, ok := holder[c.Delivery.ID]; ok {
						dups = append(dups, c.Delivery.ID+" by "+prev+" and "+name)
					}
					holder[c.Delivery.ID] = name
				}
				mu.Unlock()
				// Recorded, so that the watch's deliveries in flight go
				// down and the next claims take more.
				for _, c := range got {
					if err := s.RecordAttempt(ctx(), c.Delivery.ID, changes.Attempt{At: now, StatusCode: 200, Succeeded: true}); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(dups) != 0 {
		t.Errorf("%d times a delivery was held by two workers at once, first: %v", len(dups), dups[:min(len(dups), 5)])
	}
	if len(holder) != 2*companies {
		t.Errorf("claimed %d distinct deliveries, want %d", len(holder), 2*companies)
	}
}

func testConcurrentLease(t *testing.T, s changes.Store) {
	const contenders, rounds = 8, 5
	const ttl = 10 * time.Second
	for r := range rounds {
		at := t0.Add(time.Duration(r) * ttl) // each round starts as the last lease ends
		var wg sync.WaitGroup
		var mu sync.Mutex
		var winners []string
		errs := make(chan error, contenders)
		for c := range contenders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("r%d-h%d", r, c)
				ok, err := s.AcquireLease(ctx(), "ingest", name, at, ttl)
				if err != nil {
					errs <- err
					return
				}
				if ok {
					mu.Lock()
					winners = append(winners, name)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if len(winners) != 1 {
			t.Errorf("round %d: %d holders at once: %v", r, len(winners), winners)
		}
	}
}

func testConcurrentApply(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	const writers = 6
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Every writer sends the same register event, and one of its own.
			_, err := s.Apply(ctx(), changes.Batch{Changes: []changes.Change{
				change("NO", "1", changes.KindStatusChanged, "25152016", t0),
				change("NO", "2", changes.KindNameChanged, fmt.Sprint("own-", w), t0),
			}})
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, _ := feed(t, s, "alice", "", 100)
	if len(got) != 1+writers {
		t.Errorf("the feed lists %d changes, want %d (the shared event once)", len(got), 1+writers)
	}
	seqs := make([]int64, len(got))
	for i, c := range got {
		seqs[i] = c.Seq
	}
	if !sort.SliceIsSorted(seqs, func(i, j int) bool { return seqs[i] < seqs[j] }) {
		t.Errorf("feed not in order: %v", seqs)
	}
	dl, _ := s.Deliveries(ctx(), "alice", "wch_1", 100)
	if len(dl) != 1+writers {
		t.Errorf("%d deliveries, want %d", len(dl), 1+writers)
	}
}

// --- bad input ---

func testBadInput(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	checks := []struct {
		what string
		err  error
	}{
		{"Changes limit 0", func() error { _, _, err := s.Changes(ctx(), "alice", "", 0); return err }()},
		{"CompanyChanges limit -1", func() error { _, err := s.CompanyChanges(ctx(), "NO", "1", -1); return err }()},
		{"Deliveries limit 0", func() error { _, err := s.Deliveries(ctx(), "alice", "wch_1", 0); return err }()},
		{"ClaimDeliveries n 0", func() error { _, err := s.ClaimDeliveries(ctx(), "w", t0, 0, time.Minute); return err }()},
		{"ClaimDeliveries lease 0", func() error { _, err := s.ClaimDeliveries(ctx(), "w", t0, 1, 0); return err }()},
		{"AcquireLease ttl 0", func() error { _, err := s.AcquireLease(ctx(), "ingest", "a", t0, 0); return err }()},
		{"Apply change without kind", func() error {
			_, err := s.Apply(ctx(), changes.Batch{Changes: []changes.Change{{Country: "NO", CompanyID: "1"}}})
			return err
		}()},
		{"CreateWatch with a NUL in an id", s.CreateWatch(ctx(), watch("alice", "wch_2", "NO", nil, "1\x00"), nil, nil)},
		{"CreateWatch with invalid UTF-8", s.CreateWatch(ctx(), watch("alice", "wch_3", "NO", nil, string([]byte{0xff})), nil, nil)},
		{"CreateWatch without id", s.CreateWatch(ctx(), changes.Watch{Owner: "alice", Country: "NO"}, nil, nil)},
		{"Apply fenced without a holder", func() error {
			_, err := s.Apply(ctx(), changes.Batch{Lease: &changes.LeaseFence{Name: "ingest"}})
			return err
		}()},
	}
	for _, c := range checks {
		if c.err == nil {
			t.Errorf("%s: no error", c.what)
		}
	}
	if n, _ := s.CountWatches(ctx(), "alice"); n != 1 {
		t.Errorf("a refused watch was stored: %d watches", n)
	}
}

// testIDsNotTextNotFound: a watch or delivery id that is not text (not
// UTF-8, or with a NUL), as a request's path may carry, names no watch:
// every method that looks one up answers ErrNotFound, as for any unknown
// id, whatever the database accepts as a key.
func testIDsNotTextNotFound(t *testing.T, s changes.Store) {
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	got, want := map[string]bool{}, map[string]bool{}
	for _, id := range []string{"\xff", "wch_\x00", "wch_1\xff"} {
		_, werr := s.Watch(ctx(), "alice", id)
		_, uerr := s.UpdateWatch(ctx(), "alice", id, changes.WatchUpdate{Enable: true}, nil)
		derr := s.DeleteWatch(ctx(), "alice", id)
		_, serr := s.WatchSecret(ctx(), "alice", id)
		_, lerr := s.Deliveries(ctx(), "alice", id, 10)
		_, rerr := s.Redeliver(ctx(), "alice", id, "dlv_1")
		_, rderr := s.Redeliver(ctx(), "alice", "wch_1", id) // a delivery id
		aerr := s.RecordAttempt(ctx(), id, changes.Attempt{At: t0, StatusCode: 204, Succeeded: true})
		for name, err := range map[string]error{"Watch": werr, "UpdateWatch": uerr, "DeleteWatch": derr,
			"WatchSecret": serr, "Deliveries": lerr, "Redeliver": rerr, "Redeliver delivery id": rderr,
			"RecordAttempt": aerr} {
			key := fmt.Sprintf("%s %q", name, id)
			got[key], want[key] = errors.Is(err, changes.ErrNotFound), true
		}
	}
	diff(t, "ErrNotFound", want, got)
	if n, err := s.CountWatches(ctx(), "alice"); err != nil || n != 1 {
		t.Errorf("CountWatches = %d, %v; want the watch kept", n, err)
	}
}

// testOldestSnapshot: the earliest TakenAt of the snapshots of the
// watched companies of a country, a disabled watch's included; a snapshot
// of a company no watch holds, of the same id watched in another country,
// or without a time (zero TakenAt), does not count; none: ok false.
func testOldestSnapshot(t *testing.T, s changes.Store) {
	if _, ok, err := s.OldestSnapshot(ctx(), "NO"); err != nil || ok {
		t.Fatalf("empty store: ok %v, %v", ok, err)
	}
	snap := func(country, id string, at time.Time) changes.Snapshot {
		return changes.Snapshot{Country: country, CompanyID: id, Report: raw(`{}`), TakenAt: at}
	}
	d := watch("carol", "wch_2", "NO", nil, "2")
	d.Disabled, d.DisabledAt, d.DisabledReason = true, ptr(t0), ptr("gone")
	if err := s.CreateWatch(ctx(), watch("alice", "wch_1", "NO", nil, "1"), []byte("s"),
		[]changes.Snapshot{snap("NO", "1", t0.Add(time.Hour))}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWatch(ctx(), d, []byte("s"), []changes.Snapshot{snap("NO", "2", t0.Add(30*time.Minute))}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWatch(ctx(), watch("bob", "wch_3", "GB", nil, "3"), []byte("s"),
		[]changes.Snapshot{snap("GB", "3", t0.Add(-time.Hour))}); err != nil {
		t.Fatal(err)
	}
	// A company no watch holds (an ingester's snapshot of it is kept), the
	// id of GB's watched company in Norway, and a watched company's
	// snapshot without a time.
	if _, err := s.Apply(ctx(), changes.Batch{Snapshots: []changes.Snapshot{snap("NO", "9", t0.Add(-2*time.Hour)),
		snap("NO", "3", t0.Add(-3*time.Hour))}}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWatch(ctx(), watch("dave", "wch_4", "NO", nil, "5"), []byte("s"),
		[]changes.Snapshot{snap("NO", "5", time.Time{})}); err != nil {
		t.Fatal(err)
	}
	at, ok, err := s.OldestSnapshot(ctx(), "NO")
	if err != nil || !ok || !at.Equal(t0.Add(30*time.Minute)) {
		t.Errorf("OldestSnapshot(NO) = %v, %v, %v; want %v (the disabled watch's company)", at, ok, err, t0.Add(30*time.Minute))
	}
	at, ok, err = s.OldestSnapshot(ctx(), "GB")
	if err != nil || !ok || !at.Equal(t0.Add(-time.Hour)) {
		t.Errorf("OldestSnapshot(GB) = %v, %v, %v; want %v", at, ok, err, t0.Add(-time.Hour))
	}
	if _, ok, err := s.OldestSnapshot(ctx(), "FI"); err != nil || ok {
		t.Errorf("OldestSnapshot(FI): ok %v, %v; want none", ok, err)
	}
}

// --- the lease fence ---

// fenceLease is the lease the fence checks name.
const fenceLease = "ingest"

// fenceState is what a fenced batch writes, as the store answers it.
type fenceState struct {
	Changes1, Changes2 []string // CompanyChanges of companies 1 and 2
	Feed               []string // alice's feed
	Snapshot           string   // company 1's report
	Cursor             string   // "no/enheter"
	Deliveries         int      // of wch_1
}

// fenceSetup stores a watch of companies 1 and 2, company 1's snapshot,
// a cursor and a change of company 2: what a fenced batch would replace,
// move on or purge.
func fenceSetup(t *testing.T, s changes.Store) {
	t.Helper()
	create(t, s, watch("alice", "wch_1", "NO", nil, "1", "2"))
	if _, err := s.Apply(ctx(), changes.Batch{
		Changes:   []changes.Change{change("NO", "2", changes.KindStatusChanged, "old-2", t0)},
		Snapshots: []changes.Snapshot{{Country: "NO", CompanyID: "1", Report: raw(`{"v":1}`), TakenAt: t0}},
		Cursors:   map[string]string{"no/enheter": "100"},
	}); err != nil {
		t.Fatal(err)
	}
}

// fenceBefore is the state fenceSetup leaves.
var fenceBefore = fenceState{
	Changes2: []string{"2/status_changed"}, Feed: []string{"2/status_changed"},
	Snapshot: `{"v":1}`, Cursor: "100", Deliveries: 1,
}

// fenceAfter is the state once fencedBatch is recorded.
var fenceAfter = fenceState{
	Changes1: []string{"1/name_changed"}, Feed: []string{"1/name_changed"},
	Snapshot: `{"v":2}`, Cursor: "200", Deliveries: 1,
}

// fencedBatch writes a bit of everything under f: a change of a watched
// company (a feed entry, a delivery), a snapshot, a cursor, and the
// purge of company 2 (which deletes its change and delivery).
func fencedBatch(f *changes.LeaseFence) changes.Batch {
	return changes.Batch{
		Changes:   []changes.Change{change("NO", "1", changes.KindNameChanged, "fence-1", t0.Add(time.Hour))},
		Snapshots: []changes.Snapshot{{Country: "NO", CompanyID: "1", Report: raw(`{"v":2}`), TakenAt: t0.Add(time.Hour)}},
		Cursors:   map[string]string{"no/enheter": "200"},
		Purge:     []changes.CompanyRef{{Country: "NO", CompanyID: "2"}},
		Lease:     f,
	}
}

func stateOf(t *testing.T, s changes.Store) fenceState {
	t.Helper()
	var st fenceState
	for _, c := range []struct {
		id  string
		out *[]string
	}{{"1", &st.Changes1}, {"2", &st.Changes2}} {
		cs, err := s.CompanyChanges(ctx(), "NO", c.id, 10)
		if err != nil {
			t.Fatal(err)
		}
		*c.out = ids(cs)
	}
	f, _ := feed(t, s, "alice", "", 10)
	st.Feed = ids(f)
	sn, err := s.Snapshot(ctx(), "NO", "1")
	if err != nil {
		t.Fatal(err)
	}
	st.Snapshot = string(sn.Report)
	if st.Cursor, err = s.Cursor(ctx(), "no/enheter"); err != nil {
		t.Fatal(err)
	}
	dl, err := s.Deliveries(ctx(), "alice", "wch_1", 10)
	if err != nil {
		t.Fatal(err)
	}
	st.Deliveries = len(dl)
	return st
}

// applyFenced applies fencedBatch under holder's fence and checks the
// error: ErrLeaseLost and nothing recorded when lost, else none.
func applyFenced(t *testing.T, s changes.Store, holder string, lost bool) {
	t.Helper()
	got, err := s.Apply(ctx(), fencedBatch(&changes.LeaseFence{Name: fenceLease, Holder: holder}))
	switch {
	case lost && !errors.Is(err, changes.ErrLeaseLost):
		t.Fatalf("Apply fenced by %s: error %v, want ErrLeaseLost", holder, err)
	case lost && len(got) > 0:
		t.Errorf("a refused Apply returned %d changes", len(got))
	case !lost && err != nil:
		t.Fatalf("Apply fenced by the holder %s: %v", holder, err)
	case !lost && len(got) != 1:
		t.Errorf("Apply fenced by the holder %s recorded %v", holder, ids(got))
	}
}

// A batch fenced by the lease's holder is recorded as an unfenced one.
// The fence compares holders only: a lease whose time ran out but that no
// one took since is still its holder's (the times are the callers').
func testApplyFenceHeld(t *testing.T, s changes.Store) {
	fenceSetup(t, s)
	if !acquire2(t, s, fenceLease, "a", t0) { // a one-second lease, long run out at any clock
		t.Fatal("the free lease was refused")
	}
	applyFenced(t, s, "a", false)
	diff(t, "state after an Apply fenced by the holder", fenceAfter, stateOf(t, s))
}

// A batch fenced by a lease never taken writes nothing: no change, no
// feed entry, no delivery, no snapshot, no cursor, no purge. Another
// lease of the same holder does not count.
func testApplyFenceNeverTaken(t *testing.T, s changes.Store) {
	fenceSetup(t, s)
	if !acquire2(t, s, "other", "a", t0) {
		t.Fatal("the free lease was refused")
	}
	applyFenced(t, s, "a", true)
	diff(t, "state after an Apply fenced by a lease never taken", fenceBefore, stateOf(t, s))
	// Nothing to claim either.
	if got := claim(t, s, "w", time.Now().Add(time.Hour), 10); len(got) != 1 || got[0].Change.CompanyID != "2" {
		t.Errorf("claims after a refused Apply: %v, want the setup's one", claimedIDs(got))
	}
}

// A batch fenced by a holder whose lease another holder took (after it
// ran out) writes nothing; the new holder's is recorded; once the new
// holder released the lease, its batches are refused too.
func testApplyFenceTakenOver(t *testing.T, s changes.Store) {
	fenceSetup(t, s)
	if !acquire2(t, s, fenceLease, "a", t0) {
		t.Fatal("the free lease was refused")
	}
	if !acquire2(t, s, fenceLease, "b", t0.Add(time.Second)) {
		t.Fatal("the run-out lease was refused")
	}
	applyFenced(t, s, "a", true)
	diff(t, "state after an Apply fenced by the replaced holder", fenceBefore, stateOf(t, s))
	applyFenced(t, s, "b", false)
	diff(t, "state after an Apply fenced by the new holder", fenceAfter, stateOf(t, s))
	if err := s.ReleaseLease(ctx(), fenceLease, "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx(), changes.Batch{Cursors: map[string]string{"no/enheter": "300"},
		Lease: &changes.LeaseFence{Name: fenceLease, Holder: "b"}}); !errors.Is(err, changes.ErrLeaseLost) {
		t.Errorf("Apply fenced by a released lease: %v, want ErrLeaseLost", err)
	}
	if c, _ := s.Cursor(ctx(), "no/enheter"); c != "200" {
		t.Errorf("cursor after a refused Apply = %q, want 200", c)
	}
}

// A batch without a fence is recorded whoever holds the lease.
func testApplyNoFence(t *testing.T, s changes.Store) {
	fenceSetup(t, s)
	if !acquire2(t, s, fenceLease, "b", t0) {
		t.Fatal("the free lease was refused")
	}
	if got, err := s.Apply(ctx(), fencedBatch(nil)); err != nil || len(got) != 1 {
		t.Fatalf("Apply without a fence: %v, %v", ids(got), err)
	}
	diff(t, "state after an Apply without a fence", fenceAfter, stateOf(t, s))
}

// A holder's fenced Applies race with another holder taking the lease:
// every Apply that succeeds is ordered before the takeover, so the new
// holder's cursor, written after it took the lease, is never written
// over, and the old holder's Applies fail from the takeover on.
func testConcurrentApplyFence(t *testing.T, s changes.Store) {
	if !acquire2(t, s, fenceLease, "a", t0) {
		t.Fatal("the free lease was refused")
	}
	fa := &changes.LeaseFence{Name: fenceLease, Holder: "a"}
	first := make(chan struct{})
	result := make(chan error, 1)
	go func() {
		// a writes until the store refuses it (at most 10000 batches: a
		// store without a fence fails the test instead of hanging).
		for i := range 10000 {
			_, err := s.Apply(ctx(), changes.Batch{Cursors: map[string]string{"x": fmt.Sprint("a-", i)}, Lease: fa})
			if i == 0 {
				close(first)
			}
			if err != nil {
				result <- err
				return
			}
		}
		result <- errors.New("never refused")
	}()
	<-first
	if !acquire2(t, s, fenceLease, "b", t0.Add(time.Hour)) {
		t.Fatal("the run-out lease was refused")
	}
	if _, err := s.Apply(ctx(), changes.Batch{Cursors: map[string]string{"x": "b"},
		Lease: &changes.LeaseFence{Name: fenceLease, Holder: "b"}}); err != nil {
		t.Fatal(err)
	}
	if err := <-result; !errors.Is(err, changes.ErrLeaseLost) {
		t.Fatalf("the replaced holder's Applies ended with %v, want ErrLeaseLost", err)
	}
	if c, _ := s.Cursor(ctx(), "x"); c != "b" {
		t.Errorf("cursor = %q, want the new holder's b", c)
	}
}

// --- secret rotation (changes.SecretRotator) ---

// rotator returns s as a SecretRotator, or skips the test.
func rotator(t *testing.T, s changes.Store) changes.SecretRotator {
	t.Helper()
	r, ok := s.(changes.SecretRotator)
	if !ok {
		t.Skip("the store does not implement changes.SecretRotator")
	}
	return r
}

// keysOf is what a claim of the watch's delivery carries for signing.
func keysOf(c changes.Claim) changes.WatchKeys {
	return changes.WatchKeys{Current: c.Secret, Previous: c.Previous}
}

func watchKeys(t *testing.T, r changes.SecretRotator, owner, id string) changes.WatchKeys {
	t.Helper()
	k, err := r.WatchKeys(ctx(), owner, id)
	if err != nil {
		t.Fatalf("WatchKeys(%s, %s): %v", owner, id, err)
	}
	return k
}

// prev is a previous key and its end.
func prev(key string, until time.Time) webhook.PreviousKey {
	return webhook.PreviousKey{Key: []byte(key), Until: until}
}

// rotate rotates the watch of alice at now to key, the replaced key
// signing until until.
func rotate(t *testing.T, r changes.SecretRotator, id, key string, now, until time.Time) {
	t.Helper()
	if err := r.RotateSecret(ctx(), "alice", id, []byte(key), now, until); err != nil {
		t.Fatalf("RotateSecret(%s, %s): %v", id, key, err)
	}
}

// testRotateSecret: before a rotation a watch has one key, in WatchKeys
// and in a claim; after one, the new key is current and the replaced one
// previous with its end, in both. A disabled watch rotates too.
func testRotateSecret(t *testing.T, s changes.Store) {
	r := rotator(t, s)
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	create(t, s, watch("alice", "wch_2", "NO", nil, "2"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour)
	before := changes.WatchKeys{Current: []byte("secret-wch_1")}
	diff(t, "WatchKeys before a rotation", before, watchKeys(t, r, "alice", "wch_1"))
	cl := claim(t, s, "w1", now, 10)
	if len(cl) != 1 {
		t.Fatalf("claimed %d, want 1", len(cl))
	}
	diff(t, "a claim's keys before a rotation", before, keysOf(cl[0]))

	until := t0.Add(24 * time.Hour)
	rotate(t, r, "wch_1", "secret-2", t0, until)
	after := changes.WatchKeys{Current: []byte("secret-2"), Previous: []webhook.PreviousKey{prev("secret-wch_1", until)}}
	diff(t, "WatchKeys after a rotation", after, watchKeys(t, r, "alice", "wch_1"))
	if got, err := s.WatchSecret(ctx(), "alice", "wch_1"); err != nil || string(got) != "secret-2" {
		t.Errorf("WatchSecret after a rotation = %q, %v; want the new key", got, err)
	}
	cl = claim(t, s, "w2", now.Add(2*time.Minute), 10) // w1's lease ended
	if len(cl) != 1 {
		t.Fatalf("claimed %d after the rotation, want 1", len(cl))
	}
	diff(t, "a claim's keys after a rotation", after, keysOf(cl[0]))
	diff(t, "the other watch's keys", changes.WatchKeys{Current: []byte("secret-wch_2")}, watchKeys(t, r, "alice", "wch_2"))

	// A disabled watch rotates as any other.
	if err := s.RecordAttempt(ctx(), cl[0].Delivery.ID, changes.Attempt{Worker: "w2", At: now, StatusCode: 410, Disable: true,
		Reason: "the endpoint answered 410 Gone"}); err != nil {
		t.Fatal(err)
	}
	rotate(t, r, "wch_1", "secret-3", t0.Add(time.Hour), until.Add(time.Hour))
	diff(t, "a disabled watch's keys after a rotation",
		changes.WatchKeys{Current: []byte("secret-3"), Previous: []webhook.PreviousKey{prev("secret-2", until.Add(time.Hour)), prev("secret-wch_1", until)}},
		watchKeys(t, r, "alice", "wch_1"))
}

// testRotateSecretWithinOverlap: rotations within the overlap keep every
// replaced key with its own end, newest first, up to
// changes.MaxPreviousSecrets (two): the second keeps the original key
// beside the one it replaces (a caller that lost the first answer and
// rotated again leaves its receiver's key signing), the third drops the
// original, the oldest. WatchKeys and a claim agree after each.
func testRotateSecretWithinOverlap(t *testing.T, s changes.Store) {
	r := rotator(t, s)
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	end := func(h int) time.Time { return t0.Add(time.Duration(24+h) * time.Hour) } // each rotation's end: its time + 24 h
	want := []changes.WatchKeys{
		{Current: []byte("secret-2"), Previous: []webhook.PreviousKey{prev("secret-wch_1", end(0))}},
		{Current: []byte("secret-3"), Previous: []webhook.PreviousKey{prev("secret-2", end(1)), prev("secret-wch_1", end(0))}},
		{Current: []byte("secret-4"), Previous: []webhook.PreviousKey{prev("secret-3", end(2)), prev("secret-2", end(1))}},
	}
	var gotKeys, gotClaims []changes.WatchKeys
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0))
	now := time.Now().Add(time.Hour)
	for i := range want {
		rotate(t, r, "wch_1", fmt.Sprintf("secret-%d", i+2), t0.Add(time.Duration(i)*time.Hour), end(i))
		gotKeys = append(gotKeys, watchKeys(t, r, "alice", "wch_1"))
		now = now.Add(2 * time.Minute) // the last claim's lease has ended
		cl := claim(t, s, "w1", now, 1)
		if len(cl) != 1 {
			t.Fatalf("claimed %d after rotation %d, want 1", len(cl), i+1)
		}
		gotClaims = append(gotClaims, keysOf(cl[0]))
	}
	diff(t, "WatchKeys after each of three rotations within the overlap", want, gotKeys)
	diff(t, "a claim's keys after each of three rotations within the overlap", want, gotClaims)
	if changes.MaxPreviousSecrets != 2 {
		t.Errorf("MaxPreviousSecrets = %d; this case checks 2", changes.MaxPreviousSecrets)
	}
}

// testRotateSecretDropsExpired: a rotation drops each previous key whose
// end is not after the rotation's time, wherever it stands: an expired
// original (at its very end, too), an expired newer key while an older
// one with a longer end (a longer overlap then) still signs, and both.
func testRotateSecretDropsExpired(t *testing.T, s changes.Store) {
	r := rotator(t, s)
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	create(t, s, watch("alice", "wch_2", "NO", nil, "2"))
	h := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	got := map[string]changes.WatchKeys{}

	rotate(t, r, "wch_1", "secret-2", h(0), h(1))
	rotate(t, r, "wch_1", "secret-3", h(2), h(3))
	got["after the first key's end"] = watchKeys(t, r, "alice", "wch_1")
	rotate(t, r, "wch_1", "secret-4", h(3), h(4))
	got["at the previous key's end"] = watchKeys(t, r, "alice", "wch_1")

	rotate(t, r, "wch_2", "secret-b", h(0), h(10))
	rotate(t, r, "wch_2", "secret-c", h(1), h(2))
	rotate(t, r, "wch_2", "secret-d", h(3), h(4))
	got["the newer previous key expired, the older not"] = watchKeys(t, r, "alice", "wch_2")

	create(t, s, watch("alice", "wch_3", "NO", nil, "3"))
	rotate(t, r, "wch_3", "secret-y", h(0), h(1))
	rotate(t, r, "wch_3", "secret-z", h(0), h(2))
	rotate(t, r, "wch_3", "secret-last", h(5), h(6))
	got["both previous keys expired"] = watchKeys(t, r, "alice", "wch_3")

	want := map[string]changes.WatchKeys{
		"after the first key's end": {Current: []byte("secret-3"), Previous: []webhook.PreviousKey{prev("secret-2", h(3))}},
		"at the previous key's end": {Current: []byte("secret-4"), Previous: []webhook.PreviousKey{prev("secret-3", h(4))}},
		"the newer previous key expired, the older not": {Current: []byte("secret-d"),
			Previous: []webhook.PreviousKey{prev("secret-c", h(4)), prev("secret-wch_2", h(10))}},
		"both previous keys expired": {Current: []byte("secret-last"), Previous: []webhook.PreviousKey{prev("secret-z", h(6))}},
	}
	diff(t, "keys after rotations past earlier keys' ends", want, got)
}

// testRotateSecretNotFound: another owner's watch, a deleted one, an
// unknown id and an id that is not text are not found, and a refused
// rotation changes nothing.
func testRotateSecretNotFound(t *testing.T, s changes.Store) {
	r := rotator(t, s)
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	create(t, s, watch("alice", "wch_2", "NO", nil, "2"))
	if err := s.DeleteWatch(ctx(), "alice", "wch_2"); err != nil {
		t.Fatal(err)
	}
	got, want := map[string]bool{}, map[string]bool{}
	for _, c := range []struct{ what, owner, id string }{
		{"another owner's watch", "bob", "wch_1"},
		{"a deleted watch", "alice", "wch_2"},
		{"an unknown id", "alice", "wch_9"},
		{"an id that is not text", "alice", "wch_1\xff"},
	} {
		err := r.RotateSecret(ctx(), c.owner, c.id, []byte("secret-x"), t0, t0)
		_, kerr := r.WatchKeys(ctx(), c.owner, c.id)
		got["RotateSecret: "+c.what], want["RotateSecret: "+c.what] = errors.Is(err, changes.ErrNotFound), true
		got["WatchKeys: "+c.what], want["WatchKeys: "+c.what] = errors.Is(kerr, changes.ErrNotFound), true
	}
	diff(t, "ErrNotFound", want, got)
	diff(t, "the watch's keys after refused rotations", changes.WatchKeys{Current: []byte("secret-wch_1")}, watchKeys(t, r, "alice", "wch_1"))
}

// testConcurrentRotateAndClaim: claims that run while a watch is rotated
// again and again (all within the overlap) each see the keys of one
// state, the current key and the two it replaced last, newest first:
// never a new key without its predecessors, which would sign a webhook
// with none of the keys the receiver held.
func testConcurrentRotateAndClaim(t *testing.T, s changes.Store) {
	r := rotator(t, s)
	create(t, s, watch("alice", "wch_1", "NO", nil, "1"))
	apply(t, s, change("NO", "1", changes.KindNameChanged, "", t0))
	const rotations = 30
	key := func(i int) []byte {
		if i == 0 {
			return []byte("secret-wch_1")
		}
		return []byte(fmt.Sprintf("secret-%02d", i))
	}
	end := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Hour) }
	done, exited := make(chan error, 1), make(chan struct{})
	t.Cleanup(func() { <-exited }) // before the store closes, also after a failure below
	go func() {
		defer close(exited)
		for i := 1; i <= rotations; i++ {
			if err := r.RotateSecret(ctx(), "alice", "wch_1", key(i), t0, end(i)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	now := time.Now().Add(time.Hour)
	var seen []string
	var rotErr error
	for finished := false; !finished; {
		select {
		case rotErr = <-done:
			finished = true
		default:
		}
		now = now.Add(2 * time.Minute) // the last claim's lease has ended
		got, err := s.ClaimDeliveries(ctx(), "w", now, 1, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("claimed %d, want the one delivery", len(got))
		}
		k := keysOf(got[0])
		i := -1
		for j := 0; j <= rotations; j++ {
			if string(k.Current) == string(key(j)) {
				i = j
			}
		}
		var want changes.WatchKeys
		switch {
		case i < 0:
			t.Fatalf("a claim's current key %q is none of the keys stored", k.Current)
		case i == 0:
			want = changes.WatchKeys{Current: key(0)}
		case i == 1:
			want = changes.WatchKeys{Current: key(1), Previous: []webhook.PreviousKey{{Key: key(0), Until: end(1)}}}
		default:
			want = changes.WatchKeys{Current: key(i), Previous: []webhook.PreviousKey{{Key: key(i - 1), Until: end(i)},
				{Key: key(i - 2), Until: end(i - 1)}}}
		}
		if d := cmp.Diff(want, k, opts); d != "" {
			t.Fatalf("a claim during rotations saw keys of no one state (-want +got):\n%s", d)
		}
		seen = append(seen, string(k.Current))
	}
	if rotErr != nil {
		t.Fatal(rotErr)
	}
	if last := seen[len(seen)-1]; last != string(key(rotations)) {
		t.Errorf("the claim after the last rotation has key %q, want %q", last, key(rotations))
	}
}
