package mcpserver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/companyregistry/registry/internal/testwait"
)

// The end of the input (stdio-drain): stdioIn holds io.EOF back from the
// SDK until the answers owed are written (stdioIn.drain). These tests use
// the review harness (review_block, a call that runs until its context
// ends or the test releases it) and drainTimer in place of the bound's
// timer, so that nothing depends on time.

// drainWatch returns a drainTimer whose bound passes when bound is closed,
// and which closes waiting when drain starts to wait.
func drainWatch(bound <-chan time.Time, waiting chan<- struct{}) func(*stdioIn) {
	return func(s *stdioIn) {
		s.drainTimer = func() (<-chan time.Time, func() bool) {
			close(waiting)
			return bound, func() bool { return true }
		}
	}
}

// drainNever returns a drainTimer that fails t: drain must not wait.
func drainNever(t *testing.T) func(*stdioIn) {
	return func(s *stdioIn) {
		s.drainTimer = func() (<-chan time.Time, func() bool) {
			t.Error("stdioIn waited at the end of the input, with no answer owed")
			return nil, func() bool { return true }
		}
	}
}

// readRest reads the output until its end (ServeIO's end) and returns its
// lines.
func (r *reviewStdio) readRest(t *testing.T) []string {
	t.Helper()
	got := make(chan []string, 1)
	go func() {
		var lines []string
		for {
			l, err := r.out.ReadString('\n')
			if l != "" {
				lines = append(lines, l)
			}
			if err != nil {
				got <- lines
				return
			}
		}
	}()
	return testwait.Recv(t, got, "the output's end")
}

// runErr waits for Run's end and returns its error (left for the
// harness's cleanup).
func (r *reviewStdio) runErr(t *testing.T) error {
	t.Helper()
	err := testwait.Recv(t, r.done, "Run's end")
	r.done <- err
	return err
}

// releasedAnswer is the answer to a call of review_block with id 5 that
// was released, in a session whose input stays open: what ServeIO owes.
func releasedAnswer(t *testing.T, front bool) string {
	t.Helper()
	r := startReviewStdio(t, front)
	close(r.release)
	r.startCall(t, "5", true)
	got := r.readUntilID(t, "5")
	return got[len(got)-1]
}

// releasedAfterEOF calls review_block with id 5, makes the requests of
// more (if any), closes the input, releases the call once stdioIn waits
// at the end of the input, and checks that its answer, the one an open
// session gets, is all that is written then, and that Run returns nil.
func releasedAfterEOF(t *testing.T, front bool, more func(*reviewStdio)) {
	t.Helper()
	want := releasedAnswer(t, front)
	waiting := make(chan struct{})
	r := startReviewStdioWith(t, front, drainWatch(nil, waiting))
	r.startCall(t, "5", true)
	if more != nil {
		more(r)
	}
	_ = r.in.Close()
	testwait.Recv(t, waiting, "stdioIn to wait at the end of the input")
	close(r.release) // the call ends after the end of the input
	if diff := cmp.Diff([]string{want}, r.readRest(t)); diff != "" {
		t.Errorf("front %v: written after the end of the input (-want +got):\n%s", front, diff)
	}
	if err := r.runErr(t); err != nil {
		t.Errorf("front %v: Run: %v", front, err)
	}
}

// TestStdioDrainSlowCallAfterEOF: a call still running when the input
// ends gets its answer once it finishes, the answer an open session gets,
// and then ServeIO ends (the SDK's Run returns nil).
func TestStdioDrainSlowCallAfterEOF(t *testing.T) {
	t.Parallel()
	for _, front := range []bool{false, true} {
		releasedAfterEOF(t, front, nil)
	}
}

