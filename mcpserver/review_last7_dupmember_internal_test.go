package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_FastPathAnswersACallWithADuplicateMemberTheSDKRefuses
// (rev-last7): stdioIn's fast path reads a call it cannot scan with
// parseMessage, a map, where the last of two members of one name wins
// and the two count as one (parseToolsCall wants exactly four). The SDK
// (go-sdk v1.8.0 jsonrpc2.DecodeMessage, encoding/json into its
// wireDecode) decodes the members in order and refuses the message when
// the first of them is not of its type (here "jsonrpc":1, not a string):
// it answers nothing and ends the session. stdioIn answers the call, so
// the output differs from the SDK's alone (the fast path's answers must
// be byte-for-byte the SDK's).
func TestReview_FastPathAnswersACallWithADuplicateMemberTheSDKRefuses(t *testing.T) {
	t.Parallel()
	const line = `{"jsonrpc":1,"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_countries"}}`
	out := map[bool][]string{}
	for _, front := range []bool{false, true} {
		r := startReviewStdio(t, front)
		r.send(t, line)
		_ = r.in.Close()
		out[front] = r.readRest(t)
	}
	if diff := cmp.Diff(out[false], out[true]); diff != "" {
		t.Errorf("output (-SDK alone +with stdioIn's fast path):\n%s", diff)
	}
}
