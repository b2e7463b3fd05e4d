package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioDuplicateIDOfFastCallNotRefused (from the review of the
// second pass, branch rev-p2mcp, extended): a request whose id is that of a
// call still running is refused by the SDK alone (jsonrpc2 acceptRequest:
// "request ID 5 already in use"), which, having cleared the id so as not
// to misattribute the error, answers nothing. The running call is one the
// SDK runs (stdioIn runs none); the repeated request is an initialize
// (which the SDK handles in order, so its answer, if any, comes before the
// ping's), or a call stdioIn would answer itself (list_countries,
// validate_company_id: no register), which it must pass to the SDK while
// the id is in flight there. The answers up to the ping's must be those of
// the SDK reading the input alone.
func TestReview_StdioDuplicateIDOfFastCallNotRefused(t *testing.T) {
	t.Parallel()
	repeats := map[string]string{
		"initialize":          `{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		"list_countries":      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_countries"}}`,
		"validate_company_id": `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"validate_company_id","arguments":{"id":"923609016"}}}`,
	}
	for name, repeat := range repeats {
		for _, plain := range []bool{false, true} {
			answers := func(front bool) []string {
				r := startReviewStdio(t, front)
				r.startCall(t, "5", plain)
				r.send(t, repeat)
				r.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
				return r.readUntilID(t, "6")
			}
			want := answers(false)
			if diff := cmp.Diff(want, answers(true)); diff != "" {
				t.Errorf("%s (plain %v): answers to a request with the id of a running call, then a ping (-sdk +stdioIn):\n%s", name, plain, diff)
			}
		}
	}
}

// TestStdioAnswersAfterTheSDKsAnswer: once the SDK has answered the call
// with id 5, a call with id 5 is answered in front of the SDK again.
func TestStdioAnswersAfterTheSDKsAnswer(t *testing.T) {
	t.Parallel()
	r := startReviewStdio(t, true)
	r.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	r.readID(t, "5")
	// The SDK's answer is counted once its write has returned.
	testwait.Until(t, "stdioIn counts the SDK's answer to id 5", func() bool { return !r.ids.busy("5") })
	r.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_countries"}}`)
	r.readID(t, "5")
	if n := r.sdkCalls.Load(); n != 0 {
		t.Errorf("stdioIn passed the call with id 5 to the SDK (%d tools/call in the SDK)", n)
	}
}