// TestStdioDrainCancelledCall: a call the client cancelled before it
// closed the input is answered as the SDK answers it in an open session
// (the handler's context is cancelled, it returns, the SDK writes its
// answer; MCP's "SHOULD NOT respond" is not the SDK's), and the drain
// ends with that answer, not at the bound.
func TestStdioDrainCancelledCall(t *testing.T) {
	t.Parallel()
	const cancel = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`
	for _, front := range []bool{false, true} {
		open := startReviewStdio(t, front)
		open.startCall(t, "5", true)
		open.send(t, cancel)
		got := open.readUntilID(t, "5")
		want := got[len(got)-1]

		r := startReviewStdioWith(t, front, drainWatch(nil, make(chan struct{})))
		r.startCall(t, "5", true)
		r.send(t, cancel)
		_ = r.in.Close()
		if diff := cmp.Diff([]string{want}, r.readRest(t)); diff != "" {
			t.Errorf("front %v: written after the end of the input (-want +got):\n%s", front, diff)
		}
		if err := r.runErr(t); err != nil {
			t.Errorf("front %v: Run: %v", front, err)
		}
	}
}

// TestStdioDrainDuplicateID: a request reusing the id of a call in flight
// is refused by the SDK without an answer (jsonrpc2 acceptRequest:
// "request ID already in use"), so it owes none: the drain ends with the
// first call's answer instead of waiting for a second one until the bound.
func TestStdioDrainDuplicateID(t *testing.T) {
	t.Parallel()
	for _, front := range []bool{false, true} {
		releasedAfterEOF(t, front, func(r *reviewStdio) {
			r.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
			r.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
			r.readID(t, "6") // the SDK has read (and refused) the second 5
		})
	}
}

// TestStdioDrainContextCancelled: the caller's context ending while the
// drain waits ends the session at once, as it does while the input is
// open: the call still running is cancelled, its answer not written, and
// Run returns the context's error (ServeIO returns nil for it).
func TestStdioDrainContextCancelled(t *testing.T) {
	t.Parallel()
	for _, front := range []bool{false, true} {
		waiting := make(chan struct{})
		r := startReviewStdioWith(t, front, drainWatch(nil, waiting))
		call := r.startCall(t, "5", true)
		_ = r.in.Close()
		testwait.Recv(t, waiting, "stdioIn to wait at the end of the input")
		r.cancel()
		if got := r.readRest(t); len(got) != 0 {
			t.Errorf("front %v: written after the caller's cancel: %q", front, got)
		}
		if err := r.runErr(t); !errors.Is(err, context.Canceled) {
			t.Errorf("front %v: Run: %v, want context.Canceled", front, err)
		}
		if call.Err() == nil {
			t.Errorf("front %v: the call is not cancelled", front)
		}
	}
}

// TestStdioDrainWriteFails: the output failing while the drain waits ends
// it, and Run returns the write's error, as a failed write does while the
// input is open (ServeIO returns it).
func TestStdioDrainWriteFails(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom: the client's end of the output is gone")
	for _, front := range []bool{false, true} {
		waiting := make(chan struct{})
		r := startReviewStdioWith(t, front, drainWatch(nil, waiting))
		r.startCall(t, "5", true)
		_ = r.in.Close()
		testwait.Recv(t, waiting, "stdioIn to wait at the end of the input")
		_ = r.outR.CloseWithError(boom)
		close(r.release) // its answer's write fails
		if err := r.runErr(t); !errors.Is(err, boom) {
			t.Errorf("front %v: Run: %v, want %v", front, err, boom)
		}
	}
}

// serveWired runs ServeIO's wiring (front or not) over the whole input in
// and returns what it wrote, set applied to stdioIn first.
func serveWired(t *testing.T, front bool, in string, set func(*stdioIn)) string {
	t.Helper()
	srv, th, lists := newStdioServer(t)
	var out moduletest.SyncBuffer
	st := wireStdio(t.Context(), srv, th.tools, lists, front, strings.NewReader(in), &out)
	set(st.front)
	done := make(chan error, 1)
	go func() {
		defer st.front.cancel()
		err := srv.Run(st.front.runContext(), &mcp.IOTransport{Reader: st.in, Writer: nopWriteCloser{st.out}})
		st.front.stop()
		done <- err
	}()
	if err := testwait.Recv(t, done, "Run's end"); err != nil {
		t.Errorf("Run: %v", err)
	}
	return out.String()
}

// TestStdioDrainNothingOwed: an input that ends with no answer owed (empty,
// notifications only, every request answered) ends the session at once:
// the drain does not wait.
func TestStdioDrainNothingOwed(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"empty":        "",
		"notification": `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
		"blank lines":  "\n\r\n \n",
	} {
		for _, front := range []bool{false, true} {
			if got := serveWired(t, front, in, drainNever(t)); got != "" {
				t.Errorf("%s, front %v: wrote %q, want nothing", name, front, got)
			}
		}
	}
}

