package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/mcpserver"
)

// panicCache is a cache whose reads panic: the Registry calls it on the
// tool's own goroutine, so a lookup panics inside the tool handler (a
// country module's panic is recovered by the Registry itself).
type panicCache struct{}

func (panicCache) Get(context.Context, string) ([]byte, bool, error) { panic("cache defect") }
func (panicCache) Set(context.Context, string, []byte, time.Duration) error {
	return nil
}
func (panicCache) Delete(context.Context, string) error { return nil }

// newPanicRegistry returns a Registry over the fakes whose lookups panic.
func newPanicRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.New([]registry.Country{&fakeNO{}, fakeGB{}}, registry.WithCache(panicCache{}),
		registry.WithClock(func() time.Time { return fixedNow }), registry.WithRetryPause(0), registry.WithVersion("1.2.3-test"))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// internalEnvelope is the text of the tool result of a recovered panic.
const internalEnvelope = `{"error":{"code":"internal_error","message":"An unexpected error occurred inside the service.","hint":"Retry once; if it fails again, report the problem to the operator of this service.","country":null,"registry":null,"details":{}}}`

// isInternal reports whether a result is the internal_error tool result:
// isError, and one text item with the envelope (2026-07-28 adds _meta and
// resultType around it).
func isInternal(s string) bool {
	var res struct {
		Content []struct {
			Type, Text string
		}
		IsError bool
	}
	return json.Unmarshal([]byte(s), &res) == nil && res.IsError && len(res.Content) == 1 &&
		res.Content[0].Type == "text" && res.Content[0].Text == internalEnvelope
}

// toolCall is a tools/call of lookup_company (panics) or
// validate_company_id (answers) with the given id, for protocol version v.
func toolCall(id, tool, v string) string {
	meta := ""
	if v >= "2026" {
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"id":"923609016"}` + meta + `}}`
}

// answers decodes a JSON-RPC answer (one message or a batch) into the
// result or error of each id, compact.
func answers(t *testing.T, body []byte) map[string]string {
	t.Helper()
	body = []byte(strings.TrimSpace(string(body)))
	var msgs []map[string]json.RawMessage
	if strings.HasPrefix(string(body), "[") {
		if err := json.Unmarshal(body, &msgs); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
	} else {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		msgs = append(msgs, m)
	}
	out := map[string]string{}
	for _, m := range msgs {
		v := m["result"]
		if v == nil {
			v = m["error"]
		}
		out[string(m["id"])] = string(v)
	}
	return out
}

// isValidation reports whether a result is validate_company_id's answer.
func isValidation(s string) bool {
	return strings.Contains(s, `\"valid\":true`) && !strings.Contains(s, `"isError"`)
}

// TestToolPanicHTTP: a tool that panics answers the internal_error tool
// result over Streamable HTTP, on the fast path and through the SDK, in
// every protocol version the server speaks and in a JSON-RPC batch (where
// the protocol has them), and the server goes on answering. Before issue
// 24 a panic on the SDK path ended the process (the SDK runs handlers on
// goroutines of its own without a recover).
func TestToolPanicHTTP(t *testing.T) {
	t.Parallel()
	for _, fast := range []bool{true, false} {
		var logs redistest.Logs
		opts := []mcpserver.Option{mcpserver.WithLogger(logs.Logger())}
		name := "fast path"
		if !fast {
			opts = append(opts, mcpserver.WithoutFastPath())
			name = "SDK"
		}
		h, err := mcpserver.Handler(newPanicRegistry(t), opts...)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		for _, v := range mcp.SupportedProtocolVersions() {
			header := map[string]string{"Mcp-Protocol-Version": v}
			if v >= "2026" {
				header["Mcp-Method"] = "tools/call"
				header["Mcp-Name"] = "lookup_company"
			}
			status, body := post(t, srv.URL, toolCall("1", "lookup_company", v), header)
			if status != http.StatusOK {
				t.Fatalf("%s %s: status %d: %s", name, v, status, body)
			}
			if got := answers(t, body); len(got) != 1 || !isInternal(got["1"]) {
				t.Errorf("%s %s: answer %s, want the internal_error result", name, v, body)
			}
			header["Mcp-Name"] = "validate_company_id"
			if v < "2026" {
				delete(header, "Mcp-Name")
			}
			if _, body := post(t, srv.URL, toolCall("2", "validate_company_id", v), header); !isValidation(answers(t, body)["2"]) {
				t.Errorf("%s %s: the next call got %s", name, v, body)
			}
			if v >= "2025-06-18" {
				continue // no batches
			}
			status, body = post(t, srv.URL, "["+toolCall("3", "lookup_company", v)+","+toolCall("4", "validate_company_id", v)+"]",
				map[string]string{"Mcp-Protocol-Version": v})
			got := answers(t, body)
			if status != http.StatusOK || !isInternal(got["3"]) || !isValidation(got["4"]) || len(got) != 2 {
				t.Errorf("%s %s batch: %d %s", name, v, status, body)
			}
		}
		if n := logs.Count("panic in mcp handler"); n == 0 || !strings.Contains(logs.String(), "panic=\"cache defect\"") {
			t.Errorf("%s: %d panic records:\n%.2000s", name, n, logs.String())
		}
	}
}

// TestToolPanicStdio: the same over stdio, in every protocol version the
// server speaks, one call at a time and in a batch where the protocol
// has them.
func TestToolPanicStdio(t *testing.T) {
	t.Parallel()
	for _, v := range mcp.SupportedProtocolVersions() {
		for _, fast := range []bool{true, false} {
			var opts []mcpserver.Option
			if !fast {
				opts = append(opts, mcpserver.WithoutFastPath())
			}
			msgs := []string{toolCall("1", "lookup_company", v), toolCall("2", "validate_company_id", v)}
			want := 2
			if v < "2025-06-18" {
				msgs = append(msgs, "["+toolCall("3", "lookup_company", v)+","+toolCall("4", "validate_company_id", v)+"]")
				want = 3
			}
			got := stdioAnswers(t, v, msgs, want, opts...)
			if !isInternal(got["1"]) || !isValidation(got["2"]) || want == 3 && (!isInternal(got["3"]) || !isValidation(got["4"])) {
				t.Errorf("%s (fast path %v): answers %v", v, fast, got)
			}
		}
	}
}

// stdioAnswers runs ServeIO, initializes a session of version v (before
// 2026-07-28, which has no initialize), sends msgs one line each, reads
// lines answers and returns the answers by id.
func stdioAnswers(t *testing.T, v string, msgs []string, lines int, opts ...mcpserver.Option) map[string]string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeIO(context.Background(), newPanicRegistry(t), inR, outW, opts...)
		_ = outW.Close()
	}()
	out := bufio.NewReader(outR)
	write := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	read := func() []byte {
		t.Helper()
		l, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%s: reading an answer: %v", v, err)
		}
		return l
	}
	if v < "2026" {
		write(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + v +
			`","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		read()
		write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	got := map[string]string{}
	for _, m := range msgs {
		write(m)
	}
	for range lines {
		for id, a := range answers(t, read()) {
			got[id] = a
		}
	}
	_ = inW.Close()
	<-done
	_ = inR.Close()
	return got
}
