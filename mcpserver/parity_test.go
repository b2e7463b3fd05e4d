package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/restserver"
)

// TestParityWithREST checks the spec rule "REST and MCP return identical
// documents for the same operation": for every operation and a set of
// inputs (successes and each error code), the MCP tool's text and
// structuredContent equal the REST body as parsed JSON (and, as both encode
// with encoding/json, byte for byte), and isError matches a non-2xx status
// with the code's HTTP status.
func TestParityWithREST(t *testing.T) {
	t.Parallel()
	seen := map[registry.Code]bool{}
	for _, tc := range calls() {
		seen[tc.code] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Each surface gets its own Registry, so neither sees the
			// other's cache entry.
			mcpReg, _ := newRegistry(t)
			restReg, _ := newRegistry(t)
			res, err := connect(t, mcpReg).CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			rest, err := restserver.New(restReg, restserver.WithRateLimit(0))
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			rest.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, tc.op.path, nil))
			body, _ := io.ReadAll(rec.Body)

			wantStatus := http.StatusOK
			if tc.code != "" {
				wantStatus = tc.code.HTTPStatus()
			}
			if rec.Code != wantStatus || res.IsError != (rec.Code != http.StatusOK) {
				t.Fatalf("REST %s: status %d, MCP isError %v; want status %d", tc.op.path, rec.Code, res.IsError, wantStatus)
			}
			got := text(t, res)
			if diff := cmp.Diff(parse(t, body), parse(t, []byte(got))); diff != "" {
				t.Errorf("MCP text vs REST body of %s (-rest +mcp):\n%s", tc.op.path, diff)
			}
			if got != string(body) {
				t.Errorf("MCP text is not byte-identical to the REST body:\n mcp %s\nrest %s", got, body)
			}
			if !res.IsError {
				sc, _ := json.Marshal(res.StructuredContent)
				if diff := cmp.Diff(parse(t, body), parse(t, sc)); diff != "" {
					t.Errorf("structuredContent vs REST body (-rest +mcp):\n%s", diff)
				}
			}
		})
	}
	for _, c := range registry.Codes() {
		switch c {
		case registry.CodeUnauthorized, registry.CodeForbidden, registry.CodeCursorExpired:
			continue // the watch and feed routes only, which have no MCP tool
		}
		if !seen[c] {
			t.Errorf("no parity case for error code %s", c)
		}
	}
}
