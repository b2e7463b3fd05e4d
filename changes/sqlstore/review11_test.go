package sqlstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/google/go-cmp/cmp"
)

// review11Stores runs fn over the in-memory store, SQLite and PostgreSQL,
// each on the clock now.
func review11Stores(t *testing.T, now func() time.Time, fn func(t *testing.T, s changes.Store)) {
	t.Run("memstore", func(t *testing.T) { fn(t, memstore.New(now)) })
	t.Run("sqlite", func(t *testing.T) {
		s, _ := openSQLite(t, sqlstore.WithClock(now))
		fn(t, s)
	})
	t.Run("postgres", func(t *testing.T) {
		s, _ := openPostgres(t, sqlstore.WithClock(now))
		fn(t, s)
	})
}

// review11Register is the register's current state: a name per company.
type review11Register struct {
	mu   sync.Mutex
	name map[string]string
}

func (r *review11Register) set(id, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.name[id] = name
}

// review11Fetcher reads the register; with gate set, the next fetch reads
// the state at the moment gate is closed (after entered says it waits),
// or, with readFirst, reads it first and then waits.
type review11Fetcher struct {
	reg       *review11Register
	now       func() time.Time
	mu        sync.Mutex
	gate      chan struct{}
	entered   chan string
	readFirst bool
	fail      error // when set, the next fetch fails with it
}

func (f *review11Fetcher) Fetch(ctx context.Context, country, id string) (changes.Snapshot, error) {
	f.mu.Lock()
	gate, entered, readFirst, fail := f.gate, f.entered, f.readFirst, f.fail
	f.gate, f.fail = nil, nil
	f.mu.Unlock()
	if fail != nil {
		return changes.Snapshot{}, fail
	}
	read := func() string {
		f.reg.mu.Lock()
		defer f.reg.mu.Unlock()
		return f.reg.name[id]
	}
	var name string
	if readFirst {
		name = read()
	}
	if gate != nil {
		entered <- id
		select {
		case <-gate:
		case <-ctx.Done():
			return changes.Snapshot{}, ctx.Err()
		}
	}
	if !readFirst {
		name = read()
	}
	rep := fmt.Sprintf(`{"country":%q,"id":%q,"name":%q,"status":"active"}`, country, id, name)
	return changes.Snapshot{Country: country, CompanyID: id, Report: json.RawMessage(rep), TakenAt: f.now()}, nil
}

type review11Resolver struct{}

func (review11Resolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
}

