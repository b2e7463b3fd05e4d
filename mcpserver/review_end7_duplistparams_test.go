package mcpserver_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/mcpserver"
)

// TestReview_HTTPFastPathAnswersDuplicateParamsMembersTheSDKRefuses
// (rev-end7): over HTTP, memberCount (bee1a59) guards the message's top
// level only; parseToolsCall and parseListRequest read params into maps,
// where the last of two members of one name wins. The SDK decodes params
// into its structs with encoding/json, member by member, and answers
// -32602 when the first is not a string. The fast path answers the call
// and serves the cached list instead.
func TestReview_HTTPFastPathAnswersDuplicateParamsMembersTheSDKRefuses(t *testing.T) {
	t.Parallel()
	fast, _ := newHTTPServer(t)
	sdk, _ := newHTTPServer(t, mcpserver.WithoutFastPath())
	for _, tc := range []struct{ name, body string }{
		{"tools/list first", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"tools/list duplicate cursor", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":5,"cursor":""}}`},
		{"tools/call duplicate name", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5,"name":"list_countries"}}`},
	} {
		got := send(t, fast.URL+"/mcp", tc.body, "", "", "", nil)
		want := send(t, sdk.URL+"/mcp", tc.body, "", "", "", nil)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-sdk +fast):\n%s", tc.name, diff)
		}
	}
}
