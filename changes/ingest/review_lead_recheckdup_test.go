package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_RecheckRecordsChangeTwice (doc/decisions.md, "Norway's first
// read …": "It reports nothing twice: a watched company is compared with
// its snapshot"; store.go dedupes by (source event, country, company,
// kind)): an item of a company whose watch was being stored is recorded
// as an unwatched company's change (the register's patch, source event
// enheter/100), and recheck then records the same rename again from the
// fetch, with no source event, so the dedupe key differs and
// CompanyChanges (company_changes, GET /v1/NO/company/{id}/changes) lists
// the one rename twice.
func TestReview_RecheckRecordsChangeTwice(t *testing.T) {
	t.Parallel()
	t.Skip("known and kept (doc/decisions.md, \"Norway's first read …\"): the item stays as the register reported it, " +
		"and the watch's change is recorded beside it with no source event; the same event id and kind would be taken " +
		"as the recorded item and never delivered. The watch's owner gets it once; company_changes lists both.")
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
	f.set("NO", "914375916", ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	if err := n.Sync(t.Context(), t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	var renames []string
	for _, c := range companyChanges(t, st, "NO", "914375916") {
		if c.Kind == changes.KindNameChanged {
			renames = append(renames, c.SourceEventID+" "+string(c.New))
		}
	}
	if len(renames) != 1 {
		t.Errorf("the company's changes list the one rename %d times: %q", len(renames), renames)
	}
}
