package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_OlderItemFetchedStampsTheRetrysChange (a2e5623;
// doc/decisions.md after rev-ie: "the roles feed is read after the units'
// and may be behind it, and its older event must not stamp the unit
// item's change"): a2e5623 keeps that rule only when the older roles
// item's fetch fails too. When it succeeds, the page handles the company,
// settle drops the unit item's retry, and the rename the unit item
// announced (enheter/100, published 11:59:40) is recorded stamped with
// the older roles event (roller/2) and a time forty seconds before the
// register published the rename: what TestReview_SettleKeepsTheOlderItem
// calls wrong, reached by one fetch that passes instead of one that fails.
func TestReview_OlderItemFetchedStampsTheRetrysChange(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:00.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS")))
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
