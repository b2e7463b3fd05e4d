package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_FjernetOlderThanSnapshotSkipped (research brreg.md §3: a unit
// removed from the open data is 410 Gone, "Dette bør også anses som en
// forespørsel om at eventuelle kopier/cacher også fjerner den aktuelle
// enheten"; the Fjernet endringstype: "Eventuelle kopier skal også fjerne
// enheten"; refresh's own comment: a Fjernet "wins over a fetch, which may
// still answer from a copy not yet updated"): refresh's new skip rule
// (refresh.go, "an event published more than newWatchGrace before a
// snapshot of the company found was taken changes nothing") runs before
// the purge branch, so a Fjernet item older than the watched company's
// snapshot by more than a minute is dropped: the snapshot keeps the
// removed unit's report, and no deleted change is recorded or delivered.
// The snapshot here was taken at 10:05 (a baseline or a fetch answered from
// the copy not yet updated, the case refresh's comment names), the Fjernet
// published at 10:00. Before 2a6ad82 the Fjernet always purged.
func TestReview_FjernetOlderThanSnapshotSkipped(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`))
	base := snapshot(report("NO", "971421444", "FJERNES AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 10, 5, 0, 0, time.UTC)
	watch(t, st, "NO", []string{"971421444"}, base)
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	var deleted int
	for _, c := range companyChanges(t, st, "NO", "971421444") {
		if c.Kind == changes.KindDeleted {
			deleted++
		}
	}
	snap, err := st.Snapshot(t.Context(), "NO", "971421444")
	if err != nil {
		t.Fatal(err)
	}
	if deleted != 1 || string(snap.Report) != "null" {
		t.Errorf("after a Fjernet item: %d deleted changes, snapshot report %s; want one deleted change and the report purged (null)",
			deleted, snap.Report)
	}
}
