package sqlstore_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/internal/brregfeed"
	"github.com/google/go-cmp/cmp"
)

// TestReview_OldestSnapshotZeroTakenAtHidesOlderBaseline (67096b7, "no
// behaviour change"): readFrom used to skip a snapshot whose TakenAt is
// zero and take the oldest of the others (`!s.TakenAt.IsZero() &&
// s.TakenAt.Before(at)` per company). Store.OldestSnapshot takes MIN over
// every watched snapshot, so a zero TakenAt (stored as micros of
// 0001-01-01, the smallest value) wins the MIN, readFrom then drops it as
// zero, and the first read starts at now - 1 min instead of a minute
// before the other company's baseline (an hour old here): the changes
// published between that baseline and now are never read.
func TestReview_OldestSnapshotZeroTakenAtHidesOlderBaseline(t *testing.T) {
	s, _ := openSQLite(t)
	ctx := t.Context()
	var mu sync.Mutex
	var dates []string
	inner := brregfeed.New(nil).Handler("")
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, _ := url.ParseQuery(r.URL.RawQuery)
		mu.Lock()
		if d := q.Get("dato"); d != "" {
			dates = append(dates, d)
		}
		if d := q.Get("afterTime"); d != "" {
			dates = append(dates, d)
		}
		mu.Unlock()
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(feed.Close)
	err := s.CreateWatch(ctx, changes.Watch{ID: "wch_1", Owner: "erp", Country: "NO", IDs: []string{"914375916", "923609016"},
		URL: "https://hooks.example.com/", CreatedAt: t0}, make([]byte, 32), []changes.Snapshot{
		{Country: "NO", CompanyID: "914375916", Report: []byte(`{}`)}, // TakenAt zero
		{Country: "NO", CompanyID: "923609016", Report: []byte(`{}`), TakenAt: t0.Add(-time.Hour)},
	})
	if err != nil {
		t.Fatal(err)
	}
	nor, err := ingest.NewNorway(s, noFetch{}, ingest.WithBaseURL(feed.URL))
	if err != nil {
		t.Fatal(err)
	}
	if err := nor.Sync(ctx, t0); err != nil {
		t.Fatal(err)
	}
	want := "2026-09-01T08:59:00.000Z" // a minute before the 09:00 baseline, as before 67096b7
	mu.Lock()
	defer mu.Unlock()
	if len(dates) == 0 {
		t.Fatal("no first read")
	}
	for _, d := range dates {
		if diff := cmp.Diff(want, d); diff != "" {
			t.Errorf("first read from (-want +got):\n%s", diff)
		}
	}
}
