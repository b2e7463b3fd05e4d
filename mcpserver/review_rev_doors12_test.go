package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Doors12UnknownNamesAreNotPersonalNumbers (rev-doors12):
// doors12 made ops.Quote the one rule for a caller's value in an error
// ("personal data is never part of an error, not even the caller's
// own") for unknown argument names, and listed what it left
// (change monitoring's quotes). A caller's unknown tool name, prompt
// name and resource URI are still echoed on the wire by the SDK's own
// errors (unknown tool "810105-2382"; the URI in the error's data), and
// the decision does not name them. Each answer here must not carry the
// number. (An unknown method is echoed too, in the transport's plain-text
// 400; not asserted here.)
func TestReview_Doors12UnknownNamesAreNotPersonalNumbers(t *testing.T) {
	t.Parallel()
	srv, _ := newHTTPServer(t)
	const pnr = "810105-2382"
	echoes := map[string]bool{}
	want := map[string]bool{}
	for name, body := range map[string]string{
		"tool":     `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + pnr + `","arguments":{}}}`,
		"prompt":   `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"` + pnr + `"}}`,
		"resource": `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://` + pnr + `"}}`,
	} {
		_, b := post(t, srv.URL+"/mcp", body, nil)
		echoes[name] = strings.Contains(string(b), pnr)
		want[name] = false
		if echoes[name] {
			t.Logf("%s: %s", name, b)
		}
	}
	if diff := cmp.Diff(want, echoes); diff != "" {
		t.Errorf("answers that carry %s (-want +got):\n%s", pnr, diff)
	}
}
