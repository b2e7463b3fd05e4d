package main

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/ratelimit"
)

// TestOneStack: the program's one middleware stack, given the trusted
// proxies, the logger and the limiter once, serves REST and MCP: one
// access-log record per request with the client behind the proxy and the
// route of the surface, one X-Request-Id, and one allowance for REST /v1
// requests and MCP tool calls (the MCP refusal a tool result with
// Retry-After).
func TestOneStack(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	lim, err := ratelimit.NewLocal(ratelimit.PerMinute(2))
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := newHandler(config{rateLimit: 2, trustedProxies: []string{"10.0.0.0/8"}}, reg, logger, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, path, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.RemoteAddr = "10.1.2.3:4000"
		r.Header.Set("X-Forwarded-For", "198.51.100.1")
		r.Header.Set("X-Request-Id", "rid-"+method)
		if method == http.MethodPost {
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if ids := w.Header().Values("X-Request-Id"); len(ids) != 1 || ids[0] != "rid-"+method {
			t.Errorf("%s %s: X-Request-Id %q", method, path, ids)
		}
		return w
	}
	for range 2 {
		if w := do(http.MethodGet, "/v1/countries", ""); w.Code != http.StatusOK {
			t.Fatalf("REST: %d %s", w.Code, w.Body)
		}
	}
	w := do(http.MethodPost, "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `\"code\":\"rate_limited\"`) || w.Header().Get("Retry-After") != "30" {
		t.Errorf("MCP after two REST requests: %d, Retry-After %q\n%s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if w := do(http.MethodGet, "/health", ""); w.Code != http.StatusOK {
		t.Errorf("/health: %d", w.Code)
	}
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m["request_id"] == nil {
			continue // not an access-log record
		}
		got = append(got, map[string]any{"msg": m["msg"], "route": m["route"], "status": m["status"], "client_ip": m["client_ip"],
			"request_id": m["request_id"], "tool": m["tool"]})
	}
	rec := func(msg, route, id string, tool any) map[string]any {
		return map[string]any{"msg": msg, "route": route, "status": 200.0, "client_ip": "198.51.100.1", "request_id": id, "tool": tool}
	}
	want := []map[string]any{
		rec("request", "GET /v1/countries", "rid-GET", nil),
		rec("request", "GET /v1/countries", "rid-GET", nil),
		rec("mcp request", "/mcp", "rid-POST", "list_countries"),
		rec("request", "GET /health", "rid-GET", nil),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("access log (-want +got):\n%s", diff)
	}
}

// TestHeaderLimitExact: headers just over 16 KiB, which http.Server's
// looser bound lets through, are 431 from the stack with the error
// envelope (code bad_request, the bound named), logged like any request;
// just under passes.
func TestHeaderLimitExact(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := newHandler(config{}, reg, slog.New(slog.DiscardHandler), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for pad, want := range map[int]int{maxHeaderBytes - 200: http.StatusOK, maxHeaderBytes + 1000: http.StatusRequestHeaderFieldsTooLarge} {
		r := httptest.NewRequest(http.MethodGet, "/health", nil)
		r.Header.Set("X-Padding", strings.Repeat("a", pad))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want || w.Header().Get("X-Request-Id") == "" {
			t.Errorf("padding %d: %d (X-Request-Id %q), want %d", pad, w.Code, w.Header().Get("X-Request-Id"), want)
		}
		if want == http.StatusOK {
			continue
		}
		type refusal struct{ ContentType, Code, Message string }
		e := envelope(t, w.Body.String())
		got := refusal{w.Header().Get("Content-Type"), string(e.Code), e.Message}
		if diff := cmp.Diff(refusal{"application/json", "bad_request", "The request line and headers are larger than 16 KiB."}, got); diff != "" {
			t.Errorf("padding %d (-want +got):\n%s", pad, diff)
		}
	}
}
