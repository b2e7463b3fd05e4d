package mcpserver

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// reviewPings is the number of pings writeAnsweredPings writes: one more
// than the watch record held when these proofs were written (16); the
// record was then grown to formerMaxWatched, and is gone since
// stdio-parts (each value is counted as the part completing it is passed
// on).
const reviewPings = 17

// formerMaxWatched is the most answers the watch record of a line in parts
// held before stdio-parts removed it (maxWatched): the proofs of its bound
// write one value more.
const formerMaxWatched = 1 << 16

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
	r.answersCounted(t)
	_ = r.in.Close() // no newline: its values were counted as their parts were passed on
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
	r.answersCounted(t)
	_ = r.in.Close()
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}

// TestStdioPartsBeyondMaxWatchedOwesOnlyTheCall: a line in parts of more
// values than the watch record held (formerMaxWatched), each answered
// before its newline, and a call the SDK takes after them: the drain waits
// for the call's answer only. With the record, the value whose answer was
// not recorded was counted as owed at the end of the input (2 owed, a
// wait of stdioDrainMax); since stdio-parts each value is counted before
// the SDK reads it, and its answer settles it.
func TestStdioPartsBeyondMaxWatchedOwesOnlyTheCall(t *testing.T) {
	if testing.Short() {
		t.Skip("65,537 pings: not with -short")
	}
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	for i := 1; i <= formerMaxWatched+1; i++ {
		id := strconv.Itoa(100 + i)
		r.writePart(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		r.readID(t, id)
	}
	r.writePart(t, reviewBlockCall)
	testwait.Recv(t, r.calls, "the call of review_block")
	r.answersCounted(t)
	_ = r.in.Close() // no newline: its values were counted as their parts were passed on
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-want +got):\n%s", diff)
	}
}
