package mcpserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnknownNamesQuotedAsShown: the JSON-RPC error of an unknown tool or
// prompt quotes its name as every error of the server quotes a caller's
// value (ops.Quote): whole up to 40 bytes (the SDK's very message), cut to
// 40 bytes and "..." beyond, and not at all when it has the form of a
// personal identity number; the code stays the SDK's -32602 and the error
// has no data. A resources/read of an unknown URI keeps the SDK's "Resource
// not found" and shows the URI in its data by the same rule. On every MCP door: Streamable HTTP and stdio, with and
// without the fast path.
func TestUnknownNamesQuotedAsShown(t *testing.T) {
	t.Parallel()
	fake := newP12Fake(t)
	doors := p12RawDoors(t, fake)
	long := strings.Repeat("x", 300)
	for _, tt := range []struct{ name, shown string }{
		{"no_such_tool", `"no_such_tool"`},
		{strings.Repeat("y", 40), `"` + strings.Repeat("y", 40) + `"`},
		{long, `"` + long[:40] + `..."`},
		{"lookup 19810105-2382", "(not quoted: it has the form of a personal identity number)"},
		{"a\"b\\c", `"a\"b\\c"`},
	} {
		for _, what := range []string{"tool", "prompt", "resource"} {
			method, args := "tools/call", map[string]any{"name": tt.name, "arguments": map[string]any{}}
			switch what {
			case "prompt":
				method, args = "prompts/get", map[string]any{"name": tt.name}
			case "resource":
				method, args = "resources/read", map[string]any{"uri": tt.name}
			}
			msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 5, "method": method, "params": args})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]any{"jsonrpc": "2.0", "id": float64(5),
				"error": map[string]any{"code": float64(-32602), "message": "unknown " + what + " " + tt.shown}}
			if what == "resource" {
				// The SDK's "Resource not found" names the URI in its
				// data, as shown (unquoted: a JSON string).
				var uri string
				if err := json.Unmarshal([]byte(tt.shown), &uri); err != nil {
					uri = tt.shown // the note, not a quote
				}
				want["error"] = map[string]any{"code": float64(-32602), "message": "Resource not found",
					"data": map[string]any{"uri": uri}}
			}
			for _, d := range doors {
				var got map[string]any
				if raw := d.ask(msg); json.Unmarshal(raw, &got) != nil {
					t.Fatalf("%s: not JSON: %.300s", d.name, raw)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s, unknown %s %.60q (-want +got):\n%s", d.name, what, tt.name, diff)
				}
			}
		}
	}
}
