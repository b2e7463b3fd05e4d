package perf

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rewindBody is a request body that can be read again: the allocation test
// sends the same request many times without allocating a new one.
type rewindBody struct{ strings.Reader }

func (*rewindBody) Close() error { return nil }

// TestMCPCachedCallAllocs guards the allocations of a cached MCP
// tools/call of lookup_company through mcpserver.Handler in process (the
// handler's own: the request is made once and its body rewound), the count
// issue 30's eighth pass brought down from 17 (BENCHMARKS.md, "Performance
// II, eighth pass"). It fails when a change adds one, and when a cut is not
// yet written down here.
func TestMCPCachedCallAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	const want = 7
	reg := newNorway(t, fakeBase, &http.Client{Transport: newBrreg(t)}, nil)
	mcp := newMCP(t, reg)
	call := lookupCall(equinorID)
	req := mcpRequest(context.Background(), "http://localhost/mcp", call)
	req.RemoteAddr = "192.0.2.1:1234"
	body := &rewindBody{}
	req.Body = body
	d := &discard{h: make(http.Header)}
	serve := func() {
		d.reset()
		body.Reset(call)
		mcp.ServeHTTP(d, req)
	}
	for range 2 { // the first fills the cache
		serve()
	}
	if d.status != http.StatusOK || d.n < 1000 {
		t.Fatalf("warm-up: status %d, %d bytes", d.status, d.n)
	}
	got := int(testing.AllocsPerRun(200, serve))
	if d.status != http.StatusOK || d.n < 1000 {
		t.Fatalf("status %d, %d bytes", d.status, d.n)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("allocations of a cached tools/call (-want +got):\n%s", diff)
	}
}
