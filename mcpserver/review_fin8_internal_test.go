package mcpserver

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioPartsBatchLeavesIDsTaken (rev-fin8): addValues' took
// uses up one recorded answer of a batch (slices.ContainsFunc stops at
// the first key found), so the batch's other ids stay in the record of the
// line and a later value of the same line reusing one of them is taken as
// answered. Here a line in parts holds a batch of pings 1 and 2 (answered,
// both recorded) and then a call of review_block with id 2 that the SDK
// takes (id 2 is free once the batch's answer is out) and runs when the
// input ends without a newline: the drain should wait for the call (1
// owed) but counts nothing, and the call's answer is lost.
func TestReview_StdioPartsBatchLeavesIDsTaken(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	r.writePart(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	l, err := r.out.ReadString('\n') // the batch's answer
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("batch answer: %s", l)
	r.writePart(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`)
	testwait.Recv(t, r.calls, "the call of review_block") // the SDK took it
	r.answersCounted(t)
	_ = r.in.Close() // no newline: its values were counted as their parts were passed on
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}

// TestReview_StdioPartsBeyondMaxWatchedLosesReuse (rev-fin8): the answer
// beyond maxWatched is not recorded, so its value is counted at the
// newline (n 1, owed 1) though the SDK has answered it: a stale count,
// as a refused duplicate leaves. A later ping reusing that id is then
// counted as owing nothing (n != writing) but the SDK takes it, and its
// answer settles the stale owed answer; a call reusing the id next also
// owes nothing, the SDK takes and runs it, and at the end of the input the
// drain does not wait: its answer is lost, not "a wait, never a lost
// answer" (decisions.md, maxWatched's doc).
func TestReview_StdioPartsBeyondMaxWatchedLosesReuse(t *testing.T) {
	// Open until stdio-parts, which counts each value as the part completing
	// it is passed on: there is no record left to overflow.
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	for i := 1; i <= formerMaxWatched+1; i++ {
		id := strconv.Itoa(100 + i)
		r.writePart(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		r.readID(t, id)
	}
	r.writePart(t, "\n")
	last := strconv.Itoa(100 + formerMaxWatched + 1)
	r.send(t, `{"jsonrpc":"2.0","id":`+last+`,"method":"ping"}`) // busy: the SDK's, and it takes it
	r.readID(t, last)
	testwait.Until(t, "the reused ping's answer counted", func() bool {
		r.ids.mu.Lock()
		defer r.ids.mu.Unlock()
		return r.ids.n[last].writing == 0 && r.ids.owed == 0
	})
	r.send(t, `{"jsonrpc":"2.0","id":`+last+`,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`)
	testwait.Recv(t, r.calls, "the call of review_block") // the SDK took it
	_ = r.in.Close()
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}
