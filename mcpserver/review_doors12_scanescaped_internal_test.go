package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzScanArgsEscaped (doors12 item 3): whatever scanArgsEscaped takes,
// encoding/json decodes into the same members (names decoded, values as
// written), each name once; and it takes everything scanArgs takes, with
// the same members.
func FuzzScanArgsEscaped(f *testing.F) {
	for _, s := range []string{`{"country":"NO","id":"923609016"}`, `{"\u0069d":"9\u0039"}`, `{"id":"\"x\\"}`, `{}`, ` { } `,
		`{"a":"b","\u0061":"c"}`, `{"a":"\ud83d\ude00"}`, `{"a":"\ud83d"}`, `{"a":"\x"}`, `{"a":"\u00"}`, `{"a":1,"b":null,"c":true}`,
		`{"a":[]}`, `{"a":{}}`, `{"a":"b"} x`, "{\"a\":\"\x01\"}", "{\"\xff\":\"b\"}", "{\"a\":\"\xff\"}", `{"a":"\"}`,
		`{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		members, ok := scanArgsEscaped(raw, nil)
		if plain, plainOK := scanArgs(raw, nil); plainOK {
			if diff := cmp.Diff(plain, members, cmp.AllowUnexported(argMember{})); !ok || diff != "" {
				t.Fatalf("%q: scanArgs took it, scanArgsEscaped %v (-plain +escaped):\n%s", raw, ok, diff)
			}
		}
		if !ok {
			return
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("scanned %q, which encoding/json refuses: %v", raw, err)
		}
		m := map[string]json.RawMessage{}
		for _, a := range members {
			m[string(a.key)] = a.value
		}
		if len(m) != len(members) {
			t.Fatalf("%q: scanned a name twice: %q", raw, members)
		}
		if diff := cmp.Diff(want, m); diff != "" {
			t.Fatalf("%q (-json +scanned):\n%s", raw, diff)
		}
	})
}
