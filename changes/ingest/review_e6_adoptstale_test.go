package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReview_AdoptedRetryOfACompanyFetchedSince (e851644,
// norway_retry.go adoptForeign: "a company's later-published item wins
// over the one in the list"): the adopted entry is weighed only against
// this replica's retry list, not against what it has handled. The new
// leader n fetched A for roller event 2 (11:59:50) and recorded the rename
// item enheter/100 (11:59:40) announced; the old leader's late Apply then
// stores NO/enheter=101 and A's retry of enheter/100 (its own fetch
// failed). A's retry is stale (n's later fetch stands for it, as settle
// drops a retry when a newer item is handled: rev-last5), but
// adoptForeign adds it, since n has no retry of A. The next recheck
// fetches A for enheter/100 and finds a rename published at 12:01:30
// (item enheter/101, read after it): it is recorded under enheter/100 and
// 11:59:40, before it happened, and item 101 finds nothing.
func TestReview_AdoptedRetryOfACompanyFetchedSince(t *testing.T) {
	t.Parallel()
	t.Skip("known and open (doc/decisions.md, \"The retries of internal_error are stored with the cursors\"): " +
		"only with a late Apply of a replica that led before (no fencing); the change is recorded, under the " +
		"older item's event and time; telling a stale foreign retry from a genuine one needs the Apply fenced by " +
		"the lease, or a rule on the snapshot's time against the item's that the register's copies behind the " +
		"feed make unsafe")
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:50.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")), ok(report("NO", noA, "A NYESTE AS")))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory() // n leads
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	// Item 100 of A is published; the old leader read it, its fetch failed
	// with internal_error, and its late Apply lands.
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	late, err := encodeRetries([]heldItem{{orgnr: noA, published: &noAt100, seen: t0, eventID: "enheter/100", attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	setCursors(t, st, "NO/enheter", "101", "NO/retry", late)
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A is renamed again at 12:01:30; item 101 announces it.
	at101 := time.Date(2026, 9, 1, 12, 1, 30, 0, time.UTC)
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
	if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{
		renamed(noA, "A AS", "A NY AS", "roller/2", time.Date(2026, 9, 1, 11, 59, 50, 0, time.UTC)),
		renamed(noA, "A NY AS", "A NYESTE AS", "enheter/101", at101),
	}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("A's changes (-want +got):\n%s", diff)
	}
}
