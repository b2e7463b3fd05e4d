package ingest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/companyregistry/registry/changes"
)

// LeaseName is the name of the lease the Leader holds in the store.
const LeaseName = "changes/ingest"

// Leader runs the ingesters on exactly one replica at a time: the one
// holding the store's lease [LeaseName]. Every replica runs a Leader;
// the one that takes the lease calls each ingester's Sync every interval,
// one after the other, and runs each [Streamer]'s Run beside them. It
// renews the lease every third of its TTL and stops the ingesters when it
// loses it (another replica holds it, or the store failed twice in a
// row, so that the lease may have run out). A replica that dies without
// releasing its lease is replaced within the TTL plus a third of it (40
// seconds with the default TTL of 30 s): the others try for the lease
// every third of the TTL. A Leader that stops cleanly releases the lease
// at once.
//
// Every [changes.Store.Apply] its ingesters make while it leads is fenced
// by the lease ([changes.Batch.Lease], holder [Leader.Holder]): the store
// writes it only while this Leader is the lease's holder. So a Leader
// that another replica replaced before it noticed (paused, or cut off
// from the store while its lease ran out) cannot finish a write over the
// new leader's. A write refused so ([changes.ErrLeaseLost]) stores
// nothing; the Leader logs one warning, stops its ingesters at once,
// without waiting for the next renewal, and tries for the lease again.
// It renews with [changes.Store.RenewLease], which never takes back a
// lease that another replica took in between and then released or let
// run out: such a Leader ends its lead too, and only takes the lease anew
// once its ingesters have stopped, so no write of its old lead meets a
// lease that is its own again. What its ingesters held in memory is
// forgotten at its next lead.
type Leader struct {
	store     changes.Store
	ingesters []Ingester
	o         options
	renew     time.Duration
	leading   atomic.Bool
}

// NewLeader returns the leader loop of ingesters, which share the lease in
// store. Options: [WithInterval], [WithLeaseTTL], [WithHolder],
// [WithClock], [WithLogger].
func NewLeader(store changes.Store, ingesters []Ingester, opts ...Option) (*Leader, error) {
	if store == nil {
		return nil, errors.New("ingest: NewLeader: nil store")
	}
	for _, in := range ingesters {
		if in == nil {
			return nil, errors.New("ingest: NewLeader: nil ingester")
		}
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	if o.holder == "" {
		o.holder = defaultHolder()
	}
	return &Leader{store: store, ingesters: append([]Ingester(nil), ingesters...), o: o, renew: o.leaseTTL / 3}, nil
}

// defaultHolder is the host name and a random suffix: two processes on
// one host are two holders.
func defaultHolder() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "replica"
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	return host + "/" + hex.EncodeToString(b[:])
}

// Holder returns the name this Leader holds the lease under.
func (l *Leader) Holder() string { return l.o.holder }

// Leading reports whether this Leader holds the lease and runs the
// ingesters now.
func (l *Leader) Leading() bool { return l.leading.Load() }

// Run tries for the lease until ctx ends, runs the ingesters while it
// holds it, and releases it when ctx ends. It returns nil then; it never
// returns early.
func (l *Leader) Run(ctx context.Context) error {
	for {
		now := l.o.clock.Now()
		held, err := l.store.AcquireLease(ctx, LeaseName, l.o.holder, now, l.o.leaseTTL)
		switch {
		case ended(ctx):
			return nil
		case err != nil:
			l.o.log.LogAttrs(ctx, slog.LevelWarn, "the ingesters' lease could not be taken", errAttrs(err))
		case held:
			l.o.log.LogAttrs(ctx, slog.LevelInfo, "this replica runs the ingesters", slog.String("holder", l.o.holder))
			l.lead(ctx, now)
			if ended(ctx) {
				return nil
			}
		}
		if !sleep(ctx, l.o.clock, l.renew) {
			return nil
		}
	}
}

// memoryHolder is an ingester that keeps what it read in memory between
// syncs (items held for a second look, companies to fetch again). What
// it kept while this replica led before may be stale once another
// replica has led (a company's newer item handled, a unit purged), so the
// Leader makes it forget at the start of each lead, as a restart does:
// what it also stores (the retries) it reads again from the store before
// its next sync uses it.
type memoryHolder interface {
	forgetMemory()
}

