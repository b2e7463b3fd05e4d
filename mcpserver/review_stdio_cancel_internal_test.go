package mcpserver

import (
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioCancelMatchesSDK (from the review of the second pass,
// branch rev-p2mcp; the "fast" call is now a plain line that stdioIn
// passes to the SDK, which alone handles every cancellation: stdioIn has
// no call of its own in flight, ever). The second pass's stdioIn said "A notifications/cancelled
// for a call cancels its context, as the SDK would" (stdiofast.go). The SDK
// decodes the notification's params with its own case-sensitive decoder and
// turns requestId into an ID with jsonrpc2.MakeID, so a number is the
// integer it truncates to (5.0, 5e0 cancel the call with id 5) and a string
// is compared after unescaping; it handles the notification on any value
// it reads, on one line or not, in a batch, after any other value
// (mcp/transport.go canceller.Preempt). stdioIn compares the raw bytes of
// requestId, decodes the params with encoding/json (whose field match
// ignores case), compares the method's raw bytes, and looks only at a
// whole line while it is still on. Each case checks the call's context
// once the ping sent after the notification is answered: by then stdioIn
// has handled the notification (it does so before the SDK reads it), and
// the SDK has (asynchronously: the SDK's side waits for it).
func TestReview_StdioCancelMatchesSDK(t *testing.T) {
	t.Parallel()
	cancel := func(params string) string {
		return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":` + params + `}`
	}
	cases := []struct {
		name      string
		id        string
		before    []string // sent (each a ping with id 7, answered) before the notification
		notify    string
		cancelled bool // what the SDK does with its own call
	}{
		{name: "requestId 5.0", id: "5", notify: cancel(`{"requestId":5.0}`), cancelled: true},
		{name: "requestId 5e0", id: "5", notify: cancel(`{"requestId":5e0}`), cancelled: true},
		{name: "requestId escaped string", id: `"ab"`, notify: cancel(`{"requestId":"a\u0062"}`), cancelled: true},
		{name: "method escaped", id: "5", notify: `{"jsonrpc":"2.0","method":"notifications\/cancelled","params":{"requestId":5}}`, cancelled: true},
		{name: "in a batch", id: "5", notify: "[" + cancel(`{"requestId":5}`) + "]", cancelled: true},
		{name: "after a value over two lines", id: "5", before: []string{"{\"jsonrpc\":\"2.0\",\n\"id\":7,\"method\":\"ping\"}"},
			notify: cancel(`{"requestId":5}`), cancelled: true},
		{name: "line over 64 KiB", id: "5", notify: cancel(`{"requestId":5,"reason":"` + strings.Repeat("x", 70<<10) + `"}`), cancelled: true},
		{name: "RequestID in another case", id: "5", notify: cancel(`{"RequestID":5}`), cancelled: false},
	}
	for _, c := range cases {
		for _, fast := range []bool{false, true} {
			path := "sdk"
			if fast {
				path = "fast"
			}
			t.Run(c.name+"/"+path, func(t *testing.T) {
				t.Parallel()
				r := startReviewStdio(t, true)
				ctx := r.startCall(t, c.id, fast)
				for _, b := range c.before {
					r.send(t, b)
					r.readID(t, "7")
				}
				r.send(t, c.notify)
				r.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
				r.readID(t, "6")
				// The SDK runs the call either way and handles the
				// notification asynchronously: wait for it (the second
				// pass's stdioIn cancelled its own call at once).
				switch {
				case c.cancelled:
					testwait.Until(t, "the SDK cancels its call", func() bool { return ctx.Err() != nil })
				case ctx.Err() != nil:
					t.Errorf("%.80s cancelled the call %s (path %s); the SDK alone does not", c.notify, c.id, path)
				}
			})
		}
	}
}
