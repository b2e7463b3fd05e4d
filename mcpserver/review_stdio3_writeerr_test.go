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

// failingWriter passes lines on until fail is set; then every Write fails,
// and the first failure closes failed.
type failingWriter struct {
	mu     sync.Mutex
	fail   bool
	once   sync.Once
	failed chan struct{}
	lines  chan string
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	fail := w.fail
	w.mu.Unlock()
	if fail {
		w.once.Do(func() { close(w.failed) })
		return 0, errors.New("review: the output is broken")
	}
	w.lines <- string(p)
	return len(p), nil
}

// TestReview_StdioWriteErrorIgnored: when a write of an answer fails, the
// SDK alone ends the session (jsonrpc2 Connection.write records writeErr,
// shuttingDown is then non-nil, the idle connection closes) and Run, so
// ServeIO, returns that error. stdioOut ignores the failure of its own
// write of a cached answer ("A failed write is ignored, as the SDK ignores
// its own": it does not), so the session goes on, stdioIn goes on
// answering into the broken output, and ServeIO returns nil at EOF.
func TestReview_StdioWriteErrorIgnored(t *testing.T) {
	t.Parallel()
	run := func(opts ...mcpserver.Option) error {
		reg, _ := newRegistry(t)
		inR, inW := io.Pipe()
		w := &failingWriter{failed: make(chan struct{}), lines: make(chan string, 16)}
		done := make(chan error, 1)
		go func() { done <- mcpserver.ServeIO(context.Background(), reg, inR, w, opts...) }()
		t.Cleanup(func() { _ = inW.Close() })
		send := func(msg string) {
			if _, err := io.WriteString(inW, msg+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		send(initialize)
		testwait.Recv(t, w.lines, "the answer to initialize")
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		send(callLine("1", "list_countries", ""))
		testwait.Recv(t, w.lines, "the answer to list_countries")
		w.mu.Lock()
		w.fail = true
		w.mu.Unlock()
		send(callLine("2", "list_countries", ""))
		testwait.Recv(t, w.failed, "the failed write of the second answer")
		_ = inW.Close()
		return testwait.Recv(t, done, "ServeIO's end")
	}
	want := run(mcpserver.WithoutFastPath())
	if want == nil {
		t.Fatal("the SDK alone: ServeIO returned nil after its write failed")
	}
	if got := run(); got == nil {
		t.Errorf("ServeIO returned nil after the write of an answer failed; the SDK alone returns %q and ends the session", want)
	}
}
