package mcpserver_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/mcpserver"
)

// brokenCache is a cache.Cache whose every Get fails (a cache on a store
// that is down; the interface allows a Get error).
type brokenCache struct{}

func (brokenCache) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errors.New("review: the cache store is down")
}
func (brokenCache) Set(context.Context, string, []byte, time.Duration) error { return nil }
func (brokenCache) Delete(context.Context, string) error                     { return nil }

// TestReview_StdioCacheGetErrorLoggedTwice: a Get error of the Registry's
// cache is a miss, logged once as "cache get failed" (cachekeys.go
// cacheGet). Over stdio, stdioIn's cache-only attempt reads the cache
// (and logs the failure) before the fetch hook says Miss, then the SDK
// runs the call, which reads the cache again and logs it again: each
// lookup logs two warnings where the SDK alone logs one (and asks the
// store twice).
func TestReview_StdioCacheGetErrorLoggedTwice(t *testing.T) {
	t.Parallel()
	run := func(opts ...mcpserver.Option) ([]string, int) {
		var logs lockedBuffer
		no := &fakeNO{}
		reg, err := registry.New([]registry.Country{no, fakeGB{}},
			registry.WithClock(func() time.Time { return fixedNow }), registry.WithRetryPause(0), registry.WithVersion("1.2.3-test"),
			registry.WithCache(brokenCache{}), registry.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
		if err != nil {
			t.Fatal(err)
		}
		p := startStdioWith(t, reg, opts...)
		p.handshake(t)
		got := []string{p.send(t, lookupLine("5", idEquinor), true)}
		return got, strings.Count(logs.String(), "cache get failed")
	}
	want, wantN := run(mcpserver.WithoutFastPath())
	got, n := run()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-sdk +stdioIn):\n%s", diff)
	}
	if n != wantN {
		t.Errorf("one lookup logged %q %d times; the SDK alone logs it %d times", "cache get failed", n, wantN)
	}
}
