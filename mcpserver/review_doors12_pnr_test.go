package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
)

// TestReview_Doors12UnknownArgumentNameIsNotAPersonalNumber (doors12 item
// 4): an unknown argument's name is quoted in the error unless it has the
// form of a Swedish personal identity number (ops.Quote, the rule change
// monitoring applies to an invalid id): personal data is never part of an
// error, not even the caller's own. A tool's arguments, a prompt's
// arguments and a search's limit.
func TestReview_Doors12UnknownArgumentNameIsNotAPersonalNumber(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	cs := connect(t, reg)
	const hidden = "(not quoted: it has the form of a personal identity number)"
	got := map[string]string{}
	for name, tc := range map[string]struct {
		tool string
		args string
	}{
		"tool, personal number": {"lookup_company", `{"id":"923609016","810105-2382":"x"}`},
		"tool, a name":          {"lookup_company", `{"id":"923609016","idz":"x"}`},
		"no arguments":          {"list_countries", `{"pnr 19810105-2382":1}`},
		"limit":                 {"search_company", `{"name":"equinor","limit":"810105-2382"}`},
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
		if err != nil || !res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		var e registry.Error
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &e); err != nil {
			t.Fatal(err)
		}
		got[name] = e.Message
	}
	_, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "explain_company",
		Arguments: map[string]string{"id": "923609016", "810105-2382": "x"}})
	var werr *jsonrpc.Error
	if !asWireError(err, &werr) {
		t.Fatalf("prompt: err = %v, want a JSON-RPC error", err)
	}
	var e registry.Error
	if err := json.Unmarshal([]byte(werr.Message), &e); err != nil {
		t.Fatal(err)
	}
	got["prompt"] = e.Message
	want := map[string]string{
		"tool, personal number": "Unknown argument " + hidden + "; this tool takes id, country.",
		"tool, a name":          `Unknown argument "idz"; this tool takes id, country.`,
		"no arguments":          "Unknown argument " + hidden + "; this tool takes no arguments.",
		"limit":                 fmt.Sprintf("limit must be an integer from 1 to %d; got ", registry.MaxSearchLimit) + hidden + ".",
		"prompt":                "Unknown argument " + hidden + "; this prompt takes id, country.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
