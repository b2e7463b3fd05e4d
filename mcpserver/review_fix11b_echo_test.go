package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/mcpserver"
)

// TestReview_Fix11bUnknownArgumentNameIsEchoedWithoutBound (rev-fix11b): the
// 16 KiB bound on tool arguments no longer applies to arguments the hand
// scanner takes, and the new explain_company refusal quotes the unknown
// name too, so an unknown argument's name of any length (1 MiB over HTTP,
// 16 MiB over stdio) is echoed whole in the answer, each '<' as \u003c in
// the envelope and again escaped in the JSON-RPC answer: 256 KiB of name
// gives about 1.8 MB (tool) and 3.4 MB (prompt) of answer, where before
// fix-doors11 the tool refused arguments past 16 KiB with a short message
// and the prompt ignored the name. Each answer here should stay under
// 64 KiB (e.g. quote at most a few dozen bytes of the name).
func TestReview_Fix11bUnknownArgumentNameIsEchoedWithoutBound(t *testing.T) {
	fast, _ := newHTTPServer(t)
	sdk, _ := newHTTPServer(t, mcpserver.WithoutFastPath())
	key := strings.Repeat("<", 256<<10)
	const bound = 64 << 10
	for _, tc := range []struct{ name, body string }{
		{"tool", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"` + key + `":"x"}}}`},
		{"prompt", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"explain_company","arguments":{"id":"923609016","` + key + `":"x"}}}`},
	} {
		for door, url := range map[string]string{"fast path": fast.URL, "SDK path": sdk.URL} {
			_, b := post(t, url+"/mcp", tc.body, nil)
			if diff := cmp.Diff(true, len(b) <= bound); diff != "" {
				t.Errorf("%s (%s): a %d-byte request got a %d-byte answer, over %d (-want +got):\n%s", tc.name, door, len(tc.body), len(b), bound, diff)
			}
		}
	}
}
