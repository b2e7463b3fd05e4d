package mcpserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/companyregistry/registry/mcpserver"
)

// TestHandlerSecurityHeaders (issue #9): every answer of the handler, a
// refusal included, carries X-Content-Type-Options: nosniff and a
// Cache-Control (no-store unless the answer sets its own), and no Server
// header.
func TestHandlerSecurityHeaders(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t, mcpserver.WithAllowedHosts("registry.example.com"))
	for _, tc := range []struct {
		name, method, body, host string
		header                   map[string]string
		status                   int
		cacheControl             string
	}{
		{name: "tools/call (fast path)", method: http.MethodPost, body: lookupCall, status: 200, cacheControl: "no-cache, no-transform"},
		{name: "tools/list (SDK)", method: http.MethodPost, body: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, status: 200, cacheControl: "no-cache, no-transform"},
		{name: "malformed JSON", method: http.MethodPost, body: `{"jsonrpc":`, status: 400, cacheControl: "no-store"},
		{name: "GET", method: http.MethodGet, status: 405, cacheControl: "no-store"},
		{name: "cross-site", method: http.MethodPost, body: lookupCall, status: 403, cacheControl: "no-store",
			header: map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}},
		{name: "Host not allowed", method: http.MethodPost, body: lookupCall, host: "evil.example", status: 403, cacheControl: "no-store"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, srv.URL+"/mcp", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Errorf("status %d, want %d", res.StatusCode, tc.status)
			}
			if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q, want nosniff", got)
			}
			if got := res.Header.Get("Cache-Control"); got != tc.cacheControl {
				t.Errorf("Cache-Control %q, want %q", got, tc.cacheControl)
			}
			if got := res.Header.Get("Server"); got != "" {
				t.Errorf("Server %q, want none", got)
			}
		})
	}
}
