package ingest

import (
	"encoding/json"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_PurgeKeepsTheDeletionsName (research §1.3: Fjernet "Eventuelle
// kopier skal også fjerne enheten" — copies must remove the unit too; the
// rule of the purge: keep only the deletion, without a name): a watched
// unit is first dissolved (Sletting: the register still answers 200, with
// status deleted), which Diff records as a deleted change carrying the
// unit's last name. Then the unit is removed from the open data
// (Fjernet, 410 Gone). The purge keeps the company's deletion so that its
// watchers still learn of it, but the deletion it keeps is the one
// recorded before, with the removed unit's name.
func TestReview_PurgeKeepsTheDeletionsName(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Sletting"}`))
	watch(t, st, "NO", []string{"971421444"}, snapshot(report("NO", "971421444", "OLA NORDMANN ENK"), nil))
	f.set("NO", "971421444",
		ok(report("NO", "971421444", "OLA NORDMANN ENK", withStatus(registry.StatusDeleted))),
		answer{err: &registry.Error{Code: registry.CodeNotFound, Gone: true}})
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if cs := companyChanges(t, st, "NO", "971421444"); len(cs) != 1 || cs[0].CompanyName == nil {
		t.Fatalf("after Sletting: %+v; want one deleted change with the unit's name", recordedOf(cs))
	}
	// A day later the unit is removed from the open data.
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-02T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`))
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	cs := companyChanges(t, st, "NO", "971421444")
	if len(cs) != 1 || cs[0].Kind != changes.KindDeleted {
		t.Fatalf("after Sletting then Fjernet: %+v; want one deleted change", recordedOf(cs))
	}
	if cs[0].CompanyName != nil {
		t.Errorf("the deletion kept after the unit was removed from the open data names it %q; want no name", *cs[0].CompanyName)
	}
}
