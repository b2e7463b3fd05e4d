package mcpserver_test

import (
	"bufio"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// afterFuncCtx is a caller's context, never cancelled here, that counts
// the contexts derived from it that are still registered for its
// cancellation: the context package registers a child of a context of
// another kind than its own that has an AfterFunc method through that
// method, and calls the returned stop when the child is cancelled.
type afterFuncCtx struct {
	mu   sync.Mutex
	done chan struct{}
	live int
}

func (c *afterFuncCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *afterFuncCtx) Done() <-chan struct{}       { return c.done }
func (c *afterFuncCtx) Err() error                  { return nil }
func (c *afterFuncCtx) Value(any) any               { return nil }

func (c *afterFuncCtx) AfterFunc(func()) func() bool {
	c.mu.Lock()
	c.live++
	c.mu.Unlock()
	var once sync.Once
	return func() bool {
		stopped := false
		once.Do(func() {
			c.mu.Lock()
			c.live--
			c.mu.Unlock()
			stopped = true
		})
		return stopped
	}
}

func (c *afterFuncCtx) registered() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.live
}

// TestReview_StdioRunContextNeverCancelled: 4677521 makes newStdioIn
// derive the run context with context.WithCancel(ctx) and keeps its cancel
// in stdioIn; it is called only when a write fails (stdioOut.fail), never
// when ServeIO returns. So every session that ends without a failed write
// leaves its child registered with the caller's context until the caller
// cancels it: in a cancelCtx's children map, or, for a context of another
// kind, a goroutine of the context package (propagateCancel) waiting for
// either to be done. A caller serving session after session under one
// long-lived context (ServeIO on each accepted connection) keeps one more
// per session (go vet's lostcancel rule: the cancel must be called on
// every path). The SDK alone leaves none. Here the caller's context counts
// the registrations still live after ServeIO has returned at the input's
// end.
func TestReview_StdioRunContextNeverCancelled(t *testing.T) {
	t.Parallel()
	run := func(opts ...mcpserver.Option) int {
		reg, _ := newRegistry(t)
		ctx := &afterFuncCtx{done: make(chan struct{})}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- mcpserver.ServeIO(ctx, reg, inR, outW, opts...)
			_ = outW.Close()
		}()
		out := bufio.NewReader(outR)
		for _, msg := range []string{initialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, callLine("1", "list_countries", "")} {
			if _, err := io.WriteString(inW, msg+"\n"); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg, "notifications") {
				if _, err := out.ReadString('\n'); err != nil {
					t.Fatal(err)
				}
			}
		}
		_ = inW.Close()
		if err := testwait.Recv(t, done, "ServeIO's end at the input's end"); err != nil {
			t.Fatalf("ServeIO: %v", err)
		}
		return ctx.registered()
	}
	if n := run(mcpserver.WithoutFastPath()); n != 0 {
		t.Fatalf("the SDK alone: %d contexts still registered with the caller's after ServeIO returned", n)
	}
	if n := run(); n != 0 {
		t.Errorf("%d contexts still registered with the caller's after ServeIO returned; the SDK alone leaves none", n)
	}
}
