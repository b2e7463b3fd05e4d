package mcpserver

import (
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioEOFDoesNotCancelFastCall (from the review of the second
// pass, branch rev-p2mcp; "fast" is now a plain line, which stdioIn passes
// to the SDK because review_block is not a tool it answers, as it passes a
// call that misses the cache). The review's rule was that when the input
// ends, ServeIO returns at once, as the SDK alone does: the SDK cancels the
// calls it is running (jsonrpc2 readIncoming) and drops their answers.
// The rule changed (stdio-drain, doc/decisions.md "stdio: the answers owed
// are written at the end of the input"): an answer already owed when the
// client closes stdin is written, and the MCP stdio shutdown (the client
// closes the server's stdin and waits for it to exit) does not ask the
// server to drop work. What stays from the review is the bound: a call
// that never ends (review_block runs until its context ends) does not
// keep ServeIO past stdioDrainMax; then the SDK sees the end of the input
// and cancels it, and its Run returns.
func TestReview_StdioEOFDoesNotCancelFastCall(t *testing.T) {
	t.Parallel()
	for _, fast := range []bool{false, true} {
		bound := make(chan time.Time)
		waiting := make(chan struct{})
		r := startReviewStdioWith(t, true, func(s *stdioIn) {
			s.drainTimer = func() (<-chan time.Time, func() bool) {
				close(waiting)
				return bound, func() bool { return true }
			}
		})
		ctx := r.startCall(t, "5", fast)
		_ = r.in.Close()
		testwait.Recv(t, waiting, "stdioIn to wait for the call's answer at the end of the input")
		// The SDK has not read the end: the call runs on, and Run with it.
		if ctx.Err() != nil {
			t.Errorf("fast path %v: the call is cancelled while its answer is owed: %v", fast, ctx.Err())
		}
		select {
		case <-r.sdkDone:
			t.Errorf("fast path %v: the SDK's Run returned before the bound", fast)
		default:
		}
		close(bound) // stdioDrainMax has passed
		testwait.Recv(t, r.sdkDone, "the SDK's Run to return after the bound")
		if ctx.Err() == nil {
			t.Errorf("fast path %v: the bound has passed and the SDK's session is over, but the call is not cancelled", fast)
		}
	}
}
