package mcpserver

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioCallAnsweredBeforeInitialize: the SDK handles initialize
// synchronously (ServerSession.handle calls jsonrpc2.Async for every call
// but initialize; handleAsync starts the next request only once the
// initialize handler has written its answer), so a call a client sends
// right behind its initialize is answered after it. The SDK's initialize
// handler sets InitializeParams before that answer is written
// (ServerSession.initialize's updateState), and stdioIn.initialized reads
// InitializeParams: a cached call read in between is answered in front,
// before the SDK has answered initialize. A receiving middleware here
// holds the initialize answer after the handler has returned, as a
// descheduled goroutine would.
func TestReview_StdioCallAnsweredBeforeInitialize(t *testing.T) {
	t.Parallel()
	order := func(front bool) []string {
		srv, th, lists := newStdioServer(t)
		held, hold := make(chan struct{}, 1), make(chan struct{})
		srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				res, err := next(ctx, method, req)
				if method == "initialize" {
					held <- struct{}{}
					<-hold
				}
				return res, err
			}
		})
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		st := wireStdio(context.Background(), srv, th.tools, lists, front, inR, outW) // ServeIO's wiring
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = srv.Run(context.Background(), &mcp.IOTransport{Reader: st.in, Writer: nopWriteCloser{st.out}})
			if st.front != nil {
				st.front.stop()
			}
			_ = outW.Close()
		}()
		send := func(msg string) {
			if _, err := io.WriteString(inW, msg+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		testwait.Recv(t, held, "the initialize handler")
		send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_countries"}}`)
		// Read only once the line above has been handled: stdioIn reads
		// the next line when it is done with the one before.
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		if front {
			// The call has been handled: passed on to the SDK (answered
			// in front, it would never be counted; the test then fails
			// at testwait's deadline).
			testwait.Until(t, "the call passed on to the SDK", func() bool { return st.ids.busy("1") })
		}
		close(hold)
		out := bufio.NewReader(outR)
		var got []string
		for range 2 {
			l, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("front %v: %v after %q", front, err, got)
			}
			id, _, _ := strings.Cut(strings.TrimPrefix(l, `{"jsonrpc":"2.0","id":`), ",")
			got = append(got, id)
		}
		_ = inW.Close()
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		testwait.Recv(t, done, "the end of the session")
		return got
	}
	want := order(false)
	if diff := cmp.Diff(want, order(true)); diff != "" {
		t.Errorf("ids of the answers, in order (-sdk +stdioIn):\n%s", diff)
	}
}
