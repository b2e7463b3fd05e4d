package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_StdioPartsIDReusedWhileItsAnswerWritten (rev-end8, fix-stdio8):
// the variant of rev-stdio8's reuse after the answer for a line passed in
// parts. The SDK answers such a request once its value is complete, before
// stdioIn has seen its newline and counted it, so sdkWriter.Write's mark
// finds the id not counted (markNone). stdioIn then counts the line
// (addPart: owed, n 0 -> 1) and, while the write has not returned, the
// client, which has read the answer, sends a new call with the same id:
// the SDK has dropped the id and takes it, but addLocked sees n=1,
// writing=0 and records it as owing nothing. The first write's answered
// (markNone) then settles the first request's owed answer, owed comes to 0
// and, at the end of the input, the drain does not wait for the second
// call, which the SDK cancels: its answer is lost. decisions.md ("An id
// reused after its answer ... fixed", "Still not handled") does not name
// this case.
func TestReview_StdioPartsIDReusedWhileItsAnswerWritten(t *testing.T) {
	// Since stdio-parts a value of a line in parts is counted as the part
	// completing it is passed on (stdioIn.countParts), before the SDK can
	// read and answer it, as a whole line is: the count precedes the mark.
	c := newSDKIDs()
	c.add("1", true)              // the part completing the value: counted, owed
	m := c.answering([]byte("1")) // the SDK answers it before its newline
	c.add("1", true)              // the client has the answer and reuses 1: the SDK takes it
	c.answered([]byte("1"), m)    // the first answer's write returns
	settled := false
	select {
	case <-c.settled():
		settled = true
	default:
	}
	c.mu.Lock()
	owed := c.owed
	c.mu.Unlock()
	type state struct {
		Owed    int
		Settled bool
	}
	// The second call is in the SDK and owes its answer.
	if diff := cmp.Diff(state{1, false}, state{owed, settled}); diff != "" {
		t.Errorf("after the first answer, with the reused id's call in the SDK (-want +got):\n%s", diff)
	}
}
