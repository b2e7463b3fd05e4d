package mcpserver

import (
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioEOFDoesNotCancelFastCall (from the review of the second
// pass, branch rev-p2mcp; "fast" is now a plain line, which stdioIn passes
// to the SDK because review_block is not a tool it answers, as it passes a
// call that misses the cache): when the input ends, the SDK
// cancels the calls it is running (jsonrpc2 readIncoming: "Cancel any
// incoming requests still in flight") and its Run returns once they have
// returned, so ServeIO returns at once, as its doc says ("until r reaches
// its end"). A call stdioIn runs is not cancelled: ServeIO then waits in
// stdioIn.wait until the call ends by itself, for a lookup the register's
// whole time (upstream timeout 10 s, a retry), and the register is still
// asked after the client has gone. The MCP stdio shutdown is the client
// closing the server's stdin and waiting for it to exit.
func TestReview_StdioEOFDoesNotCancelFastCall(t *testing.T) {
	t.Parallel()
	for _, fast := range []bool{false, true} {
		r := startReviewStdio(t, true)
		ctx := r.startCall(t, "5", fast)
		_ = r.in.Close()
		testwait.Recv(t, r.sdkDone, "the SDK's Run to return after EOF")
		if ctx.Err() == nil {
			t.Errorf("fast path %v: the input ended and the SDK's session is over, but the call is not cancelled: ServeIO waits for it", fast)
		}
	}
}
