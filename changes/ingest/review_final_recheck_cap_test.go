package ingest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_HeldCapDropsWatchedRetry (norway.go recheck and keep): "a
// fetch that fails for a reason that may pass keeps it" — the item of a
// newly watched company whose recheck fetch failed is kept, but keep puts
// it first and the 10,000 cap drops from the front, so a burst of
// unwatched items read on in the same sync (Brønnøysund publishes "some
// thousands in a burst", maxHeld's comment) pushes it out: the next sync
// never rechecks the company and the watch never gets its change. The
// cap should drop the unwatched items read last before the item a watch
// is owed.
func TestReview_HeldCapDropsWatchedRetry(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T11:59:40.000Z","organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil { // read while unwatched
		t.Fatal(err)
	}
	base := snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 11, 59, 30, 0, time.UTC)
	watch(t, st, "NO", []string{"914375916"}, base)
	f.set("NO", "914375916", failing(registry.CodeUpstreamError), ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	// The recheck's fetch fails for a reason that may pass: the item is kept.
	if err := n.Sync(t.Context(), t0.Add(30*time.Second)); err == nil {
		t.Fatal("Sync = nil, want the recheck's upstream error")
	}
	// The same sync reads on a burst of unwatched items (process holds them
	// with n.hold, as it does at the end of a page).
	burst := make([]heldItem, maxHeld)
	for i := range burst {
		burst[i] = heldItem{orgnr: fmt.Sprintf("9%08d", i), seen: t0.Add(30 * time.Second)}
	}
	n.hold(burst, nil)
	if err := n.Sync(t.Context(), t0.Add(40*time.Second)); err != nil {
		t.Fatal(err)
	}
	var renames []string
	for _, c := range companyChanges(t, st, "NO", "914375916") {
		if c.Kind == changes.KindNameChanged && c.SourceEventID == "" {
			renames = append(renames, string(c.New))
		}
	}
	if len(renames) != 1 {
		t.Errorf("the watch's rename was recorded %d times after the burst, want once (fetches: %d)", len(renames), f.count("NO", "914375916"))
	}
}
