package mcpserver

import (
	"strconv"
	"testing"
)

// TestStdioInitsTrimmed (rev-ids7, P2): without the fast path's calls
// (nothing calls initialized), stdioIn keeps the ids of initialize
// requests only while the SDK may not have answered them: after many
// initialize requests, each answered, it holds at most the last one's.
func TestStdioInitsTrimmed(t *testing.T) {
	t.Parallel()
	r := startReviewStdio(t, false)
	for i := range 50 {
		r.send(t, `{"jsonrpc":"2.0","id":"init`+strconv.Itoa(i)+`","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		r.send(t, `{"jsonrpc":"2.0","id":"after`+strconv.Itoa(i)+`","method":"ping"}`)
		r.readID(t, `"after`+strconv.Itoa(i)+`"`)
	}
	// The reader waits for input now: its state was written before the
	// last answer came through the pipes.
	if n := len(r.stdio.inits); n > 1 {
		t.Errorf("after 50 initialize requests, each answered, stdioIn keeps %d of their ids: %q", n, r.stdio.inits)
	}
}
