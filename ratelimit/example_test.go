package ratelimit_test

import (
	"context"
	"fmt"
	"log"

	"github.com/companyregistry/registry/ratelimit"
)

func ExampleNewLocal() {
	l, err := ratelimit.NewLocal(ratelimit.PerMinute(2))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for range 3 {
		ok, retryAfter, _ := l.Allow(ctx, "203.0.113.7", 1)
		fmt.Println(ok, retryAfter.Round(1e9))
	}
	// Output:
	// true 0s
	// true 0s
	// false 30s
}
