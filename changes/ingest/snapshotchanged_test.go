package ingest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// The tests of this file: an ingester diffs a fetch against the snapshot
// it read, and its Apply names that snapshot (changes.Batch.Expect). When
// another writer replaced the snapshot meanwhile (here: a watch's new
// baseline, stored while the company was being fetched), the store writes
// nothing; the ingester stores the rest of its batch without the company,
// with the company owed a new read in the state it persists (a poller's
// retries, Norway's "NO/retry", a stream's held timepoint), and reads it
// again against the new snapshot: a change before the new baseline is
// never reported, and one after it is not lost, across a restart too
// (doc/decisions.md, "A sweep started before a watch reports no older
// change").

// replacingFetcher answers as its Fetcher, and at the first fetch of
// company stores replacement as the company's snapshot first: another
// writer's snapshot stored while the ingester fetches.
type replacingFetcher struct {
	changes.Fetcher
	st          changes.Store
	company     string
	replacement changes.Snapshot
	once        sync.Once
	err         error
}

func (f *replacingFetcher) Fetch(ctx context.Context, country, id string) (changes.Snapshot, error) {
	if id == f.company {
		f.once.Do(func() {
			_, f.err = f.st.Apply(ctx, changes.Batch{Snapshots: []changes.Snapshot{f.replacement}})
		})
	}
	return f.Fetcher.Fetch(ctx, country, id)
}

// newBaseline is a watch's fresh baseline of a company: the register's
// current name, taken later than the fake fetcher's snapshots.
func newBaseline(country, id, name string) changes.Snapshot {
	s := snapshot(report(country, id, name), nil)
	s.TakenAt = t0
	return s
}

// TestPollerReadsAgainACompanyWhoseSnapshotWasReplaced: a sweep reads
// FI's company's snapshot ("FIRST OY") and fetches it ("SECOND OY");
// meanwhile a new baseline, "SECOND OY", replaces the snapshot. The
// sweep records nothing, and its cursor stores the company as a retry.
// After a restart the retry is read against the new baseline: the rename
// to "THIRD OY" that followed it is recorded, once.
func TestPollerReadsAgainACompanyWhoseSnapshotWasReplaced(t *testing.T) {
	t.Parallel()
	const id = "0112038-9"
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "FI", []string{id}, snapshot(report("FI", id, "FIRST OY"), nil))
	f.set("FI", id, ok(report("FI", id, "SECOND OY")))
	rf := &replacingFetcher{Fetcher: f, st: st, company: id, replacement: newBaseline("FI", id, "SECOND OY")}
	p := newTestPoller(t, st, rf, "FI", WithSweepOnly())
	p.RequestSweep()
	if err := p.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if rf.err != nil {
		t.Fatal(rf.err)
	}
	if diff := cmp.Diff([]noted{}, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the sweep (-want +got): the rename came before the new baseline\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{id: 0}, storedPollRetries(t, st, "FI/poll")); diff != "" {
		t.Errorf("the retries stored with the sweep (-want +got):\n%s", diff)
	}

	f.set("FI", id, ok(report("FI", id, "THIRD OY")))
	restarted := newTestPoller(t, st, f, "FI", WithSweepOnly())
	if err := restarted.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]noted{renamedNow(id, "SECOND OY", "THIRD OY", "")}, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the restart's sync (-want +got):\n%s", diff)
	}
	if got := storedPollRetries(t, st, "FI/poll"); len(got) != 0 {
		t.Errorf("retries stored after the read: %v, want none", got)
	}
}

