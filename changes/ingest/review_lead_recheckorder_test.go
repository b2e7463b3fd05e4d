package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_RecheckLatestIsLastReadNotLatestPublished (issue 28: "a
// baseline is taken when a company is added, so the first event is a real
// change"): Norway.recheck takes, per company, the LAST held item as its
// latest ("items are held in the order read: the last is the latest"), but
// a sync reads enheter, underenheter, then roller, so a roles item read
// after an enheter item may be older than it. The roles item's time is the
// signal's registeredAt, and refresh's skip rule then drops the company
// when that older time is more than a minute before the baseline, although
// the enheter item, after the baseline, is a change the baseline lacks.
// Here: a watch's baseline at 11:59:30, stored after the sync at 12:00 read
// an 11:59:40 rename (enheter) and an 11:50 roles update (roller) of its
// company as an unwatched company's. The rename never reaches the watch.
func TestReview_RecheckLatestIsLastReadNotLatestPublished(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T11:59:40.000Z","organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`))
	srv.add(t, "roller",
		json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/914375916/roller",
		  "type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:50:00.000Z","datacontenttype":"application/json",
		  "data":{"organisasjonsnummer":"914375916"}}`))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil { // both read while unwatched
		t.Fatal(err)
	}
	base := snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 11, 59, 30, 0, time.UTC) // before the rename: the watch was being created
	watch(t, st, "NO", []string{"914375916"}, base)
	f.set("NO", "914375916", ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	if err := n.Sync(t.Context(), t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	var renamed int
	for _, c := range companyChanges(t, st, "NO", "914375916") {
		if c.SourceEventID == "" && c.Kind == changes.KindNameChanged {
			renamed++
		}
	}
	if renamed != 1 || st.deliveryCount() != 1 {
		t.Errorf("%d name_changed from the second look, %d deliveries, %d fetches; want the 11:59:40 rename, after the 11:59:30 baseline, reported and delivered",
			renamed, st.deliveryCount(), f.count("NO", "914375916"))
	}
}
