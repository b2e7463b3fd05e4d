package registry_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/countrykit"
)

// heldPackCache is a compressing cache.Memory whose Pack waits for release
// before it compresses, and which counts the Packs waiting at once.
type heldPackCache struct {
	*cache.Memory
	release  chan struct{}
	inFlight atomic.Int64
}

func (h *heldPackCache) Pack(key string) {
	h.inFlight.Add(1)
	<-h.release
	h.Memory.Pack(key)
	h.inFlight.Add(-1)
}

// TestReview_PackCompressionsNotBoundedByCallers: the compression a fetch
// used to do inline (bounded by the fetches in flight, so by the callers)
// now runs 2 ms later on a time.AfterFunc goroutine of its own, detached
// from the caller, with nothing bounding how many run at once: one
// sequential caller doing 16 lookups leaves 16 compressions in flight
// together, each needing its own DEFLATE compressor (about 1 MB) from the
// pool. That is where the peak memory of the 20,000-report fill went (58.0
// MiB against 48.4; an in-process probe of 20,000 lookups by 4 callers saw
// 37-38 Packs at once and a peak heap of 37-40 MiB, against 4 Sets at once
// and 20-21 MiB through Set).
//
// The test holds every Pack; it fails as soon as more Packs wait at once
// than there were callers (1). With compression bounded by the callers (or
// by a worker) it waits up to a second for that to happen and passes: on a
// starved machine it can only pass wrongly, never fail wrongly.
func TestReview_PackCompressionsNotBoundedByCallers(t *testing.T) {
	t.Parallel()
	mem, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	h := &heldPackCache{Memory: mem, release: make(chan struct{})}
	var once sync.Once
	open := func() { once.Do(func() { close(h.release) }) }
	t.Cleanup(open)
	purpose := strings.Repeat("To run a fake register's business and all that goes with it. ", 12)
	f := &fakeCountry{code: "NO", lookup: func(_ context.Context, id string, _ int64) (*registry.CompanyReport, error) {
		rep := countrykit.NewReport("NO", "fake", id, "FAKE AS")
		rep.Purpose = &purpose
		return rep, nil
	}}
	r := newRegistry(t, f, registry.WithCache(h))
	const lookups = 16
	for i := range lookups {
		if _, err := r.Lookup(t.Context(), "NO", strconv.Itoa(100000+i)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if n := h.inFlight.Load(); n > 1 {
			// Give the timers of the other lookups their chance, for the message.
			for time.Now().Before(deadline) && h.inFlight.Load() < lookups {
				time.Sleep(5 * time.Millisecond)
			}
			t.Errorf("one sequential caller left %d compressions in flight at once (want at most 1): nothing bounds them", h.inFlight.Load())
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	open()
}
