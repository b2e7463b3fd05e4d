package registry_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
)

// allKeysCache records every key it is asked for, read, written or deleted.
type allKeysCache struct {
	cache.Cache
	mu   sync.Mutex
	keys []string
}

func (k *allKeysCache) record(key string) {
	k.mu.Lock()
	k.keys = append(k.keys, key)
	k.mu.Unlock()
}

func (k *allKeysCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	k.record(key)
	return k.Cache.Get(ctx, key)
}

func (k *allKeysCache) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	k.record(key)
	return k.Cache.Set(ctx, key, v, ttl)
}

func (k *allKeysCache) Delete(ctx context.Context, key string) error {
	k.record(key)
	return k.Cache.Delete(ctx, key)
}

// checkingCountry refuses queries that hold "secret" ([registry.QueryChecker]),
// with the answer refuse gives.
type checkingCountry struct {
	*fakeCountry
	refuse func(q string) error
}

func (c *checkingCountry) CheckQuery(q string) error {
	if strings.Contains(q, "secret") {
		return c.refuse(q)
	}
	return nil
}

// TestQueryCheckerBeforeCache: a query the module refuses never reaches
// the cache (not even as a key asked for) nor the module's Search, and the
// refusal is the module's bad_request with the country filled in, even
// when the module is not ready; a plain error is a generic bad_request
// that does not repeat it; a panic is internal_error; an accepted query is
// cached under its clear value as before.
func TestQueryCheckerBeforeCache(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		refuse func(q string) error
		ready  error
		want   registry.Error
	}{
		{"module error", func(string) error {
			return &registry.Error{Code: registry.CodeBadRequest, Message: "No people.", Hint: "Search by name."}
		}, nil, registry.Error{Code: registry.CodeBadRequest, Country: "SE", Registry: "fake", Message: "No people.", Hint: "Search by name."}},
		{"module error, not ready", func(string) error {
			return &registry.Error{Code: registry.CodeBadRequest, Message: "No people.", Hint: "Search by name."}
		}, &registry.Error{Code: registry.CodeUpstreamError}, registry.Error{Code: registry.CodeBadRequest, Country: "SE", Registry: "fake", Message: "No people.", Hint: "Search by name."}},
		{"plain error", func(q string) error { return errors.New("refused " + q) }, nil,
			registry.Error{Code: registry.CodeBadRequest, Country: "SE", Registry: "fake", Message: "The search query is refused by the SE module.", Hint: "Search with a company name."}},
		{"panic", func(string) error { panic("check exploded") }, nil,
			registry.Error{Code: registry.CodeInternalError, Country: "SE", Registry: "fake", Message: "A defect in the country module stopped this request.", Hint: registry.CodeInternalError.DefaultHint()}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			kc := &allKeysCache{Cache: mustMemory(t)}
			c := &checkingCountry{fakeCountry: &fakeCountry{code: "SE", ready: tt.ready}, refuse: tt.refuse}
			r, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0), registry.WithCache(kc))
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Search(t.Context(), "SE", "  a secret query ", 5)
			e := registry.AsError(err)
			if e == nil {
				t.Fatal("searched")
			}
			if diff := cmp.Diff(tt.want, *e, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Err" }, cmp.Ignore())); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if strings.Contains(e.Message+e.Hint, "secret") {
				t.Errorf("the error repeats the query: %+v", e)
			}
			kc.mu.Lock()
			keys := kc.keys
			kc.mu.Unlock()
			if len(keys) != 0 || c.searches.Load() != 0 {
				t.Errorf("cache keys %q and %d searches, want none", keys, c.searches.Load())
			}
			if tt.ready != nil {
				return
			}
			if _, err := r.Search(t.Context(), "SE", " Volvo ", 5); err != nil {
				t.Fatal(err)
			}
			kc.mu.Lock()
			defer kc.mu.Unlock()
			if diff := cmp.Diff([]string{"companyregistry/" + registry.CacheFormat + "/SE/search/5/Volvo"}, kc.keys[:1]); diff != "" || c.searches.Load() != 1 {
				t.Errorf("an accepted query: %d searches, keys (-want +got):\n%s", c.searches.Load(), diff)
			}
		})
	}
}
