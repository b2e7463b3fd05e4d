package mcpserver

import (
	"strconv"
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_SDKIDsKeyBytesUnbounded (rev-ids7, P2): the task (stdio-ids)
// says "Keep the owed table bounded as it is now". Before the change a key
// of sdkIDs was an id the fast paths take (isFastID: at most 66 bytes), so
// the table held at most maxSDKIDs × 66 bytes (~270 KB); now any string id
// is a key (idKey), up to the SDK's 16 MiB line, so the same 4,096 entries
// may hold 64 GiB. An entry stays after the SDK has let go of its request
// when a request reuses the id of one in flight (the SDK refuses it
// unanswered, jsonrpc2 acceptRequest; sdkIDs keeps counting it, as its doc
// says): here four ids of 1 MiB each, each sent twice while its first call
// runs, leave 4 MiB of keys in the table once every answer is written.
func TestReview_SDKIDsKeyBytesUnbounded(t *testing.T) {
	t.Parallel()
	r := startReviewStdio(t, false)
	const k = 4
	ids := make([]string, k)
	for i := range ids {
		id := `"` + strconv.Itoa(i) + strings.Repeat("x", 1<<20) + `"`
		ids[i] = id
		line := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`
		r.send(t, line)
		testwait.Recv(t, r.calls, "the call of review_block")
		r.send(t, line) // refused by the SDK: its first call runs
		r.send(t, `{"jsonrpc":"2.0","id":"after`+strconv.Itoa(i)+`","method":"ping"}`)
		r.readID(t, `"after`+strconv.Itoa(i)+`"`)
	}
	close(r.release)
	for range ids { // the k answers, in any order
		lines := make(chan string, 1)
		go func() {
			l, _ := r.out.ReadString('\n')
			lines <- l
		}()
		if l := testwait.Recv(t, lines, "an answer of review_block"); !strings.Contains(l, "released") {
			t.Fatalf("answered %.100q", l)
		}
	}
	// The SDK's answers are counted once their write returned.
	testwait.Until(t, "every answer counted", func() bool {
		r.ids.mu.Lock()
		defer r.ids.mu.Unlock()
		for _, id := range ids {
			if r.ids.n[slot(id)].n != 1 {
				return false
			}
		}
		return true
	})
	r.ids.mu.Lock()
	held := 0
	for key := range r.ids.n {
		held += len(key)
	}
	entries := len(r.ids.n)
	r.ids.mu.Unlock()
	if bound := maxSDKIDs * 66; held > bound {
		t.Errorf("with every answer written, sdkIDs holds %d entries of %d bytes of ids in all, above the %d bytes it could hold before stdio-ids (maxSDKIDs × 66); at %d entries of 16 MiB it would hold %d GiB",
			entries, held, bound, maxSDKIDs, maxSDKIDs*16/1024)
	}
}
