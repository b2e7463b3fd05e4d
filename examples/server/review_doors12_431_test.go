package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_Doors12HeaderRefusalHintPerDoor (doors12 item 1): the stack's
// 431 for headers past 16 KiB says something true for the door that would
// have served the request. A REST client is told to shorten the query or
// the headers (a search name is in the query); an MCP client, whose tool
// arguments travel in the body, which the bound does not count, is told to
// shorten the headers, not a search name it never put in a header. At the
// host root and under a base path, at /mcp and /mcp/.
func TestReview_Doors12HeaderRefusalHintPerDoor(t *testing.T) {
	t.Parallel()
	const (
		message  = "The request line and headers are larger than 16 KiB."
		restHint = "Shorten the query or the headers: a search name is at most 256 bytes, an identifier far shorter."
		mcpHint  = "Shorten the headers: the arguments of a tool call travel in the request body, which this bound does not count."
	)
	type answer struct {
		Status              int
		Code, Message, Hint string
	}
	for _, base := range []string{"", "/registry"} {
		cfg, err := parseConfig(nil, env(map[string]string{"REGISTRY_BASE_PATH": base, "BRREG_BASE_URL": "http://127.0.0.1:1",
			"REGISTRY_CHANGES": "off"}), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := registry.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		h, _, err := newHandler(cfg, reg, slog.New(slog.DiscardHandler), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			method, path, hint string
		}{
			{http.MethodPost, "/mcp", mcpHint},
			{http.MethodPost, "/mcp/", mcpHint},
			{http.MethodGet, "/mcp", mcpHint},
			{http.MethodGet, "/v1/NO/search?q=equinor", restHint},
			{http.MethodGet, "/v1/NO/company/923609016", restHint},
			{http.MethodGet, "/health", restHint},
		} {
			r := httptest.NewRequest(tc.method, base+tc.path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("X-Padding", strings.Repeat("a", maxHeaderBytes))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			got := answer{Status: w.Code}
			if e := envelope(t, w.Body.String()); e != nil {
				got.Code, got.Message, got.Hint = string(e.Code), e.Message, e.Hint
			}
			want := answer{http.StatusRequestHeaderFieldsTooLarge, "bad_request", message, tc.hint}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %s%s with headers past 16 KiB (-want +got):\n%s", tc.method, base, tc.path, diff)
			}
		}
	}
}
