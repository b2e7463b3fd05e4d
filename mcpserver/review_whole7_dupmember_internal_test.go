package mcpserver

import (
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_DuplicateMemberLineStopsWaiting (rev-whole7): memberCount in
// parseMessage (rev-last7/rev-end7, for the fast paths) also makes
// plainLine refuse a request the SDK reads and answers: a ping whose
// jsonrpc member is given twice, both "2.0" (go-sdk v1.8.0 decodes each
// occurrence; both are right). The line turns the counting off for the
// rest of the session, so a plain call after it, read before the end of
// the input, is not waited for and its answer is dropped. ServeIO's doc
// says "Every request the SDK answers is waited for" and lists what is
// not; a member name given twice is not in that list.
func TestReview_DuplicateMemberLineStopsWaiting(t *testing.T) {
	t.Parallel()
	const call7 = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`
	line := `{"jsonrpc":"2.0","jsonrpc":"2.0","id":"dup","method":"ping"}`
	for _, front := range []bool{false, true} {
		waiting := make(chan struct{})
		r := startReviewStdioWith(t, front, drainWatch(nil, waiting))
		r.send(t, line)
		lines := make(chan string, 1)
		go func() {
			l, _ := r.out.ReadString('\n')
			lines <- l
		}()
		if l := testwait.Recv(t, lines, "the answer to the ping"); !strings.Contains(l, `"result":{}`) {
			t.Fatalf("front %v: the SDK did not answer the ping with a repeated member: %q", front, l)
		}
		r.send(t, call7)
		ctx := testwait.Recv(t, r.calls, "the call of review_block")
		_ = r.in.Close()
		select {
		case <-waiting:
			close(r.release)
			got := r.readRest(t)
			if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], `{"jsonrpc":"2.0","id":7,`) {
				t.Errorf("front %v: no answer to call 7 after the end of the input: %q", front, got)
			}
		case <-ctx.Done():
			t.Errorf("front %v: call 7, read before the end of the input after a ping the SDK answered (a member given twice), was not waited for: cancelled (%v), its answer dropped", front, ctx.Err())
		case <-testwait.Expired(t):
			t.Fatalf("front %v: neither waited nor cancelled", front)
		}
	}
}