// TestNorwayReadsAgainACompanyWhoseSnapshotWasReplaced: the feed's item
// of noA is fetched while a new baseline replaces its snapshot. The page
// is stored (its cursor passes the item) without the company, which is
// stored as a retry with the item's event and no attempt; after a
// restart the recheck reads it against the new baseline and records the
// rename that followed the baseline, with the item's event.
func TestNorwayReadsAgainACompanyWhoseSnapshotWasReplaced(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
	rf := &replacingFetcher{Fetcher: f, st: st, company: noA, replacement: newBaseline("NO", noA, "A NY AS")}
	if err := newTestNorway(t, st, rf, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if rf.err != nil {
		t.Fatal(rf.err)
	}
	if diff := cmp.Diff([]noted{}, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the page (-want +got): the rename came before the new baseline\n%s", diff)
	}
	want := []storedRetryView{{OrgNr: noA, Published: noAt100, EventID: "enheter/100"}}
	if diff := cmp.Diff(want, storedNorwayRetries(t, st)); diff != "" {
		t.Errorf("stored retries after the page (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "NO/enheter"); got != "101" {
		t.Errorf("the feed's cursor %q, want 101 (past the item, stored with its retry)", got)
	}

	f.set("NO", noA, ok(report("NO", noA, "A NYERE AS")))
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]noted{renamed(noA, "A NY AS", "A NYERE AS", "enheter/100", noAt100)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the restart's sync (-want +got):\n%s", diff)
	}
	if got := storedNorwayRetries(t, st); got != nil {
		t.Errorf("stored retries %+v after the read, want none", got)
	}
}

// TestStreamReadsAgainACompanyWhoseSnapshotWasReplaced: a stream's flush
// fetches gbA while a new baseline replaces its snapshot. The flush
// stores nothing of it and keeps the stored timepoint before its event
// (a restart replays it); the next flush reads it against the new
// baseline and records what followed it.
func TestStreamReadsAgainACompanyWhoseSnapshotWasReplaced(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA, gbB}, snapshot(report("GB", gbA, "A LTD"), nil), snapshot(report("GB", gbB, "B LTD"), nil))
	f.set("GB", gbA, ok(report("GB", gbA, "A NEW LTD")))
	f.set("GB", gbB, ok(report("GB", gbB, "B NEW LTD")))
	rf := &replacingFetcher{Fetcher: f, st: st, company: gbA, replacement: newBaseline("GB", gbA, "A NEW LTD")}
	p := newTestFlusher(t, st, rf)
	p.handle(insolvency(500, gbA))
	p.handle(insolvency(501, gbB))
	p.flush(t.Context())
	if rf.err != nil {
		t.Fatal(rf.err)
	}
	if diff := cmp.Diff([]noted{renamed(gbB, "B LTD", "B NEW LTD", "insolvency-cases/501", gbPublished)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the flush (-want +got): gbA's rename came before its new baseline\n%s", diff)
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "499" {
		t.Errorf("stored timepoint %q, want 499 (before gbA's event, owed a new read)", got)
	}

	f.set("GB", gbA, ok(report("GB", gbA, "A NEWER LTD")))
	p.flush(t.Context())
	want := []noted{
		renamed(gbB, "B LTD", "B NEW LTD", "insolvency-cases/501", gbPublished),
		renamed(gbA, "A NEW LTD", "A NEWER LTD", "insolvency-cases/500", gbPublished),
	}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the next flush (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "501" {
		t.Errorf("stored timepoint %q, want 501", got)
	}
}

// renamedNow is a poll's rename: no source event, no register time.
func renamedNow(id, oldName, newName, event string) noted {
	return noted{Kind: changes.KindNameChanged, CompanyID: id, Old: `"` + oldName + `"`, New: `"` + newName + `"`, SourceEventID: event}
}

// TestNorwayRecheckKeepsARetryWhoseSnapshotWasReplaced: noA's item is a
// retry (its fetch failed with internal_error). The recheck of the next
// sync fetches it while a new baseline replaces its snapshot: it records
// nothing and keeps the retry, with no attempt counted; the sync after
// reads it against the new baseline.
func TestNorwayRecheckKeepsARetryWhoseSnapshotWasReplaced(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS")))
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	rf := &replacingFetcher{Fetcher: f, st: st, company: noA, replacement: newBaseline("NO", noA, "A NY AS")}
	if err := newTestNorway(t, st, rf, srv).Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if rf.err != nil {
		t.Fatal(rf.err)
	}
	if diff := cmp.Diff([]noted{}, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the recheck (-want +got): the rename came before the new baseline\n%s", diff)
	}
	want := []storedRetryView{{OrgNr: noA, Published: noAt100, EventID: "enheter/100"}}
	if diff := cmp.Diff(want, storedNorwayRetries(t, st)); diff != "" {
		t.Errorf("stored retries after the recheck (-want +got):\n%s", diff)
	}

	f.set("NO", noA, ok(report("NO", noA, "A NYERE AS")))
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]noted{renamed(noA, "A NY AS", "A NYERE AS", "enheter/100", noAt100)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the next sync (-want +got):\n%s", diff)
	}
	if got := storedNorwayRetries(t, st); got != nil {
		t.Errorf("stored retries %+v after the read, want none", got)
	}
}
