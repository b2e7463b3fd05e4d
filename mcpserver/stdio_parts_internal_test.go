package mcpserver

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// framedValue is what partFramer gives of a value, in a form cmp compares
// (a lineMsg's method refers to the framer's bytes, which change).
type framedValue struct {
	Key    string
	Method string
	Batch  bool
	Keys   []string
	Owes   bool
	Over   bool
}

// frameParts feeds line (ending with its newline) to a new partFramer cut
// into parts of the sizes given by cuts (1 + cut%61 bytes each, the rest
// as one part when cuts run out), as stdioIn passes a line on in parts:
// the values framed, in order, and whether the line was counted to its
// end.
func frameParts(line []byte, cuts []byte) ([]framedValue, bool) {
	var f partFramer
	var got []framedValue
	counted := func(m lineMsg) bool {
		got = append(got, framedValue{Key: m.key, Method: string(m.method), Batch: m.batch, Keys: m.keys, Owes: m.owes, Over: m.over})
		return true
	}
	for len(line) > 0 {
		n := len(line)
		if len(cuts) > 0 {
			n = min(n, 1+int(cuts[0])%61)
			cuts = cuts[1:]
		}
		part := line[:n]
		line = line[n:]
		if !f.feed(part, len(line) == 0, counted) {
			return got, false
		}
	}
	return got, true
}

// framedLine is frameParts' form of what lineMsgs counts of line: of a
// line it refuses, the values before the one refused.
func framedLine(line []byte) ([]framedValue, bool) {
	msgs, ok := (&stdioIn{}).lineMsgs(line)
	var got []framedValue
	for _, m := range msgs {
		got = append(got, framedValue{Key: m.key, Method: string(m.method), Batch: m.batch, Keys: m.keys, Owes: m.owes, Over: m.over})
	}
	return got, ok
}

// TestPartFramerFramesAsLineMsgs: partFramer gives the values of a line
// cut into parts anywhere (inside a string, right after a backslash,
// between the brackets of a batch, in the whitespace) as lineMsgs gives
// those of the whole line; a line lineMsgs refuses is refused, the values
// before the one refused given first, as the SDK reads them first, and as
// lineMsgs gives them (rev-parts9).
func TestPartFramerFramesAsLineMsgs(t *testing.T) {
	t.Parallel()
	const (
		p1     = `{"jsonrpc":"2.0","id":"p1","method":"ping"}`
		p2     = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
		braces = `{"jsonrpc":"2.0","id":"}{][","method":"tools/call","params":{"name":"x","arguments":{"q":"a\"}]\\"}}}`
		batch  = `[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`
	)
	ping := func(key string) framedValue { return framedValue{Key: key, Method: `"ping"`} }
	for _, c := range []struct {
		line string
		want []framedValue
		ok   bool
	}{
		{"", nil, true},
		{" \t\r", nil, true},
		{p1, []framedValue{ping(`"p1"`)}, true},
		{"\r " + p1 + "\r\r " + p2 + "\r", []framedValue{ping(`"p1"`), ping(`2`)}, true},
		{p1 + p2, []framedValue{ping(`"p1"`), ping(`2`)}, true},
		{braces + " " + p2, []framedValue{{Key: `"}{]["`, Method: `"tools/call"`}, ping(`2`)}, true},
		{batch + p1, []framedValue{{Batch: true, Keys: []string{`3`}}, ping(`"p1"`)}, true},
		{p1 + "\rx", []framedValue{ping(`"p1"`)}, false},
		{p1 + "\r5", []framedValue{ping(`"p1"`)}, false},
		{p1 + `{"jsonrpc":"2.0","id":true,"method":"ping"}` + p2, []framedValue{ping(`"p1"`)}, false},
		{p1 + "\r{", []framedValue{ping(`"p1"`)}, false}, // open at the newline: over several lines
		{p1 + `{"a":"}`, []framedValue{ping(`"p1"`)}, false},
	} {
		line := []byte(c.line + "\n")
		if whole, ok := framedLine(line); ok != c.ok || !cmp.Equal(whole, c.want) {
			t.Errorf("%q: lineMsgs %v %v, want %v %v", c.line, whole, ok, c.want, c.ok)
		}
		for size := 1; size <= len(line); size++ {
			cuts := bytes.Repeat([]byte{byte(size - 1)}, len(line))
			got, ok := frameParts(line, cuts)
			if diff := cmp.Diff(c.want, got); diff != "" || ok != c.ok {
				t.Errorf("%q in parts of %d bytes: counted to its end %v, want %v; values (-want +got):\n%s", c.line, min(size, 61), ok, c.ok, diff)
			}
		}
	}
}

