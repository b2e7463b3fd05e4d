package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFastPathNeverRunsAToolTwice: a tool that fails on the fast path (an
// error or no result) is answered with a JSON-RPC internal error; the
// request is not handed to the SDK, which would run the tool again (issue
// 12: "never running a tool twice when it falls back to the SDK").
func TestFastPathNeverRunsAToolTwice(t *testing.T) {
	t.Parallel()
	for name, tool := range map[string]mcp.ToolHandler{
		"error": func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("boom")
		},
		"no result": func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var runs, sdk atomic.Int32
			f := &fastPath{
				tools: map[string]mcp.ToolHandler{"t": func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					runs.Add(1)
					return tool(ctx, r)
				}},
				next: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { sdk.Add(1) }),
			}
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			rec := httptest.NewRecorder()
			f.ServeHTTP(rec, req)
			if runs.Load() != 1 || sdk.Load() != 0 {
				t.Errorf("tool ran %d times, SDK called %d times; want 1 and 0", runs.Load(), sdk.Load())
			}
			want := `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"internal error"}}`
			if got := rec.Body.String(); got != want {
				t.Errorf("body %s, want %s", got, want)
			}
		})
	}
}
