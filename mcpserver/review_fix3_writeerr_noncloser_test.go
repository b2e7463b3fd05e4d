package mcpserver_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// chanReader is an input that is not an io.Closer: each Read says on
// reading that it waits, then returns the next chunk, or io.EOF once
// chunks is closed.
type chanReader struct {
	reading chan struct{}
	chunks  chan string
	rest    string
}

// chanInput is a chanReader with what the tests of a failing output do
// with it: send a line once ServeIO reads, end the input once.
type chanInput struct {
	*chanReader
	endOnce sync.Once
}

func newChanInput() *chanInput {
	return &chanInput{chanReader: &chanReader{reading: make(chan struct{}, 64), chunks: make(chan string)}}
}

// send writes msg and a newline once ServeIO reads the input.
func (in *chanInput) send(t *testing.T, msg string) {
	t.Helper()
	testwait.Recv(t, in.reading, "a Read of the input")
	in.chunks <- msg + "\n"
}

// end ends the input (the client closes it); later calls do nothing.
func (in *chanInput) end() { in.endOnce.Do(func() { close(in.chunks) }) }

// readyHandshake initializes the session and waits, on lines (the
// output's), for the answers to initialize and to a ping: the SDK writes
// the ping's after it has counted its answer to initialize, and stdioIn
// answers calls only after that count.
func (in *chanInput) readyHandshake(t *testing.T, lines <-chan string) {
	t.Helper()
	in.send(t, initialize)
	testwait.Recv(t, lines, "the answer to initialize")
	in.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	in.send(t, `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	testwait.Recv(t, lines, "the answer to the ping")
}

func (r *chanReader) Read(p []byte) (int, error) {
	if r.rest == "" {
		r.reading <- struct{}{}
		s, ok := <-r.chunks
		if !ok {
			return 0, io.EOF
		}
		r.rest = s
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// gatedWriter passes lines on until fail is set; the next Write waits for
// release, then it and every later one fail.
type gatedWriter struct {
	mu      sync.Mutex
	fail    bool
	release chan struct{}
	lines   chan string
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	fail := w.fail
	w.mu.Unlock()
	if fail {
		<-w.release
		return 0, errors.New("review: the output is broken")
	}
	w.lines <- string(p)
	return len(p), nil
}

// TestReview_StdioWriteErrorNonCloserInputHangs: a failed write ends the
// SDK's session even when the input cannot be closed and its Read blocks:
// jsonrpc2 Connection.write records writeErr, the idle connection closes
// the ioConn, whose Read then returns io.EOF from its closed channel
// without waiting for the blocked read of the input (mcp/transport.go,
// ioConn.Read: "case <-t.closed: return nil, io.EOF"); Run returns the
// write's error. When the failed write is stdioOut's, the SDK's Connection
// knows nothing of it: stdioOut.fail can only close the input, which
// ServeIO takes as any io.Reader; an input that is not an io.Closer stays
// blocked in Read (stdioIn.Read looks at the failure only before it reads),
// so the session does not end, the SDK's calls in flight are not
// cancelled, and ServeIO does not return until the client writes again or
// closes its end. Here the write fails once stdioIn is back in Read, as it
// does when the client does not read stdout for a while.
func TestReview_StdioWriteErrorNonCloserInputHangs(t *testing.T) {
	t.Parallel()
	run := func(opts ...mcpserver.Option) error {
		reg, _ := newRegistry(t)
		in := &chanReader{reading: make(chan struct{}, 64), chunks: make(chan string)}
		w := &gatedWriter{release: make(chan struct{}), lines: make(chan string, 16)}
		done := make(chan error, 1)
		go func() { done <- mcpserver.ServeIO(context.Background(), reg, in, w, opts...) }()
		var closeOnce sync.Once
		t.Cleanup(func() {
			closeOnce.Do(func() { close(w.release) })
			close(in.chunks) // lets a hung session end
			<-done
		})
		send := func(msg string) {
			testwait.Recv(t, in.reading, "a Read of the input")
			in.chunks <- msg + "\n"
		}
		send(initialize)
		testwait.Recv(t, w.lines, "the answer to initialize")
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		w.mu.Lock()
		w.fail = true
		w.mu.Unlock()
		send(callLine("1", "list_countries", ""))
		// The call has been read; the reader is back in Read of the
		// input, which stays open and silent, as a client's stdin may.
		testwait.Recv(t, in.reading, "the Read after the call")
		closeOnce.Do(func() { close(w.release) })
		err := testwait.Recv(t, done, "ServeIO's end after the failed write, the input open")
		done <- err // for the cleanup
		return err
	}
	want := run(mcpserver.WithoutFastPath())
	if want == nil {
		t.Fatal("the SDK alone: ServeIO returned nil after its write failed")
	}
	if got := run(); got == nil || got.Error() != want.Error() {
		t.Errorf("ServeIO returned %v; the SDK alone returns %q", got, want)
	}
}
