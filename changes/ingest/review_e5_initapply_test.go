package ingest

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// applyRecorder records the cursors of each Apply.
type applyRecorder struct {
	*memStore
	mu      sync.Mutex
	cursors []map[string]string
}

func (r *applyRecorder) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	r.mu.Lock()
	r.cursors = append(r.cursors, b.Cursors)
	r.mu.Unlock()
	return r.memStore.Apply(ctx, b)
}

// TestReview_FirstCursorApplyLacksTheRetries (e8047ec, doc/decisions.md
// "The retries of internal_error are stored with the cursors": "The value
// goes with every `Apply` the ingester makes, even an empty list"):
// syncFeed's Apply of a feed's first cursor ("time:...", norway.go:439)
// stores only that cursor, without NO/retry.
func TestReview_FirstCursorApplyLacksTheRetries(t *testing.T) {
	t.Parallel()
	st := &applyRecorder{memStore: newMemStore()}
	f, srv := newFakeFetcher(), newFeedServer(t)
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	var lacking []map[string]string
	for _, c := range st.cursors {
		if _, ok := c[retryCursor]; !ok {
			lacking = append(lacking, c)
		}
	}
	if len(st.cursors) == 0 {
		t.Fatal("no Apply")
	}
	if diff := cmp.Diff([]map[string]string(nil), lacking); diff != "" {
		t.Errorf("Applies of the Norway ingester without %s (-want +got):\n%s", retryCursor, diff)
	}
}
