package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// rolesApplyFails fails the Applies that store Norway's roller cursor (a
// roles feed page's) while failPage is set; the recheck's Apply and the
// other feeds' go through.
type rolesApplyFails struct {
	*memStore
	failPage atomic.Bool
}

func (s *rolesApplyFails) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	if _, page := b.Cursors["NO/roller"]; page && s.failPage.Load() {
		return nil, errDown
	}
	return s.memStore.Apply(ctx, b)
}

// TestReview_NorwayRetryDroppedAfterItsCompanyWasRead (rev-gb7): gb-ingest
// says "a fetch that works now starts the count of failures again: a
// company is dropped only after five failed fetches in a row" (CHANGELOG:
// "(Norway's feeds, Companies House's stream, a sweep)"; doc.go: "a
// feed's item ... gets five such failed fetches in a row ... (a fetch
// that works, even if storing what it found fails, starts the count
// again)"). The reset is built into Norway's recheck only, not into a
// feed page (Norway.process keeps n.retry as it was when its Apply
// fails). Here the unit item enheter/100 (11:59:40) is retried; its
// fourth failure comes at the sync that reads an older roles item of the
// company (roller/2, 11:59:00: the roles feed is read after the units'
// and may be behind it). That page fetches the company, which works, and
// stamps the change with the retry's later event (Norway.laterRetry), but
// its Apply fails; the next recheck's failure is counted the fifth (ie ie
// ie ie ok ie), the retry is dropped with "its update is skipped", and the
// roles page, read again, records the rename stamped with the older roles
// event and a time forty seconds before the register published it: the
// rule TestReview_OlderItemFetchedStampsTheRetrysChange keeps
// (doc/decisions.md after rev-ie: "its older event must not stamp the
// unit item's change"), broken by the read-then-failed-Apply path
// gb-ingest's finding 3 is about. registered_at is on the wire.
func TestReview_NorwayRetryDroppedAfterItsCompanyWasRead(t *testing.T) {
	t.Parallel()
	ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	st := &rolesApplyFails{memStore: ms}
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, ms, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	ie, read := failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS"))
	// enheter/100's fetch and three rechecks fail; the roles item's fetch
	// works (its page's Apply fails); the next recheck fails; the roles
	// item's fetch works again.
	f.set("NO", noA, ie, ie, ie, ie, read, ie, read)
	setCursors(t, ms, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	var logs bytes.Buffer
	n := newTestNorway(t, st, f, srv, WithLogger(slogJSON(&logs)))
	for i := range 5 {
		if i == 3 {
			srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
				"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:00.000Z","datacontenttype":"application/json",
				"data":{"organisasjonsnummer":"`+noA+`"}}`))
		}
		st.failPage.Store(i == 3)
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); (err != nil) != (i == 3) {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	if got := f.count("NO", noA); got != 7 {
		t.Errorf("%d fetches, want 7 (the script)", got)
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(ms.all())); diff != "" {
		t.Errorf("changes (-want +got): the rename stamped with the older roles event\n%s", diff)
	}
	if diff := cmp.Diff([]string(nil), warnings(t, &logs, noA)); diff != "" {
		t.Errorf("warnings (-want +got): dropped at a failure that followed a fetch that worked\n%s", diff)
	}
}
