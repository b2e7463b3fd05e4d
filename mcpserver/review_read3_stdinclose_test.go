//go:build linux

package mcpserver_test

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// inSyscallRead reports whether a goroutine is blocked in a read(2) of an
// *os.File whose stack also holds frame.
func inSyscallRead(frame string) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("[syscall")) && bytes.Contains(g, []byte("os.(*File).Read")) &&
			bytes.Contains(g, []byte(frame)) {
			return true
		}
	}
	return false
}

// TestReview_StdioWriteErrorBlockingStdinHangs: efcef7b puts stdioIn in
// front only when the input is an io.Closer, as "a failed write of its own
// ends the session by closing the input". The input of ServeStdio is
// os.Stdin, an *os.File on a descriptor in blocking mode (a pipe or a tty a
// client hands its child: exec.Cmd and libuv give the child blocking
// stdio): os.NewFile does not put such a descriptor in the poller, and
// (*os.File).Close of it does not end a Read in progress (internal/poll
// FD.Close: the descriptor is closed only when the Read drops its
// reference). So stdioOut.fail's Close leaves stdioIn blocked in read(2),
// the session goes on and ServeIO does not return until the client writes
// again or closes its end; the SDK alone returns the write's error at once
// (its ioConn.Read returns on its closed channel without waiting for the
// input). Here the input is such a file: a pipe made by syscall.Pipe, in
// blocking mode as os.Stdin's usually is.
func TestReview_StdioWriteErrorBlockingStdinHangs(t *testing.T) {
	t.Run("sdk", func(t *testing.T) {
		if err := runBlockingStdin(t, "mcp.newIOConnLimited", mcpserver.WithoutFastPath()); err == nil {
			t.Fatal("the SDK alone: ServeIO returned nil after its write failed")
		}
	})
	t.Run("front", func(t *testing.T) {
		if err := runBlockingStdin(t, "mcpserver.(*stdioIn).Read"); err == nil {
			t.Error("ServeIO returned nil; the SDK alone returns the write's error")
		}
	})
}

// signalWriter is a gatedWriter that says when a Write waits at the gate.
type signalWriter struct {
	*gatedWriter
	waiting chan struct{}
}

func (w signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	fail := w.fail
	w.mu.Unlock()
	if fail {
		select {
		case w.waiting <- struct{}{}:
		default:
		}
	}
	return w.gatedWriter.Write(p)
}

// runBlockingStdin serves a session on a blocking pipe whose write of the
// answer to a cached call fails once the reader (frame in its stack) is
// back in read(2), and returns ServeIO's error.
func runBlockingStdin(t *testing.T, frame string, opts ...mcpserver.Option) error {
	reg, _ := newRegistry(t)
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	rf, wf := os.NewFile(uintptr(p[0]), "stdin"), os.NewFile(uintptr(p[1]), "client")
	w := &gatedWriter{release: make(chan struct{}), lines: make(chan string, 16)}
	sw := signalWriter{gatedWriter: w, waiting: make(chan struct{}, 16)}
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeIO(context.Background(), reg, rf, sw, opts...) }()
	var closeOnce sync.Once
	t.Cleanup(func() {
		closeOnce.Do(func() { close(w.release) })
		_ = wf.Close() // lets a hung session end
		<-done
		_ = rf.Close()
	})
	send := func(msg string) {
		if _, err := wf.WriteString(msg + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(initialize)
	testwait.Recv(t, w.lines, "the answer to initialize")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	w.mu.Lock()
	w.fail = true
	w.mu.Unlock()
	send(callLine("1", "list_countries", ""))
	testwait.Recv(t, sw.waiting, "the write of the answer to the call")
	// The call has been read and answered; the reader is back in a
	// read(2) of the input, which stays open and silent.
	testwait.Until(t, "the reader back in read(2) of the input", func() bool { return inSyscallRead(frame) })
	closeOnce.Do(func() { close(w.release) })
	err := testwait.Recv(t, done, "ServeIO's end after the failed write, the input open")
	done <- err // for the cleanup
	return err
}
