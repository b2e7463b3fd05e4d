package mcpserver_test

import (
	"bytes"
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// goroutineWith reports whether a goroutine's stack holds every one of
// frames.
func goroutineWith(frames ...string) bool {
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
		all := true
		for _, f := range frames {
			all = all && bytes.Contains(g, []byte(f))
		}
		if all {
			return true
		}
	}
	return false
}

// serveReviewInFlight runs ServeIO; its name marks the goroutine.
func serveReviewInFlight(done chan<- error, serve func() error) { done <- serve() }

// TestReview_StdioFrontWriteErrorWaitsForCallsInFlight: 4677521 ends the
// session after a failed write of stdioOut's by cancelling the context the
// SDK's session runs with. Server.Run then calls ServerSession.Close, and
// jsonrpc2 Connection.Close "waits for in-flight requests and enqueued
// Handle calls to complete" (internal/jsonrpc2/conn.go); it cancels none
// of them, and the stdio connection does not propagate the run context's
// cancellation into the handlers' contexts (connect: PropagateCancellation
// false, notDone). The SDK alone, after a failed write of its own, cancels
// every call in flight (Connection.write: r.cancel(ErrServerClosing...)),
// so its Run returns the write's error at once. Here a lookup waits at the
// register (the SDK runs it) when the write of a cached answer fails: the
// SDK alone returns the error; ServeIO waits in Connection.Close for the
// lookup, which ends only when the register answers (a real one: its
// timeout), so ServeIO does not return promptly. Here the answer's write
// is stdioOut's goroutine's (the output is not a pipe).
func TestReview_StdioFrontWriteErrorWaitsForCallsInFlight(t *testing.T) {
	run := func(opts ...mcpserver.Option) (err error) {
		reg, no := newRegistry(t)
		no.held = make(chan struct{})
		var heldOnce sync.Once
		release := func() { heldOnce.Do(func() { close(no.held) }) }
		in := &chanReader{reading: make(chan struct{}, 64), chunks: make(chan string)}
		w := &gatedWriter{release: make(chan struct{}), lines: make(chan string, 16)}
		done := make(chan error, 1)
		go serveReviewInFlight(done, func() error { return mcpserver.ServeIO(context.Background(), reg, in, w, opts...) })
		var closeOnce sync.Once
		t.Cleanup(func() {
			closeOnce.Do(func() { close(w.release) })
			release()
			close(in.chunks)
			<-done
		})
		send := func(msg string) {
			testwait.Recv(t, in.reading, "a Read of the input")
			in.chunks <- msg + "\n"
		}
		send(initialize)
		testwait.Recv(t, w.lines, "the answer to initialize")
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		send(lookupLine("5", idHeld)) // in flight in the SDK, held at the register
		w.mu.Lock()
		w.fail = true
		w.mu.Unlock()
		send(callLine("1", "list_countries", ""))
		testwait.Recv(t, in.reading, "the Read after the call")
		closeOnce.Do(func() { close(w.release) })
		t.Cleanup(func() {
			if t.Failed() && goroutineWith("serveReviewInFlight", "jsonrpc2.(*Connection).Close") && goroutineWith("registry.awaitFetch") {
				t.Log("ServeIO waits in jsonrpc2 Connection.Close; the lookup's caller still waits at the register")
			}
		})
		// ServeIO returns, or waits in Connection.Close for the held
		// lookup, which nothing but the register's answer ends: then the
		// wait runs out at the test's deadline (go test -timeout; use a
		// short one, e.g. -timeout 60s, to see it fail sooner). When it
		// does, the log says where ServeIO waits.
		err = testwait.Recv(t, done, "ServeIO's end after the failed write, a call in flight at the register")
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
