package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_StaleRetryOverwriteNeverCorrected (052929d; doc/decisions.md
// "The retries of internal_error are stored with the cursors": "The value
// is written only when it differs from the one stored"): the Apply has no
// fencing, so the replica that lost the lease can land a late Apply after
// the new leader stored its list: here the old leader's recheck-only
// Apply (its own stale list, with only "NO/retry") overwrites the new
// leader's [A]. The feed cursors have the same exposure, but heal: each
// sync reads its feed cursor from the store and writes the next one. The
// retries do not: "differs from the one stored" is checked against
// retryStored in memory, never against the store, so while the new
// leader's list does not change (its recheck stopped by a transient
// error: the register down, the budget spent) the stale value stays, and
// the next restart or lead reads it: A's retry is gone and its change
// (a rename here; as well a bankruptcy) is never recorded.
func TestReview_StaleRetryOverwriteNeverCorrected(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, failing(registry.CodeInternalError), failing(registry.CodeUpstreamError), ok(report("NO", noA, "A NY AS")))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory() // n leads
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if got := storedNorwayRetries(t, st); len(got) != 1 {
		t.Fatalf("stored retries %+v after the failed fetch, want A's", got)
	}
	// The old leader's last Apply lands late: its recheck stored its own
	// list (none left).
	setCursors(t, st, "NO/retry", "")
	// n's next sync: the register is down for A; its list is unchanged.
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err == nil {
		t.Fatal("sync with the register down: want an error")
	}
	stored := storedNorwayRetries(t, st)
	// A restart (or another lead) reads the stored list.
	restarted := newTestNorway(t, st, f, srv)
	for i := 2; i <= 3; i++ {
		if err := restarted.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if len(stored) == 0 {
		t.Errorf("stored retries after the leader's next sync: none, while it holds A's retry in memory")
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("changes after the restart (-want +got):\n%s", diff)
	}
}
