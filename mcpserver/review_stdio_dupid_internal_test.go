package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_StdioDuplicateIDOfFastCallNotRefused: a request whose id is
// that of a call still running is refused by the SDK alone (jsonrpc2
// acceptRequest: "request ID 5 already in use"), which, having cleared the
// id so as not to misattribute the error, answers nothing. stdioIn passes
// such a line to the SDK (doc/decisions.md: "it does pass a line whose id
// is one of its own calls in flight to the SDK"), but the SDK does not know
// stdioIn's calls and handles the request as a new one: the client gets a
// second answer with id 5. The repeated request is an initialize, which the
// SDK handles in order (not asynchronously), so its answer, if any, comes
// before the answer to the ping sent after it.
func TestReview_StdioDuplicateIDOfFastCallNotRefused(t *testing.T) {
	t.Parallel()
	answers := func(fast bool) []string {
		r := startReviewStdio(t)
		r.startCall(t, "5", fast)
		r.send(t, `{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		r.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
		return r.readUntilID(t, "6")
	}
	want := answers(false)
	if diff := cmp.Diff(want, answers(true)); diff != "" {
		t.Errorf("answers to a request with the id of a running call, then a ping (-sdk +fast):\n%s", diff)
	}
}
