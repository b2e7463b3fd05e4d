package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/testwait"
)

// stallAfterWriter passes each write to w and then, for a write holding
// stall, waits until release is closed before it returns: the client has
// the bytes, the SDK's writing goroutine has not yet returned from its
// Write (as when it is descheduled right after write(2) returned).
type stallAfterWriter struct {
	w       io.Writer
	stall   []byte
	release chan struct{}
}

func (s *stallAfterWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if bytes.Contains(p, s.stall) {
		<-s.release
	}
	return n, err
}

// TestReview_StdioIDReusedAfterItsAnswerLostAtEOF (rev-stdio8): a client
// that reuses an id only after it has that id's answer, then closes its
// input while the second call runs, loses the second call's answer.
// sdkWriter counts an answer after its write has returned; the SDK has
// dropped the id before the write (jsonrpc2 processResult), so between
// the client reading the answer and sdkWriter counting it, a new request
// with the id is taken and run by the SDK but counted by sdkIDs as a
// reuse owing nothing (addLocked: e.n > 0). The first answer's count then
// settles the drain, and the SDK cancels the second call at EOF.
// doc/decisions.md (stdio-fuzz) says "Only a client that reuses an id
// before it has that id's answer meets either"; this one reused it after.
// Fix (suggested): mark the id as answered before the write for the owed
// count (the SDK has dropped it by then), keeping busy until after.
func TestReview_StdioIDReusedAfterItsAnswerLostAtEOF(t *testing.T) {
	t.Parallel()
	for _, front := range []bool{false, true} {
		srv, th, lists := newStdioServer(t)
		calls := make(chan gateCall, 16)
		gates := map[string]chan struct{}{"a": make(chan struct{}), "c": make(chan struct{})}
		srv.AddTool(&mcp.Tool{Name: "gate", InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var args struct{ Key string }
				_ = json.Unmarshal(req.Params.Arguments, &args)
				calls <- gateCall{args.Key, ctx}
				text := "cancelled " + args.Key
				select {
				case <-gates[args.Key]:
					text = "opened " + args.Key
				case <-ctx.Done():
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			})
		ctx, cancel := context.WithCancel(context.Background())
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		sw := &stallAfterWriter{w: outW, stall: []byte(`opened a`), release: make(chan struct{})}
		var releaseOnce sync.Once
		release := func() { releaseOnce.Do(func() { close(sw.release) }) }
		st := wireStdio(ctx, srv, th.tools, lists, front, inR, sw)
		draining := make(chan struct{}, 1)
		st.front.drainTimer = func() (<-chan time.Time, func() bool) {
			draining <- struct{}{}
			return nil, func() bool { return true }
		}
		done := make(chan error, 1)
		go func() {
			err := srv.Run(ctx, &mcp.IOTransport{Reader: st.in, Writer: nopWriteCloser{st.out}})
			st.front.stop()
			done <- err
			_ = outW.Close()
		}()
		lines := make(chan string, 16)
		go func() {
			defer close(lines)
			r := bufio.NewReader(outR)
			for {
				l, err := r.ReadString('\n')
				if l != "" {
					lines <- l
				}
				if err != nil {
					return
				}
			}
		}()
		t.Cleanup(func() {
			release()
			cancel()
			_ = inW.Close()
			testwait.Recv(t, done, "the session's end")
			_ = inR.Close()
			_ = outR.Close()
			for range lines {
			}
		})
		send := func(msg string) {
			t.Helper()
			if _, err := io.WriteString(inW, msg+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		started := func(key string) gateCall {
			t.Helper()
			c := testwait.Recv(t, calls, "the call of gate "+key)
			if c.key != key {
				t.Fatalf("the call of gate %q started, want %q", c.key, key)
			}
			return c
		}
		send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		testwait.Recv(t, lines, "the answer to initialize")
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

		send(gateLine("7", "a"))
		started("a")
		close(gates["a"])
		// The client has 7's answer; the SDK's write of it has not returned.
		got := []string{answerSummary(t, testwait.Recv(t, lines, "the answer of the first 7"))}
		send(gateLine("7", "c")) // a reuse after the answer: allowed
		c := started("c")        // the SDK took it
		release()
		testwait.Until(t, "the first 7's answer counted", func() bool {
			st.ids.mu.Lock()
			defer st.ids.mu.Unlock()
			return st.ids.n["7"].n == 1
		})
		_ = inW.Close() // the end of the input, while the second 7 runs
		waited := make(chan bool, 1)
		go func() {
			select {
			case <-draining:
				waited <- true
			case <-c.ctx.Done():
				waited <- false
			}
		}()
		if !testwait.Recv(t, waited, "the drain waiting, or the end of the second 7") {
			t.Errorf("front %v: at the end of the input the drain did not wait for the second 7, which the SDK runs", front)
		}
		close(gates["c"])
		for {
			l := testwait.Recv(t, lines, "the output's end")
			if l == "" {
				break
			}
			got = append(got, answerSummary(t, l))
		}
		want := []string{"7 opened a", "7 opened c"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("front %v: answers (-want +got):\n%s", front, diff)
		}
	}
}
