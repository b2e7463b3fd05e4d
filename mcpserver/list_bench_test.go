package mcpserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/companyregistry/registry/mcpserver"
)

const toolsList = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

// initStdio starts ServeIO with opts and initializes a session as a
// 2025-06-18 client does.
func initStdio(b *testing.B, opts ...mcpserver.Option) *stdioPeer {
	b.Helper()
	p := startStdio(b, opts...)
	if line := p.send(b, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
		`"capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`, true); !strings.Contains(line, `"result"`) {
		b.Fatalf("initialize: %s", line)
	}
	p.send(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	return p
}

// BenchmarkStdioToolsList measures sequential tools/list calls over the
// stdio framing (in-process pipes, a raw JSON-RPC client): "cache" is
// ServeIO as shipped, "sdk" the same server with every list built by the
// SDK on each call.
func BenchmarkStdioToolsList(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []mcpserver.Option
	}{{"cache", nil}, {"sdk", []mcpserver.Option{mcpserver.WithoutFastPath()}}} {
		b.Run(bc.name, func(b *testing.B) {
			p := initStdio(b, bc.opts...)
			first := p.send(b, toolsList, true)
			b.SetBytes(int64(len(first)))
			b.ReportAllocs()
			for b.Loop() {
				if line := p.send(b, toolsList, true); len(line) != len(first) {
					b.Fatalf("answer of %d bytes, want %d", len(line), len(first))
				}
			}
		})
	}
}

// BenchmarkHTTPToolsList measures sequential tools/list POSTs to Handler
// over loopback HTTP: "fastpath" as shipped, "sdk" with every request
// through the SDK's stateless handler.
func BenchmarkHTTPToolsList(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []mcpserver.Option
	}{{"fastpath", nil}, {"sdk", []mcpserver.Option{mcpserver.WithoutFastPath()}}} {
		b.Run(bc.name, func(b *testing.B) {
			srv, _ := newHTTPServer(b, bc.opts...)
			status, first := post(b, srv.URL+"/mcp", toolsList, nil)
			if status != http.StatusOK {
				b.Fatalf("warm-up: %d %s", status, first)
			}
			b.SetBytes(int64(len(first)))
			b.ReportAllocs()
			for b.Loop() {
				if status, body := post(b, srv.URL+"/mcp", toolsList, nil); status != http.StatusOK || len(body) != len(first) {
					b.Fatalf("status %d, %d bytes", status, len(body))
				}
			}
		})
	}
}

// BenchmarkStdioToolsCallLookupCached measures sequential tools/call
// lookup_company calls for a cached report over the stdio framing.
func BenchmarkStdioToolsCallLookupCached(b *testing.B) {
	p := initStdio(b)
	if line := p.send(b, lookupCall, true); !strings.Contains(line, `\"cached\":false`) {
		b.Fatalf("warm-up: %s", line)
	}
	b.ReportAllocs()
	for b.Loop() {
		if line := p.send(b, lookupCall, true); !strings.Contains(line, `\"cached\":true`) {
			b.Fatalf("answer: %s", line)
		}
	}
}
