package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestReview_Doors11PromptRefusesAnUnknownArgument (rev-doors11): every
// tool refuses an argument it does not take (bad_request "Unknown
// argument \"countri\"; this tool takes id, country."), so that a typo
// never silently falls back to a default. The explain_company prompt
// ignores it: {"id": "08957400", "countri": "GB"} (a GB company number,
// the country misspelt) yields a prompt for country NO, which tells the
// agent to call lookup_company with {"country":"NO"}: the typo turns into
// the default country without a word.
func TestReview_Doors11PromptRefusesAnUnknownArgument(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	tool, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "lookup_company",
		Arguments: map[string]any{"id": "08957400", "countri": "GB"}})
	if err != nil || !tool.IsError || !strings.Contains(tool.Content[0].(*mcp.TextContent).Text, `Unknown argument \"countri\"`) {
		t.Fatalf("the tool no longer refuses the unknown argument: %v %+v", err, tool)
	}
	type answer struct {
		Refused bool
		Text    string
	}
	got := answer{}
	res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "explain_company",
		Arguments: map[string]string{"id": "08957400", "countri": "GB"}})
	if err != nil {
		got = answer{Refused: true, Text: "unknown argument"}
	} else {
		got.Text = res.Description
	}
	if diff := cmp.Diff(answer{Refused: true, Text: "unknown argument"}, got); diff != "" {
		t.Errorf("prompts/get explain_company with a misspelt country (-want refused as the tools do +got):\n%s", diff)
	}
}
