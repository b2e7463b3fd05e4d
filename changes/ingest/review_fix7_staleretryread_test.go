package ingest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// unitsApplyFails fails the Applies that store Norway's enheter cursor (a
// units feed page's) while failPage is set.
type unitsApplyFails struct {
	*memStore
	failPage atomic.Bool
}

func (s *unitsApplyFails) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	if _, page := b.Cursors["NO/enheter"]; page && s.failPage.Load() {
		return nil, errDown
	}
	return s.memStore.Apply(ctx, b)
}

// TestReview_StaleRetryStampsTheNewerItemsChangeAfterAFailedApply
// (rev-fix7): the rule after rev-ie (doc/decisions.md, "A Norway retry
// ends once the feed has handled and stored a newer item of its company
// ... Kept, a stale retry also recorded a later item's change under its
// own older event and time", TestReview_StaleInternalRetryStampsALaterChange)
// holds only when the newer item's page is stored. faaf896's readAgain is
// about this very path (a page that read a retried company and whose
// Apply failed) and keeps the retry alive with its count started again,
// whatever its item's age. Here enheter/100 (12:00:30) fails and is
// retried; the next sync's page reads the newer enheter/101 (12:01:30),
// whose fetch finds the rename, and its Apply fails; at the sync after,
// the recheck runs before the page is read again, fetches the company for
// the stale retry, and records the rename 101 found under enheter/100 and
// a registered_at a minute early (on the wire, and the feed's event id).
// The page, read again, finds nothing more.
func TestReview_StaleRetryStampsTheNewerItemsChangeAfterAFailedApply(t *testing.T) {
	t.Parallel()
	ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	st := &unitsApplyFails{memStore: ms}
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T12:00:30.000Z"))
	watch(t, ms, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	ie, read := failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS"))
	// 100 fails; its recheck fails; 101's fetch works (its Apply fails);
	// the next recheck and 101's fetch again work.
	f.set("NO", noA, ie, ie, read, read, read)
	setCursors(t, ms, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil { // 100 fails: a retry
		t.Fatal(err)
	}
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
	st.failPage.Store(true)
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err == nil { // the retry fails; 101 read, its Apply fails
		t.Fatal("the page's Apply did not fail")
	}
	st.failPage.Store(false)
	if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := f.count("NO", noA); got != 5 {
		t.Errorf("%d fetches, want 5 (the script)", got)
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/101", time.Date(2026, 9, 1, 12, 1, 30, 0, time.UTC))}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, ms, "NO", noA))); diff != "" {
		t.Errorf("changes (-want +got): 101's rename stamped with the stale retry's older event\n%s", diff)
	}
}
