package mcpserver_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// blockOnHandler is a slog.Handler that, on one message, says so on at
// and waits for release.
type blockOnHandler struct {
	msg     string
	at      chan struct{}
	release chan struct{}
}

func (h blockOnHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h blockOnHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.at <- struct{}{}
		<-h.release
	}
	return nil
}
func (h blockOnHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h blockOnHandler) WithGroup(string) slog.Handler      { return h }

// serveReviewEnd4 runs ServeIO; its name marks the goroutine.
func serveReviewEnd4(done chan<- error, serve func() error) { done <- serve() }

// TestReview_StdioWriteFailingAfterCancelBeforeRunReturns: 31bb201 reads
// stdioOut.failure() right after srv.Run returns and takes it as a failure
// "during the session". But after the caller's cancel, Run does not return
// at once: it closes the session (waiting for the SDK's calls in flight,
// e.g. a lookup at a slow register) and logs "server run cancelled"
// before it returns ctx.Err() (mcp/server.go Server.Run). A queued answer
// of stdioIn's whose write fails in that window, after the cancel, becomes
// ServeIO's error, whereas the SDK alone, whose handler's write fails
// after the cancel, returns ctx.Err() and ServeIO nil. Here the window is
// held open by the caller's logger (deterministic); in production it is
// held open by any SDK call in flight at the cancel.
func TestReview_StdioWriteFailingAfterCancelBeforeRunReturns(t *testing.T) {
	run := func(front bool, extra ...mcpserver.Option) error {
		reg, _ := newRegistry(t)
		in := newChanInput()
		w := &stallWriter{stalled: make(chan struct{}, 16), release: make(chan struct{}), lines: make(chan string, 16)}
		h := blockOnHandler{msg: "server run cancelled", at: make(chan struct{}, 1), release: make(chan struct{})}
		opts := append([]mcpserver.Option{mcpserver.WithLogger(slog.New(h))}, extra...)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go serveReviewEnd4(done, func() error { return mcpserver.ServeIO(ctx, reg, in, w, opts...) })
		var releaseOnce, logOnce sync.Once
		release := func() { releaseOnce.Do(func() { close(w.release) }) }
		unlog := func() { logOnce.Do(func() { close(h.release) }) }
		t.Cleanup(func() {
			release()
			unlog()
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
			// Run has closed the session for the cancel and logs.
			testwait.Recv(t, h.at, "Run logging its cancel")
			release() // the answer's write fails, after the cancel
			testwait.Until(t, "stdioOut's writer done", func() bool {
				return !goroutineWith("mcpserver.(*stdioOut).write")
			})
		} else {
			// The SDK's Close waits for the handler's write.
			testwait.Until(t, "Run closing the session for the cancel", func() bool {
				return goroutineWith("serveReviewEnd4", "mcp.(*ServerSession).Close")
			})
			release() // the answer's write fails, after the cancel
			testwait.Recv(t, h.at, "Run logging its cancel")
		}
		unlog()
		return testwait.Recv(t, done, "ServeIO's end")
	}
	if err := run(false, mcpserver.WithoutFastPath()); err != nil {
		t.Fatalf("the SDK alone: ServeIO returned %v after the cancel; want nil", err)
	}
	if err := run(true); err != nil {
		t.Errorf("ServeIO returned %v: the queued answer's write failed after the caller's cancel (before Run returned); the SDK alone returns nil", err)
	}
}
