package rediscache_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/companyregistry/registry/cache/rediscache"
)

func ExampleNew() {
	// An in-process Redis stands in for the one the replicas share; in
	// production the URL comes from the configuration (REDIS_URL).
	mr, err := miniredis.Run()
	if err != nil {
		log.Fatal(err)
	}
	defer mr.Close()

	rdb, err := rediscache.NewClient("redis://" + mr.Addr())
	if err != nil {
		log.Fatal(err)
	}
	defer rdb.Close()

	// Two replicas, each with its own Cache on the shared Redis; pass each
	// to registry.WithCache.
	a, err := rediscache.New(rdb)
	if err != nil {
		log.Fatal(err)
	}
	b, err := rediscache.New(rdb)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	_ = a.Set(ctx, "companyregistry/2/NO/company/923609016", []byte(`r{"name":"EQUINOR ASA"}`), time.Hour)
	v, ok, _ := b.Get(ctx, "companyregistry/2/NO/company/923609016")
	fmt.Println(ok, string(v))
	// Output: true r{"name":"EQUINOR ASA"}
}