// lead runs the ingesters until the lease is lost or ctx ends.
func (l *Leader) lead(ctx context.Context, acquired time.Time) {
	l.leading.Store(true)
	defer l.leading.Store(false)
	for _, in := range l.ingesters {
		if m, ok := in.(memoryHolder); ok {
			m.forgetMemory()
		}
	}
	lctx, cancel := context.WithCancel(ctx)
	// Every Apply of the ingesters under lctx is fenced by the lease: one
	// the store refuses (another replica took the lease) ends the lead.
	fence := newLeadFence(l.o.holder, cancel)
	lctx = withFence(lctx, fence)
	var wg sync.WaitGroup
	stop := func() {
		cancel()
		wg.Wait()
	}
	for _, in := range l.ingesters {
		if s, ok := in.(Streamer); ok {
			wg.Go(func() { l.keepRunning(lctx, s) })
		}
	}
	wg.Go(func() { l.syncLoop(lctx) })

	until := acquired.Add(l.o.leaseTTL)
	for {
		switch sleepOrLost(ctx, l.o.clock, l.renew, fence.lost) {
		case lostLease:
			l.o.log.LogAttrs(ctx, slog.LevelWarn, "the store refused an ingester's write: this replica no longer holds the ingesters' lease; stopping the ingesters")
			stop()
			return
		case ctxEnded:
			stop()
			// A clean stop hands the lease over at once.
			rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := l.store.ReleaseLease(rctx, LeaseName, l.o.holder); err != nil {
				l.o.log.LogAttrs(ctx, slog.LevelWarn, "the ingesters' lease could not be released; it runs out by itself", errAttrs(err))
			}
			rcancel()
			return
		case slept:
		}
		now := l.o.clock.Now()
		// RenewLease, not AcquireLease: a lease another replica took and
		// then released (or let run out) while this one could not renew
		// must not come back to this lead under a write of it still on its
		// way, which the fence (holder match) would then let through. Run
		// takes the lease anew, after the lead's ingesters have stopped.
		held, err := l.store.RenewLease(ctx, LeaseName, l.o.holder, now, l.o.leaseTTL)
		switch {
		case ended(ctx):
			continue // the sleep above returns at once and releases
		case err == nil && held:
			until = now.Add(l.o.leaseTTL)
			continue
		case err == nil:
			l.o.log.LogAttrs(ctx, slog.LevelWarn, "the ingesters' lease is no longer this replica's; stopping the ingesters")
		case now.Add(l.renew).Before(until):
			l.o.log.LogAttrs(ctx, slog.LevelWarn, "the ingesters' lease could not be renewed; retrying", errAttrs(err))
			continue
		default:
			l.o.log.LogAttrs(ctx, slog.LevelWarn, "the ingesters' lease could not be renewed and may run out; stopping the ingesters", errAttrs(err))
		}
		stop()
		return
	}
}

// wake is why [sleepOrLost] returned.
type wake int

const (
	slept     wake = iota // d passed
	ctxEnded              // ctx ended
	lostLease             // lost was closed
)

// sleepOrLost waits d on c, or less when ctx ends or lost is closed.
func sleepOrLost(ctx context.Context, c Clock, d time.Duration, lost <-chan struct{}) wake {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctxEnded
	case <-lost:
		return lostLease
	case <-t.C():
	}
	// Of a timer and a loss ready at once, the loss: a renewal would only
	// hold the lease for a lead that is over.
	select {
	case <-lost:
		return lostLease
	default:
		return slept
	}
}

// keepRunning runs s until ctx ends, starting it again (after a third of
// the lease's TTL) when it returns early, for instance on a store error
// at its start.
func (l *Leader) keepRunning(ctx context.Context, s Streamer) {
	for {
		err := s.Run(ctx)
		if ended(ctx) {
			return
		}
		attrs := []slog.Attr{slog.String("ingester", s.Name())}
		if err != nil {
			attrs = append(attrs, errAttrs(err))
		}
		l.o.log.LogAttrs(ctx, slog.LevelWarn, "an ingester stopped; starting it again", attrs...)
		if !sleep(ctx, l.o.clock, l.renew) {
			return
		}
	}
}

// syncLoop calls each ingester's Sync, then waits the interval, until
// ctx ends.
func (l *Leader) syncLoop(ctx context.Context) {
	for {
		for _, in := range l.ingesters {
			if ctx.Err() != nil {
				return
			}
			start := l.o.clock.Now()
			err := in.Sync(ctx, start)
			if err != nil && ctx.Err() == nil {
				l.o.log.LogAttrs(ctx, slog.LevelWarn, "an ingester's sync failed", slog.String("ingester", in.Name()), errAttrs(err))
			}
			// One debug record per run, naming the lease holder: what shows
			// which replica ingests (.ci/changes-replicas.sh counts them).
			l.o.log.LogAttrs(ctx, slog.LevelDebug, "ingester synced", slog.String("ingester", in.Name()),
				slog.String("holder", l.o.holder), slog.Duration("took", l.o.clock.Now().Sub(start)), slog.Bool("failed", err != nil))
		}
		if !sleep(ctx, l.o.clock, l.o.interval) {
			return
		}
	}
}

// ended reports whether ctx is done.
func ended(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}
