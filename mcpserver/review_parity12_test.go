package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/mcpserver"
)

// TestReview_Parity12BlankCountryIsNotNorway: a country that is blank (a
// space, two, a tab) is no country code. The Go API and REST answer
// unsupported_country (404) for it; every MCP door (Streamable HTTP and
// stdio, with and without the fast path) treats it as absent and answers
// for Norway, the tools' default, with a 200 document. The default is
// documented for an absent, null or empty ("") country only.
func TestReview_Parity12BlankCountryIsNotNorway(t *testing.T) {
	t.Parallel()
	fake := newP12Fake(t)
	rest := p12REST(t, p12Registry(t, fake))
	goAPI := p12Go(p12Registry(t, fake))
	doors := []struct {
		name string
		ask  func(testing.TB, p12Question) p12Answer
	}{
		{"mcp-http", p12MCPHTTP(t, p12Registry(t, fake))},
		{"mcp-http-sdk", p12MCPHTTP(t, p12Registry(t, fake), mcpserver.WithoutFastPath())},
		{"mcp-stdio", p12Stdio(t, p12Registry(t, fake))},
		{"mcp-stdio-sdk", p12Stdio(t, p12Registry(t, fake), mcpserver.WithoutFastPath())},
	}
	for _, country := range []string{" ", "  ", "\t"} {
		for _, q := range []p12Question{
			{op: "validate", country: country, id: "923609016"},
			{op: "lookup", country: country, id: "923609016"},
			{op: "roles", country: country, id: "923609016"},
			{op: "deadlines", country: country, id: "923609016", today: p12Ptr("2026-01-15")},
			{op: "search", country: country, q: "equinor", limit: p12Ptr("5")},
		} {
			want := rest(t, q)
			if g := goAPI(t, q); g.Status != want.Status || g.Status != 404 {
				t.Fatalf("%s country %q: Go API %d, REST %d; want both 404 unsupported_country", q.op, country, g.Status, want.Status)
			}
			for _, d := range doors {
				if diff := cmp.Diff(want, d.ask(t, q)); diff != "" {
					t.Errorf("%s %s with country %q (-REST and Go API +MCP):\n%s", d.name, q.op, country, diff)
				}
			}
		}
	}
}

// TestReview_Parity12SearchEchoesPersonalNumber: Sweden refuses a search
// whose query holds a personal identity number before the cache, the
// register or the answer sees it ("this service does not look people up"),
// and a watch refuses to quote a personnummer in any country "since a
// personnummer sent to a Norwegian watch is as personal" (doc/decisions.md).
// The search of every other country takes the same query, and a Norwegian
// fødselsnummer, sends it to the register, keys the cache with it, and
// echoes it in the answer's query, on REST and MCP alike.
func TestReview_Parity12SearchEchoesPersonalNumber(t *testing.T) {
	t.Parallel()
	fake := newP12Fake(t)
	rest := p12REST(t, p12Registry(t, fake))
	mcp := p12MCPHTTP(t, p12Registry(t, fake))
	// 01010012356 is a fødselsnummer with both MOD11 check digits right
	// (born 1 January 2000); 19810105-2382 the personnummer of the
	// Swedish recordings, which the Swedish search refuses.
	numbers := []string{"01010012356", "010100 12356", "19810105-2382", "198101052382"}
	for _, country := range []string{"SE", "NO", "GB", "FI", "DK", "FR"} {
		for _, n := range numbers {
			for door, ask := range map[string]func(testing.TB, p12Question) p12Answer{"REST": rest, "MCP": mcp} {
				a := ask(t, p12Question{op: "search", country: country, q: n})
				quoted, _ := json.Marshal(n)
				got := fmt.Sprintf("echoed %v", json.Valid([]byte(a.Body)) && strings.Contains(a.Body, string(quoted[1:len(quoted)-1])))
				if diff := cmp.Diff("echoed false", got); diff != "" {
					t.Errorf("%s %s search for %q: %d %.200s\n(-want +got) %s", door, country, n, a.Status, a.Body, diff)
				}
			}
		}
	}
}

// TestReview_Parity12UnknownNamesEchoedWhole: the MCP doors quote a
// caller's unknown tool name and prompt name whole in their JSON-RPC errors
// (the SDK's "unknown tool %q", "unknown prompt %q"), where an unknown
// argument's name is quoted at most 40 bytes (ops.Shown, "so an answer's
// size never follows a name's") and REST's unknown route is a fixed
// envelope. A 300-byte name comes back whole, on Streamable HTTP and over
// stdio, with and without the fast path.
func TestReview_Parity12UnknownNamesEchoedWhole(t *testing.T) {
	t.Parallel()
	fake := newP12Fake(t)
	long := strings.Repeat("x", 300)
	msgs := map[string]string{
		"tool":   `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + long + `","arguments":{}}}`,
		"prompt": `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"` + long + `"}}`,
	}
	type door struct {
		name string
		ask  func(msg []byte) []byte
	}
	var doors []door
	for _, opts := range [][]mcpserver.Option{nil, {mcpserver.WithoutFastPath()}} {
		h, err := mcpserver.Handler(p12Registry(t, fake), opts...)
		if err != nil {
			t.Fatal(err)
		}
		stdio := p12StdioRaw(t, p12Registry(t, fake), opts...)
		suffix := map[bool]string{true: "", false: "-sdk"}[opts == nil]
		doors = append(doors, door{"mcp-http" + suffix, func(msg []byte) []byte {
			req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/mcp", bytes.NewReader(msg))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec.Body.Bytes()
		}}, door{"mcp-stdio" + suffix, func(msg []byte) []byte { return stdio(t, msg) }})
	}
	for _, what := range []string{"tool", "prompt"} {
		for _, d := range doors {
			out := d.ask([]byte(msgs[what]))
			got := fmt.Sprintf("quotes more than 40 bytes: %v", strings.Contains(string(out), long[:41]))
			if diff := cmp.Diff("quotes more than 40 bytes: false", got); diff != "" {
				t.Errorf("%s, unknown %s of 300 bytes: %.200s\n(-want +got) %s", d.name, what, out, diff)
			}
		}
	}
}