// review11Service is one replica's Service over the shared store.
func review11Service(t *testing.T, s changes.Store, f changes.Fetcher, now func() time.Time, seed byte) *changes.Service {
	t.Helper()
	cs, err := countries.All(countries.Config{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := changes.NewService(changes.ServiceConfig{Store: s, Fetcher: f, Registry: reg, Now: now,
		Policy: webhook.Policy{Resolver: review11Resolver{}}, Random: rand.NewChaCha8([32]byte{seed})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

// review11Feed lists an owner's feed as "kind old -> new".
func review11Feed(t *testing.T, s changes.Store, owner string) []string {
	t.Helper()
	cs, _, err := s.Changes(context.Background(), owner, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s %s -> %s", c.Kind, c.Old, c.New))
	}
	return out
}

// review11Sweep runs the Norwegian poller's sweep once (every watched
// company fetched and compared with its snapshot): the ingesters' shared
// refresh and Apply.
func review11Sweep(t *testing.T, s changes.Store, f changes.Fetcher, now time.Time) {
	t.Helper()
	p, err := ingest.NewPoller(s, f, "NO")
	if err != nil {
		t.Fatal(err)
	}
	p.RequestSweep()
	if err := p.Sync(context.Background(), now); err != nil {
		t.Fatal(err)
	}
}

const review11Company = "923609016"

// review11TwoCreations sets up a company watched before (its snapshot
// "STALE" kept, awaiting Prune) and starts replica B's creation of a watch
// of it, which stops inside its fresh baseline's fetch; then replica A
// creates a watch of it to the end. It returns the register, B's fetcher's
// gate and B's result.
func review11TwoCreations(t *testing.T, s changes.Store, clock *fakeclock.Clock, readFirst bool) (*review11Register, chan struct{}, chan error) {
	t.Helper()
	ctx := context.Background()
	reg := &review11Register{name: map[string]string{review11Company: "FIRST ASA"}}
	stale := changes.Snapshot{Country: "NO", CompanyID: review11Company,
		Report: json.RawMessage(`{"country":"NO","id":"923609016","name":"STALE ASA","status":"active"}`), TakenAt: clock.Now().Add(-10 * 24 * time.Hour)}
	if _, err := s.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{stale}}); err != nil {
		t.Fatal(err)
	}
	gate, entered := make(chan struct{}), make(chan string, 1)
	fb := &review11Fetcher{reg: reg, now: clock.Now, gate: gate, entered: entered, readFirst: readFirst}
	svcB := review11Service(t, s, fb, clock.Now, 2)
	doneB := make(chan error, 1)
	go func() {
		_, err := svcB.CreateWatch(ctx, "bob", changes.WatchRequest{Country: "NO", IDs: []string{review11Company}, URL: "https://hooks.example.com/bob"})
		doneB <- err
	}()
	<-entered // B has judged the snapshot stale and is fetching
	svcA := review11Service(t, s, &review11Fetcher{reg: reg, now: clock.Now}, clock.Now, 1)
	if _, err := svcA.CreateWatch(ctx, "alice", changes.WatchRequest{Country: "NO", IDs: []string{review11Company}, URL: "https://hooks.example.com/alice"}); err != nil {
		close(gate)
		t.Fatal(err)
	}
	return reg, gate, doneB
}

// TestReview_ConcurrentWatchCreationLosesChange (item 1, the lead's case):
// two replicas create a watch of a company whose snapshot is stale (a
// watch of it was deleted; Prune has not removed it). Both judge it stale
// before either watch is stored. A's watch is stored with a fresh baseline
// "FIRST ASA"; then the company is renamed "SECOND ASA"; B's fetch, which
// began before A's watch existed, reads the new name and B's unfenced
// Apply replaces A's baseline with it. The ingester's next refresh finds
// nothing: the rename, which happened while A's watch existed, is never in
// A's feed and never delivered.
func TestReview_ConcurrentWatchCreationLosesChange(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	review11Stores(t, clock.Now, func(t *testing.T, s changes.Store) {
		reg, gate, doneB := review11TwoCreations(t, s, clock, false)
		clock.Advance(time.Minute)
		reg.set(review11Company, "SECOND ASA") // while A's watch exists
		close(gate)
		if err := <-doneB; err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
		review11Sweep(t, s, &review11Fetcher{reg: reg, now: clock.Now}, clock.Now())
		want := []string{`name_changed "FIRST ASA" -> "SECOND ASA"`}
		if diff := cmp.Diff(want, review11Feed(t, s, "alice")); diff != "" {
			t.Errorf("alice's feed (-want +got): a rename after her watch was stored\n%s", diff)
		}
	})
}

// TestReview_ConcurrentWatchCreationReportsChangeTwice (item 1): as above,
// but B's fetch read the register before the rename and its Apply comes
// after the ingester recorded the rename: the snapshot steps back to
// "FIRST ASA", and the next refresh records the same rename again, a
// second webhook (another webhook-id) for A's owner.
func TestReview_ConcurrentWatchCreationReportsChangeTwice(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	review11Stores(t, clock.Now, func(t *testing.T, s changes.Store) {
		reg, gate, doneB := review11TwoCreations(t, s, clock, true)
		clock.Advance(time.Minute)
		reg.set(review11Company, "SECOND ASA")
		f := &review11Fetcher{reg: reg, now: clock.Now}
		review11Sweep(t, s, f, clock.Now())
		close(gate)
		if err := <-doneB; err != nil {
			t.Fatal(err)
		}
		clock.Advance(24 * time.Hour)
		review11Sweep(t, s, f, clock.Now())
		want := []string{`name_changed "FIRST ASA" -> "SECOND ASA"`}
		if diff := cmp.Diff(want, review11Feed(t, s, "alice")); diff != "" {
			t.Errorf("alice's feed (-want +got): one rename\n%s", diff)
		}
	})
}

// TestReview_PruneDuringCreationLeavesWatchWithoutBaseline (item 1, an
// interleaving with a second replica other than the lead's): alice creates
// a watch of two companies; the first is watched by carol, whose snapshot
// of it (a quiet company: taken 40 days ago, still right) serves as the
// baseline, so only the second is fetched. During that fetch carol deletes
// her watch and another replica's RunPrune pass removes the snapshot of a
// company no watch holds. Alice's watch is stored with no baseline for the
// first company and none pending (BaselinePending is empty, so
// TakeBaselines does not look until its hourly rescan); the ingester's
// first refresh takes the renamed company as its baseline and reports
// nothing: a rename after alice's watch was stored is lost.
func TestReview_PruneDuringCreationLeavesWatchWithoutBaseline(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	review11Stores(t, clock.Now, func(t *testing.T, s changes.Store) {
		ctx := context.Background()
		const other = "974760673"
		reg := &review11Register{name: map[string]string{review11Company: "FIRST ASA", other: "OTHER ASA"}}
		old := changes.Snapshot{Country: "NO", CompanyID: review11Company,
			Report: json.RawMessage(`{"country":"NO","id":"923609016","name":"FIRST ASA","status":"active"}`), TakenAt: clock.Now().Add(-40 * 24 * time.Hour)}
		carol := changes.Watch{ID: "wch_carol", Owner: "carol", Country: "NO", IDs: []string{review11Company},
			URL: "https://hooks.example.com/carol", CreatedAt: old.TakenAt}
		if err := s.CreateWatch(ctx, carol, []byte("0123456789abcdef0123456789abcdef"), []changes.Snapshot{old}); err != nil {
			t.Fatal(err)
		}
		gate, entered := make(chan struct{}), make(chan string, 1)
		svc := review11Service(t, s, &review11Fetcher{reg: reg, now: clock.Now, gate: gate, entered: entered}, clock.Now, 1)
		type result struct {
			w   *changes.CreatedWatch
			err error
		}
		done := make(chan result, 1)
		go func() {
			w, err := svc.CreateWatch(ctx, "alice", changes.WatchRequest{Country: "NO", IDs: []string{review11Company, other}, URL: "https://hooks.example.com/alice"})
			done <- result{w, err}
		}()
		if got := <-entered; got != other {
			close(gate)
			t.Fatalf("fetched %s first, want %s (the watched company's snapshot is its baseline)", got, other)
		}
		// Meanwhile, on other replicas: carol deletes her watch; a prune pass.
		if err := s.DeleteWatch(ctx, "carol", carol.ID); err != nil {
			close(gate)
			t.Fatal(err)
		}
		if err := s.Prune(ctx, clock.Now().Add(-30*24*time.Hour)); err != nil {
			close(gate)
			t.Fatal(err)
		}
		close(gate)
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		clock.Advance(time.Minute)
		reg.set(review11Company, "SECOND ASA") // after alice's watch was stored
		clock.Advance(time.Minute)
		review11Sweep(t, s, &review11Fetcher{reg: reg, now: clock.Now}, clock.Now())
		want := []string{`name_changed "FIRST ASA" -> "SECOND ASA"`}
		if diff := cmp.Diff(want, review11Feed(t, s, "alice")); diff != "" {
			t.Errorf("alice's feed (-want +got): a rename after her watch was stored (baseline_pending was %v)\n%s", r.w.BaselinePending, diff)
		}
	})
}

// TestReview_SweepStartedBeforeWatchReportsOlderChange (item 1: a false
// change): the poller's sweep reads carol's company's snapshot "FIRST ASA"
// and fetches it. Meanwhile carol deletes her watch, the company is renamed
// (nobody watches it), and alice creates a watch of it: the stored
// snapshot is nobody's, so her baseline is a fresh fetch, "SECOND ASA".
// The sweep's fetch answers "SECOND ASA", and it diffs that with the
// snapshot it read before alice's baseline was stored: a rename made
// before her watch was asked for. Its Apply recorded it in alice's feed
// until the batch named the snapshot it was diffed against
// (changes.Batch.Expect): the store now refuses the company's part, and
// the poller owes it a new read, against alice's baseline.
func TestReview_SweepStartedBeforeWatchReportsOlderChange(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	review11Stores(t, clock.Now, func(t *testing.T, s changes.Store) {
		ctx := context.Background()
		reg := &review11Register{name: map[string]string{review11Company: "FIRST ASA"}}
		old := changes.Snapshot{Country: "NO", CompanyID: review11Company,
			Report: json.RawMessage(`{"country":"NO","id":"923609016","name":"FIRST ASA","status":"active"}`), TakenAt: clock.Now().Add(-time.Hour)}
		carol := changes.Watch{ID: "wch_carol", Owner: "carol", Country: "NO", IDs: []string{review11Company},
			URL: "https://hooks.example.com/carol", CreatedAt: old.TakenAt}
		if err := s.CreateWatch(ctx, carol, []byte("0123456789abcdef0123456789abcdef"), []changes.Snapshot{old}); err != nil {
			t.Fatal(err)
		}
		gate, entered := make(chan struct{}), make(chan string, 1)
		swept := make(chan error, 1)
		go func() {
			p, err := ingest.NewPoller(s, &review11Fetcher{reg: reg, now: clock.Now, gate: gate, entered: entered}, "NO")
			if err == nil {
				p.RequestSweep()
				err = p.Sync(ctx, clock.Now())
			}
			swept <- err
		}()
		<-entered // the sweep has read the snapshot and is fetching
		if err := s.DeleteWatch(ctx, "carol", carol.ID); err != nil {
			close(gate)
			t.Fatal(err)
		}
		reg.set(review11Company, "SECOND ASA") // nobody watches it
		clock.Advance(time.Minute)
		svc := review11Service(t, s, &review11Fetcher{reg: reg, now: clock.Now}, clock.Now, 1)
		if _, err := svc.CreateWatch(ctx, "alice", changes.WatchRequest{Country: "NO", IDs: []string{review11Company}, URL: "https://hooks.example.com/alice"}); err != nil {
			close(gate)
			t.Fatal(err)
		}
		close(gate)
		if err := <-swept; err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string(nil), review11Feed(t, s, "alice")); diff != "" {
			t.Errorf("alice's feed (-want +got): the rename came before she asked for her watch, and her baseline has the new name\n%s", diff)
		}
	})
}

// TestReview_SkewedDispatcherSendsHeldDeliveryAtOnce (item 2): two
// dispatchers with the default lease (30 s) and client timeout (10 s) on
// one store. The review found: with B's clock 25 s ahead of A's (less than
// the lease), A claims the delivery (for 30 s on its clock) and sends it;
// the receiver is still answering when 5 s have passed on both clocks,
// well within A's attempt. B's clock then reads the claim's end: the
// claim has ended by it, B claims the delivery A holds and sends it, the
// same webhook-id, while A's request is still open. A clock behind by as
// much does the same from the other side (its claim ends early by the
// others' clocks): the claim's end is the claimer's clock, compared with
// the next claimer's.
//
// The design does not promise more: the replicas' clocks must agree to
// well within the lease minus the client timeout (20 s here; NTP keeps
// them to milliseconds), as the dispatch package, Store.ClaimDeliveries
// and the README say. So the proof asserts that bound, both ways: B's
// clock 2 s ahead, or A's 2 s behind, and A's attempt still open at its
// longest (10 s on both clocks): B claims nothing and sends nothing.
func TestReview_SkewedDispatcherSendsHeldDeliveryAtOnce(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	skewed := func(d time.Duration) func() time.Time { return func() time.Time { return clock.Now().Add(d) } }
	for _, tc := range []struct {
		name string
		a, b func() time.Time
	}{
		{"b_ahead", clock.Now, skewed(2 * time.Second)},
		{"a_behind", skewed(-2 * time.Second), clock.Now},
	} {
		t.Run(tc.name, func(t *testing.T) { review11Skew(t, clock, tc.a, tc.b) })
	}
}

func review11Skew(t *testing.T, clock *fakeclock.Clock, nowA, nowB func() time.Time) {
	review11Stores(t, clock.Now, func(t *testing.T, s changes.Store) {
		ctx := context.Background()
		hits := make(chan string, 8)
		hold := make(chan struct{})
		var mu sync.Mutex
		first := true
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits <- r.Header.Get("webhook-id")
			mu.Lock()
			wait := first
			first = false
			mu.Unlock()
			if wait {
				<-hold
			}
		}))
		defer srv.Close()
		defer func() {
			select {
			case <-hold:
			default:
				close(hold)
			}
		}()
		key, err := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
		if err != nil {
			t.Fatal(err)
		}
		w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{review11Company}, URL: srv.URL + "/hook", CreatedAt: clock.Now()}
		if err := s.CreateWatch(ctx, w, key, nil); err != nil {
			t.Fatal(err)
		}
		c := changes.Change{Country: "NO", CompanyID: review11Company, Kind: changes.KindNameChanged,
			Old: json.RawMessage(`"FIRST ASA"`), New: json.RawMessage(`"SECOND ASA"`), DetectedAt: clock.Now()}
		if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{c}}); err != nil {
			t.Fatal(err)
		}
		clock.Advance(25 * time.Second) // due by either clock
		client := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
		defer client.CloseIdleConnections()
		dA, err := dispatch.New(dispatch.Config{Store: s, Client: client, Worker: "replica-a", Now: nowA})
		if err != nil {
			t.Fatal(err)
		}
		dB, err := dispatch.New(dispatch.Config{Store: s, Client: client, Worker: "replica-b", Now: nowB})
		if err != nil {
			t.Fatal(err)
		}
		sentA := make(chan int, 1)
		go func() {
			n, _ := dA.Once(ctx)
			sentA <- n
		}()
		var idA string
		select {
		case idA = <-hits: // A's attempt is open at the receiver
		case n := <-sentA:
			t.Fatalf("A claimed %d and sent nothing", n)
		}
		// The longest A's attempt may take.
		clock.Advance(webhook.DefaultTimeout)
		n, err := dB.Once(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var during []string
		for len(hits) > 0 {
			during = append(during, <-hits)
		}
		close(hold)
		<-sentA
		if n != 0 || len(during) != 0 {
			t.Errorf("10 s into A's attempt (of at most 10 s), clocks 2 s apart: B claimed %d and sent %q; A's open request carries %s: want none (sent once at a time)", n, during, idA)
		}
	})
}

