package mcpserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/redistest"
)

// TestEveryHandlerRecovers: every handler the server registers (each
// tool, the rules resources, the prompt, completion) answers a panic
// instead of letting it end the process: the internal_error tool result,
// or the JSON-RPC internal error whose message is the internal_error
// envelope; each panic is logged once with its stack. The panics are real
// ones, a nil Registry dereferenced by the handlers (issue 24, item 2).
func TestEveryHandlerRecovers(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs redistest.Logs
	o, err := buildOptions([]Option{WithLogger(logs.Logger())})
	if err != nil {
		t.Fatal(err)
	}
	srv, h, _ := newServer(reg, o, false)
	h.reg, h.ops = nil, nil // every handler that reaches them panics now
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	const envelope = `{"error":{"code":"internal_error","message":"An unexpected error occurred inside the service.","hint":"Retry once; if it fails again, report the problem to the operator of this service.","country":null,"registry":null,"details":{}}}`
	panics := 0
	for name := range h.tools {
		args := map[string]any{"id": "923609016", "name": "x", "country": "NO"}
		if name == ToolListCountries {
			args = nil
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || !res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != envelope {
			t.Errorf("tool %s: %v %+v", name, err, res)
		}
		panics++
	}
	protocolError := func(what string, err error) {
		t.Helper()
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInternalError || werr.Message != envelope {
			t.Errorf("%s: %v, want the internal error with the envelope", what, err)
		}
		panics++
	}
	_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "registry://rules/NO"})
	protocolError("resources/read", err)
	_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: PromptExplainCompany, Arguments: map[string]string{"id": "923609016"}})
	protocolError("prompts/get", err)
	_, err = cs.Complete(t.Context(), &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: PromptExplainCompany},
		Argument: mcp.CompleteParamsArgument{Name: "country", Value: "n"}})
	protocolError("completion/complete", err)

	if n := logs.Count("panic in mcp handler"); n != panics || !strings.Contains(logs.String(), "nil pointer dereference") {
		t.Errorf("%d panic records, want %d:\n%.3000s", n, panics, logs.String())
	}
}
