package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_FastPathAnswersACallWithADuplicateParamsMemberTheSDKRefuses
// (rev-end7): bee1a59's memberCount counts the members of the message's
// top level only. parseToolsCall still reads params into a map, where the
// last of two "name" members wins; the SDK decodes params with
// encoding/json into its struct, member by member, and refuses the call
// when the first "name" is not a string. stdioIn answers it, so the output
// differs from the SDK's alone.
func TestReview_FastPathAnswersACallWithADuplicateParamsMemberTheSDKRefuses(t *testing.T) {
	t.Parallel()
	const line = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":5,"name":"list_countries"}}`
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
