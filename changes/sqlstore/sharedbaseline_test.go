package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/google/go-cmp/cmp"
)

// TestWatchOfAWatchedCompanySharesItsSnapshot (the lead's question: "two
// creations at once share a baseline, so a change between them reaches
// the second watcher too"): it does, and exactly as a watch created after
// the first one does. Bob's creation fetched its baseline after the
// company's rename, but alice's watch, created meanwhile, was stored
// first, so bob's watch keeps her snapshot, taken before the rename; the
// next sweep reports the rename to both. Carol, who asks for a watch of
// the company only after both were stored (and after the rename), is
// given the stored snapshot as her baseline without a fetch, and gets
// the rename too. A watch of a company already watched starts from the
// watchers' shared snapshot, as recent as the company's ingester keeps
// it; the two creations at once are that case, not a separate one
// (doc/decisions.md, "A sweep started before a watch reports no older
// change").
func TestWatchOfAWatchedCompanySharesItsSnapshot(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	review11Stores(t, clock.Now, func(t *testing.T, s changes.Store) {
		ctx := context.Background()
		reg, gate, doneB := review11TwoCreations(t, s, clock, false)
		clock.Advance(time.Minute)
		reg.set(review11Company, "SECOND ASA") // after alice's baseline, before bob's
		close(gate)
		if err := <-doneB; err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
		svc := review11Service(t, s, &review11Fetcher{reg: reg, now: clock.Now}, clock.Now, 3)
		if _, err := svc.CreateWatch(ctx, "carol", changes.WatchRequest{Country: "NO", IDs: []string{review11Company}, URL: "https://hooks.example.com/carol"}); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
		review11Sweep(t, s, &review11Fetcher{reg: reg, now: clock.Now}, clock.Now())
		rename := []string{`name_changed "FIRST ASA" -> "SECOND ASA"`}
		got := map[string][]string{"alice": review11Feed(t, s, "alice"), "bob": review11Feed(t, s, "bob"), "carol": review11Feed(t, s, "carol")}
		if diff := cmp.Diff(map[string][]string{"alice": rename, "bob": rename, "carol": rename}, got); diff != "" {
			t.Errorf("the feeds (-want +got): a watch of a watched company starts from its shared snapshot\n%s", diff)
		}
	})
}
