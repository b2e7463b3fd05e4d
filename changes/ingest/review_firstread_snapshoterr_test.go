package ingest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// failingSnapshotStore fails OldestSnapshot and counts the calls.
type failingSnapshotStore struct {
	*memStore
	calls atomic.Int64
}

func (s *failingSnapshotStore) OldestSnapshot(context.Context, string) (time.Time, bool, error) {
	s.calls.Add(1)
	return time.Time{}, false, errors.New("store: connection reset")
}

// TestReview_FirstReadSnapshotErrorRereadsPerFeed (readFrom's comment:
// "Asked once per sync, only when a feed has no cursor"): when a snapshot
// read fails, nothing is cached and each of the three feeds asks again,
// reading every watched company's snapshot up to the failing one: three
// scans a sync instead of one (with 100,000 watched companies on
// PostgreSQL a scan was about 19 s, see
// sqlstore.BenchmarkReview_NorwayFirstSyncSnapshotScan), repeated every
// interval while the store fails. No cursor is stored meanwhile, which is
// right: nothing is lost. (The scan is one query now,
// Store.OldestSnapshot; it is still asked once a sync.)
func TestReview_FirstReadSnapshotErrorRereadsPerFeed(t *testing.T) {
	t.Parallel()
	mem, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, mem, "NO", []string{"914375916", "923609016"},
		snapshot(report("NO", "914375916", "A AS"), nil), snapshot(report("NO", "923609016", "B ASA"), nil))
	st := &failingSnapshotStore{memStore: mem}
	err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0)
	if err == nil {
		t.Fatal("Sync succeeded with a failing snapshot read")
	}
	for _, c := range []string{"NO/enheter", "NO/underenheter", "NO/roller"} {
		if got := cursor(t, mem, c); got != "" {
			t.Errorf("cursor %s = %q after a failed start, want none", c, got)
		}
	}
	if got := st.calls.Load(); got != 1 {
		t.Errorf("%d reads of the oldest snapshot in one sync; want one", got)
	}
}
