package mcpserver_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/mcpserver"
)

// meetLimiter allows every call, but holds the first two until both are
// inside Allow, so that two charges of one batch certainly overlap.
type meetLimiter struct {
	mu     sync.Mutex
	n      int
	gather chan struct{}
}

func (l *meetLimiter) Allow(ctx context.Context, _ string, _ int) (bool, time.Duration, error) {
	l.mu.Lock()
	l.n++
	if l.n == 2 {
		close(l.gather)
	}
	l.mu.Unlock()
	select {
	case <-l.gather:
	case <-ctx.Done():
	}
	return true, 0, nil
}

// TestBatchToolCallsChargeConcurrently: the SDK runs the calls of a
// JSON-RPC batch concurrently (jsonrpc2.Async for every call but
// initialize), and each tools/call charges the client through the one
// httpmw.Request of the HTTP request. Under -race, two calls of one batch
// (protocol 2025-03-26, which has batches) that charge at the same time
// share that state only for reading: the client address and its text are
// set once, when the request begins (before, httplog.Writer.IPText cached
// the text on first use, a data race between the calls).
func TestBatchToolCallsChargeConcurrently(t *testing.T) {
	t.Parallel()
	lim := &meetLimiter{gather: make(chan struct{})}
	srv, _ := newHTTPServer(t, mcpserver.WithLimiter(lim))
	var calls []string
	for i := range 2 {
		calls = append(calls, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+1)+
			`,"method":"tools/call","params":{"name":"validate_company_id","arguments":{"id":"923609016"}}}`)
	}
	status, body := post(t, srv.URL+"/mcp", "["+strings.Join(calls, ",")+"]",
		map[string]string{"Mcp-Protocol-Version": "2025-03-26"})
	if status != http.StatusOK || strings.Count(string(body), `\"valid\":true`) != len(calls) {
		t.Fatalf("batch: %d %.500s", status, body)
	}
}
