package ingest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestNorwayFailedFetchOnAPageWhoseApplyFailsMovesTheRetry: the page's
// newer item of a retried company fails with internal_error too, and the
// page's Apply fails. Stored, the page would have left the newer item as
// the company's retry (Norway.settle); kept as it was, the stale retry's
// recheck at the next sync found the change and recorded it under the
// older item's event and time (the rule of doc/decisions.md after rev-ie:
// "Kept, a stale retry also recorded a later item's change under its own
// older event and time"), and the page read again found nothing more. The
// retry moves onto the newer item in memory (Norway.readAgain), as it does
// when the newer item's fetch works (rev-fix7,
// TestReview_StaleRetryStampsTheNewerItemsChangeAfterAFailedApply).
func TestNorwayFailedFetchOnAPageWhoseApplyFailsMovesTheRetry(t *testing.T) {
	t.Parallel()
	ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	st := &unitsApplyFails{memStore: ms}
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T12:00:30.000Z"))
	watch(t, ms, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	ie, read := failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS"))
	// 100 fails; its recheck and 101's fetch fail (the page's Apply too);
	// the next recheck and 101's fetch again work.
	f.set("NO", noA, ie, ie, ie, read, read)
	setCursors(t, ms, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
	st.failPage.Store(true)
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err == nil {
		t.Fatal("the page's Apply did not fail")
	}
	st.failPage.Store(false)
	if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := f.count("NO", noA); got != 5 {
		t.Errorf("%d fetches, want 5 (the script)", got)
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/101", time.Date(2026, 9, 1, 12, 1, 30, 0, time.UTC))}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, ms, "NO", noA))); diff != "" {
		t.Errorf("changes (-want +got): the newer item's change stamped with the stale retry's older event\n%s", diff)
	}
}

// TestNorwayReadAgain: what a page whose Apply failed leaves of each
// retry in memory. A retry older than the company's item on the page
// moves onto that item (its attempts: none after a read, the page's one
// failure after internal_error); a later one stays, its count started
// again after a read (rev-gb7) and kept after a failure; a retry of a
// company the page did not fetch is left as it was.
func TestNorwayReadAgain(t *testing.T) {
	t.Parallel()
	at := func(s int) *time.Time {
		v := t0.Add(time.Duration(s) * time.Second)
		return &v
	}
	retry := func(orgnr string, published *time.Time, event string, attempts int) heldItem {
		return heldItem{orgnr: orgnr, published: published, seen: t0, eventID: event, attempts: attempts}
	}
	page := t0.Add(time.Minute)
	item := func(orgnr string, published *time.Time, event string, attempts int) heldItem {
		return heldItem{orgnr: orgnr, published: published, seen: page, eventID: event, attempts: attempts}
	}
	const (
		readNewer   = "100000001"
		readOlder   = "100000002"
		failedNewer = "100000003"
		failedOlder = "100000004"
		untouched   = "100000005"
		noTime      = "100000006"
		newFound    = "100000007" // read, no retry, its read found a change
		newNothing  = "100000008" // read, no retry, its read found nothing
	)
	n := &Norway{retry: []heldItem{
		retry(readNewer, at(30), "enheter/100", 3),
		retry(readOlder, at(40), "enheter/101", 4),
		retry(failedNewer, at(30), "enheter/102", 3),
		retry(failedOlder, at(40), "enheter/103", 4),
		retry(untouched, at(30), "enheter/104", 2),
		retry(noTime, nil, "", 2), // a held item's retry without a time
	}}
	n.readAgain(map[string]heldItem{
		readNewer:  item(readNewer, at(90), "enheter/200", 0),
		readOlder:  item(readOlder, at(10), "roller/5", 0),
		noTime:     item(noTime, at(90), "enheter/201", 0),
		newFound:   item(newFound, at(90), "enheter/203", 0),
		newNothing: item(newNothing, at(90), "enheter/204", 0),
	}, map[string]bool{newFound: true}, []heldItem{
		item(failedNewer, at(90), "enheter/202", 1),
		item(failedOlder, at(10), "roller/6", 1),
	})
	want := []heldItem{
		item(readNewer, at(90), "enheter/200", 0),
		retry(readOlder, at(40), "enheter/101", 0),
		item(failedNewer, at(90), "enheter/202", 1),
		retry(failedOlder, at(40), "enheter/103", 4),
		retry(untouched, at(30), "enheter/104", 2),
		item(noTime, at(90), "enheter/201", 0),
		item(newFound, at(90), "enheter/203", 0), // rev-no7; newNothing gets none (rev-last7)
	}
	if diff := cmp.Diff(want, n.retry, cmp.AllowUnexported(heldItem{})); diff != "" {
		t.Errorf("retries (-want +got):\n%s", diff)
	}
}
