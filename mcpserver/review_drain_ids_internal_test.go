package mcpserver

import (
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_DrainDropsAnswerOfSpecConformingID (rev-drain): the MCP spec
// (basic/index, Requests: "Requests MUST include a string or integer ID")
// and JSON-RPC 2.0 allow any string id, and the SDK answers it. stdioIn
// counts for the end of the input only the ids its fast paths take
// (isFastID: up to 64 of [A-Za-z0-9_.:-], integers of up to 15 digits);
// any other id is "a line stdioIn cannot vouch for": it is not counted,
// and the counting stops for the rest of the session (off). So a client
// using ids such as "req/1", "call 1", base64 or a UUID in braces, after
// writing its requests and closing stdin, gets none of the answers still
// being worked on — of that request and of every later one: the SDK reads
// the end of the input at once and cancels them, as before the change.
// ServeIO's doc names only "a request it cannot tell apart in the stream
// (inside a batch, a value over several lines, after a line that is not
// one JSON-RPC request or notification)", and doc/decisions.md says "A
// well-behaved client sends none of these".
//
// Fixed (branch stdio-ids): stdioIn counts any id the SDK reads, under the
// id as the SDK writes it back (idKey), and counts on after it.
func TestReview_DrainDropsAnswerOfSpecConformingID(t *testing.T) {
	t.Parallel()
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`
	}
	cases := []struct {
		name   string
		before []string // lines sent before the call, answered at once
		ids    []string // their ids, as written
		id     string   // the call's id, as written
	}{
		{"slash", nil, nil, `"req/1"`},
		{"space", nil, nil, `"call 1"`},
		{"base64", nil, nil, `"q+2/Zg=="`},
		{"65 chars", nil, nil, `"` + strings.Repeat("a", 65) + `"`},
		{"16 digits", nil, nil, `1234567890123456`},
		// An earlier request with such an id ends the counting: a later
		// plain call, id 7, is not waited for either.
		{"after a ping with id req/1", []string{`{"jsonrpc":"2.0","id":"req/1","method":"ping"}`}, []string{`"req/1"`}, `7`},
	}
	for _, c := range cases {
		for _, front := range []bool{false, true} {
			waiting := make(chan struct{})
			r := startReviewStdioWith(t, front, drainWatch(nil, waiting))
			for i, l := range c.before {
				r.send(t, l)
				r.readID(t, c.ids[i])
			}
			r.send(t, call(c.id))
			ctx := testwait.Recv(t, r.calls, "the call of review_block")
			_ = r.in.Close()
			select {
			case <-waiting: // the answer is waited for
				close(r.release)
				got := r.readRest(t)
				want := `{"jsonrpc":"2.0","id":` + c.id + `,`
				if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], want) {
					t.Errorf("%s, front %v: no answer to the call after the end of the input: %q", c.name, front, got)
				}
			case <-ctx.Done():
				// The SDK read the end of the input and cancelled the call:
				// its answer, owed, is dropped.
				t.Errorf("%s, front %v: the call with id %s was read before the end of the input, but ServeIO did not wait for its answer: the SDK cancelled it (%v) and writes nothing",
					c.name, front, c.id, ctx.Err())
			case <-testwait.Expired(t):
				t.Fatalf("%s, front %v: neither waited nor cancelled", c.name, front)
			}
		}
	}
}
