package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLongArgumentsBound: arguments past 16 KiB that the hand scanners do
// not take (here an object, and an array, beside a long value) are still
// refused before encoding/json decodes them, as bad_request with a
// message naming the bound and a hint to shorten them; strings of that
// size, escaped or not, with numbers, true, false or null beside them,
// reach the operation (TestReview_Doors11LongInputSameErrorAsTheGoAPI,
// TestReview_Fix11bLongNameWithLimitSameErrorAsTheGoAPI,
// TestReview_Doors12LongArgumentSameAnswerWhateverItsSpelling).
func TestLongArgumentsBound(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	long := strings.Repeat("9", 20000)
	want := `{"error":{"code":"bad_request","message":"The tool arguments are larger than 16 KiB.",` +
		`"hint":"Shorten the arguments: an identifier is far shorter, a name at most 256 bytes.",` +
		`"country":"NO","registry":"brreg","details":{}}}`
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"lookup_company", map[string]any{"id": "\n" + long, "country": map[string]any{"code": "NO"}}},
		{"search_company", map[string]any{"name": long, "limit": []any{5}}},
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil || !res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: %v %+v", tc.tool, err, res)
		}
		if diff := cmp.Diff(parse(t, []byte(want)), parse(t, []byte(res.Content[0].(*mcp.TextContent).Text))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.tool, diff)
		}
	}
}
