package cache_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/companyregistry/registry/cache"
)

func ExampleMemory() {
	m, err := cache.NewMemory(cache.WithMaxBytes(16 << 20))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	// Set takes ownership of the value: do not modify it afterwards.
	_ = m.Set(ctx, "NO/923609016", []byte(`{"name":"EQUINOR ASA"}`), time.Hour)

	// Get returns the stored slice: do not modify it.
	v, ok, _ := m.Get(ctx, "NO/923609016")
	fmt.Println(ok, string(v))

	_ = m.Delete(ctx, "NO/923609016")
	_, ok, _ = m.Get(ctx, "NO/923609016")
	fmt.Println(ok)
	// Output:
	// true {"name":"EQUINOR ASA"}
	// false
}

func ExampleWithClock() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m, err := cache.NewMemory(cache.WithClock(func() time.Time { return now }))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	_ = m.Set(ctx, "GB/00002065", []byte("profile"), time.Hour)

	now = now.Add(time.Hour - time.Nanosecond)
	_, ok, _ := m.Get(ctx, "GB/00002065")
	fmt.Println("just before expiry:", ok)

	now = now.Add(time.Nanosecond)
	_, ok, _ = m.Get(ctx, "GB/00002065")
	fmt.Println("at expiry:", ok)
	// Output:
	// just before expiry: true
	// at expiry: false
}
