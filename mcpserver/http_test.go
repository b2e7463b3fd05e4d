package mcpserver_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/restserver"
)

const lookupCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"id":"923609016"}}}`

// post sends one JSON-RPC message to url with the given extra headers.
func post(t testing.TB, url, body string, header map[string]string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
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
	return resp.StatusCode, b
}

func newHTTPServer(t testing.TB, opts ...mcpserver.Option) (*httptest.Server, *registry.Registry) {
	t.Helper()
	reg, _ := newRegistry(t)
	h, err := mcpserver.Handler(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, reg
}

// TestHandlerStatelessPublicHost checks that the handler answers a bare
// tools/call (no initialize, no session: any replica can answer) at /mcp and
// at /mcp/ without a redirect, with a public Host name as a reverse proxy
// sends it, and that the result is the lookup document.
func TestHandlerStatelessPublicHost(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t)
	other, _ := newRegistry(t)
	rep, err := other.Lookup(t.Context(), "NO", idEquinor)
	if err != nil {
		t.Fatal(err)
	}
	wantDoc, _ := json.Marshal(rep)
	for _, path := range []string{"/mcp", "/mcp/"} {
		for _, host := range []string{"registry.example.com", "registry.example.com:443", "127.0.0.1"} {
			status, body := post(t, srv.URL+path, lookupCall, map[string]string{"Host": host})
			if status != http.StatusOK {
				t.Fatalf("%s Host %s: status %d: %s", path, host, status, body)
			}
			var resp struct {
				Result struct {
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
					StructuredContent json.RawMessage `json:"structuredContent"`
					IsError           bool            `json:"isError"`
				} `json:"result"`
			}
			if err := json.Unmarshal(body, &resp); err != nil {
				t.Fatalf("%s: %v: %s", path, err, body)
			}
			got := resp.Result
			if got.IsError || len(got.Content) != 1 {
				t.Fatalf("%s: result %s", path, body)
			}
			// The second and later calls are cache hits.
			var gotDoc, want map[string]any
			_ = json.Unmarshal([]byte(got.Content[0].Text), &gotDoc)
			_ = json.Unmarshal(wantDoc, &want)
			delete(gotDoc, "cached")
			delete(want, "cached")
			if diff := cmp.Diff(want, gotDoc); diff != "" {
				t.Errorf("%s Host %s: document (-want +got):\n%s", path, host, diff)
			}
			if string(got.StructuredContent) != got.Content[0].Text {
				t.Errorf("structuredContent %s differs from the text %s", got.StructuredContent, got.Content[0].Text)
			}
		}
	}
}

func TestHandlerMethodsAndOrigins(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t, mcpserver.WithTrustedOrigins("https://app.example.com"))

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /mcp: status %d, want 405 (stateless: no SSE stream)", resp.StatusCode)
	}

	for _, tc := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no browser headers", nil, http.StatusOK},
		{"same origin", map[string]string{"Origin": srv.URL, "Sec-Fetch-Site": "same-origin"}, http.StatusOK},
		{"cross-site browser", map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"cross origin without fetch metadata", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"trusted origin", map[string]string{"Origin": "https://app.example.com", "Sec-Fetch-Site": "cross-site"}, http.StatusOK},
	} {
		if status, body := post(t, srv.URL+"/mcp", lookupCall, tc.header); status != tc.want {
			t.Errorf("%s: status %d, want %d: %s", tc.name, status, tc.want, body)
		}
	}
}

func TestHandlerAllowedHosts(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t, mcpserver.WithAllowedHosts("Registry.Example.com"))
	for _, tc := range []struct {
		host string
		want int
	}{
		{"registry.example.com", http.StatusOK},
		{"registry.example.com:8443", http.StatusOK},
		{"localhost:8080", http.StatusOK},
		{"[::1]:8080", http.StatusOK},
		{"evil.example", http.StatusForbidden},
		{"registry.example.com.evil.example", http.StatusForbidden},
	} {
		if status, body := post(t, srv.URL+"/mcp", lookupCall, map[string]string{"Host": tc.host}); status != tc.want {
			t.Errorf("Host %s: status %d, want %d: %s", tc.host, status, tc.want, body)
		}
	}
}

// TestHandlerGoClient drives the handler with the SDK's own Streamable HTTP
// client: initialize, list tools, call one.
func TestHandlerGoClient(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 6 {
		t.Fatalf("ListTools: %v, %d tools", err, len(tools.Tools))
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "validate_company_id", Arguments: map[string]any{"id": idBadChecksum}})
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %v %+v", err, res)
	}
	if !strings.Contains(text(t, res), `"valid":false`) {
		t.Errorf("text = %s, want valid false", text(t, res))
	}
}

// BenchmarkToolsCallLookupCached measures tools/call lookup_company for a
// cached report through the Streamable HTTP handler: one real JSON-RPC POST
// per operation over a loopback connection.
func BenchmarkToolsCallLookupCached(b *testing.B) {
	srv, _ := newHTTPServer(b)
	if status, body := post(b, srv.URL+"/mcp", lookupCall, nil); status != http.StatusOK || !strings.Contains(string(body), `"cached":false`) {
		b.Fatalf("warm-up: %d %s", status, body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			status, body := post(b, srv.URL+"/mcp", lookupCall, nil)
			if status != http.StatusOK || !strings.Contains(string(body), `\"cached\":true`) {
				b.Errorf("status %d: %s", status, body)
				return
			}
		}
	})
}

