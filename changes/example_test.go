package changes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/memstore"
)

// exampleFetcher stands for the Fetcher of a real deployment, which reads
// the register past the cache.
type exampleFetcher struct{}

func (exampleFetcher) Fetch(_ context.Context, country, id string) (changes.Snapshot, error) {
	return changes.Snapshot{Country: country, CompanyID: id, Report: json.RawMessage(`{"name":"EQUINOR ASA"}`)}, nil
}

// A service that watches companies for its callers: create a watch (the
// secret is shown once), let the ingesters record changes, and read the
// caller's change feed with a cursor. The in-memory store stands for a
// real one (an SQLite file or PostgreSQL).
func ExampleService() {
	ctx := context.Background()
	cs, _ := countries.All(countries.Config{})
	reg, _ := registry.New(cs)
	store := memstore.New(time.Now)
	svc, err := changes.NewService(changes.ServiceConfig{Store: store, Fetcher: exampleFetcher{}, Registry: reg})
	if err != nil {
		panic(err)
	}
	w, err := svc.CreateWatch(ctx, "acme", changes.WatchRequest{Country: "NO", IDs: []string{"923 609 016"},
		Kinds: []changes.Kind{changes.KindNameChanged}, URL: "https://93.184.216.34/registry-hook"})
	if err != nil {
		panic(err)
	}
	fmt.Println(w.Watch.Country, w.Watch.IDs, w.Secret[:6])

	// What an ingester records when the name changes.
	_, _ = store.Apply(ctx, changes.Batch{Changes: []changes.Change{{Country: "NO", CompanyID: "923609016",
		Kind: changes.KindNameChanged, Old: json.RawMessage(`"STATOIL ASA"`), New: json.RawMessage(`"EQUINOR ASA"`),
		DetectedAt: time.Now()}}})

	feed, err := svc.Feed(ctx, "acme", "", changes.DefaultFeedLimit)
	if err != nil {
		panic(err)
	}
	for _, c := range feed.Changes {
		fmt.Println(c.CompanyID, c.Kind, string(c.Old), "->", string(c.New))
	}
	// Output:
	// NO [923609016] whsec_
	// 923609016 name_changed "STATOIL ASA" -> "EQUINOR ASA"
}
