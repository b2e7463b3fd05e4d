package mcpserver_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// panicOnHandler is a slog.Handler that panics on one message.
type panicOnHandler struct{ msg string }

func (h panicOnHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h panicOnHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		panic("review: logger panics on " + h.msg)
	}
	return nil
}
func (h panicOnHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h panicOnHandler) WithGroup(string) slog.Handler      { return h }

// holdWriter passes lines on; once hold is set, the next Write says so on
// held and waits for release, and any Write made after ended is set is
// counted in late.
type holdWriter struct {
	mu      sync.Mutex
	hold    bool
	held    chan struct{}
	release chan struct{}
	lines   chan string
	ended   atomic.Bool
	late    atomic.Int32
}

func (w *holdWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	hold := w.hold
	w.hold = false
	w.mu.Unlock()
	if hold {
		w.held <- struct{}{}
		<-w.release
	}
	if w.ended.Load() {
		w.late.Add(1)
	}
	w.lines <- string(p)
	return len(p), nil
}

// serveReviewLast4Panic runs ServeIO and reports its error or its panic;
// its name marks the goroutine.
func serveReviewLast4Panic(done chan<- error, w *holdWriter, serve func() error) {
	var err error
	defer func() {
		w.ended.Store(true)
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
		done <- err
	}()
	err = serve()
}

// TestReview_StdioPanicInRunLeavesWriterRunning: before e5c775d ServeIO
// deferred stdioIn's cancel and stop, so they ran also when srv.Run
// panicked; now they are plain calls after Run. Run does not recover
// panics (mcp/server.go Server.Run) and, in ServeIO's goroutine, calls the
// logger the caller gave WithLogger ("server run cancelled" at Error
// level, past quiet's Warn filter). When that logger panics, ServeIO now
// panics out while stdioOut's writer still holds an answer: the write
// comes after ServeIO has ended (decisions.md: "Nothing is written after
// ServeIO returns") and run context is never cancelled. Before e5c775d the
// deferred stop waited for the write.
func TestReview_StdioPanicInRunLeavesWriterRunning(t *testing.T) {
	reg, _ := newRegistry(t)
	in := newChanInput()
	w := &holdWriter{held: make(chan struct{}, 16), release: make(chan struct{}), lines: make(chan string, 16)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	logger := slog.New(panicOnHandler{msg: "server run cancelled"})
	go serveReviewLast4Panic(done, w, func() error {
		return mcpserver.ServeIO(ctx, reg, in, w, mcpserver.WithLogger(logger))
	})
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { close(w.release) }) }
	t.Cleanup(func() {
		release()
		in.end()
	})
	in.readyHandshake(t, w.lines)
	w.mu.Lock()
	w.hold = true
	w.mu.Unlock()
	in.send(t, callLine("1", "list_countries", ""))
	testwait.Recv(t, w.held, "stdioIn's answer being written")
	cancel()
	// Either ServeIO has ended (its panic), or it waits in stop for the
	// answer being written.
	var ended bool
	testwait.Until(t, "ServeIO ended or waiting in stdioOut.stop", func() bool {
		ended = w.ended.Load()
		return ended || goroutineWith("serveReviewLast4Panic", "mcpserver.(*stdioOut).stop")
	})
	release()
	testwait.Recv(t, w.lines, "stdioIn's answer")
	err := testwait.Recv(t, done, "ServeIO's end")
	if err == nil || err.Error() != "panic: review: logger panics on server run cancelled" {
		t.Fatalf("ServeIO ended with %v; want the logger's panic", err)
	}
	if ended || w.late.Load() > 0 {
		t.Errorf("ServeIO ended (panicking) before stdioIn's queued answer was written: %d write(s) after its end", w.late.Load())
	}
}
