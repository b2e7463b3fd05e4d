package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/ratelimit"
	"github.com/companyregistry/registry/restserver"
)

// TestLimiterSharedWithREST: REST /v1 requests and MCP tool calls from one
// client draw from one allowance; an MCP refusal is a tool result with the
// rate_limited envelope and a Retry-After header, never a protocol error;
// on the fast path and through the SDK alike.
func TestLimiterSharedWithREST(t *testing.T) {
	t.Parallel()
	for name, extra := range map[string][]mcpserver.Option{"fast path": nil, "sdk": {mcpserver.WithoutFastPath()}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			lim, err := ratelimit.NewLocal(ratelimit.PerMinute(2))
			if err != nil {
				t.Fatal(err)
			}
			reg, _ := newRegistry(t)
			mh, err := mcpserver.Handler(reg, append([]mcpserver.Option{mcpserver.WithLimiter(lim)}, extra...)...)
			if err != nil {
				t.Fatal(err)
			}
			rh, err := restserver.New(reg, restserver.WithLimiter(lim))
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			mux.Handle("/mcp", mh)
			mux.Handle("/", rh)
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)

			call := func() (*http.Response, []byte) {
				t.Helper()
				req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/mcp", strings.NewReader(lookupCall))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp, b
			}
			rest := func() int {
				t.Helper()
				resp, err := http.Get(srv.URL + "/v1/countries")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			if s := rest(); s != http.StatusOK {
				t.Fatalf("REST 1: %d", s)
			}
			if resp, b := call(); resp.StatusCode != http.StatusOK || strings.Contains(string(b), "rate_limited") {
				t.Fatalf("MCP 1: %d %s", resp.StatusCode, b)
			}
			resp, b := call()
			var msg struct {
				Result *struct {
					IsError bool `json:"isError"`
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"result"`
				Error any `json:"error"`
			}
			if err := json.Unmarshal(b, &msg); err != nil || msg.Result == nil || msg.Error != nil || !msg.Result.IsError || len(msg.Result.Content) != 1 {
				t.Fatalf("MCP 3: %d %s (%v)", resp.StatusCode, b, err)
			}
			var env registry.Error
			if err := env.UnmarshalJSON([]byte(msg.Result.Content[0].Text)); err != nil || env.Code != registry.CodeRateLimited || env.RetryAfter() < 1 {
				t.Errorf("MCP 3 envelope %s: %v", msg.Result.Content[0].Text, err)
			}
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Retry-After") == "" {
				t.Errorf("MCP 3: status %d, Retry-After %q; want 200 with the header", resp.StatusCode, resp.Header.Get("Retry-After"))
			}
			if s := rest(); s != http.StatusTooManyRequests {
				t.Errorf("REST after MCP: %d, want 429", s)
			}
		})
	}
}
