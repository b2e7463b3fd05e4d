package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_RecheckNilPublishedFetchesTwice (norway.go recheck): held
// items are compared as structs (h != l) to pick the one item per company
// that is rechecked. Two items of one company read in the same sync with
// no readable dato have equal heldItems (same orgnr, nil published, same
// seen), so both are "the latest" and the company is fetched and compared
// twice in one recheck: one register call more per such company, and the
// watch's change put in the batch twice. The stated rule is "Each such
// company is fetched once".
func TestReview_RecheckNilPublishedFetchesTwice(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`),
		json.RawMessage(`{"oppdateringsid":101,"organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil { // read while unwatched
		t.Fatal(err)
	}
	n.mu.Lock()
	heldN := len(n.held)
	n.mu.Unlock()
	if heldN != 2 {
		t.Fatalf("held %d items, want the 2 read", heldN)
	}
	base := snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 11, 59, 30, 0, time.UTC)
	watch(t, st, "NO", []string{"914375916"}, base)
	f.set("NO", "914375916", ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	before := f.count("NO", "914375916")
	if err := n.Sync(t.Context(), t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := f.count("NO", "914375916") - before; got != 1 {
		t.Errorf("recheck fetched the company %d times, want once", got)
	}
	var renames []string
	for _, c := range companyChanges(t, st, "NO", "914375916") {
		if c.Kind == changes.KindNameChanged && c.SourceEventID == "" {
			renames = append(renames, string(c.New))
		}
	}
	if len(renames) != 1 {
		t.Errorf("the recheck recorded the rename %d times: %q", len(renames), renames)
	}
}
