package ratelimit_test

import (
	"context"
	"fmt"
	"log"
	"time"

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

// Three replicas share Companies House's 600 calls per five minutes
// through Redis; while Redis is unreachable each keeps to a third of it
// (what ratelimit.WithReplicas(3) gives a Redis limiter's fallback).
func ExampleRate_Share() {
	r := ratelimit.Ceiling(600, 5*time.Minute)
	s := r.Share(3)
	fmt.Printf("whole: %d at once, %d more per %v\n", r.Burst, r.Limit, r.Period)
	fmt.Printf("each of 3: %d at once, %d more per %v\n", s.Burst, s.Limit, s.Period)
	// Output:
	// whole: 60 at once, 540 more per 5m0s
	// each of 3: 20 at once, 180 more per 5m0s
}
