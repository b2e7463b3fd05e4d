package mcpserver

import (
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_DrainRestOfSessionNotWaited (rev-drain): the docs of the
// change say less than what is not waited for at the end of the input.
// CHANGELOG (Unreleased/Fixed): "Requests inside a batch or a value over
// several lines are not waited for"; ServeIO's doc: "A request it cannot
// tell apart in the stream (inside a batch, a value over several lines,
// after a line that is not one JSON-RPC request or notification)". In
// fact one such line turns the counting off for the rest of the session
// (stdioIn.off), so every later plain request is not waited for either
// (not in the CHANGELOG); and a single request on one line longer than
// stdioReadSize (64 KiB) does the same, though it is "one JSON-RPC
// request" on its own line, which the SDK reads and answers (in none of
// ServeIO's doc, the CHANGELOG or doc/decisions.md's "Not covered" list).
// Each case writes such a line, then a plain call (id 7), then closes
// the input: the call's answer, owed, is dropped.
//
// Fixed (branch stdio-ids): a line is kept up to the SDK's own bound on a
// message (16 MiB), a batch's requests are counted and its answer read
// (TestStdioDrainBatch), and a client's response is read as the SDK reads
// it; after each of them stdioIn counts on.
func TestReview_DrainRestOfSessionNotWaited(t *testing.T) {
	t.Parallel()
	const call7 = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`
	cases := []struct {
		name   string
		line   string
		answer bool // the SDK answers line with one line
	}{
		{"a ping over 64 KiB", `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"_meta":{"pad":"` +
			strings.Repeat("x", stdioReadSize) + `"}}}`, true},
		{"a batch (before 2025-06-18)", `[{"jsonrpc":"2.0","id":"b1","method":"ping"}]`, true},
		{"a response of the client's", `{"jsonrpc":"2.0","id":99,"result":{}}`, false},
	}
	for _, c := range cases {
		for _, front := range []bool{false, true} {
			waiting := make(chan struct{})
			r := startReviewStdioWith(t, front, drainWatch(nil, waiting))
			r.send(t, c.line)
			if c.answer {
				lines := make(chan string, 1)
				go func() {
					l, _ := r.out.ReadString('\n')
					lines <- l
				}()
				if l := testwait.Recv(t, lines, "the answer to the line"); !strings.Contains(l, `"result":{}`) {
					t.Fatalf("%s: answered %q", c.name, l)
				}
			}
			r.send(t, call7)
			ctx := testwait.Recv(t, r.calls, "the call of review_block")
			_ = r.in.Close()
			select {
			case <-waiting:
				close(r.release)
				got := r.readRest(t)
				if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], `{"jsonrpc":"2.0","id":7,`) {
					t.Errorf("%s, front %v: no answer to call 7 after the end of the input: %q", c.name, front, got)
				}
			case <-ctx.Done():
				t.Errorf("%s, front %v: call 7, a plain request read before the end of the input after %s, was not waited for: the SDK cancelled it (%v) and its answer is dropped",
					c.name, front, c.name, ctx.Err())
			case <-testwait.Expired(t):
				t.Fatalf("%s, front %v: neither waited nor cancelled", c.name, front)
			}
		}
	}
}
