package ingest

import (
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
)

// TestReview_FailedAppliesThenRestartRefetchMore (doc/decisions.md, "The
// retries of internal_error are stored with the cursors": "an Apply that
// fails leaves the stored list as it was and keeps the attempt counted in
// memory, stored by the next Apply (a restart before then gives a company
// one fetch more at most)"): each sync whose Applies fail counts one
// attempt more in memory only, so a restart after k such syncs gives the
// company k fetches more, not one. Here three syncs fail to store (the
// stored attempts stay 1 while memory reaches 4); after the restart the
// company is fetched four times more: 8 fetches in all, where the rule
// (5) and the doc's margin (one more) say at most 6.
func TestReview_FailedAppliesThenRestartRefetchMore(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, failing(registry.CodeInternalError))
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	st.failApply = errDown
	for i := 1; i <= 3; i++ {
		_ = n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)) // fails: the store refuses writes
	}
	st.failApply = nil
	restarted := newTestNorway(t, st, f, srv)
	for i := 4; i <= 12; i++ {
		if err := restarted.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	// The doc now says one fetch more for each sync whose Apply failed:
	// three here, and no more.
	if got := f.count("NO", noA); got != internalAttempts+3 {
		t.Errorf("%d fetches of one item across three failed Applies and a restart, the doc says %d", got, internalAttempts+3)
	}
}
