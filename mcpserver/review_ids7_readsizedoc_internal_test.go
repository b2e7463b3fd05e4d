package mcpserver

import (
	"strings"
	"testing"
)

// TestReview_StdioReadSizeDocStale (rev-ids7, P2): stdioReadSize's doc
// says it is "the longest line it keeps to check (a longer one goes to the
// SDK and ends the fast path)". Since stdio-ids a longer line is kept up
// to stdioLineMax (16 MiB) and counted, and the fast path goes on after
// it: a tools/call of list_countries after a ping of more than 64 KiB is
// answered in front, the SDK never sees it. The test asserts the doc.
func TestReview_StdioReadSizeDocStale(t *testing.T) {
	t.Parallel()
	r := startReviewStdio(t, true)
	r.send(t, `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"_meta":{"pad":"`+strings.Repeat("x", stdioReadSize)+`"}}}`)
	r.readID(t, `"big"`)
	r.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`)
	r.readID(t, `8`)
	if n := r.sdkCalls.Load(); n != 1 {
		t.Errorf("after a line over stdioReadSize, the SDK handled %d tools/call; stdioReadSize's doc says that line ended the fast path (so the SDK handles the call), yet it was answered in front (off %v, noFront %v)",
			n, r.stdio.off, r.stdio.noFront)
	}
}
