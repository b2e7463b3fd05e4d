package ingest

import (
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_StreamOldEventLastDropsNewerChange (research changes.md §2.3:
// published_at "Parse leniently … and never order by it"; §2.4:
// timepoints "are per stream, not comparable across streams"): a flush
// refreshes a pending company once, with the LAST event handled as its
// signal, whichever stream it came from, and refresh's new skip rule
// drops the company when that event's published_at is more than a minute
// before the snapshot. Events of five streams interleave as they arrive
// (a stream catching up on hours of backlog after a reconnection or a
// restart beside a live one), so an old event of one stream arriving after
// a new event of another makes the flush skip the company, mark it done
// and store both timepoints past the new event: the change (a rename at
// 12:05, after the 12:00 snapshot) is never reported.
func TestReview_StreamOldEventLastDropsNewerChange(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, nil)
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0.Add(10*time.Minute))
	base := snapshot(report("GB", "SC571653", "OLD NAME LTD"), nil)
	base.TakenAt = t0 // 12:00
	watch(t, st, "GB", []string{"SC571653"}, base)
	f.set("GB", "SC571653", ok(report("GB", "SC571653", "NEW NAME LTD")))
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies", "officers"))
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"companies": {}, "officers": {}}, pending: map[string]*pendingCompany{}}
	live, old := t0.Add(5*time.Minute), t0.Add(-time.Hour)
	p.handle(event{stream: "companies", timepoint: 500, company: "SC571653", published: &live}) // the rename, 12:05
	p.handle(event{stream: "officers", timepoint: 900, company: "SC571653", published: &old})   // backlog replayed: 11:00
	p.flush(t.Context())
	var renamed int
	for _, c := range companyChanges(t, st, "GB", "SC571653") {
		if c.Kind == changes.KindNameChanged {
			renamed++
		}
	}
	if renamed != 1 {
		t.Errorf("%d name_changed (fetches %d, companies timepoint stored %q); want the 12:05 rename, after the 12:00 snapshot, reported",
			renamed, f.count("GB", "SC571653"), cursor(t, st, "GB/stream/companies"))
	}
}
