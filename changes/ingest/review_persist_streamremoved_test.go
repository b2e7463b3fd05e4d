package ingest

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_StreamNewEventLosesTheDeletionOnRestart (8fa3fa6,
// pendingCompany.add; doc/decisions.md after rev-ie: a new event "stands
// for the events before it ... Its fetch reads the whole company and a
// replay from it reads it again, so the older events' first timepoints
// are let go"): a replay from the new event does not read the older
// events again, and one of them may say more than "look at the
// company": a deleted company-profile event sets removed, which makes
// the fetch's not_found a deletion at once (TestStreamDeletedProfile).
// Here the deleted event's fetch fails with internal_error, an event of
// the same company comes on another stream (officers), and the stored
// timepoint of the companies stream moves past the deleted event while
// the company is still pending. A restart then replays only the officers
// event: removed is gone, the not_found is a first miss, and no deletion
// is recorded (none will be: a deleted company has no next event, and
// the stream's poller sweeps only after a 416). Before 8fa3fa6 the
// companies stream stayed before the deleted event and the replay read it.
func TestReview_StreamNewEventLosesTheDeletionOnRestart(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	ie := failing(registry.CodeInternalError)
	f.set("GB", gbA, ie, ie, failing(registry.CodeNotFound))
	streams := []string{"companies", "officers"}
	s := newTestStream(t, st, f, newCHServer(t, nil), newFakeClock(t0), WithStreams(streams...))
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	deleted := event{stream: "companies", timepoint: 100, company: gbA, published: &gbPublished, deleted: true}
	officer := event{stream: "officers", timepoint: 7, company: gbA, published: &gbPublished}
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"companies": {}, "officers": {}}, pending: map[string]*pendingCompany{}}
	p.handle(deleted)
	p.flush(t.Context()) // internal_error: pending, companies stored at 99
	p.handle(officer)
	p.flush(t.Context()) // internal_error again (the new event's first)
	// A restart: a new processor from the stored timepoints (as start
	// does), the streams replayed from them (handle drops what is at or
	// before a stream's stored timepoint).
	restarted := &streamProcessor{s: s, progress: map[string]*streamProgress{}, pending: map[string]*pendingCompany{}}
	for _, name := range streams {
		tp, _ := strconv.ParseInt(cursor(t, st, cursorOfStream(name)), 10, 64)
		restarted.progress[name] = &streamProgress{seen: tp, stored: tp}
	}
	restarted.handle(deleted)
	restarted.handle(officer)
	restarted.flush(t.Context()) // not_found
	want := []noted{{Kind: changes.KindDeleted, CompanyID: gbA}}
	got := notedOf(companyChanges(t, st, "GB", gbA))
	for i := range got {
		got[i] = noted{Kind: got[i].Kind, CompanyID: got[i].CompanyID}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes after a restart while the deleted company was pending (stored companies timepoint %s) (-want +got):\n%s",
			cursor(t, st, "GB/stream/companies"), diff)
	}
}
