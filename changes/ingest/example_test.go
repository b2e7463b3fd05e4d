package ingest_test

import (
	"context"
	"fmt"
	"log"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/ingest"
)

// exampleStore and exampleFetcher stand in, in this example that only
// builds the ingesters, for a real store (an embedded database or
// PostgreSQL) and for changes.NewRegistryFetcher over the service's
// Registry (with its upstream budgets).
type (
	exampleStore   struct{ changes.Store }
	exampleFetcher struct{}
)

func (exampleFetcher) Fetch(context.Context, string, string) (changes.Snapshot, error) {
	return changes.Snapshot{}, nil
}

// Build the ingesters of a service from its environment (os.Getenv in a
// server) and run them on whichever replica holds the lease.
func Example() {
	getenv := func(name string) string {
		return map[string]string{"REGISTRY_CHANGES_INTERVAL": "2m", "COMPANIES_HOUSE_STREAM_KEY": "a-streaming-api-key"}[name]
	}
	settings, err := ingest.SettingsFromEnv(getenv)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(settings)

	var store changes.Store = exampleStore{}
	ins, err := ingest.Standard(store, exampleFetcher{}, []string{"FI", "GB", "NO"}, settings)
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range ins {
		fmt.Println(in.Name())
	}
	leader, err := ingest.NewLeader(store, ins, ingest.WithInterval(settings.Interval), ingest.WithHolder("replica-1"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(leader.Holder(), leader.Leading())
	// go leader.Run(ctx) runs them while this replica holds the lease.

	// Output:
	// interval 2m0s, poll interval 24h0m0s, stream key set
	// FI/poll
	// GB/stream
	// GB/poll
	// NO/feeds
	// replica-1 false
}
