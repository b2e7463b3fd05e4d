package ingest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// syncedNorway is a Norway whose syncs the test waits for.
type syncedNorway struct {
	*Norway
	syncs chan time.Time
}

func (s syncedNorway) Sync(ctx context.Context, now time.Time) error {
	err := s.Norway.Sync(ctx, now)
	s.syncs <- now
	return err
}

// TestReview_LeaseBlipForgetsNorwayRetry (doc/decisions.md, after rev-ie:
// memory is forgotten "each time the replica starts leading ... another
// replica may have led meanwhile ... A handover forgets them as a restart
// does"; CHANGELOG: "so does a lease handover between replicas"): the
// Leader also stops leading when two renewals in a row fail (a store
// failover of twenty seconds), with no other replica, and takes the
// lease back at its next try. No one read the feeds meanwhile, so
// nothing kept is stale, yet Leader.lead makes Norway forget its retries
// and held items. The item whose fetch failed with internal_error is past
// the stored cursor and is not read again: its change (here a rename; as
// well a bankruptcy) is lost, where before a997f5b the retry survived the
// blip. Neither a restart nor a handover happened.
func TestReview_LeaseBlipForgetsNorwayRetry(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := syncedNorway{Norway: newTestNorway(t, st, f, srv), syncs: make(chan time.Time, 100)}
	clock := newFakeClock(t0)
	flaky := &flakyStore{Store: st}
	a := newTestLeader(t, flaky, clock, "a", n)
	runLeader(t, a)
	recv(t, n.syncs, "first sync") // item 100: internal_error, kept to try again
	clock.BlockUntil(t, 2)
	// The store is unreachable for two renewals; no other replica exists.
	flaky.fail.Store(2)
	clock.Advance(10 * time.Second)
	clock.WaitFor(t, func(w int) bool { return w == 2 && flaky.fail.Load() == 1 })
	clock.Advance(10 * time.Second)
	clock.WaitFor(t, func(w int) bool { return w == 1 && !a.Leading() })
	clock.Advance(10 * time.Second) // the store is back: the same replica leads again
	recv(t, n.syncs, "sync after taking the lease again")
	for range 6 {
		clock.BlockUntil(t, 2)
		clock.Advance(10 * time.Second)
	}
	recv(t, n.syncs, "a sync an interval later")
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("changes after a lease lost to store errors and taken back by the same replica (-want +got):\n%s", diff)
	}
	if got := f.count("NO", noA); got < 2 {
		t.Errorf("%d fetch(es) of the company, want its retry after the blip", got)
	}
}
