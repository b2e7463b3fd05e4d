package changes_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/memstore"
)

// BenchmarkReview_UpdateWatchAddRemove times one UpdateWatch whose
// add_ids and remove_ids each hold n distinct valid identifiers (none in
// both), as a token holder may send in one body of about 0.5 MB at
// n = 20,000 (canonicalIDs accepts up to 2 x MaxIDsPerWatch in each). The
// check that no identifier is both added and removed is a slices.Contains
// over add_ids per removed identifier, n x n string comparisons, run
// before the result's size is checked (the request is then refused, the
// watch would hold more than 10,000: it is full). Compare n = 2,000 with n = 20,000:
// ten times the identifiers (and the validation's work), a hundred times
// the comparisons.
func BenchmarkReview_UpdateWatchAddRemove(b *testing.B) {
	for _, n := range []int{2_000, 20_000} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			cs, err := countries.All(countries.Config{})
			if err != nil {
				b.Fatal(err)
			}
			reg, err := registry.New(cs)
			if err != nil {
				b.Fatal(err)
			}
			clock := fakeclock.New(t0)
			svc, err := changes.NewService(changes.ServiceConfig{Store: memstore.New(clock.Now), Fetcher: newFetcher(clock.Now),
				Registry: reg, Now: clock.Now, Policy: webhook.Policy{Resolver: publicResolver{}}, Random: rand.NewChaCha8([32]byte{1})})
			if err != nil {
				b.Fatal(err)
			}
			// A full watch, so that both sizes are refused by the same
			// check after the loop.
			full := changes.MaxIDsPerWatch
			ids := orgnrs(full + 2*n)
			w, err := svc.CreateWatch(context.Background(), owner, changes.WatchRequest{Country: "NO", IDs: ids[:full], URL: "https://h.example.com/x"})
			if err != nil {
				b.Fatal(err)
			}
			p := changes.WatchPatch{AddIDs: ids[full : full+n], RemoveIDs: ids[full+n:]}
			for b.Loop() {
				if _, err := svc.UpdateWatch(context.Background(), owner, w.Watch.ID, p); err == nil {
					b.Fatal("the update was accepted")
				}
			}
		})
	}
}
