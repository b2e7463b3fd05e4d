package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/testwait"
)

// gateCall is a call of the gate tool as it starts: its key and context.
type gateCall struct {
	key string
	ctx context.Context
}

// gateStdio is ServeIO's wiring (newServer, then wireStdio) with one more
// tool, gate, whose call with arguments {"key":K} waits until the test
// opens gate K (its text is then "opened K") or its context ends
// ("cancelled K"). draining receives when stdioIn's drain starts to wait
// for the answers owed at the end of the input (its drainTimer, which
// never fires here).
type gateStdio struct {
	in       *io.PipeWriter
	lines    chan string // the output's lines; closed at its end
	calls    chan gateCall
	gates    map[string]chan struct{}
	draining chan struct{}
	done     chan error
	ids      *sdkIDs
}

func startGateStdio(t *testing.T, front bool, keys ...string) *gateStdio {
	t.Helper()
	srv, th, lists := newStdioServer(t)
	g := &gateStdio{lines: make(chan string, 16), calls: make(chan gateCall, 16), gates: map[string]chan struct{}{},
		draining: make(chan struct{}, 1), done: make(chan error, 1)}
	for _, k := range keys {
		g.gates[k] = make(chan struct{})
	}
	srv.AddTool(&mcp.Tool{Name: "gate", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Key string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			g.calls <- gateCall{args.Key, ctx}
			text := "cancelled " + args.Key
			select {
			case <-g.gates[args.Key]:
				text = "opened " + args.Key
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	g.in = inW
	st := wireStdio(ctx, srv, th.tools, lists, front, inR, outW)
	g.ids = st.ids
	st.front.drainTimer = func() (<-chan time.Time, func() bool) {
		g.draining <- struct{}{}
		return nil, func() bool { return true }
	}
	go func() {
		err := srv.Run(ctx, &mcp.IOTransport{Reader: st.in, Writer: nopWriteCloser{st.out}})
		st.front.stop()
		g.done <- err
		_ = outW.Close()
	}()
	go func() {
		defer close(g.lines)
		r := bufio.NewReader(outR)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				g.lines <- l
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = inW.Close()
		testwait.Recv(t, g.done, "the session's end")
		_ = inR.Close()
		_ = outR.Close()
		for range g.lines {
		}
	})
	g.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	testwait.Recv(t, g.lines, "the answer to initialize")
	g.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return g
}

// send writes msg and a newline.
func (g *gateStdio) send(t *testing.T, msg string) {
	t.Helper()
	if _, err := io.WriteString(g.in, msg+"\n"); err != nil {
		t.Fatal(err)
	}
}

// rest returns the summaries (answerSummary) of the output's lines up to
// its end, which comes when the session has ended.
func (g *gateStdio) rest(t *testing.T) []string {
	t.Helper()
	var out []string
	for {
		l := testwait.Recv(t, g.lines, "the output's end")
		if l == "" {
			return out
		}
		out = append(out, answerSummary(t, l))
	}
}

// started waits for the call of gate with key to start and returns it.
func (g *gateStdio) started(t *testing.T, key string) gateCall {
	t.Helper()
	c := testwait.Recv(t, g.calls, "the call of gate "+key)
	if c.key != key {
		t.Fatalf("the call of gate %q started, want %q", c.key, key)
	}
	return c
}

// gateLine is a tools/call of gate with id and key.
func gateLine(id, key string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"gate","arguments":{"key":"` + key + `"}}}`
}

// answerSummary is what a test compares of an answer line: the id of
// each answer in it (several for a batch) and the text of a tool result.
func answerSummary(t *testing.T, l string) string {
	t.Helper()
	type answer struct {
		ID     json.RawMessage
		Result struct {
			Content []struct{ Text string }
		}
		Error *struct{ Message string }
	}
	one := func(a answer) string {
		s := string(a.ID)
		switch {
		case a.Error != nil:
			s += " error " + a.Error.Message
		case len(a.Result.Content) > 0:
			s += " " + a.Result.Content[0].Text
		default:
			s += " result"
		}
		return s
	}
	if len(l) > 0 && l[0] == '[' {
		var as []answer
		if err := json.Unmarshal([]byte(l), &as); err != nil {
			t.Fatalf("%v: %.200q", err, l)
		}
		s := "batch:"
		for _, a := range as {
			s += " [" + one(a) + "]"
		}
		return s
	}
	var a answer
	if err := json.Unmarshal([]byte(l), &a); err != nil {
		t.Fatalf("%v: %.200q", err, l)
	}
	return one(a)
}

// TestStdioBatchIDReusedBeforeItsAnswer (stdio-fuzz; suspected by rev-ids7,
// proven here, not fixed: doc/decisions.md "A batch's id reused before
// the batch's answer"): a batch (2025-03-26) holds a request with id 7 and
// a slow call (id 8). Once the SDK has answered 7 (the answer waits in the
// batch until 8's is there, mcp ioConn.updateBatch), the id is free again
// in the SDK (jsonrpc2 processResult) and a call with id 7 on a later line
// is taken and runs. When 8 ends, the batch's answer is written; the
// client then closes its input while the second 7 still runs. stdioIn
// counted the second 7 as owing nothing (a reused id still counted, which
// the SDK refuses when the first is in flight, sdkIDs), so the batch's
// answer settles the drain, the SDK reads the end of the input and cancels
// the second 7, whose answer is never written. The first 7 is an
// initialize, which the SDK handles to its end before it starts the next
// request (ServerSession.handle: no jsonrpc2.Async for initialize), so 7's
// answer is in the batch when 8 starts: no timing.
//
// The test asserts what ServeIO does today (the drain does not wait; one
// answer the SDK took is lost). A fix must turn want into
// {batch, "7 opened c"} and waited into true.
func TestStdioBatchIDReusedBeforeItsAnswer(t *testing.T) {
	t.Parallel()
	for _, front := range []bool{false, true} {
		g := startGateStdio(t, front, "b", "c")
		g.send(t, `[{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}},`+
			gateLine("8", "b")+`]`)
		g.started(t, "b") // the batch's 7 is answered (in the batch)
		g.send(t, gateLine("7", "c"))
		c := g.started(t, "c") // the SDK took the second 7
		close(g.gates["b"])
		var got []string
		got = append(got, answerSummary(t, testwait.Recv(t, g.lines, "the batch's answer")))
		// sdkIDs counts an answer once its write has returned.
		testwait.Until(t, "the batch's answer counted", func() bool { return !g.ids.busy("8") })
		_ = g.in.Close() // the end of the input, while the second 7 runs
		waited := make(chan bool, 1)
		go func() {
			select {
			case <-g.draining:
				waited <- true
			case <-c.ctx.Done():
				waited <- false
			}
		}()
		if testwait.Recv(t, waited, "the drain waiting, or the end of the call with id 7") {
			t.Errorf("front %v: the drain waited for the second 7; update this test and doc/decisions.md", front)
		}
		close(g.gates["c"])
		got = append(got, g.rest(t)...)
		want := []string{`batch: [7 error duplicate "initialize" received] [8 opened b]`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("front %v: answers (-want +got):\n%s", front, diff)
		}
	}
}

// TestStdioBatchIDReusedWhileInFlight: the reuse sdkIDs counts as owing
// nothing. A call with id 7 on a later line, while the batch's 7 still
// runs, is refused by the SDK (jsonrpc2 acceptRequest) and never answered,
// and the end of the input does not wait for it: once the batch's answer
// is written, the drain has nothing owed and the session ends at once.
func TestStdioBatchIDReusedWhileInFlight(t *testing.T) {
	t.Parallel()
	for _, front := range []bool{false, true} {
		g := startGateStdio(t, front, "a", "b", "c")
		g.send(t, `[`+gateLine("7", "a")+`,`+gateLine("8", "b")+`]`)
		started := map[string]bool{}
		for range 2 {
			started[testwait.Recv(t, g.calls, "the batch's calls").key] = true
		}
		if !started["a"] || !started["b"] {
			t.Fatalf("front %v: the batch's calls started: %v", front, started)
		}
		g.send(t, gateLine("7", "c"))
		// The SDK reads, and takes or refuses, each message before the next.
		g.send(t, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
		got := []string{answerSummary(t, testwait.Recv(t, g.lines, "the answer to the ping"))}
		close(g.gates["a"])
		close(g.gates["b"])
		got = append(got, answerSummary(t, testwait.Recv(t, g.lines, "the batch's answer")))
		testwait.Until(t, "the batch's answer counted", func() bool { return !g.ids.busy("8") })
		_ = g.in.Close()
		got = append(got, g.rest(t)...)
		select {
		case <-g.draining:
			t.Errorf("front %v: the drain waited for the refused call with id 7", front)
		default:
		}
		select {
		case c := <-g.calls:
			t.Errorf("front %v: the SDK ran the call of gate %q", front, c.key)
		default:
		}
		want := []string{"9 result", "batch: [7 opened a] [8 opened b]"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("front %v: answers (-want +got):\n%s", front, diff)
		}
	}
}
