package mcpserver_test

import (
	"context"
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// serveReviewLast4 runs ServeIO; its name marks the goroutine.
func serveReviewLast4(done chan<- error, serve func() error) { done <- serve() }

// TestReview_StdioCancelReturnsQueuedWriteError: ServeIO returns nil when
// its caller cancels ctx ("the caller stopped us"), and the SDK alone does
// so even when a handler's answer is still being written and that write
// fails: Server.Run, on ctx.Done, waits in ServerSession.Close for the
// handler's write and then returns ctx.Err() (mcp/server.go Run), whatever
// Wait would have said. Since e5c775d ServeIO calls stdioIn.stop (which
// waits for the queued answer's write) before it checks
// stdioOut.failure(), so with stdioIn in front the same failed write after
// the cancel becomes ServeIO's error; before e5c775d ServeIO returned nil
// here, as the SDK alone does.
func TestReview_StdioCancelReturnsQueuedWriteError(t *testing.T) {
	run := func(front bool, opts ...mcpserver.Option) error {
		reg, _ := newRegistry(t)
		in := newChanInput()
		w := &stallWriter{stalled: make(chan struct{}, 16), release: make(chan struct{}), lines: make(chan string, 16)}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go serveReviewLast4(done, func() error { return mcpserver.ServeIO(ctx, reg, in, w, opts...) })
		var releaseOnce sync.Once
		release := func() { releaseOnce.Do(func() { close(w.release) }) }
		t.Cleanup(func() {
			release()
			in.end()
		})
		in.readyHandshake(t, w.lines)
		w.mu.Lock()
		w.fail = true // the next write waits for release, then fails
		w.mu.Unlock()
		in.send(t, callLine("1", "list_countries", ""))
		testwait.Recv(t, w.stalled, "the answer's write in progress")
		cancel() // the caller stops serving
		if front {
			testwait.Until(t, "ServeIO waiting in stdioOut.stop", func() bool {
				return goroutineWith("serveReviewLast4", "mcpserver.(*stdioOut).stop")
			})
		} else {
			testwait.Until(t, "Run closing the session for the cancel", func() bool {
				return goroutineWith("serveReviewLast4", "mcp.(*ServerSession).Close")
			})
		}
		release() // the answer's write fails
		return testwait.Recv(t, done, "ServeIO's end")
	}
	if err := run(false, mcpserver.WithoutFastPath()); err != nil {
		t.Fatalf("the SDK alone: ServeIO returned %v after the cancel; want nil", err)
	}
	if err := run(true); err != nil {
		t.Errorf("ServeIO returned %v after its caller cancelled it (the write failed after the cancel); the SDK alone returns nil", err)
	}
}
