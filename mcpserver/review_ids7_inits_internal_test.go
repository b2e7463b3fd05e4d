package mcpserver

import (
	"strconv"
	"strings"
	"testing"
)

// TestReview_InitsKeepEveryInitializeID (rev-ids7, P2): stdioIn.inits
// ("ids of initialize requests the SDK may not have answered") gets the
// key of every initialize request passed on (passLine) and is trimmed only
// by initialized(), which only answer() calls, for a tools/call of a fast
// tool. Without the fast path (WithoutFastPath, or a Registry whose cache
// is not the memory cache) or with no such call, it is never trimmed:
// every initialize request's id is kept for the rest of the session, long
// after the SDK answered it. Before stdio-ids such a key was an id the
// fast paths take (at most 66 bytes); now it is any string id (idKey), up
// to the SDK's 16 MiB line, so each initialize line keeps about its own
// size in memory: here eight initialize requests with ids of 256 KiB, all
// answered, leave 2 MiB of ids in stdioIn.
func TestReview_InitsKeepEveryInitializeID(t *testing.T) {
	t.Parallel()
	r := startReviewStdio(t, false)
	const k = 8
	for i := range k {
		id := `"` + strconv.Itoa(i) + strings.Repeat("i", 256<<10) + `"`
		r.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		r.send(t, `{"jsonrpc":"2.0","id":"after`+strconv.Itoa(i)+`","method":"ping"}`)
		r.readID(t, `"after`+strconv.Itoa(i)+`"`) // the initialize was answered before
	}
	// The reader waits for input now: its state was written before the
	// last answer came through the pipes.
	held := 0
	for _, key := range r.stdio.inits {
		held += len(key)
	}
	if bound := maxSDKIDs * 66; held > bound {
		t.Errorf("with every initialize answered, stdioIn keeps %d ids of initialize requests, %d bytes in all (above %d, maxSDKIDs × 66), and one more per initialize request",
			len(r.stdio.inits), held, bound)
	}
}
