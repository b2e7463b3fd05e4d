package rediscache_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/internal/redistest"
)

// silentRedis accepts connections, reads what it is sent and never
// answers; heard is closed when the first bytes arrive.
func silentRedis(t *testing.T) (addr string, heard <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	t.Cleanup(func() {
		_ = ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				_ = c.Close()
			}
		}()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, conn)
			wg.Go(func() {
				buf := make([]byte, 1024)
				for {
					if _, err := conn.Read(buf); err != nil {
						return
					}
					once.Do(func() { close(ch) })
				}
			})
		}
	})
	return ln.Addr().String(), ch
}

// TestDescribeBoundedByCaller (issue 29, Health with a context): the health
// ping of a Redis that does not answer ends by the caller's deadline, well
// before the Redis timeout (5 s here), and a caller whose deadline passed
// does not make Redis look down. Without the caller's bound the call would
// wait out the timeout and report Redis down. Nothing here depends on how
// fast the machine is: whenever the deadline passes (dialling, writing or
// reading), the caller has given up and Redis is not judged.
func TestDescribeBoundedByCaller(t *testing.T) {
	t.Parallel()
	addr, heard := silentRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, ReadTimeout: 10 * time.Second,
		ContextTimeoutEnabled: true, Protocol: 2})
	t.Cleanup(func() { _ = rdb.Close() })
	c := newCache(t, rdb, rediscache.WithTimeout(5*time.Second), rediscache.WithoutLocalTier())

	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	d := c.Describe(ctx)
	select {
	case <-heard:
	default:
		t.Log("the deadline passed before the ping reached Redis")
	}
	if !d.Reachable || !c.Reachable() {
		t.Errorf("a caller that gave up made Redis look down: %+v", d)
	}

	// A caller whose context has already ended pings nothing.
	if d := c.Describe(ctx); !d.Reachable {
		t.Errorf("Describe with an ended context: %+v", d)
	}
}

// deadlineHook records the deadline of each command's context.
type deadlineHook struct {
	mu        sync.Mutex
	deadlines []time.Time
}

func (h *deadlineHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *deadlineHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h *deadlineHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if dl, ok := ctx.Deadline(); ok && cmd.Name() == "ping" {
			h.mu.Lock()
			h.deadlines = append(h.deadlines, dl)
			h.mu.Unlock()
		}
		return next(ctx, cmd)
	}
}

// TestDescribePingTakesTheSoonerDeadline: the health ping runs under the
// caller's deadline when it is sooner than the Redis timeout, and under the
// timeout otherwise (issue 29: "bounded by the caller's deadline as well as
// REDIS_TIMEOUT"). The deadlines are compared as values, not timed.
func TestDescribePingTakesTheSoonerDeadline(t *testing.T) {
	t.Parallel()
	// The hook sees each call as the cache made it; the client then drops
	// the deadline, so that a loaded machine cannot end the ping before
	// Miniredis answers it.
	mr, _ := redistest.Mini(t)
	hook := &deadlineHook{}
	rdb := redistest.Client(mr.Addr(), hook)
	t.Cleanup(func() { _ = rdb.Close() })
	c := newCache(t, rdb, rediscache.WithTimeout(5*time.Second), rediscache.WithoutLocalTier())

	soon := time.Now().Add(2 * time.Second)
	ctx, cancel := context.WithDeadline(t.Context(), soon)
	defer cancel()
	if d := c.Describe(ctx); !d.Reachable {
		t.Fatalf("Describe = %+v, want reachable", d)
	}
	hook.mu.Lock()
	defer hook.mu.Unlock()
	if len(hook.deadlines) != 1 || !hook.deadlines[0].Equal(soon) {
		t.Errorf("ping deadlines %v, want exactly the caller's %v", hook.deadlines, soon)
	}
}
