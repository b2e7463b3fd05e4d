package ingest

import (
	"encoding/json"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_InternalRetryAfterFjernetRestoresData (research §1.3
// Fjernet: "Eventuelle kopier skal også fjerne enheten"; doc/decisions.md
// "A purge keeps the deletion, without the name; Fjernet wins over a
// fetch"): a unit's Endring item whose fetch failed with internal_error
// waits in Norway's retry list; the unit's Fjernet item, read before the
// retry succeeds, purges it (deletion, report null). The retry is not
// told: at the next sync it fetches the unit (a copy behind the feed
// still answers 200, the premise of TestReview_FjernetAnsweredFoundKeepsData)
// and stores the full report again, with a change after the deletion.
// The removed unit's data is back in the store and served.
func TestReview_InternalRetryAfterFjernetRestoresData(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	const id = "971421444"
	srv.add(t, "enheter", unitItem(100, id, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{id}, snapshot(report("NO", id, "FJERNES AS"), nil))
	ie := failing(registry.CodeInternalError)
	// Two internal_errors (the item's fetch, its first retry), then the
	// copy behind the feed answering 200.
	f.set("NO", id, ie, ie, ok(report("NO", id, "NYTT NAVN AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// The unit is removed from the open data before the retry succeeds.
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-01T12:00:30.000Z","organisasjonsnummer":"`+id+`","endringstype":"Fjernet"}`))
	for i := 1; i <= 3; i++ {
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range companyChanges(t, st, "NO", id) {
		if c.Kind != changes.KindDeleted {
			t.Errorf("a unit removed from the open data (Fjernet) has a %s change recorded after its purge (event %q): old %s new %s",
				c.Kind, c.SourceEventID, c.Old, c.New)
		}
	}
	if snap, err := st.Snapshot(t.Context(), "NO", id); err == nil && string(snap.Report) != "null" {
		t.Errorf("the snapshot of a unit removed from the open data has its report back: %s", snap.Report)
	}
}