// TestReview_TakeBaselinesStepsSnapshotBack (item 1, one watch, one
// replica): a watch whose baseline could not be taken at creation (the
// register failed) waits for TakeBaselines. TakeBaselines finds no
// snapshot and fetches ("FIRST ASA"); before its fetch returns, the
// ingester takes its own baseline ("FIRST ASA"), the company is renamed
// and the ingester records the rename and stores "SECOND ASA". Then
// TakeBaselines' unfenced Apply stores the snapshot it fetched before the
// rename, and the next refresh records the same rename again: a second
// webhook, another webhook-id, for one rename.
func TestReview_TakeBaselinesStepsSnapshotBack(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	review11Stores(t, clock.Now, func(t *testing.T, s changes.Store) {
		ctx := context.Background()
		reg := &review11Register{name: map[string]string{review11Company: "FIRST ASA"}}
		f := &review11Fetcher{reg: reg, now: clock.Now, fail: registry.ErrRateLimited}
		svc := review11Service(t, s, f, clock.Now, 1)
		w, err := svc.CreateWatch(ctx, "alice", changes.WatchRequest{Country: "NO", IDs: []string{review11Company}, URL: "https://hooks.example.com/alice"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{review11Company}, w.BaselinePending); diff != "" {
			t.Fatalf("baseline_pending (-want +got)\n%s", diff)
		}
		gate, entered := make(chan struct{}), make(chan string, 1)
		f.mu.Lock()
		f.gate, f.entered, f.readFirst = gate, entered, true
		f.mu.Unlock()
		taken := make(chan error, 1)
		go func() {
			_, err := svc.TakeBaselines(ctx)
			taken <- err
		}()
		<-entered // TakeBaselines found no snapshot and has read the register
		ing := &review11Fetcher{reg: reg, now: clock.Now}
		clock.Advance(time.Minute)
		review11Sweep(t, s, ing, clock.Now()) // the ingester's baseline
		reg.set(review11Company, "SECOND ASA")
		clock.Advance(time.Minute)
		review11Sweep(t, s, ing, clock.Now()) // the rename, recorded
		close(gate)
		if err := <-taken; err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
		review11Sweep(t, s, ing, clock.Now())
		want := []string{`name_changed "FIRST ASA" -> "SECOND ASA"`}
		if diff := cmp.Diff(want, review11Feed(t, s, "alice")); diff != "" {
			t.Errorf("alice's feed (-want +got): one rename\n%s", diff)
		}
	})
}
