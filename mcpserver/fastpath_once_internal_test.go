package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestFastPathNeverRunsAToolTwice: a tool whose answer cannot be sent on
// the fast path (a document that is not JSON, which neither the fast path
// nor the SDK can encode) is answered with a JSON-RPC internal error; the
// request is not handed to the SDK, which would run the tool again (issue
// 12: "never running a tool twice when it falls back to the SDK").
func TestFastPathNeverRunsAToolTwice(t *testing.T) {
	t.Parallel()
	for name, out := range map[string]toolOutput{
		"not JSON":            {doc: []byte(`<not json>`)},
		"not JSON, no escape": {doc: []byte(`{"a":`)},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var runs, sdk atomic.Int32
			f := newFastPath(map[string]rawTool{"t": func(context.Context, json.RawMessage) toolOutput {
				runs.Add(1)
				return out
			}}, nil, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { sdk.Add(1) }))
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
