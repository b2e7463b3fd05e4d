package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// notifying is an ingester whose syncs the test waits for.
type notifying struct {
	Ingester
	synced chan error
}

func (n notifying) Sync(ctx context.Context, now time.Time) error {
	err := n.Ingester.Sync(ctx, now)
	n.synced <- err
	return err
}

// gatedIngester waits at each Sync until the test lets it go on, then
// applies a batch with a cursor (through the ingesters' one path to the
// store) and reports the outcome.
type gatedIngester struct {
	store   changes.Store
	entered chan struct{}
	proceed chan struct{}
	applied chan error
}

func newGatedIngester(st changes.Store) *gatedIngester {
	return &gatedIngester{store: st, entered: make(chan struct{}, 10), proceed: make(chan struct{}), applied: make(chan error, 10)}
}

func (g *gatedIngester) Name() string { return "gated" }

func (g *gatedIngester) Sync(ctx context.Context, now time.Time) error {
	g.entered <- struct{}{}
	select {
	case <-g.proceed:
	case <-ctx.Done():
		return ctx.Err()
	}
	_, err := Apply(ctx, g.store, changes.Batch{Cursors: map[string]string{"gated": now.Format(time.RFC3339)}})
	g.applied <- err
	return err
}

// TestLeaderFencesItsIngestersApplies (the Leader's doc: "Every
// changes.Store.Apply its ingesters make while it leads is fenced by the
// lease"): the batches Norway and a Poller store while a Leader runs them
// carry the Leader's fence; the same ingesters synced without a Leader
// store unfenced batches.
func TestLeaderFencesItsIngestersApplies(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	watch(t, st, "FI", []string{"0112038-9"}, snapshot(report("FI", "0112038-9", "NOKIA OYJ"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
	f.set("FI", "0112038-9", ok(report("FI", "0112038-9", "NOKIA OYJ", withStatus(registry.StatusUnderLiquidation))))
	st.applied = make(chan changes.Batch, 100)
	no := notifying{newTestNorway(t, st, f, srv), make(chan error, 10)}
	fi := notifying{newTestPoller(t, st, f, "FI", WithPollInterval(time.Minute)), make(chan error, 10)}
	clock := newFakeClock(t0)
	stop := runLeader(t, newTestLeader(t, st, clock, "a", no, fi))
	for _, in := range []notifying{no, fi} {
		if err := recv(t, in.synced, "a sync under the Leader"); err != nil {
			t.Fatal(err)
		}
	}
	stop()
	want := &changes.LeaseFence{Name: LeaseName, Holder: "a"}
	var names []string
	for len(st.applied) > 0 {
		b := <-st.applied
		if diff := cmp.Diff(want, b.Lease); diff != "" {
			t.Errorf("the fence of a batch of a led ingester (-want +got):\n%s", diff)
		}
		for c := range b.Cursors {
			names = append(names, c)
		}
	}
	for _, c := range []string{"NO/enheter", "FI/poll"} {
		if !slices.Contains(names, c) {
			t.Errorf("no fenced batch stored %s; batches stored %v", c, names)
		}
	}
	if got := notedOf(companyChanges(t, st, "NO", noA)); len(got) != 1 {
		t.Errorf("Norway's changes under the Leader: %+v", got)
	}

	// Without a Leader: unfenced.
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
	if err := no.Ingester.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if b := recv(t, st.applied, "an unled batch"); b.Lease != nil {
		t.Errorf("an ingester synced without a Leader sent the fence %+v", b.Lease)
	}
}

// TestLeaderStopsAtARefusedApply (changes.ErrLeaseLost; the Leader's doc:
// "logs one warning, stops its ingesters at once, without waiting for the
// next renewal, and tries for the lease again"): another replica takes
// the lease while an ingester of this one is in a sync; its Apply is
// refused and stores nothing; the Leader stops leading before its clock
// moves (no renewal needed), its streamer is stopped, one warning is
// logged; once the lease is free again, it leads again and the
// ingester's next Apply is stored.
func TestLeaderStopsAtARefusedApply(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	in, streamer := newGatedIngester(st), newFakeStreamer("stream")
	var logs bytes.Buffer
	l, err := NewLeader(st, []Ingester{in, streamer}, WithClock(clock), WithHolder("a"), WithLogger(slogJSON(&logs)))
	if err != nil {
		t.Fatal(err)
	}
	stop := runLeader(t, l)
	recv(t, in.entered, "the sync")
	recv(t, streamer.started, "the streamer")
	// Another replica takes the lease (this one's ran out, paused).
	st.mu.Lock()
	st.leaseBy, st.leaseTill = "b", t0.Add(time.Hour)
	st.mu.Unlock()
	in.proceed <- struct{}{}
	if err := recv(t, in.applied, "the refused Apply"); !errors.Is(err, changes.ErrLeaseLost) {
		t.Fatalf("Apply after the takeover: %v, want ErrLeaseLost", err)
	}
	recv(t, streamer.stopped, "the streamer's stop")
	// Settled without the clock moving: only Run's wait for its next try.
	clock.WaitFor(t, func(n int) bool { return n == 1 && !l.Leading() })
	if !clock.Now().Equal(t0) {
		t.Fatalf("the clock moved to %v", clock.Now())
	}
	if got := cursor(t, st, "gated"); got != "" {
		t.Errorf("a refused Apply stored the cursor %q", got)
	}
	// The lease is free again: this replica takes it at its next try.
	if err := st.ReleaseLease(t.Context(), LeaseName, "b"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(DefaultLeaseTTL / 3)
	recv(t, in.entered, "the sync of the next lead")
	in.proceed <- struct{}{}
	if err := recv(t, in.applied, "the Apply of the next lead"); err != nil {
		t.Fatalf("Apply of the next lead: %v", err)
	}
	if got, want := cursor(t, st, "gated"), t0.Add(DefaultLeaseTTL/3).Format(time.RFC3339); got != want {
		t.Errorf("cursor of the next lead %q, want %q", got, want)
	}
	stop()
	want := []string{"the store refused an ingester's write: this replica no longer holds the ingesters' lease; stopping the ingesters"}
	if diff := cmp.Diff(want, warnings(t, &logs)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// applySpy reports the outcome of each Apply.
type applySpy struct {
	changes.Store
	applies chan error
}

func (s *applySpy) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	out, err := s.Store.Apply(ctx, b)
	s.applies <- err
	return out, err
}

// TestStreamStopsAtARefusedFlush: the Companies House stream run under a
// lead whose lease another replica took: its flush is refused, stores no
// timepoint, and Run returns (the lead ended) without a warning of its
// own.
func TestStreamStopsAtARefusedFlush(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{lines: []string{eventLine(t, evCompany)}}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	if held, err := st.AcquireLease(t.Context(), LeaseName, "b", t0, time.Hour); err != nil || !held {
		t.Fatal(held, err)
	}
	var logs bytes.Buffer
	spy := &applySpy{Store: st, applies: make(chan error, 10)}
	s := newTestStream(t, spy, f, srv, clock, WithStreams("companies"), WithLogger(slogJSON(&logs)))
	handled := make(chan event, 4)
	s.handled = func(ev event) { handled <- ev }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fence := newLeadFence("a", cancel)
	done := make(chan error, 1)
	go func() { done <- s.Run(withFence(ctx, fence)) }()
	recv(t, handled, "the event")
	clock.BlockUntil(t, 2) // the flush and the idle check
	clock.Advance(DefaultFlushEvery)
	if err := recv(t, spy.applies, "the flush"); !errors.Is(err, changes.ErrLeaseLost) {
		t.Fatalf("the flush under a lost lease: %v, want ErrLeaseLost", err)
	}
	if err := recv(t, done, "the stream's return"); err != nil {
		t.Errorf("Run = %v", err)
	}
	recv(t, fence.lost, "the lead's end")
	if got := cursor(t, st, "GB/stream/companies"); got != "" || st.refused != 1 {
		t.Errorf("timepoint %q stored, %d refused Applies; want none stored, one refused", got, st.refused)
	}
	if w := warnings(t, &logs); len(w) != 0 {
		t.Errorf("warnings of the stream: %q", w)
	}
}

// pausedFetcher holds its first fetch until the test releases it: a
// replica paused (a stop-the-world pause, a frozen VM) in the middle of a
// sync, whose answer is stale by the time it goes on.
type pausedFetcher struct {
	changes.Fetcher
	first   atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (p *pausedFetcher) Fetch(ctx context.Context, country, id string) (changes.Snapshot, error) {
	if p.first.CompareAndSwap(false, true) {
		p.entered <- struct{}{}
		select {
		case <-p.release:
		case <-ctx.Done():
			return changes.Snapshot{}, ctx.Err()
		}
	}
	return p.Fetcher.Fetch(ctx, country, id)
}

// storedState is what a late write could spoil: the Norwegian cursors and
// retries, A's snapshot and A's changes.
type storedState struct {
	Cursors  map[string]string
	Snapshot string
	Changes  []noted
}

func stateOfNorway(t *testing.T, st changes.Store) storedState {
	t.Helper()
	s := storedState{Cursors: map[string]string{}}
	for _, c := range []string{"NO/enheter", "NO/underenheter", "NO/roller", retryCursor} {
		s.Cursors[c] = cursor(t, st, c)
	}
	snap, err := st.Snapshot(t.Context(), "NO", noA)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct{ Name string }
	if err := json.Unmarshal(snap.Report, &rep); err != nil {
		t.Fatal(err)
	}
	s.Snapshot = rep.Name
	s.Changes = notedOf(companyChanges(t, st, "NO", noA))
	return s
}

// TestFencedLateApplyOfAReplacedLeader (the split brain the fence closes;
// doc/decisions.md "The ingesters' Apply is fenced by the lease"): two
// replicas' Leaders on one SQLite store, each with its own clock. Replica
// a leads and is paused in the fetch of company A for item enheter/100.
// Its lease runs out by b's clock; b takes it over, reads items 100 and
// 101 and records A's two renames. Then a goes on, with the answer it was
// given before the second rename, and stores its page: with no fence its
// stale snapshot and its cursor 101 landed over b's (b then read item 101
// again and recorded item 102's rename from "A NY AS", the wrong old
// name). Fenced, the store refuses a's Apply: nothing a wrote is stored
// (cursors, retries, snapshot and changes are b's, as before a went on),
// a stops leading at once (its clock never moved) with one warning that
// names no company, and b records item 102's rename from "A NYESTE AS".
func TestFencedLateApplyOfAReplacedLeader(t *testing.T) {
	t.Parallel()
	sb := newSplitBrain(t, "A NY AS", "A NYESTE AS", "A FINAL AS")
	st, srv, paused, na, nb := sb.st, sb.srv, sb.paused, sb.na, sb.nb
	clockA, clockB := newFakeClock(t0), newFakeClock(t0)
	var logsA bytes.Buffer
	a, err := NewLeader(st, []Ingester{na}, WithClock(clockA), WithHolder("a"), WithLogger(slogJSON(&logsA)))
	if err != nil {
		t.Fatal(err)
	}
	b := newTestLeader(t, st, clockB, "b", nb)

	stopA := runLeader(t, a)
	recv(t, paused.entered, "a's fetch of A") // a is paused
	runLeader(t, b)
	for !b.Leading() { // a's lease runs out by b's clock
		clockB.BlockUntil(t, 1)
		clockB.Advance(10 * time.Second)
		if clockB.Now().Sub(t0) > time.Minute {
			t.Fatal("b never took the lease")
		}
	}
	if err := recv(t, nb.synced, "b's first sync"); err != nil {
		t.Fatal(err)
	}
	at101 := time.Date(2026, 9, 1, 12, 1, 30, 0, time.UTC)
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
	for range 6 { // one interval: b renews and syncs again
		clockB.BlockUntil(t, 2)
		clockB.Advance(10 * time.Second)
	}
	if err := recv(t, nb.synced, "b's second sync"); err != nil {
		t.Fatal(err)
	}
	before := stateOfNorway(t, st)
	wantBefore := storedState{
		Cursors:  map[string]string{"NO/enheter": "102", "NO/underenheter": "1", "NO/roller": "1", retryCursor: ""},
		Snapshot: "A NYESTE AS",
		Changes: []noted{
			renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100),
			renamed(noA, "A NY AS", "A NYESTE AS", "enheter/101", at101),
		},
	}
	if diff := cmp.Diff(wantBefore, before); diff != "" {
		t.Fatalf("b's work before a goes on (-want +got):\n%s", diff)
	}

	close(paused.release) // a goes on
	if err := recv(t, na.synced, "a's late sync"); !errors.Is(err, changes.ErrLeaseLost) {
		t.Fatalf("a's late sync: %v, want ErrLeaseLost", err)
	}
	clockA.WaitFor(t, func(n int) bool { return n == 1 && !a.Leading() })
	if !clockA.Now().Equal(t0) {
		t.Errorf("a stopped leading at %v, want at once (%v)", clockA.Now(), t0)
	}
	if diff := cmp.Diff(before, stateOfNorway(t, st)); diff != "" {
		t.Errorf("what a's refused Apply changed (-before +after):\n%s", diff)
	}
	stopA()
	want := []string{"the store refused an ingester's write: this replica no longer holds the ingesters' lease; stopping the ingesters"}
	if diff := cmp.Diff(want, warnings(t, &logsA, noA)); diff != "" {
		t.Errorf("a's warnings (-want +got):\n%s", diff)
	}

	at102 := time.Date(2026, 9, 1, 12, 2, 30, 0, time.UTC)
	srv.add(t, "enheter", unitItem(102, noA, "2026-09-01T12:02:30.000Z"))
	for range 6 {
		clockB.BlockUntil(t, 2)
		clockB.Advance(10 * time.Second)
	}
	if err := recv(t, nb.synced, "b's third sync"); err != nil {
		t.Fatal(err)
	}
	wantAfter := storedState{
		Cursors:  map[string]string{"NO/enheter": "103", "NO/underenheter": "1", "NO/roller": "1", retryCursor: ""},
		Snapshot: "A FINAL AS",
		Changes:  append(wantBefore.Changes, renamed(noA, "A NYESTE AS", "A FINAL AS", "enheter/102", at102)),
	}
	if diff := cmp.Diff(wantAfter, stateOfNorway(t, st)); diff != "" {
		t.Errorf("b's work after a's late Apply was refused (-want +got):\n%s", diff)
	}
	if got := sb.fb.count("NO", noA); got != 3 {
		t.Errorf("b fetched A %d times, want once per item", got)
	}
}

// splitBrain is what the split-brain tests share: two replicas' Norway
// ingesters on one SQLite store, company A watched as "A AS" and the feed
// at item 100 (A's rename); a's fetch of A answers "A NY AS" and is
// paused until the test releases it, b's answers bNames in turn.
type splitBrain struct {
	st     *sqlstore.Store
	srv    *feedServer
	paused *pausedFetcher
	fb     *fakeFetcher
	na, nb notifying
}

func newSplitBrain(t *testing.T, bNames ...string) splitBrain {
	t.Helper()
	st, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), sqlstore.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	srv := newFeedServer(t)
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))

	fa := newFakeFetcher()
	fa.set("NO", noA, ok(report("NO", noA, "A NY AS")))
	paused := &pausedFetcher{Fetcher: fa, entered: make(chan struct{}, 1), release: make(chan struct{})}
	fb := newFakeFetcher()
	var as []answer
	for _, n := range bNames {
		as = append(as, ok(report("NO", noA, n)))
	}
	fb.set("NO", noA, as...)
	return splitBrain{st: st, srv: srv, paused: paused, fb: fb,
		na: notifying{newTestNorway(t, st, paused, srv), make(chan error, 10)},
		nb: notifying{newTestNorway(t, st, fb, srv), make(chan error, 10)}}
}
