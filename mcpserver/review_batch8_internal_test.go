package mcpserver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// readLine reads one line of the output (a batch's answer: readID reads
// single answers only).
func (r *reviewStdio) readLine(t *testing.T, what string) string {
	t.Helper()
	lines := make(chan string, 1)
	go func() {
		l, _ := r.out.ReadString('\n')
		lines <- l
	}()
	return testwait.Recv(t, lines, what)
}

// TestReview_StdioPartsEarlierBatchAnswerTakenByLaterBatch (rev-batch8):
// sdkWriter recorded a batch's answer (recordBatch, reverted) whenever one of its ids
// is not counted as the write begins, also the answer of a batch of an
// earlier line. Such an id is uncounted when a batch on a line in parts
// reused it (the SDK frees a batch member's id once it has answered it
// inside its batch) and its answer settled the earlier batch's count of
// it. Here: a whole line [ping 1, call 2] (counted: 1, 2; the ping
// answered inside the batch); a line in parts [ping 1, ping 3], answered
// before its newline (its answer settles the first batch's count of 1,
// and is recorded since 3 is not counted); then a line in parts whose
// first value, ping 9, starts the watch, the first batch's call is
// released and its answer [1, 2] is recorded for this line (1 is no
// longer counted), and the line ends with a new batch [ping 1, call 2]
// (counted when its newline is passed, before the SDK reads it). That
// batch has the same batchKey, is taken as answered by the first batch's
// answer and never counted: at the end of the input nothing is owed and
// the drain does not wait for its answer, which is lost.
func TestReview_StdioPartsEarlierBatchAnswerTakenByLaterBatch(t *testing.T) {
	t.Parallel()
	set, owed := drainRecord()
	r := startReviewStdioWith(t, true, set)
	call2 := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`
	ping := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }
	r.send(t, `[`+ping("1")+`,`+call2+`]`)
	testwait.Recv(t, r.calls, "the first batch's call")
	r.writePart(t, `[`+ping("1")+`,`+ping("3")+`]`)
	if l := r.readLine(t, "the answer of [ping 1, ping 3]"); !strings.HasPrefix(l, `[{"jsonrpc":"2.0","id":1,`) {
		t.Fatalf("want the answer of [ping 1, ping 3], got %.100s", l)
	}
	r.writePart(t, "\n")
	// stdio-parts: id 1 stays busy until the first batch's answer is
	// written (its request is counted in that batch); the answer of
	// [ping 1, ping 3] is counted once 3 is no longer busy.
	testwait.Until(t, "the answer of [ping 1, ping 3] counted", func() bool { return !r.ids.busy("3") })
	r.writePart(t, ping("9"))
	r.readID(t, "9")
	close(r.release)
	if l := r.readLine(t, "the first batch's answer"); !strings.HasPrefix(l, `[{"jsonrpc":"2.0","id":1,`) {
		t.Fatalf("want the first batch's answer, got %.100s", l)
	}
	testwait.Until(t, "the first batch's answer counted", func() bool { return !r.ids.busy("2") })
	// The first call has returned (its answer was read): a new channel
	// blocks the next call of review_block until the session ends.
	r.release = make(chan struct{})
	r.writePart(t, `[`+ping("1")+`,`+call2+`]`+"\n")
	testwait.Recv(t, r.calls, "the new batch's call")
	_ = r.in.Close()
	if err := r.runErr(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	// Owed: the new batch's answer, ids 1 and 2.
	if diff := cmp.Diff(2, owed()); diff != "" {
		t.Errorf("answers owed when the drain started to wait (-1: it did not wait) (-want +got):\n%s", diff)
	}
}
