package mcpserver

import (
	"encoding/json"
	"testing"
)

// TestMemberCount counts an object's members with a repeated name counted
// twice, through strings holding braces, commas, quotes and escapes, and
// nested values; parseMessage refuses a message whose map has fewer
// entries (rev-last7).
func TestMemberCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		obj  string
		want int
	}{
		{`{}`, 0},
		{` { } `, 0},
		{`{"a":1}`, 1},
		{`{"a":1,"a":2}`, 2},
		{`{"a":"x,y}{","b":[1,2,{"c":3,"d":4}]}`, 2},
		{`{"a\",":"\\","b":{"x":[",",","]}}`, 2},
		{`{"jsonrpc":1,"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_countries"}}`, 5},
	} {
		if got := memberCount([]byte(c.obj)); got != c.want {
			t.Errorf("memberCount(%s) = %d, want %d", c.obj, got, c.want)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(c.obj), &m); err != nil {
			t.Fatalf("%s: %v", c.obj, err)
		}
		if _, ok := parseMessage([]byte(c.obj)); ok != (len(m) == c.want) {
			t.Errorf("parseMessage(%s) ok = %t with %d members and %d map entries", c.obj, ok, c.want, len(m))
		}
	}
}
