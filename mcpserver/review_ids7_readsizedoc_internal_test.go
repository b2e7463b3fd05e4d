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
// answered in front, the SDK never sees it. The test asserts the doc,
// which now says so (fix-ids7).
func TestReview_StdioReadSizeDocStale(t *testing.T) {
	t.Parallel()
	r := startReviewStdio(t, true)
	r.send(t, `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"_meta":{"pad":"`+strings.Repeat("x", stdioReadSize)+`"}}}`)
	r.readID(t, `"big"`)
	r.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`)
	r.readID(t, `8`)
	// The doc (fixed in fix-ids7) says the line is counted and stdioIn
	// goes on answering after it: the call is answered in front.
	if n := r.sdkCalls.Load(); n != 0 || r.stdio.off || r.stdio.noFront {
		t.Errorf("after a line over stdioReadSize, the SDK handled %d tools/call (off %v, noFront %v); stdioReadSize's doc says stdioIn counts that line and goes on answering in front",
			n, r.stdio.off, r.stdio.noFront)
	}
}
