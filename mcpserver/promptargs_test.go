package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/mcpserver"
)

// TestPromptUnknownArgument: explain_company refuses an argument it does not
// take, over Streamable HTTP and stdio, as an invalid-params error whose
// message is the envelope the tools give an unknown argument (bad_request,
// the least unknown name, the names the prompt takes, the tools' hint), with
// the country given (or the default) named.
func TestPromptUnknownArgument(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t)
	reg, _ := newRegistry(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeIO(ctx, reg, inR, outW); _ = outW.Close() }()
	stdioCS, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdioCS.Close(); cancel(); <-done })

	type refusal struct {
		Code     int64
		Envelope any
	}
	doors := map[string]func(args map[string]string) refusal{
		// The wire's JSON-RPC error, as a client of any SDK reads it.
		"http": func(args map[string]string) refusal {
			params, _ := json.Marshal(map[string]any{"name": mcpserver.PromptExplainCompany, "arguments": args})
			status, body := post(t, srv.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":`+string(params)+`}`, nil)
			var res struct {
				Error *struct {
					Code    int64
					Message string
				}
			}
			if err := json.Unmarshal(body, &res); err != nil || status != http.StatusOK || res.Error == nil {
				t.Fatalf("http %v: %d %s, want a JSON-RPC error", args, status, body)
			}
			return refusal{res.Error.Code, parse(t, []byte(res.Error.Message))}
		},
		"stdio": func(args map[string]string) refusal {
			_, err := stdioCS.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: mcpserver.PromptExplainCompany, Arguments: args})
			var werr *jsonrpc.Error
			if !asWireError(err, &werr) {
				t.Fatalf("stdio %v: %v, want a JSON-RPC error", args, err)
			}
			return refusal{werr.Code, parse(t, []byte(werr.Message))}
		},
	}
	for door, call := range doors {
		for _, tc := range []struct {
			args map[string]string
			want string
		}{
			{map[string]string{"id": "08957400", "countri": "GB"}, `{"error":{"code":"bad_request",` +
				`"message":"Unknown argument \"countri\"; this prompt takes id, country.",` +
				`"hint":"Retry with only the documented arguments.","country":"NO","registry":"brreg","details":{}}}`},
			{map[string]string{"id": "923609016", "country": "no", "zz": "1", "lang": "en"}, `{"error":{"code":"bad_request",` +
				`"message":"Unknown argument \"lang\"; this prompt takes id, country.",` +
				`"hint":"Retry with only the documented arguments.","country":"NO","registry":"brreg","details":{}}}`},
			// The empty name is a name, and the least (ops.UnknownMember).
			{map[string]string{"id": "923609016", "lang": "en", "": "x"}, `{"error":{"code":"bad_request",` +
				`"message":"Unknown argument \"\"; this prompt takes id, country.",` +
				`"hint":"Retry with only the documented arguments.","country":"NO","registry":"brreg","details":{}}}`},
		} {
			want := refusal{jsonrpc.CodeInvalidParams, parse(t, []byte(tc.want))}
			if diff := cmp.Diff(want, call(tc.args)); diff != "" {
				t.Errorf("%s %v (-want +got):\n%s", door, tc.args, diff)
			}
		}
	}
}
