package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var scanSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"country":"NO","id":"923609016"}}}`,
	` { "params" : { "arguments" : { "id" : "923 609 016" } , "name" : "lookup_company" } , "method" : "tools/call" , "id" : "a-1" , "jsonrpc" : "2.0" } `,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_countries"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[1,{"a":"}"}]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":"a\"b"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":-1.5e3}}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x"}}`,
	`{"jsonrpc":"2.0","id":01,"method":"tools/call","params":{"name":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x\u0041"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}} x`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":1,}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
}

// FuzzScanToolsCall checks that scanToolsCall accepts only what
// parseToolsCall(parseMessage(...)) accepts, with the same id, name and
// arguments.
func FuzzScanToolsCall(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		id, name, args, ok := scanToolsCall(body)
		if !ok {
			return
		}
		msg, ok := parseMessage(body)
		if !ok {
			t.Fatalf("scanned, but parseMessage refuses %q", body)
		}
		wid, wname, wargs, ok := parseToolsCall(msg)
		if !ok {
			t.Fatalf("scanned, but parseToolsCall refuses %q", body)
		}
		if string(id) != string(wid) || name != wname || string(args) != string(wargs) {
			t.Fatalf("%q: scanned (%s, %q, %s), parsed (%s, %q, %s)", body, id, name, args, wid, wname, wargs)
		}
	})
}

// TestScanToolsCallSeeds checks the scanner's verdict on the seeds: it
// takes the plain shapes and leaves the others to encoding/json.
func TestScanToolsCallSeeds(t *testing.T) {
	t.Parallel()
	want := []bool{true, true, true, true, true, true, true, false, false, false, false, false, false, false}
	for i, s := range scanSeeds {
		if _, _, _, ok := scanToolsCall([]byte(s)); ok != want[i] {
			t.Errorf("%s: scanned %v, want %v", s, ok, want[i])
		}
	}
}

// FuzzScanArgs checks that scanArgs and plainStringValue accept only what
// encoding/json accepts, with the same result.
func FuzzScanArgs(f *testing.F) {
	for _, s := range []string{`{"country":"NO","id":"923609016"}`, ` { "id" : "Ørsted" } `, `{}`, `{"a":"b","a":"c"}`,
		`{"a":"\u0041"}`, `{"a":1}`, `{"limit":5,"name":"x"}`, `{"a":-0.5e3}`, `{"a":01}`, `{"a":true,"b":null}`,
		`{"a":nul}`, `{"a":1 }`, `{"a":[]}`, `{"a":"b"} x`, "{\"a\":\"\x01\"}", "{\"\xff\":\"b\"}", "{\"a\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if members, ok := scanArgs(raw, nil); ok {
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
		}
		if s, ok := plainStringValue(raw); ok {
			var want string
			if err := json.Unmarshal(raw, &want); err != nil || s != want {
				t.Fatalf("%q: plain string %q, encoding/json %q (%v)", raw, s, want, err)
			}
		}
	})
}
