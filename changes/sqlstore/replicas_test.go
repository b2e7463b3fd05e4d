package sqlstore_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/google/go-cmp/cmp"
)

// Three replicas on one database, each with its own Store (its own
// connection pool), run a lease loop and a claim loop in lockstep with an
// injected clock: in each tick the clock moves on and the three do their
// work at once. The ingest lease's leader applies the changes it "finds";
// every replica claims due deliveries, sends them to a fake receiver and
// records the outcome (every fourth change's first attempt fails and is
// retried). At one tick the leader dies: it claims, sends, and stops
// without recording or releasing anything.
//
// Checked: exactly one replica holds the ingest lease in every tick, but
// none while the dead leader's lease runs out; another takes over the
// first tick the lease has expired; no delivery is held by two replicas
// at once; every delivery is sent and succeeds; the deliveries the dead
// leader held are sent again, by another replica, with the same
// webhook-id; the feed holds each change once.
func TestThreeReplicas(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		clock := fakeclock.New(t0)
		first, dsn := open(t, sqlstore.WithClock(clock.Now))
		if dsn[:8] != "postgres" {
			dsn = "sqlite:" + dsn
		}
		stores := []*sqlstore.Store{first}
		for range 2 {
			s, err := sqlstore.Open(ctx, dsn, sqlstore.WithClock(clock.Now), sqlstore.WithMaxConns(4))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			stores = append(stores, s)
		}
		const companies = 30
		var ids []string
		for i := range companies {
			ids = append(ids, fmt.Sprint(900000000+i))
		}
		for _, owner := range []string{"alice", "bob"} {
			w := changes.Watch{ID: "wch_" + owner, Owner: owner, Country: "NO", IDs: ids, URL: "https://" + owner + ".example/hook", CreatedAt: t0}
			if err := first.CreateWatch(ctx, w, []byte("k-"+owner), nil); err != nil {
				t.Fatal(err)
			}
		}

		const (
			tick       = 5 * time.Second
			leaseTTL   = 30 * time.Second
			claimLease = 20 * time.Second
			ingestTill = 20 // the leader ingests in ticks 1..ingestTill
			dieAt      = 6  // the leader dies in this tick
			maxTicks   = 60
		)
		r := &recorder{held: map[string]hold{}, sends: map[string][]send{}, attempts: map[string]int{}}
		names := []string{"replica-0", "replica-1", "replica-2"}
		alive := []bool{true, true, true}
		holders := map[int][]string{} // tick → replicas that got the lease
		var dead string
		var deadHeld []string
		var lastRenew time.Time
		var mu sync.Mutex
		ingested := 0 // changes applied by the leaders

		step := func(i, tk int, now time.Time, die bool) error {
			s, name := stores[i], names[i]
			ok, err := s.AcquireLease(ctx, "ingest", name, now, leaseTTL)
			if err != nil {
				return err
			}
			if ok {
				mu.Lock()
				holders[tk] = append(holders[tk], name)
				mu.Unlock()
				if tk <= ingestTill {
					var batch []changes.Change
					for j := range 3 {
						batch = append(batch, changes.Change{Country: "NO", CompanyID: ids[(tk*3+j)%companies],
							Kind: changes.KindStatusChanged, SourceEventID: fmt.Sprintf("ev-%d-%d", tk, j), DetectedAt: now})
					}
					got, err := s.Apply(ctx, changes.Batch{Changes: batch, Cursors: map[string]string{"no/enheter": fmt.Sprint(tk)}})
					if err != nil {
						return err
					}
					mu.Lock()
					ingested += len(got)
					mu.Unlock()
				}
			}
			claims, err := s.ClaimDeliveries(ctx, name, now, 4, claimLease)
			if err != nil {
				return err
			}
			for _, c := range claims {
				r.claim(name, c, now, now.Add(claimLease))
			}
			if die {
				mu.Lock()
				dead, lastRenew = name, now
				for _, c := range claims {
					deadHeld = append(deadHeld, c.Delivery.ID)
				}
				mu.Unlock()
				return nil // gone: nothing recorded, nothing released
			}
			for _, c := range claims {
				a := r.finish(c, now)
				if !a.Succeeded {
					retry := now.Add(tick)
					a.RetryAt = &retry
				}
				if err := s.RecordAttempt(ctx, c.Delivery.ID, a); err != nil {
					return err
				}
			}
			return nil
		}

		tk := 0
		for tk < maxTicks {
			tk++
			clock.Advance(tick)
			now := clock.Now()
			// At the death tick the leader works alone first, so that it
			// holds deliveries when it dies.
			if tk == dieAt {
				leader := holders[tk-1]
				if len(leader) != 1 {
					t.Fatalf("tick %d: %d leaders", tk-1, len(leader))
				}
				for i, n := range names {
					if n == leader[0] {
						if err := step(i, tk, now, true); err != nil {
							t.Fatal(err)
						}
						alive[i] = false
					}
				}
			}
			var wg sync.WaitGroup
			errs := make(chan error, len(stores))
			for i := range stores {
				if !alive[i] || (tk == dieAt && names[i] == dead) {
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := step(i, tk, now, false); err != nil {
						errs <- fmt.Errorf("%s, tick %d: %w", names[i], tk, err)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if tk > ingestTill && done(ctx, first, 2*ingested) {
				break
			}
		}

		// The lease: one holder per tick, none while the dead leader's
		// lease runs out, a new one from the tick it expired.
		expiry := lastRenew.Add(leaseTTL)
		var takeover string
		for k := 1; k <= tk; k++ {
			at := t0.Add(time.Duration(k) * tick)
			want := 1
			if k > dieAt && at.Before(expiry) {
				want = 0
			}
			if got := holders[k]; len(got) != want {
				t.Errorf("tick %d (%v after the death): lease holders %v, want %d", k, at.Sub(lastRenew), got, want)
			}
			if k > dieAt && !at.Before(expiry) && takeover == "" && len(holders[k]) == 1 {
				takeover = holders[k][0]
				if !at.Equal(expiry) {
					t.Errorf("takeover at %v after the death, want when the lease expired (%v)", at.Sub(lastRenew), leaseTTL)
				}
			}
		}
		if takeover == "" || takeover == dead {
			t.Errorf("no takeover after %s died (new leader %q)", dead, takeover)
		}
		// Deliveries: never held twice at once; all sent and succeeded.
		if len(r.overlaps) != 0 {
			t.Errorf("deliveries held by two replicas at once: %v", r.overlaps)
		}
		if len(deadHeld) == 0 {
			t.Fatalf("the dead leader held no delivery: the test proves nothing about takeover of deliveries")
		}
		for _, id := range deadHeld {
			s := r.sends[id]
			byDead := -1
			for i, x := range s {
				if x.replica == dead {
					byDead = i
				}
			}
			if byDead < 0 || byDead == len(s)-1 {
				t.Errorf("delivery %s held by the dead leader: sends %v", id, s)
			}
			for _, x := range s {
				if x.webhookID != s[0].webhookID {
					t.Errorf("delivery %s sent with webhook-ids %q and %q", id, s[0].webhookID, x.webhookID)
				}
			}
		}
		feed, _, err := first.Changes(ctx, "alice", "", 1000)
		if err != nil {
			t.Fatal(err)
		}
		// One batch of 3 per tick with a leader: not while the dead
		// leader's lease ran out.
		if want := 3 * (ingestTill - int(leaseTTL/tick) + 1); ingested != want || len(feed) != want {
			t.Errorf("the leaders applied %d changes, want %d", ingested, want)
		}
		if len(feed) != ingested {
			t.Errorf("alice's feed holds %d changes, want %d (each event once)", len(feed), ingested)
		}
		var sent []string
		for id, s := range r.sends {
			if r.succeeded[id] {
				sent = append(sent, id)
			} else {
				t.Errorf("delivery %s never succeeded: %v", id, s)
			}
		}
		if want := 2 * ingested; len(sent) != want {
			t.Errorf("%d deliveries succeeded, want %d", len(sent), want)
		}
		for _, owner := range []string{"alice", "bob"} {
			dl, err := first.Deliveries(ctx, owner, "wch_"+owner, 1000)
			if err != nil {
				t.Fatal(err)
			}
			var notDone []string
			for _, d := range dl {
				if d.Status != changes.DeliverySucceeded {
					notDone = append(notDone, d.ID+":"+string(d.Status))
				}
			}
			sort.Strings(notDone)
			if d := cmp.Diff([]string(nil), notDone); d != "" {
				t.Errorf("%s's deliveries not succeeded (-want +got):\n%s", owner, d)
			}
		}
	})
}

// recorder is the fake receiver and the referee of the replicas test.
type recorder struct {
	mu        sync.Mutex
	held      map[string]hold // delivery → who holds it, until when
	overlaps  []string
	sends     map[string][]send
	attempts  map[string]int
	succeeded map[string]bool
}

type hold struct {
	replica string
	until   time.Time
}

type send struct {
	replica, webhookID string
}

func (s send) String() string { return s.replica + "/" + s.webhookID }

// claim notes that replica took c at now until until: another replica's
// hold on it that has not ended (it neither finished nor ran out) is an
// overlap.
func (r *recorder) claim(replica string, c changes.Claim, now, until time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := c.Delivery.ID
	if h, ok := r.held[id]; ok && h.replica != replica && now.Before(h.until) {
		r.overlaps = append(r.overlaps, fmt.Sprintf("%s held by %s until %v, claimed by %s at %v", id, h.replica, h.until, replica, now))
	}
	r.held[id] = hold{replica: replica, until: until}
	r.sends[id] = append(r.sends[id], send{replica: replica, webhookID: c.Change.ID})
}

// finish ends the hold (before the outcome is recorded, while the store
// still holds the claim) and says how the send went: the first attempt of
// every fourth change fails.
func (r *recorder) finish(c changes.Claim, now time.Time) changes.Attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := c.Delivery.ID
	delete(r.held, id)
	r.attempts[id]++
	if c.Change.Seq%4 == 0 && r.attempts[id] == 1 {
		return changes.Attempt{At: now, StatusCode: 503, Error: "503 Service Unavailable"}
	}
	if r.succeeded == nil {
		r.succeeded = map[string]bool{}
	}
	r.succeeded[id] = true
	return changes.Attempt{At: now, StatusCode: 204, Succeeded: true}
}

// done reports whether the store holds every delivery of the ingested
// changes, all succeeded.
func done(ctx context.Context, s *sqlstore.Store, want int) bool {
	n := 0
	for _, owner := range []string{"alice", "bob"} {
		dl, err := s.Deliveries(ctx, owner, "wch_"+owner, 10*want)
		if err != nil {
			return false
		}
		for _, d := range dl {
			if d.Status != changes.DeliverySucceeded {
				return false
			}
			n++
		}
	}
	return n == want
}
