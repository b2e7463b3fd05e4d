package changes_test

import (
	"context"
	"fmt"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/memstore"
)

// A leaked secret is replaced without losing the watch: the new secret is
// shown once, and the old one keeps signing beside it for 24 hours, so
// that the receiver can switch at its own pace (webhook.Verify accepts a
// message that either secret signed).
func ExampleService_RotateSecret() {
	ctx := context.Background()
	cs, _ := countries.All(countries.Config{})
	reg, _ := registry.New(cs)
	now := time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)
	svc, err := changes.NewService(changes.ServiceConfig{Store: memstore.New(time.Now), Fetcher: exampleFetcher{}, Registry: reg,
		Now: func() time.Time { return now }})
	if err != nil {
		panic(err)
	}
	w, err := svc.CreateWatch(ctx, "acme", changes.WatchRequest{Country: "NO", IDs: []string{"923609016"},
		URL: "https://93.184.216.34/registry-hook"})
	if err != nil {
		panic(err)
	}
	rotated, err := svc.RotateSecret(ctx, "acme", w.Watch.ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(rotated.WatchID == w.Watch.ID, rotated.Secret != w.Secret, rotated.Secret[:6])
	fmt.Println("the old secret signs until", rotated.PreviousSecretExpiresAt)
	// Output:
	// true true whsec_
	// the old secret signs until 2026-01-16 09:00:00 +0000 UTC
}
