package registry_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/cacheonly"
	"github.com/companyregistry/registry/internal/seal"
)

// TestCacheOnlyContext (issue 30, third pass): under a cache-only context
// (what the MCP stdio server answers with while it reads) every operation
// answers from the cache, a remembered not_found included, or with
// cacheonly.Miss where it would ask the register, and the register is
// never asked; the answers are the bytes an ordinary call gives.
func TestCacheOnlyContext(t *testing.T) {
	t.Parallel()
	c := &rolesCountry{fakeCountry: fakeCountry{code: "NO"}, roles: []registry.Role{role(registry.RoleBoard, "LEDE", true)}}
	r, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	a := r.Internal(seal.Key{})
	bg := context.Background()
	only := cacheonly.With(bg)
	isMiss := func(what string, err error) {
		t.Helper()
		if !errors.As(err, new(cacheonly.Miss)) {
			t.Errorf("%s: %v, want cacheonly.Miss", what, err)
		}
	}
	// Nothing cached: each operation that needs the register misses.
	_, err = a.LookupJSON(only, "NO", "123456")
	isMiss("lookup", err)
	_, err = a.RolesJSON(only, "NO", "123456")
	isMiss("roles", err)
	_, err = a.SearchJSON(only, "NO", "fake", 10)
	isMiss("search", err)
	_, err = r.Deadlines(only, "NO", "123456", registry.Date{Year: 2026, Month: 3, Day: 1})
	isMiss("deadlines", err)
	_, err = a.LookupJSON(only, "NO", "000000")
	isMiss("lookup of an unknown id", err)
	if n, m, k := c.lookups.Load(), c.searches.Load(), c.calls.Load(); n+m+k != 0 {
		t.Fatalf("the register was asked: %d lookups, %d searches, %d roles", n, m, k)
	}
	// What needs no register answers as ever.
	if _, err := a.LookupJSON(only, "NO", "12"); err == nil || errors.As(err, new(cacheonly.Miss)) {
		t.Errorf("invalid id: %v, want invalid_id", err)
	}
	// Fill the cache the ordinary way, then read it cache-only.
	_, _ = a.LookupJSON(bg, "NO", "123456")
	_, _ = a.LookupJSON(bg, "NO", "000000")
	// Roles need the report, which is cached now, but not themselves.
	_, err = a.RolesJSON(only, "NO", "123456")
	isMiss("roles with the report cached", err)
	_, _ = a.RolesJSON(bg, "NO", "123456")
	_, _ = a.SearchJSON(bg, "NO", "fake", 10)
	asked := c.lookups.Load() + c.searches.Load() + c.calls.Load()
	for _, tc := range []struct {
		name string
		call func(ctx context.Context) ([]byte, error)
	}{
		{"lookup", func(ctx context.Context) ([]byte, error) { return a.LookupJSON(ctx, "NO", "123456") }},
		{"roles", func(ctx context.Context) ([]byte, error) { return a.RolesJSON(ctx, "NO", "123456") }},
		{"search", func(ctx context.Context) ([]byte, error) { return a.SearchJSON(ctx, "NO", "fake", 10) }},
		{"not found", func(ctx context.Context) ([]byte, error) { return a.LookupJSON(ctx, "NO", "000000") }},
	} {
		want, wantErr := tc.call(bg)
		got, err := tc.call(only)
		if diff := cmp.Diff(string(want), string(got)); diff != "" || (err == nil) != (wantErr == nil) || errors.As(err, new(cacheonly.Miss)) {
			t.Errorf("%s cache-only: %v (ordinary %v), (-ordinary +cache-only):\n%s", tc.name, err, wantErr, diff)
		}
	}
	if _, err := r.Deadlines(only, "NO", "123456", registry.Date{Year: 2026, Month: 3, Day: 1}); err != nil {
		t.Errorf("deadlines of a cached report: %v", err)
	}
	if now := c.lookups.Load() + c.searches.Load() + c.calls.Load(); now != asked {
		t.Errorf("the register was asked %d times more under cache-only contexts", now-asked)
	}
}
