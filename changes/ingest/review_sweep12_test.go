package ingest

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// watchBeforePageApply is a store on which a new watch of company, with
// baseline, is stored just before the first Apply that records a change
// of it: a CreateWatch that commits after Norway's page asked which of
// its companies are watched (checkUnknown) and before the page's Apply.
type watchBeforePageApply struct {
	changes.Store
	company  string
	w        changes.Watch
	baseline changes.Snapshot
	once     sync.Once
	err      error
}

func (s *watchBeforePageApply) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	for _, c := range b.Changes {
		if c.CompanyID == s.company {
			s.once.Do(func() { s.err = s.CreateWatch(ctx, s.w, []byte("secret"), []changes.Snapshot{s.baseline}) })
		}
	}
	return s.Store.Apply(ctx, b)
}

// TestReview_Sweep12NorwayUnwatchedItemReachesWatchCreatedAfterRename:
// changes/ingest's doc now says "no change made before a watch's
// baseline is reported to that watch", but Norway records the item of a
// company no watch holds as the register reported it, with no
// Batch.Expect (there is no snapshot to expect), and the store fans it
// out to whoever watches the company when the Apply runs. A watch
// created after the rename (its baseline, "NYTT NAVN AS", is the renamed
// company) and stored between the page's checkUnknown and its Apply gets
// the rename in its feed and a webhook: the original proof's false
// change, in the order page read → CreateWatch → Apply (on SQLite's
// store: its Apply fans a change out to the watches it finds then).
func TestReview_Sweep12NorwayUnwatchedItemReachesWatchCreatedAfterRename(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) changes.Store{
		"sqlite": func(t *testing.T) changes.Store {
			st, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), sqlstore.FileName))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = st.Close() })
			return st
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			inner, f, srv := open(t), newFakeFetcher(), newFeedServer(t)
			srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z")) // renamed to NYTT NAVN AS
			setCursors(t, inner, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
			f.set("NO", noA, ok(report("NO", noA, "NYTT NAVN AS")))
			baseline := snapshot(report("NO", noA, "NYTT NAVN AS"), nil)
			baseline.TakenAt = t0 // fetched after the rename was published (11:59:40)
			st := &watchBeforePageApply{Store: inner, company: noA, baseline: baseline, w: changes.Watch{
				ID: "wch_late", Owner: "late", Country: "NO", IDs: []string{noA}, URL: "https://example.test/hook", CreatedAt: t0}}
			if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
				t.Fatal(err)
			}
			if st.err != nil {
				t.Fatal(st.err)
			}
			ds, err := inner.Deliveries(t.Context(), "late", "wch_late", 10)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.WatchID+" "+d.ChangeID)
			}
			var renames []string
			cs, err := inner.CompanyChanges(t.Context(), "NO", noA, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				renames = append(renames, string(c.Kind)+" "+c.SourceEventID)
			}
			if diff := cmp.Diff([]string(nil), got); diff != "" {
				t.Errorf("deliveries to the watch whose baseline already had the new name (-want +got):\n%s\n(changes recorded: %v)", diff, renames)
			}
		})
	}
}
