package ingest

import (
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// TestReview_StreamZonelessPublishedAtDropsChange (research changes.md
// §2.3: published_at "formats vary: 2022-08-02T15:21:06 (no zone) … treat
// a zone-less value as UK local time (**VERIFY**), and never order by
// it"): before 2a6ad82 published_at only labelled a change
// (registered_at); refresh's skip rule now drops the company when it is
// more than a minute before the snapshot, i.e. orders by it. A zone-less
// value is read as London time, an hour before UTC in summer, which the
// research leaves unverified: if Companies House writes it in UTC, every
// such event within an hour after the company's snapshot is dropped and
// its change lost. Here the snapshot is from 12:00 UTC, the event's
// published_at "2026-09-01T12:05:00" (12:05 UTC, or 11:05 UTC read as
// London time), the rename it carries is not in the snapshot: not
// reported. (Had the reading been right, the fetch would have found
// nothing new: a skip only saves a misattribution, a wrong one loses a
// change.)
func TestReview_StreamZonelessPublishedAtDropsChange(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, nil)
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0.Add(10*time.Minute))
	base := snapshot(report("GB", "SC571653", "OLD NAME LTD"), nil)
	base.TakenAt = t0 // 2026-09-01 12:00 UTC
	watch(t, st, "GB", []string{"SC571653"}, base)
	f.set("GB", "SC571653", ok(report("GB", "SC571653", "NEW NAME LTD")))
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"))
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	ev, ok := decodeStreamLine("companies", []byte(`{"resource_kind":"company-profile","resource_uri":"/company/SC571653",`+
		`"event":{"timepoint":500,"published_at":"2026-09-01T12:05:00","type":"changed"},"data":{}}`), s.loc)
	if !ok {
		t.Fatal("the event line was not read")
	}
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"companies": {}}, pending: map[string]*pendingCompany{}}
	p.handle(ev)
	p.flush(t.Context())
	var renamed int
	for _, c := range companyChanges(t, st, "GB", "SC571653") {
		if c.Kind == changes.KindNameChanged {
			renamed++
		}
	}
	if renamed != 1 {
		t.Errorf("%d name_changed (fetches %d; published_at read as %v); want the rename reported: a zone-less published_at cannot tell it is older than the snapshot",
			renamed, f.count("GB", "SC571653"), ev.published)
	}
}
