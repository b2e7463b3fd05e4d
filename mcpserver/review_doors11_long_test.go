package mcpserver_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/mcpserver"
)

// TestReview_Doors11LongInputSameErrorAsTheGoAPI (rev-doors11): the same
// input gets the same error code, message and hint from the Go API and
// from the MCP tool over stdio (which has no transport limit of its own,
// unlike HTTP's 16 KiB of request line and headers). An argument past
// maxArgumentsBytes (16 KiB) is refused by the tool before it is looked
// at, as bad_request "The tool arguments are too large." with the hint
// "Pass only the documented arguments." (which the caller did), where
// Registry.Lookup answers the operation's own invalid_id for an
// identifier (spec: do not retry it; bad_request says retry once), and
// Registry.Search its "The search query is longer than 256 bytes." with a
// hint to shorten the name.
func TestReview_Doors11LongInputSameErrorAsTheGoAPI(t *testing.T) {
	reg, _ := newRegistry(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeIO(ctx, reg, inR, outW); _ = outW.Close() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); cancel(); <-done })

	long := strings.Repeat("9", 20000)
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		api        func() error
	}{
		{"lookup id", "lookup_company", map[string]any{"id": long}, func() error {
			_, err := reg.Lookup(t.Context(), "NO", long)
			return err
		}},
		{"search name", "search_company", map[string]any{"name": long}, func() error {
			_, err := reg.Search(t.Context(), "NO", long, 10)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apiErr := tc.api()
			if apiErr == nil {
				t.Fatal("the Go API accepted the input")
			}
			want, _ := ops.EnvelopeJSON(apiErr)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil || !res.IsError || len(res.Content) != 1 {
				t.Fatalf("%s: %v %+v", tc.tool, err, res)
			}
			got := res.Content[0].(*mcp.TextContent).Text
			if diff := cmp.Diff(parse(t, want), parse(t, []byte(got))); diff != "" {
				t.Errorf("Go API error envelope vs MCP (stdio) tool text (-api +mcp):\n%s", diff)
			}
		})
	}
}
