package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// eofWriter passes lines on until fail is set; the next Write says so on
// stalled, waits for release, then it and every later one fail with err.
type eofWriter struct {
	mu      sync.Mutex
	fail    bool
	err     error
	stalled chan struct{}
	release chan struct{}
	lines   chan string
}

func (w *eofWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	fail := w.fail
	w.mu.Unlock()
	if fail {
		w.stalled <- struct{}{}
		<-w.release
		return 0, w.err
	}
	w.lines <- string(p)
	return len(p), nil
}

// serveReviewSF5 runs ServeIO; its name marks the goroutine.
func serveReviewSF5(done chan<- error, serve func() error) { done <- serve() }

// TestReview_StdioFrontWriteEOFIsServeIOError: the SDK alone does not
// report a failed write whose error is io.EOF (or wraps it): jsonrpc2
// Connection.wait skips a writeErr that errors.Is io.EOF, as it skips a
// read error io.EOF, and ServeIO maps an io.EOF from Run to nil ("the
// client went away"). An output that reports its peer's end as io.EOF on
// Write is common: an SSH channel (golang.org/x/crypto/ssh) whose client
// closed it, an io.Pipe whose reader closed with io.EOF. ServeIO returns
// stdioOut's failure as it is (server.go: "if failed != nil { return
// failed }"), before and around the io.EOF/context.Canceled mapping, so
// the same session ends with io.EOF as ServeIO's error when the answer
// was written by stdioIn and with nil when the SDK wrote it. Both while
// the session runs (rule 1) and after the input's end while stop drains
// (rule 2). The same holds for a writer failing with context.Canceled (a
// writer tied to a context of its own): the SDK's Wait returns it, Run
// returns it, and ServeIO maps it to nil; stdioOut's is returned.
func TestReview_StdioFrontWriteEOFIsServeIOError(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		eofAll bool // end the input while the write is in progress
	}{
		{"session/io.EOF", io.EOF, false},
		{"session/wrapped", fmt.Errorf("ssh: channel closed: %w", io.EOF), false},
		{"afterEOF/io.EOF", io.EOF, true},
		{"session/context.Canceled", context.Canceled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(front bool, opts ...mcpserver.Option) error {
				reg, _ := newRegistry(t)
				in := newChanInput()
				w := &eofWriter{err: tc.err, stalled: make(chan struct{}, 16), release: make(chan struct{}), lines: make(chan string, 16)}
				done := make(chan error, 1)
				go serveReviewSF5(done, func() error { return mcpserver.ServeIO(context.Background(), reg, in, w, opts...) })
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
				if tc.eofAll {
					in.end()
					if front {
						testwait.Until(t, "ServeIO waiting in stdioOut.stop", func() bool {
							return goroutineWith("serveReviewSF5", "mcpserver.(*stdioOut).stop")
						})
					}
				}
				release() // the answer's write fails with tc.err
				err := testwait.Recv(t, done, "ServeIO's end")
				in.end()
				return err
			}
			if err := run(false, mcpserver.WithoutFastPath()); err != nil {
				t.Fatalf("the SDK alone: ServeIO returned %v; want nil (jsonrpc2 skips a write error that is io.EOF)", err)
			}
			if err := run(true); err != nil {
				t.Errorf("ServeIO returned %v after stdioIn's answer's write failed with %v; the SDK alone returns nil", err, tc.err)
			}
		})
	}
}