// TestPartFramerBounded: partFramer keeps only the open value's bytes: a
// line of many values longer than stdioLineKeep is framed to its end with
// no more kept than its longest value, a value longer than stdioLineKeep
// ends the counting, and reset lets go of a buffer grown past
// stdioReadSize.
func TestPartFramerBounded(t *testing.T) {
	t.Parallel()
	ping := []byte(`{"jsonrpc":"2.0","id":1,"method":"notifications/x"}`)
	part := bytes.Repeat(ping, stdioReadSize/len(ping))
	var f partFramer
	values := 0
	counted := func(lineMsg) bool { values++; return true }
	fed := 0
	for fed <= stdioLineKeep {
		// Each part ends inside a value: the framer holds its start.
		b := append(append([]byte{}, part...), ping[:10]...)
		if fed > 0 {
			b = append(append([]byte{}, ping[10:]...), b...)
		}
		if !f.feed(b, false, counted) {
			t.Fatalf("a line of short values refused after %d bytes", fed)
		}
		fed += len(b)
	}
	type state struct {
		Values, Held int
	}
	want := state{Values: fed / len(ping), Held: 10} // every value but the open one
	if diff := cmp.Diff(want, state{values, len(f.held)}); diff != "" {
		t.Errorf("after %d bytes of values (-want +got):\n%s", fed, diff)
	}
	f.reset()

	values = 0
	head := []byte(`{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"`)
	as := bytes.Repeat([]byte{'a'}, stdioReadSize)
	ok := f.feed(head, false, counted)
	for ok && len(f.held) <= stdioLineKeep {
		ok = f.feed(as, false, counted)
	}
	grown := cap(f.held) > stdioReadSize
	f.reset()
	type long struct {
		CountedOn, Grown bool
		Values, Kept     int
	}
	if diff := cmp.Diff(long{Grown: true}, long{ok, grown, values, cap(f.held)}); diff != "" {
		t.Errorf("a value longer than stdioLineKeep, then reset (-want +got):\n%s", diff)
	}
}

