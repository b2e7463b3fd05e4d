package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_ItemOlderThanItsBaselineCarriesLaterChange (issue 28: "a
// baseline is taken when a company is added, so the first event is a real
// change"; readFrom's comment: "an item older than the snapshot changes
// nothing"): the first read starts at the OLDEST baseline of all watched
// companies, so the items of a company watched later, older than its own
// baseline, are read too, and each one fetches the company as it is now.
// Company 914375916's baseline was taken at 10:00 (after an address
// update at 09:00, which it holds); it was renamed at 11:00. Another
// watched company's baseline is from 00:00, so the feed is read from
// there; the 09:00 item comes on an earlier page than the 11:00 one (one
// item a page here; 1,000 a page, about 3 hours of Brønnøysund's feed, in
// production). The rename is reported as the 09:00 address update's
// change: source_event_id enheter/100 and registered_at 09:00, before the
// company's baseline and before its watch existed, on the webhook and the
// feed; the 11:00 item, read next, finds nothing.
func TestReview_ItemOlderThanItsBaselineCarriesLaterChange(t *testing.T) {
	t.Parallel()
	t.Skip("known and open (doc/decisions.md, \"Norway's first read …\"): skipping such an item lost changes " +
		"(TestReview_FjernetOlderThanSnapshotSkipped, TestReview_StreamOldEventLastDropsNewerChange, " +
		"TestReview_SlowFetchStampHidesChange, TestReview_StreamZonelessPublishedAtDropsChange); the change is " +
		"reported, under the older item's id and time")
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T09:00:00.000Z","organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/forretningsadresse/postnummer","value":"0256"}]}`),
		json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-01T11:00:00.000Z","organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`))
	watch(t, st, "NO", []string{"923609016"}, snapshot(report("NO", "923609016", "EQUINOR ASA"), nil)) // taken 00:00
	base := snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	watch(t, st, "NO", []string{"914375916"}, base)
	f.set("NO", "914375916", ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	if err := newTestNorway(t, st, f, srv, WithPageSize(1)).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	cs := companyChanges(t, st, "NO", "914375916")
	want := time.Date(2026, 9, 1, 11, 0, 0, 0, time.UTC)
	if len(cs) != 1 || cs[0].Kind != changes.KindNameChanged || cs[0].SourceEventID != "enheter/101" ||
		cs[0].RegisteredAt == nil || !cs[0].RegisteredAt.Equal(want) {
		for _, c := range cs {
			t.Logf("recorded: %s from %s, registered at %v", c.Kind, c.SourceEventID, c.RegisteredAt)
		}
		t.Errorf("%d changes; want one name_changed from enheter/101, registered at %s (the item before the baseline changes nothing)",
			len(cs), want)
	}
}
