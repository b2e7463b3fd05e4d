package mcpserver_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// TestServeIO drives the stdio framing over pipes: a client lists the tools
// and calls one; closing the client's end stops the server cleanly.
func TestServeIO(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	clientToServerR, clientToServerW := io.Pipe()
	serverToClientR, serverToClientW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeIO(context.Background(), reg, clientToServerR, serverToClientW)
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: serverToClientR, Writer: clientToServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 6 {
		t.Fatalf("ListTools: %v (%d tools)", err, len(tools.Tools))
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "lookup_company", Arguments: map[string]any{"id": idNotFound}})
	if err != nil || !res.IsError {
		t.Fatalf("CallTool: %v %+v", err, res)
	}
	if err := cs.Close(); err != nil {
		t.Logf("client close: %v", err)
	}
	if err := testwait.Recv(t, done, "ServeIO's return after the client closed"); err != nil {
		t.Errorf("ServeIO returned %v after the client closed, want nil", err)
	}
}

// TestServeIOCancel checks that cancelling the context stops the server.
func TestServeIOCancel(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	r, _ := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeIO(ctx, reg, r, io.Discard) }()
	cancel()
	if err := testwait.Recv(t, done, "ServeIO's return after cancel"); err != nil {
		t.Errorf("ServeIO returned %v after cancel, want nil", err)
	}
}

// initialize is a client's first message over stdio, without its newline.
const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// TestServeIONoTrailingNewline checks that a complete message is answered
// before its newline arrives (a client may put the newline first, or end
// the stream with a message), as the SDK alone answers it.
func TestServeIONoTrailingNewline(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]mcpserver.Option{nil, {mcpserver.WithoutFastPath()}} {
		reg, _ := newRegistry(t)
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
			_ = outW.Close()
		}()
		go func() { _, _ = io.WriteString(inW, initialize) }()
		line := make(chan string, 1)
		go func() {
			l, _ := bufio.NewReader(outR).ReadString('\n')
			line <- l
			_, _ = io.Copy(io.Discard, outR)
		}()
		if l := testwait.Recv(t, line, fmt.Sprintf("fast path %v: the answer to initialize without a newline", opts == nil)); !strings.Contains(l, `"result"`) {
			t.Errorf("fast path %v: answer %q", opts == nil, l)
		}
		_ = inW.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeIO: %v", err)
		}
	}
}

// TestServeIOInvalidBatch checks that a list request on a line of its own
// inside a batch written over several lines without commas (invalid JSON,
// on which the SDK ends the session) is not answered.
func TestServeIOInvalidBatch(t *testing.T) {
	t.Parallel()
	msgs := []string{"[", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, "]"}
	run := func(opts ...mcpserver.Option) (string, string) {
		reg, _ := newRegistry(t)
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
			_ = outW.Close()
		}()
		p := &stdioPeer{in: inW, out: bufio.NewReader(outR)}
		p.handshake(t)
		p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, true) // fills the cache
		go func() {
			for _, m := range msgs {
				if _, err := io.WriteString(inW, m+"\n"); err != nil {
					return
				}
			}
			_ = inW.Close()
		}()
		rest, _ := io.ReadAll(p.out)
		err := <-done
		_ = inR.Close()
		return string(rest), fmt.Sprint(err)
	}
	gotOut, gotErr := run()
	wantOut, wantErr := run(mcpserver.WithoutFastPath())
	if diff := cmp.Diff([]string{wantOut, wantErr}, []string{gotOut, gotErr}); diff != "" {
		t.Errorf("(-sdk +cached):\n%s", diff)
	}
}

// onlyReader hides every method of its reader but Read, so that ServeIO
// cannot close it.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// recordingWriter keeps what is written and counts the writes made after
// stop is set.
type recordingWriter struct {
	mu    sync.Mutex
	stop  bool
	after int
	out   strings.Builder
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop {
		w.after++
	}
	w.out.Write(p)
	return len(p), nil
}

func (w *recordingWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.String()
}

// TestServeIONoWriteAfterReturn checks that nothing is written to the
// caller's writer once ServeIO has returned, even when the reader cannot
// be closed and a request arrives after ctx was cancelled.
func TestServeIONoWriteAfterReturn(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	inR, inW := io.Pipe()
	w := &recordingWriter{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeIO(ctx, reg, onlyReader{inR}, w) }()
	if _, err := io.WriteString(inW, initialize+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, "the answer to tools/list", func() bool { return strings.Contains(w.String(), `"id":1,"result"`) })
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ServeIO: %v", err)
	}
	w.mu.Lock()
	w.stop = true
	w.mu.Unlock()
	// The SDK's reader is still blocked in Read on the pipe: feed it, and
	// wait until it has read the request (a pipe's write returns then).
	fed := make(chan struct{})
	go func() {
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
		_ = inW.Close()
		close(fed)
	}()
	testwait.Recv(t, fed, "the SDK's read of a request after the return")
	// An answer would be written within a moment; the pause is only the
	// window in which to see one (a loaded machine can hide a late write,
	// never fail the test).
	time.Sleep(100 * time.Millisecond)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.after != 0 {
		t.Errorf("%d writes after ServeIO returned", w.after)
	}
}
