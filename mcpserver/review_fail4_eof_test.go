package mcpserver_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// serveReviewFail4 runs ServeIO; its name marks the goroutine.
func serveReviewFail4(done chan<- error, serve func() error) { done <- serve() }

// stallWriter passes lines on until fail is set; the next Write says so on
// stalled, waits for release, then it and every later one fail.
type stallWriter struct {
	mu      sync.Mutex
	fail    bool
	stalled chan struct{}
	release chan struct{}
	lines   chan string
}

func (w *stallWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	fail := w.fail
	w.mu.Unlock()
	if fail {
		w.stalled <- struct{}{}
		<-w.release
		return 0, errors.New("review: the output is broken")
	}
	w.lines <- string(p)
	return len(p), nil
}

// TestReview_StdioQueuedAnswerWriteErrorAtEOFLost: stdioOut.fail says a
// failed write of stdioIn's answer ends the session "as the SDK ends it
// after a failed write of its own ... and ServeIO returns err". Here the
// client sends a call stdioIn answers (list_countries), then closes its
// input while the answer's write is still in progress (the output is slow),
// and that write then fails. The SDK alone writes the same answer from its
// handler; jsonrpc2 does not close the connection while a handler writes,
// records the failed write (Connection.write: writeErr), and Wait returns
// it since the read error is io.EOF (Connection.wait): Run, and ServeIO,
// return the write's error. With stdioIn in front, the SDK sees only the
// end of the input and Run returns nil; ServeIO checks
// stdioOut.failure() before its deferred stdioIn.stop waits for the queued
// answer, so the write that fails inside stop is never reported: ServeIO
// returns nil, as if every answer had been written.
func TestReview_StdioQueuedAnswerWriteErrorAtEOFLost(t *testing.T) {
	run := func(front bool, opts ...mcpserver.Option) error {
		reg, _ := newRegistry(t)
		in := newChanInput()
		w := &stallWriter{stalled: make(chan struct{}, 16), release: make(chan struct{}), lines: make(chan string, 16)}
		done := make(chan error, 1)
		go serveReviewFail4(done, func() error { return mcpserver.ServeIO(context.Background(), reg, in, w, opts...) })
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
		testwait.Recv(t, in.reading, "the Read after the call")
		in.end() // the client closes its input
		if front {
			// ServeIO has decided what it returns and waits in
			// stdioIn.stop for the answer being written.
			testwait.Until(t, "ServeIO waiting in stdioOut.stop", func() bool {
				return goroutineWith("serveReviewFail4", "mcpserver.(*stdioOut).stop")
			})
		}
		release() // the answer's write fails
		return testwait.Recv(t, done, "ServeIO's end")
	}
	want := run(false, mcpserver.WithoutFastPath())
	if want == nil {
		t.Fatal("the SDK alone: ServeIO returned nil although the answer's write failed")
	}
	if got := run(true); got == nil || got.Error() != want.Error() {
		t.Errorf("ServeIO returned %v after the answer's write failed; the SDK alone returns %q", got, want)
	}
}
