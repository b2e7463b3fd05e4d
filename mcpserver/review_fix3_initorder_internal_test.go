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

// TestReview_StdioCallAnsweredBeforeLaterInitialize: the SDK handles every
// initialize request synchronously (ServerSession.handle calls
// jsonrpc2.Async for every call but initialize), so a call sent right
// behind any initialize is answered after that initialize's answer. The
// fix of 4a35fd7 waits only for the answer to the first initialize
// request (stdioIn.initID); once that one is answered, stdioIn answers in
// front while a later initialize is still in the SDK:
//   - "refused first": an initialize without params is refused
//     (ServerSession.initialize: "params" must be provided), so the
//     session is initialized by the next initialize; a cached call read
//     while that one is handled is answered before it.
//   - "second": a second initialize is refused ("duplicate initialize
//     received") as a synchronous call too; a call read while it is
//     handled is answered before it.
//   - "refused first, escaped": as "refused first", the second initialize's
//     method written with a JSON escape (initi\u0061lize), which the SDK
//     decodes as initialize; stdioIn compares the method as written.
//
// A receiving middleware holds the answer of the held initialize after
// its handler has returned, as a descheduled goroutine would.
func TestReview_StdioCallAnsweredBeforeLaterInitialize(t *testing.T) {
	t.Parallel()
	const good = `"params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`
	for name, tc := range map[string]struct {
		first  string
		holdAt int // which initialize that reaches the middleware is held
	}{
		// Refused before the middleware: the next one is the first there.
		"refused first": {`{"jsonrpc":"2.0","id":0,"method":"initialize"}`, 1},
		"second":        {`{"jsonrpc":"2.0","id":0,"method":"initialize",` + good + `}`, 2},
		// The held one's method is written with an escape, which the
		// SDK decodes ("initialize") and stdioIn compares as written.
		"refused first, escaped": {`{"jsonrpc":"2.0","id":0,"method":"initialize"}`, 1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			order := func(front bool) []string {
				srv, th, lists := newStdioServer(t)
				held, hold := make(chan struct{}, 1), make(chan struct{})
				inits := 0 // the SDK handles initialize requests one at a time
				srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
					return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
						res, err := next(ctx, method, req)
						if method == "initialize" {
							if inits++; inits == tc.holdAt {
								held <- struct{}{}
								<-hold
							}
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
				lines := make(chan string, 8)
				go func() {
					out := bufio.NewReader(outR)
					for {
						l, err := out.ReadString('\n')
						if err != nil {
							close(lines)
							return
						}
						lines <- l
					}
				}()
				defer func() {
					_ = inW.Close()
					testwait.Recv(t, done, "the end of the session")
				}()
				send := func(msg string) {
					if _, err := io.WriteString(inW, msg+"\n"); err != nil {
						t.Fatal(err)
					}
				}
				idOf := func(l string) string {
					id, _, _ := strings.Cut(strings.TrimPrefix(l, `{"jsonrpc":"2.0","id":`), ",")
					return id
				}
				send(tc.first)
				got := []string{idOf(testwait.Recv(t, lines, "the answer to the first initialize"))}
				if name == "second" {
					send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				}
				method := "initialize"
				if strings.HasSuffix(name, "escaped") {
					method = `initi\u0061lize`
				}
				send(`{"jsonrpc":"2.0","id":1,"method":"` + method + `",` + good + `}`)
				testwait.Recv(t, held, "the held initialize")
				send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_countries"}}`)
				// stdioIn reads this line only once it is done with the
				// call: the call is then answered in front or passed on.
				send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				// An escaped method name ends stdioIn's answers for the
				// session: the call then goes to the SDK uncounted.
				if front && !strings.HasSuffix(name, "escaped") {
					testwait.Until(t, "the call passed on to the SDK, or answered", func() bool {
						return st.ids.busy("2") || len(lines) > 0
					})
				}
				close(hold)
				for range 2 {
					got = append(got, idOf(testwait.Recv(t, lines, "an answer")))
				}
				return got
			}
			want := order(false)
			if diff := cmp.Diff(want, order(true)); diff != "" {
				t.Errorf("ids of the answers, in order (-sdk +stdioIn):\n%s", diff)
			}
		})
	}
}
