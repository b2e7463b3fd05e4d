package mcpserver_test

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// slowCache is a cache.Memory whose Get waits for gate while gate is not
// nil (a Redis that is slow to answer: rediscache bounds a Get by 100 ms).
type slowCache struct {
	*cache.Memory
	gate chan struct{}
}

func (c *slowCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if c.gate != nil {
		<-c.gate
	}
	return c.Memory.Get(ctx, key)
}

// TestReview_StdioSlowCacheHoldsTheStream: stdioIn's cache-only attempt
// reads the cache inside Read, on the goroutine that reads the input for
// the SDK, so a cache that is slow to answer (a Redis round trip, up to
// its timeout) holds the whole stream: a ping or a notifications/cancelled
// behind the call is not read until the cache answers, and a miss reads
// the slow cache a second time in the SDK. The SDK alone reads the cache
// in the call's handler goroutine, and its reader goes on. stdioIn's doc
// says "a slow call (a miss) runs in the SDK and does not hold the
// stream". The check: the goroutine that waits in the cache's Get is not
// the one reading the input (stdioIn.Read).
func TestReview_StdioSlowCacheHoldsTheStream(t *testing.T) {
	// Not parallel: testwait.Blocked counts the goroutines of the process.
	for _, opts := range [][]mcpserver.Option{{mcpserver.WithoutFastPath()}, nil} {
		mem, err := cache.NewMemory()
		if err != nil {
			t.Fatal(err)
		}
		c := &slowCache{Memory: mem}
		reg, err := registry.New([]registry.Country{&fakeNO{}, fakeGB{}},
			registry.WithClock(func() time.Time { return fixedNow }), registry.WithRetryPause(0), registry.WithVersion("1.2.3-test"),
			registry.WithCache(c))
		if err != nil {
			t.Fatal(err)
		}
		p := startStdioWith(t, reg, opts...)
		p.handshake(t)
		gate := make(chan struct{})
		c.gate = gate // set before the call is written: the reader reads it after
		p.send(t, lookupLine("5", idEquinor), false)
		testwait.Blocked(t, "github.com/companyregistry/registry/mcpserver_test.(*slowCache).Get", 1)
		inRead := readerWaitsInGet()
		close(gate)
		p.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`, false)
		for range 2 {
			if _, err := p.out.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
		if inRead {
			t.Errorf("fast path %v: the cache's Get waits on the goroutine reading the input (in stdioIn.Read): the stream waits for the cache", opts == nil)
		}
	}
}

// readerWaitsInGet reports whether a goroutine waiting in slowCache.Get is
// inside stdioIn.Read.
func readerWaitsInGet() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("(*slowCache).Get")) && bytes.Contains(g, []byte("mcpserver.(*stdioIn).Read")) {
			return true
		}
	}
	return false
}
