package mcpserver

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// reviewPings is the number of pings writeAnsweredPings writes: one more
// than the watch record held when these proofs were written (16); since
// maxWatched is 65,536 they no longer overflow it (the lead, after
// rev-last8: TestStdioPartsBeyondMaxWatchedWaits has the bound's case).
const reviewPings = 17

// writeAnsweredPings writes, as parts of one line (no newline),
// reviewPings pings, reading the answer of each before the next: the
// answers overflowed sdkIDs' watch record of 16 (sdkIDs.overflow, 107151c).
func (r *reviewStdio) writeAnsweredPings(t *testing.T) {
	t.Helper()
	for i := 1; i <= reviewPings; i++ {
		id := strconv.Itoa(100 + i)
		r.writePart(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		r.readID(t, id) // answered before the line's newline
	}
}

// reviewBlockCall is a call of review_block with id 300, which the SDK
// runs (not a stdioFastTool) until its context ends.
const reviewBlockCall = `{"jsonrpc":"2.0","id":300,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`

// TestReview_StdioPartsOverflowDropsLastLineCall (rev-last8): since
// 107151c a line in parts whose uncounted answers overflow the watch
// record is not counted at all (addValues returns false before counting
// any value), so a value of that line the SDK has taken and not yet
// answered is not waited for at the end of the input: its answer is lost.
// Here the input ends without a newline after 17 answered pings and a call
// of review_block running in the SDK; drain counts the last line
// (midLine && !off), countLine is false, nothing is owed, and the drain
// does not wait (before 107151c it waited for 2: the call and the 17th
// ping, answered already). The SDK owes exactly one answer: the call's.
func TestReview_StdioPartsOverflowDropsLastLineCall(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	r.writeAnsweredPings(t)
	r.writePart(t, reviewBlockCall)
	testwait.Recv(t, r.calls, "the call of review_block") // the SDK took it
	_ = r.in.Close()                                      // no newline: drain counts the line
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}

// TestReview_StdioPartsOverflowStopsCountingForEver (rev-last8): the
// overflow of one line sets stdioIn.off for the rest of the session
// (passLine: countLine false), so no later line is counted either: a call
// on a later, ordinary line, running in the SDK when the input ends, is
// not waited for and its answer is lost (and stdioIn answers nothing more
// in front). The overflowed line is well formed and the SDK reads it
// whole; only its own values are in doubt. The SDK owes one answer, the
// call's.
func TestReview_StdioPartsOverflowStopsCountingForEver(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	r.writeAnsweredPings(t)
	r.writePart(t, "\n")
	r.send(t, reviewBlockCall)
	testwait.Recv(t, r.calls, "the call of review_block") // the SDK took it
	_ = r.in.Close()
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}

// TestStdioPartsBeyondMaxWatchedWaits: a line in parts of more values than
// the watch record holds (maxWatched), each answered before its newline,
// and a call the SDK takes after them: no answer is lost. The value whose
// answer was not recorded is counted as owed at the end of the input, so
// the drain waits (stdioDrainMax, made to pass at once here) for it and
// the call: 2 owed where the SDK owes 1, a wait rather than a lost answer
// (rev-last8: turning counting off at the bound lost the call's answer).
func TestStdioPartsBeyondMaxWatchedWaits(t *testing.T) {
	if testing.Short() {
		t.Skip("65,537 pings: not with -short")
	}
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	for i := 1; i <= maxWatched+1; i++ {
		id := strconv.Itoa(100 + i)
		r.writePart(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		r.readID(t, id)
	}
	r.writePart(t, reviewBlockCall)
	testwait.Recv(t, r.calls, "the call of review_block")
	_ = r.in.Close() // no newline: drain counts the line
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(2, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-want +got):\n%s", diff)
	}
}
