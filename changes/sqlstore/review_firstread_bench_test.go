package sqlstore_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/brregfeed"
)

// noFetch fails every fetch: the benchmark's feeds are empty, so none is
// made.
type noFetch struct{}

func (noFetch) Fetch(context.Context, string, string) (changes.Snapshot, error) {
	return changes.Snapshot{}, fmt.Errorf("unexpected fetch")
}

// BenchmarkReview_NorwayFirstSyncSnapshotScan measures what the first
// sync of Brønnøysund's feeds (or one after an unreadable cursor) costs
// for its start time (norway.go, readFrom: Store.OldestSnapshot, one query;
// it was one Store.Snapshot per watched company, each reading the
// company's report and roles, about 5.9 kB),
// against the store used in production, with n watched companies, and
// beside it a sync with the cursors set (the feeds are empty in both):
//
//	go test -run '^$' -bench Review_NorwayFirstSyncSnapshotScan -benchtime 3x ./changes/sqlstore
func BenchmarkReview_NorwayFirstSyncSnapshotScan(b *testing.B) {
	benchDialects(b, func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		report := readJSON(b, "testdata/report_923609016.json")
		roles := readJSON(b, "testdata/roles_161616168_SYNTHETIC.json")
		feed := httptest.NewServer(brregfeed.New(nil).Handler(""))
		b.Cleanup(feed.Close)
		for _, n := range []int{10_000, 100_000} {
			b.Run(fmt.Sprint(n), func(b *testing.B) {
				s, _ := open(b)
				for w := 0; w < n; w += changes.MaxIDsPerWatch {
					ids := make([]string, 0, changes.MaxIDsPerWatch)
					for i := w; i < min(n, w+changes.MaxIDsPerWatch); i++ {
						ids = append(ids, fmt.Sprint(800000000+i))
					}
					err := s.CreateWatch(ctx, changes.Watch{ID: fmt.Sprintf("wch_%03d", w/changes.MaxIDsPerWatch), Owner: "erp",
						Country: "NO", IDs: ids, URL: "https://hooks.example.com/", CreatedAt: t0}, make([]byte, 32), nil)
					if err != nil {
						b.Fatal(err)
					}
				}
				for start := 0; start < n; start += 1000 {
					var snaps []changes.Snapshot
					for i := start; i < min(n, start+1000); i++ {
						snaps = append(snaps, changes.Snapshot{Country: "NO", CompanyID: fmt.Sprint(800000000 + i), Report: report,
							Roles: roles, TakenAt: t0.Add(-time.Duration(i) * time.Second)})
					}
					if _, err := s.Apply(ctx, changes.Batch{Snapshots: snaps}); err != nil {
						b.Fatal(err)
					}
				}
				nor, err := ingest.NewNorway(s, noFetch{}, ingest.WithBaseURL(feed.URL))
				if err != nil {
					b.Fatal(err)
				}
				for _, tc := range []struct {
					name   string
					cursor string
				}{{"first-sync", ""}, {"cursors-set", "1"}} {
					b.Run(tc.name, func(b *testing.B) {
						for range b.N {
							b.StopTimer()
							if _, err := s.Apply(ctx, changes.Batch{Cursors: map[string]string{
								"NO/enheter": tc.cursor, "NO/underenheter": tc.cursor, "NO/roller": tc.cursor}}); err != nil {
								b.Fatal(err)
							}
							b.StartTimer()
							if err := nor.Sync(ctx, t0); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			})
		}
	})
}