// BenchmarkRESTLookupCached is the REST counterpart of
// BenchmarkToolsCallLookupCached: GET /v1/NO/company/{id} for a cached report
// through restserver (rate limit off) over the same kind of connection.
func BenchmarkRESTLookupCached(b *testing.B) {
	reg, _ := newRegistry(b)
	rest, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(rest)
	b.Cleanup(srv.Close)
	get := func() (int, string) {
		req, _ := http.NewRequestWithContext(b.Context(), http.MethodGet, srv.URL+"/v1/NO/company/"+idEquinor, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if status, body := get(); status != http.StatusOK {
		b.Fatalf("warm-up: %d %s", status, body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if status, body := get(); status != http.StatusOK || !strings.Contains(body, `"cached":true`) {
				b.Errorf("status %d: %s", status, body)
				return
			}
		}
	})
}

// BenchmarkToolsCallLookupCachedSDKPath is BenchmarkToolsCallLookupCached
// with the fast path off: every request goes through the SDK's stateless
// handler, for comparison.
func BenchmarkToolsCallLookupCachedSDKPath(b *testing.B) {
	srv, _ := newHTTPServer(b, mcpserver.WithoutFastPath())
	if status, body := post(b, srv.URL+"/mcp", lookupCall, nil); status != http.StatusOK {
		b.Fatalf("warm-up: %d %s", status, body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if status, body := post(b, srv.URL+"/mcp", lookupCall, nil); status != http.StatusOK {
				b.Errorf("status %d: %s", status, body)
				return
			}
		}
	})
}

// TestHandlerCORS checks that a trusted origin gets its preflight answered
// and its responses readable, and that another origin gets no CORS headers.
func TestHandlerCORS(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t, mcpserver.WithTrustedOrigins("https://app.example.com"))
	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodOptions, srv.URL+"/mcp", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type, mcp-protocol-version")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	ok := preflight("https://app.example.com")
	if ok.StatusCode != http.StatusNoContent || ok.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(ok.Header.Get("Access-Control-Allow-Headers"), "Mcp-Protocol-Version") ||
		!strings.Contains(ok.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Errorf("trusted preflight: %d %v", ok.StatusCode, ok.Header)
	}
	if bad := preflight("https://evil.example"); bad.Header.Get("Access-Control-Allow-Origin") != "" || bad.StatusCode == http.StatusNoContent {
		t.Errorf("untrusted preflight: %d %v", bad.StatusCode, bad.Header)
	}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/mcp", strings.NewReader(lookupCall))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Origin", "https://app.example.com")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" {
		t.Errorf("trusted POST: %d %v", resp.StatusCode, resp.Header)
	}
}

// TestHandlerAccessLog checks the log of the HTTP endpoint: one JSON record
// per request with the status and the tool, never the arguments (an
// identifier may be a person's), and none of the SDK's per-request info
// lines.
func TestHandlerAccessLog(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	clock := time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)
	srv, _ := newHTTPServer(t, mcpserver.WithLogger(logger), mcpserver.WithTrustedProxies("127.0.0.1", "::1"),
		mcpserver.WithClock(func() time.Time { return clock }))
	// Through a trusted proxy, the client is the address it forwards.
	if status, body := post(t, srv.URL+"/mcp", lookupCall, map[string]string{"X-Request-Id": "req-1", "X-Forwarded-For": "203.0.113.7"}); status != http.StatusOK {
		t.Fatalf("lookup: %d %s", status, body)
	}
	if status, body := post(t, srv.URL+"/mcp/", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"X-Request-Id": "bad id!"}); status != http.StatusOK {
		t.Fatalf("tools/list: %d %s", status, body)
	}
	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		delete(rec, "time")
		records = append(records, rec)
	}
	if len(records) != 2 {
		t.Fatalf("got %d log records, want 2:\n%s", len(records), buf.String())
	}
	want := []map[string]any{
		{"level": "INFO", "msg": "mcp request", "method": "POST", "route": "/mcp", "status": 200.0, "bytes": records[0]["bytes"],
			"duration": 0.0, "request_id": "req-1", "client_ip": "203.0.113.7", "tool": "lookup_company"},
		{"level": "INFO", "msg": "mcp request", "method": "POST", "route": "/mcp/", "status": 200.0, "bytes": records[1]["bytes"],
			"duration": 0.0, "request_id": records[1]["request_id"], "client_ip": records[1]["client_ip"]},
	}
	// An unsafe caller ID is replaced by a fresh one; without a forwarded
	// address the client is the (trusted) socket peer.
	if rid, _ := records[1]["request_id"].(string); len(rid) != 32 {
		t.Errorf("request_id %q, want a fresh 32-hex-digit ID", rid)
	}
	if ip, _ := records[1]["client_ip"].(string); ip != "127.0.0.1" && ip != "::1" {
		t.Errorf("client_ip %q, want the loopback peer", ip)
	}
	if diff := cmp.Diff(want, records); diff != "" {
		t.Errorf("log records (-want +got):\n%s", diff)
	}
	if strings.Contains(buf.String(), idEquinor) {
		t.Errorf("the log holds the identifier:\n%s", buf.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer = moduletest.SyncBuffer
