package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_SettleKeepsTheOlderItem (norway.go, Norway.settle: "drops
// the retries of the companies whose newer item the feed has handled";
// recheck: "a roles item read after a unit's item (the feeds are read in
// turn) may be older", so recheck keeps the latest-published item):
// settle takes "newer" as "read later". The roles feed is read after the
// units' feed, and can be behind it (a sync stopped by the budget before
// it), so its item of a company can be older than the unit item in the
// retry list. When both fetches fail with internal_error, settle drops
// the unit item's retry (11:59:40, enheter/100) for the older roles
// event's (11:59:00, roller/2), and the rename the unit item announced
// goes out stamped with the roles event and a time before the register
// published it. Before a997f5b both entries were kept and recheck chose
// the latest-published one, enheter/100.
func TestReview_SettleKeepsTheOlderItem(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:00.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	ie := failing(registry.CodeInternalError)
	f.set("NO", noA, ie, ie, ok(report("NO", noA, "A NY AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	for i := range 2 {
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}
