package mcpserver

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
)

// TestStdioInAnswersPlainCalls checks that the plain tools/call lines of
// an initialized session are answered in front of the SDK (its middleware
// sees none of them), the others by the SDK, and that every answer comes.
// TestStdioStreamsMatchSDK compares the bytes with the SDK's own.
func TestStdioInAnswersPlainCalls(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil, registry.WithVersion("t"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := buildOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, th, lists := newServer(reg, o, true)
	var sdkCalls atomic.Int64
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				sdkCalls.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	mw := lists.stdioWriter(outW)
	in := newStdioIn(t.Context(), inR, mw, srv, th.tools, newResultMemo())
	done := make(chan error, 1)
	go func() {
		err := srv.Run(t.Context(), &mcp.IOTransport{Reader: in, Writer: nopWriteCloser{mw}})
		in.wait()
		done <- err
		_ = outW.Close()
	}()
	out := bufio.NewReader(outR)
	send := func(msg string, answer bool) string {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
		if !answer {
			return ""
		}
		l, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, true)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	var got []string
	for _, id := range []string{"1", `"two"`, "3"} {
		got = append(got, send(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`, true))
	}
	if n := sdkCalls.Load(); n != 0 {
		t.Errorf("the SDK got %d of the plain calls, want none", n)
	}
	// _meta: the SDK's.
	got = append(got, send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_countries","_meta":{"progressToken":1}}}`, true))
	if n := sdkCalls.Load(); n != 1 {
		t.Errorf("the SDK got %d calls, want 1 (the one with _meta)", n)
	}
	want := []string{`{"jsonrpc":"2.0","id":1,`, `{"jsonrpc":"2.0","id":"two",`, `{"jsonrpc":"2.0","id":3,`, `{"jsonrpc":"2.0","id":4,`}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) || !strings.Contains(got[i], `"result":{"content":[{"type":"text","text":"`) {
			t.Errorf("answer %d: %.120q", i, got[i])
		}
	}
	if diff := cmp.Diff(got[0][len(want[0]):], got[3][len(want[3]):]); diff != "" {
		t.Errorf("the fast path's result differs from the SDK's (-fast +sdk):\n%s", diff)
	}
	_ = inW.Close()
	if err := <-done; err != nil && !errors.Is(err, io.EOF) {
		t.Errorf("Run: %v", err)
	}
}
