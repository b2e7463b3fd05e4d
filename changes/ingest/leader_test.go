package ingest

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// fakeIngester counts its syncs.
type fakeIngester struct {
	name  string
	syncs chan time.Time
}

func newFakeIngester(name string) *fakeIngester {
	return &fakeIngester{name: name, syncs: make(chan time.Time, 1000)}
}

func (f *fakeIngester) Name() string { return f.name }

func (f *fakeIngester) Sync(_ context.Context, now time.Time) error {
	f.syncs <- now
	return nil
}

// fakeStreamer says when its Run starts and stops.
type fakeStreamer struct {
	*fakeIngester
	started, stopped chan struct{}
	failFirst        atomic.Bool // the first Run returns at once with an error
}

func newFakeStreamer(name string) *fakeStreamer {
	return &fakeStreamer{fakeIngester: newFakeIngester(name), started: make(chan struct{}, 10), stopped: make(chan struct{}, 10)}
}

func (f *fakeStreamer) Run(ctx context.Context) error {
	f.started <- struct{}{}
	if f.failFirst.CompareAndSwap(true, false) {
		return errDown
	}
	<-ctx.Done()
	f.stopped <- struct{}{}
	return nil
}

// flakyStore fails the lease calls while down, or the next fail ones.
type flakyStore struct {
	changes.Store
	down atomic.Bool
	fail atomic.Int32
}

var errDown = errors.New("store unreachable")

func (s *flakyStore) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if s.down.Load() || s.fail.Add(-1) >= 0 {
		return false, errDown
	}
	return s.Store.AcquireLease(ctx, name, holder, now, ttl)
}

func (s *flakyStore) RenewLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if s.down.Load() || s.fail.Add(-1) >= 0 {
		return false, errDown
	}
	return s.Store.RenewLease(ctx, name, holder, now, ttl)
}

func (s *flakyStore) ReleaseLease(ctx context.Context, name, holder string) error {
	if s.down.Load() {
		return errDown
	}
	return s.Store.ReleaseLease(ctx, name, holder)
}

