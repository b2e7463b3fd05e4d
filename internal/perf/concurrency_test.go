package perf

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/internal/testwait"
)

// countingCache counts the misses of one key, so that a test can tell when
// every caller has looked in the cache and gone on to the shared fetch.
type countingCache struct {
	cache.Cache
	key    string
	misses atomic.Int64
}

func (c *countingCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, ok, err := c.Cache.Get(ctx, key)
	if !ok && key == c.key {
		c.misses.Add(1)
	}
	return v, ok, err
}

// TestConcurrentColdLookupsCollapse is the promise that identical concurrent
// work is done once: 1,000 concurrent cold lookups of one organisation
// number through the REST handler, the Registry and the real Norwegian
// module make exactly one request to the register (a real HTTP server), and
// all 1,000 callers get the same answer, byte for byte.
func TestConcurrentColdLookupsCollapse(t *testing.T) {
	t.Parallel()
	const callers = 1000
	up := newBrreg(t)
	up.release = make(chan struct{})
	upSrv := httptest.NewServer(up)
	defer upSrv.Close()
	mem, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	cc := &countingCache{Cache: mem, key: "companyregistry/" + registry.CacheFormat + "/NO/company/" + equinorID}
	// The one upstream request is held until every caller has joined it,
	// however long a loaded machine takes for that: the attempt timeout is
	// the longest there is, so that it never cuts the held request.
	reg := newNorway(t, upSrv.URL+"/enhetsregisteret/api", upSrv.Client(), cc, registry.WithUpstreamTimeout(time.Minute))
	rest := newREST(t, reg)

	bodies := make([][]byte, callers)
	status := make([]int, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			w := httptest.NewRecorder()
			// The id written in several ways: all normalise to one key.
			ids := []string{equinorID, "923%20609%20016", "NO923609016MVA", "923.609.016"}
			req := httptest.NewRequest(http.MethodGet, "/v1/no/company/"+ids[i%len(ids)], nil)
			req.RemoteAddr = "192.0.2.1:1234"
			rest.ServeHTTP(w, req)
			status[i], bodies[i] = w.Code, w.Body.Bytes()
		})
	}
	// Hold the one upstream request until every caller has missed the
	// cache (the fetch itself looks once more before it asks the register)
	// and waits for the shared fetch; release the register then.
	const misses = callers + 1
	testwait.Until(t, "every caller missed the cache", func() bool { return cc.misses.Load() >= misses })
	testwait.Until(t, "every caller waits for the one fetch", func() bool {
		return reg.Internal(seal.Key{}).FetchCallers() >= callers
	})
	close(up.release)
	wg.Wait()

	if got := up.requests.Load(); got != 1 {
		t.Errorf("the register got %d requests for %d concurrent cold lookups, want 1", got, callers)
	}
	if got := cc.misses.Load(); got != misses {
		t.Errorf("%d cache misses, want %d (every lookup was cold, and the one fetch looked again)", got, misses)
	}
	for i := range callers {
		if status[i] != http.StatusOK {
			t.Fatalf("caller %d: status %d: %s", i, status[i], bodies[i])
		}
		if !bytes.Equal(bodies[i], bodies[0]) {
			t.Fatalf("caller %d got another answer:\n%s\nthan caller 0:\n%s", i, bodies[i], bodies[0])
		}
	}
	if !bytes.Contains(bodies[0], []byte(`"name":"EQUINOR ASA"`)) || !bytes.Contains(bodies[0], []byte(`"cached":false`)) {
		t.Errorf("answer is not the live Equinor report: %s", bodies[0])
	}
	// The next lookup is a cache hit and asks nobody.
	w := httptest.NewRecorder()
	rest.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/v1/NO/company/"+equinorID, nil))
	if w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte(`"cached":true`)) || up.requests.Load() != 1 {
		t.Errorf("after the burst: %d, %d upstream requests: %s", w.Code, up.requests.Load(), w.Body)
	}
}
