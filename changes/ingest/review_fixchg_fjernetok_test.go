package ingest

import (
	"encoding/json"
	"testing"

	"github.com/companyregistry/registry/changes"
)

// TestReview_FjernetAnsweredFoundKeepsData (research §1.3 Fjernet: "copies
// must remove the unit"; the fix's rule: keep only the deletion, without
// name or patch): a Fjernet event whose unit the register still answers
// 200 for (the open-data copy behind the feed, or a cache, not yet
// updated) goes through refreshInto with purge set but no deletion: the
// earlier changes are purged, yet the batch records the new name_changed
// (old and new names in its values) and stores the full snapshot, so the
// removed unit's data is kept and served, and no deleted change is ever
// recorded.
func TestReview_FjernetAnsweredFoundKeepsData(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`))
	watch(t, st, "NO", []string{"971421444"}, snapshot(report("NO", "971421444", "FJERNES AS"), nil))
	f.set("NO", "971421444", ok(report("NO", "971421444", "NYTT NAVN AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	for _, c := range companyChanges(t, st, "NO", "971421444") {
		if c.Kind != changes.KindDeleted {
			t.Errorf("a unit removed from the open data (Fjernet) has a %s change recorded: old %s new %s", c.Kind, c.Old, c.New)
		}
	}
	if snap, err := st.Snapshot(t.Context(), "NO", "971421444"); err == nil && string(snap.Report) != "null" {
		t.Errorf("the snapshot of a unit removed from the open data keeps its report: %s", snap.Report)
	}
}
