package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StdioPartsBatchTakesLaterValuesAnswer (rev-fin8b): addValues
// takes a batch as answered when any of its ids is in the line's record,
// but the record holds the answers of every value of the line, and a value
// after the batch may reuse an id of the batch once the SDK has answered
// that request inside the batch (mcp ioConn.updateBatch and jsonrpc2 drop
// the id before the batch's answer is written). Here a line in parts holds
// a batch of initialize 1 (handled in order, so answered inside the batch
// before the call runs) and a call of review_block 2, then a ping 1 the SDK
// takes and answers. At the newline the ping's recorded answer is used up
// by the batch, which is taken as answered though its answer (the call's)
// is still owed, and the ping is counted as owing the answer it has. A
// ping 1 on the next line, which the SDK takes, settles that stale count:
// at the end of the input nothing is owed, the drain does not wait, and
// the batch's answer is lost. (The same before bbba1f4: slices.ContainsFunc
// took id 1 too.)
func TestReview_StdioPartsBatchTakesLaterValuesAnswer(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	r.writePart(t, `[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}},`+
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"review_block","arguments":{}}}]`)
	// initialize is handled synchronously: once the call runs, the SDK has
	// answered it inside the batch and dropped id 1.
	testwait.Recv(t, r.calls, "the call of review_block")
	r.writePart(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	r.readID(t, "1")                                      // the ping's answer, written on its own
	r.writePart(t, "\n")                                  // the line ends: counted
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`) // id 1 is free in the SDK
	r.readID(t, "1")
	testwait.Until(t, "the second ping's answer counted", func() bool {
		r.ids.mu.Lock()
		defer r.ids.mu.Unlock()
		e := r.ids.n["1"]
		return e.n == 1 && e.writing == 0
	})
	_ = r.in.Close()
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	// Owed: the batch's answer (ids 1 and 2), of which the second ping's
	// answer settles id 1's count: one.
	if diff := cmp.Diff(1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}

// TestReview_StdioPartsBatchUsesUpAnotherValuesAnswer (rev-fin8b): since
// bbba1f4 an answered batch uses up the record of each of its ids, also of
// an id whose answer in the batch was not recorded (it settled a count
// left by a refused duplicate: answering marks it, not recorded), so that
// it uses up the answer of a later value of the line reusing the id. That
// value is then counted as owing an answer written already: the drain
// waits stdioDrainMax (65 s) at the end of the input. Before bbba1f4 the
// batch used up one id (the first recorded, 6) and the ping was taken as
// answered. Here: a call 5 running, a ping 5 refused (counted, stays), the
// call released; then a line in parts of a batch [ping 6, ping 5] and a
// ping 5, both answered before the end of the input.
func TestReview_StdioPartsBatchUsesUpAnotherValuesAnswer(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	r.startCall(t, "5", true)
	r.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`) // a duplicate: the SDK refuses it unanswered
	r.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`) // read after it
	r.readID(t, "7")
	close(r.release)
	r.readID(t, "5")
	testwait.Until(t, "the call's answer counted", func() bool {
		r.ids.mu.Lock()
		defer r.ids.mu.Unlock()
		return r.ids.n["5"].writing == 0 && r.ids.owed == 0
	})
	r.ids.mu.Lock()
	stale := r.ids.n["5"]
	r.ids.mu.Unlock()
	if diff := cmp.Diff(idCount{n: 1, dups: 1}, stale, cmp.AllowUnexported(idCount{})); diff != "" {
		t.Fatalf("the refused duplicate's count (-want +got):\n%s", diff)
	}
	r.writePart(t, `[{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]`)
	if _, err := r.out.ReadString('\n'); err != nil { // the batch's answer
		t.Fatal(err)
	}
	r.writePart(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	r.readID(t, "5")
	// Since rev-parts9 the ping 5 owes its answer (the id was counted only
	// for the refused duplicate) and the counting goes on after the batch:
	// wait until its answer, read, is counted, or the drain may find it
	// still being written.
	r.answersCounted(t)
	_ = r.in.Close() // no newline: its values were counted as their parts were passed on
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(-1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: none owed, it did not wait; every answer was written) (-want +got):\n%s", diff)
	}
}
