package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLineMsgsReadsAsTheSDK (rev-ids7, P2): stdioIn counts each value of a
// line the SDK's reader reads (go-sdk v1.8.0 mcp newIOConnLimited: values
// split by whitespace, each followed by a CR or the newline, or by any
// byte when the SDK's read ends right after it), and refuses a line with
// anything but messages and batches, giving the values before the one it
// refuses, which the SDK reads first (rev-parts9).
func TestLineMsgsReadsAsTheSDK(t *testing.T) {
	t.Parallel()
	const p1 = `{"jsonrpc":"2.0","id":"p1","method":"ping"}`
	const p2 = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	s := &stdioIn{}
	keys := func(line string) ([]string, bool) {
		msgs, ok := s.lineMsgs([]byte(line + "\n"))
		var got []string
		for _, m := range msgs {
			if m.batch {
				got = append(got, m.keys...)
				continue
			}
			got = append(got, m.key)
		}
		return got, ok
	}
	for line, want := range map[string][]string{
		"":                       nil,
		" \t\r":                  nil,
		p1:                       {`"p1"`},
		p1 + "\r":                {`"p1"`},
		p1 + "\r\r":              {`"p1"`},
		p1 + "\r \t":             {`"p1"`},
		"\r " + p1 + "\r":        {`"p1"`},
		p1 + "\r" + p2:           {`"p1"`, `2`},
		p1 + "\r\r " + p2 + "\r": {`"p1"`, `2`},
		p1 + " " + p2:            {`"p1"`, `2`}, // read whole when a read ends after p1
		p1 + p2:                  {`"p1"`, `2`},
		p1 + "\r[" + p2 + "]":    {`"p1"`, `2`},
	} {
		got, ok := keys(line)
		if !ok {
			t.Errorf("%q: not counted", line)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", line, diff)
		}
	}
	for line, before := range map[string][]string{
		p1 + "\r5": {`"p1"`},
		p1 + "\rx": {`"p1"`},
		p1 + `\r{"jsonrpc":"2.0","id":true,"method":"ping"}` + p2: {`"p1"`},
		p1 + "\r" + p2 + "\r{": {`"p1"`, `2`},
		p1 + "\r" + `{"jsonrpc":"2.0","id":3,"method":"ping","params":"` + "\xff" + `"}`: {`"p1"`},
		"5": nil,
	} {
		got, ok := keys(line)
		if ok {
			t.Errorf("%q: counted, but the SDK ends the session on it", line)
		}
		if diff := cmp.Diff(before, got); diff != "" {
			t.Errorf("%q: the values before the one refused (-want +got):\n%s", line, diff)
		}
	}
}

// TestSDKIDsAddValues: the values of a line are each counted, a batch's
// requests each, a response not at all; a value that cannot be counted
// stops the counting there, the values before it counted.
func TestSDKIDsAddValues(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	msgs := []lineMsg{
		{key: `"a"`, method: []byte(`"ping"`)},
		{key: `"b"`, method: []byte(`"ping"`)},
		{batch: true, keys: []string{`"c"`, `"d"`}, owes: true},
		{}, // a response
	}
	if n := c.addValues(msgs); n != len(msgs) {
		t.Fatalf("%d of %d values counted", n, len(msgs))
	}
	got := map[string]bool{}
	for _, id := range []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`} {
		got[id] = c.busy(id)
	}
	if diff := cmp.Diff(map[string]bool{`"a"`: true, `"b"`: true, `"c"`: true, `"d"`: true, `"e"`: false}, got); diff != "" {
		t.Errorf("busy (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(4, c.owed); diff != "" {
		t.Errorf("owed (-want +got):\n%s", diff)
	}
	// A batch reusing an id in flight stops the counting (addBatch), and
	// so does a batch of more requests than counted (over); the values
	// before are counted.
	type counted struct {
		N     int
		BusyE bool
		BusyF bool
		Owed  int
	}
	n := c.addValues([]lineMsg{{key: `"e"`, method: []byte(`"ping"`)}, {batch: true, keys: []string{`"b"`}, owes: true}, {key: `"g"`, method: []byte(`"ping"`)}})
	n2 := c.addValues([]lineMsg{{key: `"f"`, method: []byte(`"ping"`)}, {batch: true, over: true, owes: true}, {key: `"g"`, method: []byte(`"ping"`)}})
	got2 := []counted{{n, c.busy(`"e"`), false, 0}, {n2, false, c.busy(`"f"`), c.owed}}
	want2 := []counted{{1, true, false, 0}, {1, false, true, 6}}
	if diff := cmp.Diff(want2, got2); diff != "" {
		t.Errorf("values counted of a line with a batch reusing an id in flight, then of one with a batch too long (-want +got):\n%s", diff)
	}
	if c.busy(`"g"`) {
		t.Error("a value after the one that stopped the counting counted")
	}
}

// FuzzLineMsgs: for any line, the values lineMsgs counts are the JSON
// values the SDK's decoder reads of it, in order, each counted as
// plainLine counts it alone (checked against the SDK by checkPlainLine);
// of a line it refuses, the values it gives are the decoder's first ones.
func FuzzLineMsgs(f *testing.F) {
	const p1 = `{"jsonrpc":"2.0","id":"p1","method":"ping"}`
	for _, l := range append([]string{p1 + "\r\r", p1 + "\r" + p1, p1 + " [" + p1 + "]", "\r \t"}, plainLineSeeds...) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return
		}
		msgs, ok := (&stdioIn{}).lineMsgs([]byte(line + "\n"))
		dec := json.NewDecoder(strings.NewReader(line))
		for i := 0; ; i++ {
			if !ok && i == len(msgs) {
				return // the values before the one refused, read first
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				if i != len(msgs) {
					t.Fatalf("%q: lineMsgs counts %d values, the decoder reads %d (%v)", line, len(msgs), i, err)
				}
				return
			}
			if i >= len(msgs) {
				t.Fatalf("%q: the decoder reads more values than lineMsgs counts (%d)", line, len(msgs))
			}
			m, ok := plainLine(append(raw, '\n'))
			if !ok {
				t.Fatalf("%q: value %d %s counted, plainLine refuses it", line, i, raw)
			}
			if diff := cmp.Diff(m, msgs[i], cmp.AllowUnexported(lineMsg{})); diff != "" {
				t.Fatalf("%q: value %d (-plainLine +lineMsgs):\n%s", line, i, diff)
			}
			checkPlainLine(t, string(raw))
		}
	})
}
