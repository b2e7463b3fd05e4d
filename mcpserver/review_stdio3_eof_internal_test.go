package mcpserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioEOFDropsAnswersTheSDKWrites: a client writes N calls
// and closes stdin before it reads its output (a pipe nobody reads yet).
// The SDK alone writes the answer of every call whose handler reached its
// write before EOF (jsonrpc2 processResult: the shuttingDown check is in
// Connection.write, before ioConn.Write waits for its lock; Run waits
// until those writes are done, as the connection is not idle before), so
// the client gets all N. stdioIn has answered every one of them inside
// Read, before the Read that returns EOF, but stdioOut.stop drops those
// still queued: the client gets only the one being written. The claim
// "the SDK, once its session is over, writes no more answers" does not
// cover answers of calls finished before the SDK saw EOF, which the SDK
// does write.
func TestReview_StdioEOFDropsAnswersTheSDKWrites(t *testing.T) {
	// Not parallel: testwait.Blocked counts the goroutines of the process.
	const n = 4
	answers := func(front bool) []string {
		r := startReviewStdio(t, front)
		for i := range n {
			r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_countries"}}`, 10+i))
		}
		if front {
			// Every call answered in front, one being written.
			testwait.Until(t, "stdioIn has answered the calls", func() bool {
				r.stdio.out.mu.Lock()
				defer r.stdio.out.mu.Unlock()
				return len(r.stdio.out.queue) == n-1
			})
		} else {
			// Every handler past the shuttingDown check: one writing, the
			// others waiting for ioConn's lock.
			testwait.Blocked(t, "github.com/modelcontextprotocol/go-sdk/mcp.(*ioConn).Write", n-1)
		}
		_ = r.in.Close()
		if front {
			// Read once ServeIO has stopped the writer (its Run has
			// returned, stdioOut.stop waits for the answer being written),
			// so that what is read does not depend on the reader's speed.
			testwait.Recv(t, r.sdkDone, "the SDK's Run to return after EOF")
			testwait.Blocked(t, "github.com/companyregistry/registry/mcpserver.(*stdioOut).stop", 1)
		}
		var ids []string
		for {
			l, err := r.out.ReadString('\n')
			if l != "" {
				id, _, _ := strings.Cut(strings.TrimPrefix(l, `{"jsonrpc":"2.0","id":`), ",")
				ids = append(ids, id)
			}
			if err != nil {
				break
			}
		}
		slices.Sort(ids) // the SDK writes concurrent answers in any order
		return ids
	}
	want := answers(false)
	if len(want) != n {
		t.Fatalf("the SDK alone wrote %d answers, want %d: %v", len(want), n, want)
	}
	if diff := cmp.Diff(want, answers(true)); diff != "" {
		t.Errorf("ids of the answers written after the client closed stdin (-sdk +stdioIn):\n%s", diff)
	}
}
