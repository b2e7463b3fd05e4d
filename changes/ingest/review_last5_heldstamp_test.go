package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_OlderItemStampsAHeldRetrysChange (5d7e130, Norway.laterRetry:
// "the changes this fetch finds carry the later item's event and time, as
// recheck's would"; doc/decisions.md after rev-ie: the roles feed "may be
// behind it, and its older event must not stamp the unit item's change"):
// laterRetry looks only at retries with an event, so a held item of a
// newly watched company, in the retries because its recheck met a
// transient error, does not count. The older roles item's fetch then
// records the rename the unit item announced (enheter/100, 11:59:40)
// under roller/2 and 11:59:00, forty seconds before the register
// published it; recheck would have stamped it with the unit item's time
// and no event (the item is recorded already as the register reported it).
func TestReview_OlderItemStampsAHeldRetrysChange(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	// A is not watched yet: its item is recorded as the register reported
	// it, and held for a second look.
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// The watch is stored; its baseline was taken before the rename.
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, failing(registry.CodeUpstreamError), ok(report("NO", noA, "A NY AS")))
	// The roles feed, behind the units', brings an older item of A.
	srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:00.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
	_ = n.Sync(t.Context(), t0.Add(time.Minute)) // the recheck's fetch fails (the register down a moment)
	var got []noted
	for _, c := range notedOf(companyChanges(t, st, "NO", noA)) {
		if c.Kind == "name_changed" && c.Old == `"A AS"` {
			got = append(got, c)
		}
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "", noAt100)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the watched company's rename (-want +got):\n%s", diff)
	}
}
