package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"maps"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/testwait"
)

// reviewStdio is ServeIO's set-up (newServer, then wireStdio: stdioIn in
// front of the SDK, the list cache's writer, the SDK's writer counting its
// answers) with one more tool, review_block, which blocks until its context ends (or the test
// closes release) and reports that context on calls. Brought over from the review of the second pass
// (branch rev-p2mcp), where a plain call of review_block was answered by
// the old stdioIn on a goroutine of its own; stdioIn now answers only the
// tools of stdioFastTool, and only without a register, so a plain call of
// review_block goes to the SDK, as a call that misses the cache does. With
// front false stdioIn answers nothing, as ServeIO's without the memory
// cache (it only passes the input on and counts the requests for the end
// of the input): the answers of both are compared.
type reviewStdio struct {
	in       *io.PipeWriter
	out      *bufio.Reader
	calls    chan context.Context
	stdio    *stdioIn      // without front, it answers nothing
	ids      *sdkIDs       // nil without front
	sdkDone  chan struct{} // closed when the SDK's Run has returned
	sdkCalls atomic.Int64  // tools/call requests the SDK has handled
	done     chan error    // Run's result
	release  chan struct{} // closed: review_block returns without its context ending
	cancel   context.CancelFunc
	outR     *io.PipeReader // the output's read end
}

func startReviewStdio(t *testing.T, front bool) *reviewStdio {
	t.Helper()
	return startReviewStdioWith(t, front, nil)
}

// startReviewStdioWith is startReviewStdio that calls set, when not nil,
// with the stdioIn before the SDK runs (to set its drainTimer).
func startReviewStdioWith(t *testing.T, front bool, set func(*stdioIn)) *reviewStdio {
	t.Helper()
	srv, th, lists := newStdioServer(t)
	r := &reviewStdio{calls: make(chan context.Context, 4), sdkDone: make(chan struct{}), done: make(chan error, 1),
		release: make(chan struct{})}
	block := func(ctx context.Context, _ json.RawMessage) toolOutput {
		r.calls <- ctx
		select {
		case <-ctx.Done():
		case <-r.release:
			return toolOutput{envelope: []byte(`{"error":{"code":"released"}}`)}
		}
		return toolOutput{envelope: []byte(`{"error":{"code":"cancelled"}}`)}
	}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				r.sdkCalls.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	srv.AddTool(&mcp.Tool{Name: "review_block", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return block(ctx, req.Params.Arguments).result(), nil
		})
	tools := maps.Clone(th.tools)
	tools["review_block"] = block
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r.in, r.out, r.outR, r.cancel = inW, bufio.NewReader(outR), outR, cancel
	st := wireStdio(ctx, srv, tools, lists, front, inR, outW) // ServeIO's wiring
	r.stdio, r.ids = st.front, st.ids
	if set != nil {
		set(st.front)
	}
	go func() {
		err := srv.Run(ctx, &mcp.IOTransport{Reader: st.in, Writer: nopWriteCloser{st.out}})
		close(r.sdkDone)
		if r.stdio != nil {
			r.stdio.stop()
		}
		r.done <- err
		_ = outW.Close()
	}()
	// Drain the output once the test is done with it, so that no writer
	// blocks while the cleanup ends the session.
	t.Cleanup(func() {
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		cancel() // ends every call of review_block
		_ = inW.Close()
		testwait.Recv(t, r.done, "ServeIO's end")
		_ = inR.Close()
	})
	r.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	r.readID(t, "0")
	if r.ids != nil {
		// The SDK counts its answer once its write has returned, which
		// may be after the answer was read here: until then stdioIn
		// passes calls on to the SDK (initialized), and a test that
		// expects them answered in front would wait for ever.
		testwait.Until(t, "the SDK's answer to initialize counted", func() bool { return !r.ids.busy("0") })
	}
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

// newStdioServer is ServeIO's server, with its handlers and list cache,
// for a Registry without modules and the default options.
func newStdioServer(t *testing.T) (*mcp.Server, *handlers, *listCache) {
	t.Helper()
	reg, err := registry.New(nil, registry.WithVersion("t"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := buildOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	return newServer(reg, o, true)
}

// send writes msg and a newline.
func (r *reviewStdio) send(t *testing.T, msg string) {
	t.Helper()
	if _, err := io.WriteString(r.in, msg+"\n"); err != nil {
		t.Fatal(err)
	}
}

// readID reads answers until the one with id (as written in JSON).
func (r *reviewStdio) readID(t *testing.T, id string) {
	t.Helper()
	r.readUntilID(t, id)
}

// startCall calls review_block with id (JSON), with a plain line (which
// the second pass's stdioIn answered itself) or, with _meta, a line only
// the SDK takes, and returns the call's context once it runs. Either way
// the SDK runs it: with stdioIn in front, its id is counted as in flight.
func (r *reviewStdio) startCall(t *testing.T, id string, plain bool) context.Context {
	t.Helper()
	params := `{"name":"review_block","arguments":{}}`
	if !plain {
		params = `{"name":"review_block","arguments":{},"_meta":{"progressToken":1}}`
	}
	r.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":`+params+`}`)
	ctx := testwait.Recv(t, r.calls, "the call of review_block")
	if r.stdio != nil && !r.ids.busy(id) {
		t.Fatalf("stdioIn passed the call %s to the SDK without counting its id", id)
	}
	return ctx
}

// readUntilID reads answers up to the one with id and returns them all.
func (r *reviewStdio) readUntilID(t *testing.T, id string) []string {
	t.Helper()
	var got []string
	lines := make(chan string, 1)
	for {
		go func() {
			l, _ := r.out.ReadString('\n')
			lines <- l
		}()
		l := testwait.Recv(t, lines, "the answer with id "+id)
		if l == "" {
			t.Fatalf("the output ended before the answer with id %s", id)
		}
		got = append(got, l)
		if strings.HasPrefix(l, `{"jsonrpc":"2.0","id":`+id+`,`) {
			return got
		}
	}
}
