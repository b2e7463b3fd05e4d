package mcpserver

import (
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_LastSDKRefusedLineEndsPromptly (rev-last7, probe):
// FuzzLineMsgs found that plainLine vouches for a message with a
// duplicate "error" member, `"error":"","error":{}`, which the SDK
// refuses (encoding/json decodes the members in order into its
// wireDecode, and "" is no WireError). stdioIn counts its id as owed; the
// SDK ends its session. This checks that ServeIO then ends without
// waiting at the end of the input for an answer the SDK never writes.
func TestReview_LastSDKRefusedLineEndsPromptly(t *testing.T) {
	t.Parallel()
	waiting := make(chan struct{})
	r := startReviewStdioWith(t, true, drainWatch(nil, waiting))
	r.send(t, `{"jsonrpc":"2.0","id":9,"method":"ping","error":"","error":{}}`)
	_ = r.in.Close()
	testwait.Recv(t, r.sdkDone, "the SDK's end after the refused line")
}
