package mcpserver

import (
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// drainRecord returns a drainTimer that records, when drain starts to
// wait, how many answers sdkIDs still owes, and lets the bound pass at
// once (so that the test does not wait stdioDrainMax); owed reports what
// it recorded (-1: drain did not wait).
func drainRecord() (set func(*stdioIn), owed func() int) {
	var mu sync.Mutex
	got := -1
	set = func(s *stdioIn) {
		s.drainTimer = func() (<-chan time.Time, func() bool) {
			s.ids.mu.Lock()
			n := s.ids.owed
			s.ids.mu.Unlock()
			mu.Lock()
			got = n
			mu.Unlock()
			bound := make(chan time.Time)
			close(bound)
			return bound, func() bool { return true }
		}
	}
	return set, func() int {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// answersCounted waits until no answer of the SDK's is being written:
// every answer read from the output has been counted (sdkIDs.answered).
// An answer owed settles only once its write returns, a little after the
// client has it, so a test that reads an answer and ends the input at
// once would find it still owed when the drain starts (rightly: the drain
// waits for that write). Since stdio-parts the values of lines in parts
// are counted before the SDK answers them, as whole lines, and so their
// answers settle that way too.
func (r *reviewStdio) answersCounted(t *testing.T) {
	t.Helper()
	testwait.Until(t, "every answer written counted", func() bool {
		r.ids.mu.Lock()
		defer r.ids.mu.Unlock()
		for _, e := range r.ids.n {
			if e.writing > 0 {
				return false
			}
		}
		return true
	})
}

// writePart writes b to the input without a newline: a part of a line.
func (r *reviewStdio) writePart(t *testing.T, b string) {
	t.Helper()
	if _, err := io.WriteString(r.in, b); err != nil {
		t.Fatal(err)
	}
}

// TestReview_StdioPartsLineOfManyValuesOverflowsWatch (rev-whole8): a line
// passed on in parts that holds more values than maxWatched (16), each
// answered by the SDK before the line's newline, leaves an answer owed for
// ever. answering records an uncounted id while watching only while
// sdkIDs.unknown has room; the 17th answer is not recorded, so addValues
// counts its request at the newline (n == writing == 0: owed), and since
// 3f65b36 an answer not marked counts against nothing, so nothing settles
// it (before 3f65b36 it was settled only when the count fell inside the
// answer's write). At the end of the input the drain waits stdioDrainMax
// (65 s) for an answer the client already has. The SDK reads such a line
// whole: each value ends a read (ioConn's trailing-data check sees an
// empty buffer). Fix (suggested): when unknown is full, stop counting the
// line (countLine false: stdioIn.off), or bound unknown by the line's
// values instead of 16.
func TestReview_StdioPartsLineOfManyValuesOverflowsWatch(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	const values = 17 // one more than the record held then (gone since stdio-parts)
	for i := 1; i <= values; i++ {
		id := strconv.Itoa(100 + i)
		r.writePart(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		r.readID(t, id) // answered before the line's newline
	}
	r.writePart(t, "\n")
	r.answersCounted(t)
	_ = r.in.Close()
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	// Every request has its answer: the drain has nothing to wait for.
	if diff := cmp.Diff(-1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}

// TestReview_StdioPartsRefusedDuplicateOwedForEver (rev-whole8): a value
// of a line in parts that reuses the id of a call in flight is refused by
// the SDK without an answer (jsonrpc2 acceptRequest), as
// TestStdioDrainDuplicateID has it for a whole line; but stdioIn counts a
// line in parts only at its newline, with the table as it is then: once
// the first call's answer is being written or written (n == writing), the
// refused value is counted as owing its answer, which never comes, and the
// drain waits stdioDrainMax (65 s). Here the line is
// `{id 5 ping}{id 7 ping}\n`, its values in separate reads; the answer to
// 7 proves the SDK handled (refused) the 5 first, and the first 5 (a call
// of review_block) is released and answered before the newline. Both
// before and after 3f65b36. Fix (suggested): a value of a line in parts
// whose id was counted and not being written when its part was passed on
// owes nothing (record the busy ids at passPart).
func TestReview_StdioPartsRefusedDuplicateOwedForEver(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	r.startCall(t, "5", true) // in flight in the SDK
	r.writePart(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	r.writePart(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	r.readID(t, "7") // the SDK has read the 5 before the 7: refused, in use
	close(r.release)
	r.readID(t, "5") // the first call's answer
	r.writePart(t, "\n")
	r.answersCounted(t)
	_ = r.in.Close()
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if diff := cmp.Diff(-1, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}
