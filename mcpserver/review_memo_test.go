package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/mcpserver"
)

// inPlaceCache is a cache.Cache that, as the interface allows ("may return
// a slice they keep using"), returns its stored slice, and that reuses an
// entry's storage when a Set replaces it with a value of the same length
// (as a slab or arena cache does). The interface does not say that the
// bytes a Get returned never change.
type inPlaceCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *inPlaceCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok, nil
}

func (c *inPlaceCache) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ttl <= 0 {
		delete(c.m, key)
		return nil
	}
	if old, ok := c.m[key]; ok && len(old) == len(value) {
		copy(old, value)
		return nil
	}
	c.m[key] = append([]byte(nil), value...)
	return nil
}

func (c *inPlaceCache) Delete(_ context.Context, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
	return nil
}

// changingNO is the fake Norwegian module whose one company's employee
// count changes (a same-length change: 21000 -> 21001).
type changingNO struct {
	*fakeNO
	employees atomic.Int64
}

func (f *changingNO) Lookup(_ context.Context, id string) (*registry.CompanyReport, error) {
	r := countrykit.NewReport("NO", "brreg", id, "EXAMPLE AS")
	r.Status = registry.StatusActive
	r.Employees = countrykit.Ptr(int(f.employees.Load()))
	return r, nil
}

// TestReview_MemoServesStaleReportAfterInPlaceUpdate: a cache that updates
// an entry in place (same key, same length) after a Refresh (what change
// monitoring does) keeps the address of the document's bytes. The MCP
// result memo, when it was keyed by that address, kept answering the old
// report from its memo while REST and the Registry answered the new one;
// it must answer the new one.
func TestReview_MemoServesStaleReportAfterInPlaceUpdate(t *testing.T) {
	t.Parallel()
	no := &changingNO{fakeNO: &fakeNO{}}
	no.employees.Store(21000)
	reg, err := registry.New([]registry.Country{no}, registry.WithCache(&inPlaceCache{m: map[string][]byte{}}),
		registry.WithClock(func() time.Time { return fixedNow }), registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcpserver.Handler(reg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	employees := func() int {
		t.Helper()
		code, b := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"id":"923609016"}}}`, nil)
		if code != http.StatusOK {
			t.Fatalf("status %d: %s", code, b)
		}
		var resp struct {
			Result struct {
				StructuredContent struct {
					Employees int `json:"employees"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &resp); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		return resp.Result.StructuredContent.Employees
	}
	for range 3 { // cold, first hit, second hit: the memo has it
		if got := employees(); got != 21000 {
			t.Fatalf("employees %d, want 21000", got)
		}
	}
	no.employees.Store(21001)
	rep, _, err := reg.Refresh(t.Context(), "NO", "923609016")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Employees == nil || *rep.Employees != 21001 {
		t.Fatalf("refresh: %v", rep.Employees)
	}
	cached, err := reg.Lookup(t.Context(), "NO", "923609016")
	if err != nil || !strings.Contains(string(must(json.Marshal(cached))), `"employees":21001`) {
		t.Fatalf("the Registry's cached answer after the refresh: %v %v", cached, err)
	}
	if got := employees(); got != 21001 {
		t.Errorf("MCP lookup_company after the refresh: employees %d, want 21001 (the Registry answers 21001)", got)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
