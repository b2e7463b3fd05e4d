package mcpserver_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/companyregistry/registry/mcpserver"
)

// p12RawDoor is one MCP door that takes a raw JSON-RPC message and
// returns the raw answer.
type p12RawDoor struct {
	name string
	ask  func(msg []byte) []byte
}

// p12RawDoors returns the four MCP doors over fake's registries:
// Streamable HTTP and stdio, each with the fast path (mcp-http,
// mcp-stdio) and without it (mcp-http-sdk, mcp-stdio-sdk).
func p12RawDoors(t *testing.T, fake *p12Fake) []p12RawDoor {
	t.Helper()
	var doors []p12RawDoor
	for _, opts := range [][]mcpserver.Option{nil, {mcpserver.WithoutFastPath()}} {
		h, err := mcpserver.Handler(p12Registry(t, fake), opts...)
		if err != nil {
			t.Fatal(err)
		}
		stdio := p12StdioRaw(t, p12Registry(t, fake), opts...)
		suffix := map[bool]string{true: "", false: "-sdk"}[opts == nil]
		doors = append(doors, p12RawDoor{"mcp-http" + suffix, func(msg []byte) []byte {
			req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/mcp", bytes.NewReader(msg))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec.Body.Bytes()
		}}, p12RawDoor{"mcp-stdio" + suffix, func(msg []byte) []byte { return stdio(t, msg) }})
	}
	return doors
}
