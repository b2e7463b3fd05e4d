package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListCacheServes checks that a server of ServeIO fills its cache from
// the SDK's first answer to each list and then answers from it, and that a
// cursor or _meta is left to the SDK.
func TestListCacheServes(t *testing.T) {
	t.Parallel()
	c := newListCache()
	calls := 0
	next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
		calls++
		return &mcp.ListToolsResult{Tools: []*mcp.Tool{{Name: "a<b>", InputSchema: json.RawMessage(`{"type":"object"}`)}}}, nil
	}
	h := c.middleware(next)
	req := func(p *mcp.ListToolsParams) mcp.Request { return &mcp.ListToolsRequest{Params: p} }
	first, err := h(t.Context(), "tools/list", req(nil))
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*mcp.ListToolsParams{nil, {}, {Cursor: ""}} {
		res, err := h(t.Context(), "tools/list", req(p))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := res.(*rawResult); !ok {
			t.Fatalf("params %+v: got %T, want the cached result", p, res)
		}
	}
	if calls != 1 {
		t.Errorf("the SDK answered %d times, want 1", calls)
	}
	got := c.get("tools/list").raw
	// encoding/json escapes <> by default; the SDK and the cache do not.
	if string(got) != `{"ttlMs":0,"cacheScope":"","tools":[{"inputSchema":{"type":"object"},"name":"a<b>"}]}` || len(want) == 0 {
		t.Errorf("cached %s", got)
	}
	for _, p := range []*mcp.ListToolsParams{{Cursor: "x"}, {Meta: mcp.Meta{"progressToken": 1}}} {
		if _, err := h(t.Context(), "tools/list", req(p)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h(t.Context(), "tools/call", &mcp.CallToolRequest{}); err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Errorf("the SDK answered %d times, want 4 (a cursor, _meta and tools/call are its own)", calls)
	}
}