// FuzzPartFramer: for any line and any cut of it into parts, partFramer
// gives the values it gives of the whole line in one part, and those are
// lineMsgs' values when lineMsgs counts the line; a line lineMsgs refuses,
// partFramer refuses too (after the values before the one refused).
func FuzzPartFramer(f *testing.F) {
	const p1 = `{"jsonrpc":"2.0","id":"p1","method":"ping"}`
	for _, l := range append([]string{p1 + "\r\r", p1 + "\r" + p1, p1 + " [" + p1 + "]", "\r \t",
		`{"jsonrpc":"2.0","id":"}{","method":"a\"}{\\"}` + p1, p1 + `{"a":"\`}, plainLineSeeds...) {
		f.Add(l, []byte{3, 17, 0, 60, 9})
	}
	f.Fuzz(func(t *testing.T, line string, cuts []byte) {
		if strings.Contains(line, "\n") {
			return
		}
		b := []byte(line + "\n")
		whole, wholeOK := frameParts(b, nil)
		parts, partsOK := frameParts(b, cuts)
		if diff := cmp.Diff(whole, parts); diff != "" || wholeOK != partsOK {
			t.Fatalf("%q cut %v: counted to its end %v, in one part %v; values (-one part +cut):\n%s", line, cuts, partsOK, wholeOK, diff)
		}
		want, ok := framedLine(b)
		if ok != wholeOK {
			t.Fatalf("%q: lineMsgs counts it %v, partFramer %v", line, ok, wholeOK)
		}
		if diff := cmp.Diff(want, whole); diff != "" {
			t.Fatalf("%q: (-lineMsgs +partFramer):\n%s", line, diff)
		}
	})
}

// TestSDKIDsBatchReusesBatchID: a batch whose id is counted only for
// requests of batches, or besides for duplicates the SDK refused
// (idCount.dups), is counted, each of its requests owing its answer (the
// SDK has answered the earlier request inside its batch and takes the new
// one, or ends the session); an id counted for a request taken alone
// still stops the counting; a batch's answer counts against a batch's
// request, a single answer against a request taken alone before a
// duplicate; a request alone reusing an id counted only for duplicates
// owes its answer (rev-parts9).
func TestSDKIDsBatchReusesBatchID(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	type state struct {
		Step    string
		Counted bool
		ID1     idCount
		Owed    int
	}
	var got []state
	snap := func(step string, counted bool) {
		c.mu.Lock()
		got = append(got, state{step, counted, c.n["1"], c.owed})
		c.mu.Unlock()
	}
	batchAnswer := func() {
		m := c.answering([]byte("1"))
		c.answeredBatch([]byte("1"), m)
	}
	snap("[1, 2]", c.addBatch([]string{"1", "2"}, true))
	snap("[1, 3]", c.addBatch([]string{"1", "3"}, true))
	batchAnswer()
	snap("a batch's answer with 1", true)
	snap("1: a duplicate, [1, 3]'s 1 counted", c.add("1", true))
	snap("[1]: 1 counted for a batch and a duplicate", c.addBatch([]string{"1"}, true))
	batchAnswer()
	batchAnswer()
	snap("two batch answers with 1", true)
	snap("1: only a duplicate counted", c.add("1", true))
	snap("[1]: 1 counted for a request alone", c.addBatch([]string{"1"}, true))
	answer(c, "1")
	snap("an answer with 1 alone", true)
	snap("[1]", c.addBatch([]string{"1"}, false))
	want := []state{
		{"[1, 2]", true, idCount{n: 1, owed: 1, batch: 1}, 2},
		{"[1, 3]", true, idCount{n: 2, owed: 2, batch: 2}, 4},
		{"a batch's answer with 1", true, idCount{n: 1, owed: 1, batch: 1}, 3},
		{"1: a duplicate, [1, 3]'s 1 counted", true, idCount{n: 2, owed: 1, batch: 1, dups: 1}, 3},
		{"[1]: 1 counted for a batch and a duplicate", true, idCount{n: 3, owed: 2, batch: 2, dups: 1}, 4},
		{"two batch answers with 1", true, idCount{n: 1, dups: 1}, 2},
		{"1: only a duplicate counted", true, idCount{n: 2, owed: 1, dups: 1}, 3},
		{"[1]: 1 counted for a request alone", false, idCount{n: 2, owed: 1, dups: 1}, 3},
		{"an answer with 1 alone", true, idCount{n: 1, dups: 1}, 2},
		{"[1]", true, idCount{n: 2, batch: 1, dups: 1}, 2},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(idCount{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestStdioBatchReusingHeldBatchIDEndsSession: a batch on a line in parts
// that reuses the id of a request of an earlier batch the SDK has not
// answered is counted (TestSDKIDsBatchReusesBatchID), and owes answers
// the SDK never gives: it refuses the batch as a whole and ends the
// session (mcp ioConn.addBatch). The drain must not wait for them: here
// its bound never passes, and ServeIO still returns, with the SDK's error.
func TestStdioBatchReusingHeldBatchIDEndsSession(t *testing.T) {
	t.Parallel()
	never := func(s *stdioIn) {
		s.drainTimer = func() (<-chan time.Time, func() bool) { return nil, func() bool { return true } }
	}
	r := startReviewStdioWith(t, true, never)
	call2 := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`
	r.send(t, `[`+call2+`]`)
	ctx := testwait.Recv(t, r.calls, "the batch's call")
	r.writePart(t, `[{"jsonrpc":"2.0","id":2,"method":`)
	r.writePart(t, `"ping"}]`)
	testwait.Recv(t, ctx.Done(), "the call cancelled as the session ends")
	_ = r.in.Close()
	err := r.runErr(t)
	if diff := cmp.Diff(true, err != nil && strings.Contains(err.Error(), "batch contains previously seen request")); diff != "" {
		t.Errorf("Run's error %v: the SDK's refusal (-want +got):\n%s", err, diff)
	}
}
