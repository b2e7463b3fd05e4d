package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/ops"
)

// TestReview_Fix11bLongNameWithLimitSameErrorAsTheGoAPI (rev-fix11b):
// fix-doors11 made a 20,000-byte name get the search's own error, as from
// Registry.Search, but only while every argument is a plain string: with
// limit given as the integer the tool's input schema declares, the same
// call is refused before decoding as "The tool arguments are larger than
// 16 KiB.", where Registry.Search(ctx, "NO", name, 5) answers "The search
// query is longer than 256 bytes." (and {"limit":"5"} gets that too).
func TestReview_Fix11bLongNameWithLimitSameErrorAsTheGoAPI(t *testing.T) {
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	long := strings.Repeat("9", 20000)
	_, apiErr := reg.Search(t.Context(), "NO", long, 5)
	if apiErr == nil {
		t.Fatal("the Go API accepted the name")
	}
	want, _ := ops.EnvelopeJSON(apiErr)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_company", Arguments: map[string]any{"name": long, "limit": 5}})
	if err != nil || !res.IsError || len(res.Content) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if diff := cmp.Diff(parse(t, want), parse(t, []byte(res.Content[0].(*mcp.TextContent).Text))); diff != "" {
		t.Errorf("Go API error vs search_company {name: 20,000 bytes, limit: 5} (-api +mcp):\n%s", diff)
	}
}
