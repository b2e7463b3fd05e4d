package mcpserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/mcpserver"
)

// TestFastPathMatchesSDK checks that the HTTP fast path for tools/call
// answers exactly as the SDK's handler does (status, content type, cache
// header and body bytes), and that everything it does not cover still gets
// the SDK's answer.
func TestFastPathMatchesSDK(t *testing.T) {
	t.Parallel()
	fast, _ := newHTTPServer(t)
	sdk, _ := newHTTPServer(t, mcpserver.WithoutFastPath())
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	tests := []struct {
		name, body, version, accept, contentType string
		header                                   map[string]string
	}{
		{name: "lookup", body: call("1", `{"name":"lookup_company","arguments":{"id":"923609016"}}`)},
		{name: "lookup cached", body: call("2", `{"name":"lookup_company","arguments":{"id":"923609016"}}`)},
		{name: "string id", body: call(`"req-3"`, `{"name":"lookup_company","arguments":{"id":"923 609 016","country":"no"}}`), version: "2025-06-18"},
		{name: "negative id", body: call("-4", `{"arguments":{"id":"923609017"},"name":"validate_company_id"}`), version: "2025-11-25"},
		{name: "not_found", body: call("5", `{"name":"lookup_company","arguments":{"id":"974760673"}}`), version: "2024-11-05"},
		{name: "unsupported_country", body: call("6", `{"name":"company_deadlines","arguments":{"id":"923609016","country":"UK"}}`), version: "2025-03-26"},
		{name: "deadlines", body: call("7", `{"name":"company_deadlines","arguments":{"id":"923609016","today":"2026-01-15"}}`)},
		{name: "search loose limit", body: call("8", `{"name":"search_company","arguments":{"name":"equinor","limit":"2"}}`)},
		{name: "search bad limit", body: call("9", `{"name":"search_company","arguments":{"name":"equinor","limit":0}}`)},
		{name: "unknown argument", body: call("10", `{"name":"lookup_company","arguments":{"id":"1","x":1}}`)},
		{name: "no arguments", body: call("11", `{"name":"list_countries"}`)},
		{name: "null arguments", body: call("12", `{"name":"list_countries","arguments":null}`)},
		{name: "arguments not an object", body: call("13", `{"name":"lookup_company","arguments":[1]}`)},
		{name: "html in input", body: call("14", `{"name":"validate_company_id","arguments":{"id":"<b>&</b>\u2028"}}`)},
		{name: "accept wildcard", body: call("15", `{"name":"list_countries","arguments":{}}`), accept: "*/*"},
		{name: "roles", body: call("16", `{"name":"company_roles","arguments":{"id":"923609016"}}`)},
		{name: "roles not_implemented", body: call("17", `{"name":"company_roles","arguments":{"id":"00445790","country":"GB"}}`)},
		// The lists: the first answer of each is the SDK's, the later ones
		// come from the cache.
		{name: "tools/list first", body: `{"jsonrpc":"2.0","id":40,"method":"tools/list"}`},
		{name: "tools/list cached", body: `{"jsonrpc":"2.0","id":41,"method":"tools/list"}`},
		{name: "tools/list empty params", body: `{"jsonrpc":"2.0","id":"l-42","method":"tools/list","params":{}}`, version: "2025-06-18"},
		{name: "tools/list empty cursor", body: `{"params":{"cursor":""},"method":"tools/list","id":43,"jsonrpc":"2.0"}`, version: "2024-11-05"},
		{name: "resources/list first", body: `{"jsonrpc":"2.0","id":44,"method":"resources/list"}`},
		{name: "resources/list cached", body: `{"jsonrpc":"2.0","id":45,"method":"resources/list","params":{}}`},
		{name: "templates first", body: `{"jsonrpc":"2.0","id":46,"method":"resources/templates/list"}`},
		{name: "templates cached", body: `{"jsonrpc":"2.0","id":47,"method":"resources/templates/list"}`, version: "2025-11-25"},
		{name: "prompts/list first", body: `{"jsonrpc":"2.0","id":48,"method":"prompts/list"}`},
		{name: "prompts/list cached", body: `{"jsonrpc":"2.0","id":-49,"method":"prompts/list"}`, version: "2025-03-26"},
		{name: "tools/list cursor", body: `{"jsonrpc":"2.0","id":50,"method":"tools/list","params":{"cursor":"bm90IGEgY3Vyc29y"}}`},
		{name: "tools/list meta", body: `{"jsonrpc":"2.0","id":51,"method":"tools/list","params":{"_meta":{"progressToken":1}}}`},
		{name: "tools/list null params", body: `{"jsonrpc":"2.0","id":52,"method":"tools/list","params":null}`},
		{name: "tools/list notification", body: `{"jsonrpc":"2.0","method":"tools/list"}`},
		{name: "tools/list float id", body: `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`},
		{name: "tools/list 2026", body: `{"jsonrpc":"2.0","id":53,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			version: "2026-07-28", header: map[string]string{"Mcp-Method": "tools/list"}},
		// Not covered by the fast path: the SDK answers.
		{name: "unknown tool", body: call("20", `{"name":"lookup","arguments":{}}`)},
		{name: "meta", body: call("21", `{"name":"list_countries","arguments":{},"_meta":{"progressToken":1}}`)},
		{name: "float id", body: call("1.5", `{"name":"list_countries"}`)},
		{name: "escaped string id", body: call(`"\u0041"`, `{"name":"list_countries"}`)},
		{name: "null id", body: call("null", `{"name":"list_countries"}`)},
		{name: "notification", body: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"list_countries"}}`},
		{name: "batch", body: `[` + call("23", `{"name":"list_countries"}`) + `]`},
		{name: "tools/list", body: `{"jsonrpc":"2.0","id":24,"method":"tools/list"}`},
		{name: "initialize", body: `{"jsonrpc":"2.0","id":25,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`},
		{name: "invalid JSON", body: `{"jsonrpc":"2.0","id":26,`},
		{name: "extra key", body: `{"jsonrpc":"2.0","id":27,"method":"tools/call","params":{"name":"list_countries"},"x":1}`},
		{name: "accept json only", body: call("28", `{"name":"list_countries"}`), accept: "application/json"},
		{name: "text content type", body: call("29", `{"name":"list_countries"}`), contentType: "text/plain"},
		{name: "unsupported version", body: call("30", `{"name":"list_countries"}`), version: "1999-01-01"},
		{name: "2026 protocol", body: call("31", `{"name":"list_countries","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`),
			version: "2026-07-28", header: map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "list_countries"}},
		// Integer ids the SDK does not echo unchanged (it decodes them
		// through float64 and int64).
		{name: "minus zero id", body: call("-0", `{"name":"list_countries"}`)},
		{name: "18-digit id", body: call("123456789012345678", `{"name":"list_countries"}`)},
		{name: "id above 2^53", body: call("9007199254740993", `{"name":"list_countries"}`)},
		{name: "tools/list minus zero id", body: `{"jsonrpc":"2.0","id":-0,"method":"tools/list"}`},
		{name: "tools/list 18-digit id", body: `{"jsonrpc":"2.0","id":123456789012345678,"method":"tools/list"}`},
		{name: "tools/list id above 2^53", body: `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`},
		{name: "tools/list 15-digit id", body: `{"jsonrpc":"2.0","id":-999999999999999,"method":"tools/list"}`},
		// The SDK refuses a message nested deeper than 1000 levels
		// (encoding/json alone accepts 10000); 1000 is still answered.
		{name: "depth 1000", body: call("33", `{"name":"list_countries","arguments":`+nested(998)+`}`)},
		{name: "depth 1001", body: call("34", `{"name":"list_countries","arguments":`+nested(999)+`}`)},
		{name: "depth 1001 in a string argument", body: call("35", `{"name":"lookup_company","arguments":{"id":"923609016","country":`+nested(998)+`}}`)},
		{name: "depth 1001 in a string", body: call("36", `{"name":"validate_company_id","arguments":{"id":"`+strings.Repeat("[", 1001)+`"}}`)},
		{name: "tools/list depth 1001 in a duplicate key", body: `{"jsonrpc":"2.0","id":37,"method":"tools/list","params":` + nested(1000) + `,"params":{}}`},
		{name: "large body", body: call("32", `{"name":"search_company","arguments":{"name":"`+strings.Repeat("a", 20000)+`"}}`)},
	}
	for _, tc := range tests {
		// Not parallel: both servers must see the same sequence of calls,
		// so that cached flags agree.
		got := send(t, fast.URL+"/mcp", tc.body, tc.version, tc.accept, tc.contentType, tc.header)
		want := send(t, sdk.URL+"/mcp", tc.body, tc.version, tc.accept, tc.contentType, tc.header)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-sdk +fast):\n%s", tc.name, diff)
		}
	}
}

// nested returns n arrays, each inside the one before.
func nested(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

func send(t *testing.T, url, body, version, accept, contentType string, header map[string]string) []string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if accept == "" {
		accept = "application/json, text/event-stream"
	}
	if contentType == "" {
		contentType = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("Content-Type", contentType)
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return []string{resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), string(b)}
}