// runLeader runs l until the returned stop is called (or the test ends).
func runLeader(t *testing.T, l *Leader) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := recv(t, done, "return of Run"); err != nil {
				t.Errorf("Run = %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func newTestLeader(t *testing.T, st changes.Store, clock Clock, holder string, ins ...Ingester) *Leader {
	t.Helper()
	l, err := NewLeader(st, ins, WithClock(clock), WithHolder(holder))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLeaderOneReplicaRunsAndTakeover (issue 28): of two replicas, only
// the one holding the lease runs the ingesters (a sync at once, then one
// per interval, and the streamer's Run); when it dies without releasing
// the lease, the other takes over within a minute.
func TestLeaderOneReplicaRunsAndTakeover(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	dead := &flakyStore{Store: st}
	inA, inB := newFakeStreamer("A"), newFakeStreamer("B")
	a := newTestLeader(t, dead, clock, "a", inA)
	stopA := runLeader(t, a)
	if got := recv(t, inA.syncs, "first sync"); !got.Equal(t0) {
		t.Errorf("first sync at %v, want at once", got)
	}
	recv(t, inA.started, "streamer start")
	b := newTestLeader(t, st, clock, "b", inB)
	runLeader(t, b)
	clock.BlockUntil(t, 3) // a: renewal and interval; b: its retry
	if !a.Leading() || b.Leading() {
		t.Fatalf("leading: a %v, b %v", a.Leading(), b.Leading())
	}
	for range 6 { // a minute: a renews, b retries, a syncs again
		clock.Advance(10 * time.Second)
		clock.BlockUntil(t, 3)
	}
	if got := recv(t, inA.syncs, "second sync"); !got.Equal(t0.Add(time.Minute)) {
		t.Errorf("second sync at %v, want one interval later", got)
	}
	if len(inB.syncs) != 0 {
		t.Fatal("the replica without the lease synced")
	}

	// a dies: it cannot reach the store to release the lease.
	dead.down.Store(true)
	stopA()
	recv(t, inA.stopped, "streamer stop")
	died := clock.Now()                                  // a renewed the lease at this moment
	clock.WaitFor(t, func(n int) bool { return n == 1 }) // only b's retry
	for !b.Leading() {
		clock.Advance(10 * time.Second)
		clock.BlockUntil(t, 1)
		if clock.Now().Sub(died) > time.Minute {
			t.Fatal("no takeover within a minute")
		}
	}
	recv(t, inB.syncs, "sync of the new leader")
	recv(t, inB.started, "streamer start of the new leader")
	if took := clock.Now().Sub(died); took > DefaultLeaseTTL+DefaultLeaseTTL/3 {
		t.Errorf("takeover after %v, want at most %v", took, DefaultLeaseTTL+DefaultLeaseTTL/3)
	}
}

// TestLeaderStopsWhenTheLeaseIsLost: a leader that finds another holder
// at a renewal stops its ingesters at once, and takes the lease again
// when it is free.
func TestLeaderStopsWhenTheLeaseIsLost(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	in := newFakeStreamer("A")
	a := newTestLeader(t, st, clock, "a", in)
	runLeader(t, a)
	recv(t, in.syncs, "sync")
	recv(t, in.started, "start")
	clock.BlockUntil(t, 2)
	st.mu.Lock()
	st.leaseBy, st.leaseTill = "intruder", t0.Add(time.Hour)
	st.mu.Unlock()
	clock.Advance(10 * time.Second)
	recv(t, in.stopped, "stop after losing the lease")
	// Settled: no longer leading, waiting for the next try.
	clock.WaitFor(t, func(n int) bool { return n == 1 && !a.Leading() })
	if err := st.ReleaseLease(t.Context(), LeaseName, "intruder"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	recv(t, in.started, "start after taking the lease again")
	recv(t, in.syncs, "sync after taking the lease again")
}

// TestLeaderRenewalFailures: one failed renewal is tolerated (the lease
// still holds); a second in a row stops the ingesters before the lease
// may run out.
func TestLeaderRenewalFailures(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	flaky := &flakyStore{Store: st}
	in := newFakeStreamer("A")
	a := newTestLeader(t, flaky, clock, "a", in)
	runLeader(t, a)
	recv(t, in.started, "start")
	clock.BlockUntil(t, 2)
	flaky.fail.Store(1)
	clock.Advance(10 * time.Second)
	clock.WaitFor(t, func(n int) bool { return n == 2 && flaky.fail.Load() == 0 })
	if !a.Leading() || len(in.stopped) != 0 {
		t.Fatal("one failed renewal stopped the ingesters")
	}
	flaky.fail.Store(2)
	clock.Advance(10 * time.Second)
	recv(t, in.stopped, "stop after two failed renewals")
	clock.WaitFor(t, func(n int) bool { return n == 1 && !a.Leading() })
}

// TestLeaderReleasesOnStop: a leader stopped cleanly releases the lease,
// so another replica takes it at its next try.
func TestLeaderReleasesOnStop(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	inA, inB := newFakeIngester("A"), newFakeIngester("B")
	stopA := runLeader(t, newTestLeader(t, st, clock, "a", inA))
	recv(t, inA.syncs, "sync")
	b := newTestLeader(t, st, clock, "b", inB)
	runLeader(t, b)
	clock.BlockUntil(t, 3)
	stopA()
	clock.WaitFor(t, func(n int) bool { return n == 1 }) // only b's retry
	clock.Advance(10 * time.Second)
	recv(t, inB.syncs, "sync of b")
	if !b.Leading() {
		t.Error("b does not lead")
	}
}

// TestLeaderRestartsAStreamer: a streamer whose Run returns while the
// leader holds the lease is started again.
func TestLeaderRestartsAStreamer(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	in := newFakeStreamer("A")
	in.failFirst.Store(true)
	runLeader(t, newTestLeader(t, st, clock, "a", in))
	recv(t, in.started, "first start")
	clock.BlockUntil(t, 3) // renewal, interval and the restart's pause
	clock.Advance(10 * time.Second)
	recv(t, in.started, "second start")
	if len(in.stopped) != 0 {
		t.Error("the streamer was stopped")
	}
}

func TestNewLeaderValidation(t *testing.T) {
	t.Parallel()
	if _, err := NewLeader(nil, nil); err == nil {
		t.Error("nil store accepted")
	}
	if _, err := NewLeader(newMemStore(), []Ingester{nil}); err == nil {
		t.Error("nil ingester accepted")
	}
	if _, err := NewLeader(newMemStore(), nil, WithLeaseTTL(time.Second)); err == nil {
		t.Error("a one-second TTL accepted")
	}
	l, err := NewLeader(newMemStore(), nil)
	if err != nil || l.Holder() == "" {
		t.Errorf("default holder %q, %v", l.Holder(), err)
	}
}

// recordHandler sends the records of a logger to a channel.
type recordHandler struct{ records chan slog.Record }

func (h recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h recordHandler) Handle(_ context.Context, r slog.Record) error {
	select {
	case h.records <- r.Clone():
	default: // a full channel drops the record rather than block the leader
	}
	return nil
}
func (h recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordHandler) WithGroup(string) slog.Handler      { return h }

// TestLeaderLogsEachSync: each run of an ingester is one debug record
// naming the ingester and the lease holder, which is how a log shows which
// replica ingests (.ci/changes-replicas.sh counts them).
func TestLeaderLogsEachSync(t *testing.T) {
	t.Parallel()
	st, clock := newMemStore(), newFakeClock(t0)
	in := newFakeIngester("NO/feeds")
	records := make(chan slog.Record, 100)
	l, err := NewLeader(st, []Ingester{in}, WithClock(clock), WithHolder("replica-7"), WithLogger(slog.New(recordHandler{records})))
	if err != nil {
		t.Fatal(err)
	}
	runLeader(t, l)
	recv(t, in.syncs, "sync")
	for {
		r := recv(t, records, "a record")
		if r.Message != "ingester synced" {
			continue
		}
		got := map[string]string{"level": r.Level.String()}
		r.Attrs(func(a slog.Attr) bool {
			got[a.Key] = a.Value.String()
			return true
		})
		want := map[string]string{"level": "DEBUG", "ingester": "NO/feeds", "holder": "replica-7", "took": "0s", "failed": "false"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the sync's record (-want +got):\n%s", diff)
		}
		return
	}
}
