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
// anything but messages and batches.
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
	for _, line := range []string{p1 + "\r5", p1 + "\rx", p1 + `\r{"jsonrpc":"2.0","id":true,"method":"ping"}`, p1 + "\r{", "5"} {
		if _, ok := keys(line); ok {
			t.Errorf("%q: counted, but the SDK ends the session on it", line)
		}
	}
}

// TestSDKIDsAddValues: the values of a line are each counted, a batch's
// requests each, a response not at all.
func TestSDKIDsAddValues(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	msgs := []lineMsg{
		{key: `"a"`, method: []byte(`"ping"`)},
		{key: `"b"`, method: []byte(`"ping"`)},
		{batch: true, keys: []string{`"c"`, `"d"`}, owes: true},
		{}, // a response
	}
	if !c.addValues(msgs) {
		t.Fatal("not counted")
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
	// A batch reusing an id in flight stops the counting (addBatch).
	if c.addValues([]lineMsg{{key: `"e"`, method: []byte(`"ping"`)}, {batch: true, keys: []string{`"b"`}, owes: true}}) {
		t.Error("a batch reusing the id of a request in flight counted")
	}
}

// FuzzLineMsgs: for any line, the values lineMsgs counts are the JSON
// values the SDK's decoder reads of it, in order, each counted as
// plainLine counts it alone (checked against the SDK by checkPlainLine).
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
		if !ok {
			return
		}
		dec := json.NewDecoder(strings.NewReader(line))
		for i := 0; ; i++ {
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
