package ingest

import (
	"encoding/json"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_SecondGonePurgesTheDeletion (issue 28, Batch.Purge; research
// §1.3 Fjernet): a watched unit removed from Brønnøysund's open data is
// recorded as one deleted change, its webhook pending. The unit stays on
// the watch, so the next fetch of it (here the NO poller's sweep, the
// fallback of a feed that lost events; a later roles-feed event or the GB
// stream does the same) answers 410 Gone again: refreshInto names it in
// Batch.Purge again, and Apply deletes the deleted change recorded before,
// with its pending delivery, while Diff(null, null) records no new one.
// The caller never learns of the deletion: it vanishes from the feed and
// its webhook is never sent.
func TestReview_SecondGonePurgesTheDeletion(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`))
	watch(t, st, "NO", []string{"971421444"}, snapshot(report("NO", "971421444", "FJERNES AS"), nil))
	f.set("NO", "971421444", answer{err: &registry.Error{Code: registry.CodeNotFound, Gone: true}})
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if cs := companyChanges(t, st, "NO", "971421444"); len(cs) != 1 || cs[0].Kind != changes.KindDeleted {
		t.Fatalf("after Fjernet: %+v; want one deleted change", recordedOf(cs))
	}
	t.Run("feed", func(t *testing.T) {
		// The next event of the unit in the feed (Norway's own ingester,
		// the one production runs for NO).
		srv.add(t, "enheter",
			json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-01T11:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`))
		if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if cs := companyChanges(t, st, "NO", "971421444"); len(cs) != 1 || cs[0].Kind != changes.KindDeleted {
			t.Errorf("after the unit answered 410 a second time: %+v; want the deleted change still recorded (and its delivery pending)", recordedOf(cs))
		}
	})
	t.Run("poll", func(t *testing.T) {
		p := newTestPoller(t, st, f, "NO", WithSweepOnly())
		p.RequestSweep()
		if err := p.Sync(t.Context(), t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if cs := companyChanges(t, st, "NO", "971421444"); len(cs) != 1 || cs[0].Kind != changes.KindDeleted {
			t.Errorf("after the unit answered 410 a second time: %+v; want the deleted change still recorded (and its delivery pending)", recordedOf(cs))
		}
	})
}