// TestSDKIDsOwed checks the owed count: one per id passed on while not
// counted, until the SDK's next answer with it; a duplicate owes nothing
// more; a subscriptions/listen owes nothing.
func TestSDKIDsOwed(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	settled := func() bool {
		select {
		case <-c.settled():
			return true
		default:
			return false
		}
	}
	if !settled() {
		t.Fatal("settled with nothing passed on: false")
	}
	c.add("1", true)
	c.add("1", true) // a duplicate, refused by the SDK
	c.add("2", owes([]byte(`"subscriptions/listen"`)))
	wait := c.settled()
	if settled() {
		t.Fatal("settled with 1 owed")
	}
	answer(c, "1")
	select {
	case <-wait:
	default:
		t.Fatal("not settled after the answer to 1")
	}
	if !c.busy("1") || !c.busy("2") {
		t.Error("1 (a duplicate counted) and 2 (running) must stay busy")
	}
}

// answer counts an answer of the SDK with id as sdkWriter does: marked as
// being written before its write, counted after.
func answer(c *sdkIDs, id string) {
	c.answered([]byte(id), c.answering([]byte(id)))
}

// TestSDKIDsOwedWhileAnswerWritten checks the two steps of counting an
// answer (sdkWriter.Write): a request passed on while the answer with its
// id is being written owes its own answer (the SDK has dropped the id and
// takes it), which the first answer's write does not settle; the id stays
// busy until that write is done; an answer that is not owed (to a
// subscriptions/listen) settles none; a reuse while the only other request
// counted with the id is a duplicate the SDK refused (never answered) owes
// its answer too (rev-parts9: it owed nothing, and was lost at the end of
// the input), and the duplicate keeps the id busy.
func TestSDKIDsOwedWhileAnswerWritten(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	type state struct {
		Step    string
		Owed    int
		Busy    bool
		Settled bool
	}
	var got []state
	snap := func(step, id string) {
		s := state{Step: step, Busy: c.busy(id)}
		select {
		case <-c.settled():
			s.Settled = true
		default:
		}
		c.mu.Lock()
		s.Owed = c.owed
		c.mu.Unlock()
		got = append(got, s)
	}
	c.add("1", true)
	m := c.answering([]byte("1"))
	snap("1 being written", "1")
	c.add("1", true) // the client has the answer and reuses 1
	snap("1 reused", "1")
	c.answered([]byte("1"), m)
	snap("first 1 written", "1")
	answer(c, "1")
	snap("second 1 written", "1")

	c.add("2", owes([]byte(`"subscriptions/listen"`)))
	m = c.answering([]byte("2"))
	c.add("2", true)
	snap("listen 2 being written, 2 reused", "2")
	c.answered([]byte("2"), m)
	snap("listen 2 written", "2")
	answer(c, "2")
	snap("second 2 written", "2")

	c.add("3", true)
	c.add("3", true) // a duplicate, refused by the SDK: counted for ever
	m = c.answering([]byte("3"))
	c.add("3", true)
	snap("3 being written, duplicate counted, 3 reused", "3")
	c.answered([]byte("3"), m)
	snap("first 3 written", "3")
	answer(c, "3")
	snap("reuse of 3 written", "3")

	want := []state{
		{"1 being written", 1, true, false},
		{"1 reused", 2, true, false},
		{"first 1 written", 1, true, false},
		{"second 1 written", 0, false, true},
		{"listen 2 being written, 2 reused", 1, true, false},
		{"listen 2 written", 1, true, false},
		{"second 2 written", 0, false, true},
		{"3 being written, duplicate counted, 3 reused", 2, true, false},
		{"first 3 written", 1, true, false},
		{"reuse of 3 written", 0, true, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSDKIDsDuplicateTakenAfterAllSettlesReuse: a request counted as a
// duplicate (idCount.dups) that the SDK took after all (it read it after
// the other's answer began) and still runs: a reuse counted then owes its
// answer, which the SDK never gives (it refuses the reuse), and the
// duplicate's answer settles it: the drain does not wait for ever, and
// the refused reuse stays counted as the duplicate, so the next reuse
// owes its answer again (rev-parts9).
func TestSDKIDsDuplicateTakenAfterAllSettlesReuse(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	type state struct {
		Step    string
		ID1     idCount
		Owed    int
		Settled bool
	}
	var got []state
	snap := func(step string) {
		s := state{Step: step}
		select {
		case <-c.settled():
			s.Settled = true
		default:
		}
		c.mu.Lock()
		s.ID1, s.Owed = c.n["1"], c.owed
		c.mu.Unlock()
		got = append(got, s)
	}
	c.add("1", true)
	c.add("1", true)
	snap("1, then 1 again (taken after all)")
	answer(c, "1")
	snap("the first 1 answered")
	c.add("1", true)
	snap("1 reused (refused: the second 1 runs)")
	answer(c, "1")
	snap("the second 1 answered")
	c.add("1", true)
	snap("1 reused again")
	want := []state{
		{"1, then 1 again (taken after all)", idCount{n: 2, owed: 1, dups: 1}, 1, false},
		{"the first 1 answered", idCount{n: 1, dups: 1}, 0, true},
		{"1 reused (refused: the second 1 runs)", idCount{n: 2, owed: 1, dups: 1}, 1, false},
		{"the second 1 answered", idCount{n: 1, dups: 1}, 0, true},
		{"1 reused again", idCount{n: 2, owed: 1, dups: 1}, 1, false},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(idCount{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSDKIDsAnswerNotCountedBeforeWrite checks that an answer whose id is
// not counted before its write (sdkIDs.answering: markNone) counts against
// nothing: a request with the id passed on during the write is another one,
// which stays owed; and that an answer with an id whose requests all have
// their answer being written is not counted against them.
func TestSDKIDsAnswerNotCountedBeforeWrite(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	type state struct {
		Mark answerMark
		Owed int
		Busy bool
	}
	snap := func(m answerMark, id string) state {
		c.mu.Lock()
		s := state{Mark: m, Owed: c.owed}
		c.mu.Unlock()
		s.Busy = c.busy(id)
		return s
	}
	var got []state
	m := c.answering([]byte("5"))
	c.add("5", true) // counted during the write
	c.answered([]byte("5"), m)
	got = append(got, snap(m, "5"))

	m = c.answering([]byte("6"))
	c.answered([]byte("6"), m)
	got = append(got, snap(m, "6"))

	c.add("7", true)
	m7 := c.answering([]byte("7"))
	m = c.answering([]byte("7")) // a second answer with 7 while the first is written
	c.answered([]byte("7"), m)
	got = append(got, snap(m, "7"))
	c.answered([]byte("7"), m7)
	got = append(got, snap(m7, "7"))

	want := []state{
		{Mark: markNone, Owed: 1, Busy: true}, // 5, passed on during the write, still owed
		{Mark: markNone, Owed: 1},
		{Mark: markNone, Owed: 2, Busy: true},
		{Mark: markSettles, Owed: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
