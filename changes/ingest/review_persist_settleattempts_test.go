package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_SettleKeepsTheOlderAttempts (a2e5623, Norway.settle; the
// rule in doc/decisions.md: "the signal gets internalAttempts (5) fetches
// in all", and a new event of a failing company "gets its own five
// attempts" on the stream): when a page's requeued item is older than the
// company's retry (a roles event read after the unit item, the roles
// feed behind the units' one: a burst whose syncs the budget stopped
// before the roles feed), settle keeps the retry, with its attempts, and
// drops the new item. The roles event is a new signal (a role changed: a
// bankruptcy's estate administrator, say), yet it gets its own failing
// fetch and what is left of the unit item's five: here 3 fetches in all
// instead of 5, and a fault that passes at its fifth fetch loses the
// change. Before a2e5623 the requeued item replaced the retry, with
// attempts of its own.
func TestReview_SettleKeepsTheOlderAttempts(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	ie := failing(registry.CodeInternalError)
	// Fetches 1-3: the unit item's (sync 0's page, syncs 1-2's rechecks);
	// 4: the roles event's own, on sync 2's page; then the retries.
	f.set("NO", noA, ie, ie, ie, ie, ie, ie, ie, ok(report("NO", noA, "A NY AS")))
	n := newTestNorway(t, st, f, srv)
	for i := range 8 {
		if i == 2 {
			srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:00.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
		}
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.count("NO", noA); got < 8 {
		t.Errorf("%d fetches of the company in all: the roles event read at the fourth got %d, want %d", got, got-3, internalAttempts)
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}
