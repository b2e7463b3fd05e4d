package budget_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/ratelimit"
)

func ExampleLocal() {
	// Pass b to registry.WithUpstreamBudget("GB", b); with Redis,
	// budget.Redis(rdb, "GB", budget.CompaniesHouse()) shares it across
	// replicas.
	b, err := budget.Local(ratelimit.Rate{Limit: 1, Period: time.Minute, Burst: 2})
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		ok, retryAfter, _ := b.Take(context.Background())
		fmt.Println(ok, retryAfter.Round(time.Second))
	}
	fmt.Printf("%+v\n", budget.CompaniesHouse())
	// Output:
	// true 0s
	// true 0s
	// false 1m0s
	// {Limit:540 Period:5m0s Burst:60}
}
