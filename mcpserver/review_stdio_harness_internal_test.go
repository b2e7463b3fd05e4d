package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/testwait"
)

// reviewStdio is ServeIO's set-up (newServer, stdioIn in front of the SDK,
// the list cache's writer) with one more tool, review_block, which blocks
// until its context ends and reports that context on calls. A plain call of
// it is answered by stdioIn; one with _meta goes through the SDK's own
// handler, which runs the same function: the two paths can be compared on
// what happens to the call's context.
type reviewStdio struct {
	in      *io.PipeWriter
	out     *bufio.Reader
	calls   chan context.Context
	stdio   *stdioIn
	sdkDone chan struct{} // closed when the SDK's Run has returned
	done    chan error    // ServeIO's part after Run: stdioIn.wait
}

func startReviewStdio(t *testing.T) *reviewStdio {
	t.Helper()
	reg, err := registry.New(nil, registry.WithVersion("t"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := buildOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, th, lists := newServer(reg, o, true)
	r := &reviewStdio{calls: make(chan context.Context, 4), sdkDone: make(chan struct{}), done: make(chan error, 1)}
	block := func(ctx context.Context, _ json.RawMessage) toolOutput {
		r.calls <- ctx
		<-ctx.Done()
		return toolOutput{envelope: []byte(`{"error":{"code":"cancelled"}}`)}
	}
	srv.AddTool(&mcp.Tool{Name: "review_block", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return block(ctx, req.Params.Arguments).result(), nil
		})
	tools := maps.Clone(th.tools)
	tools["review_block"] = block
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	mw := lists.stdioWriter(outW)
	r.in, r.out = inW, bufio.NewReader(outR)
	r.stdio = newStdioIn(ctx, inR, mw, srv, tools, newResultMemo())
	go func() {
		err := srv.Run(ctx, &mcp.IOTransport{Reader: r.stdio, Writer: nopWriteCloser{mw}})
		close(r.sdkDone)
		r.stdio.wait()
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
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
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

// startCall calls review_block with id (JSON), on the fast path or, with
// _meta, through the SDK, and returns the call's context once it runs.
func (r *reviewStdio) startCall(t *testing.T, id string, fast bool) context.Context {
	t.Helper()
	params := `{"name":"review_block","arguments":{}}`
	if !fast {
		params = `{"name":"review_block","arguments":{},"_meta":{"progressToken":1}}`
	}
	r.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":`+params+`}`)
	ctx := testwait.Recv(t, r.calls, "the call of review_block")
	if got := r.stdio.inflightLen(); fast != (got == 1) {
		t.Fatalf("fast %v: stdioIn has %d calls in flight", fast, got)
	}
	return ctx
}

func (s *stdioIn) inflightLen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.inflight)
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
