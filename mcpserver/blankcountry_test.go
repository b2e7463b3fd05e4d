package mcpserver_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/ops"
)

// TestExplainCompanyBlankCountryIsNoCountry: the explain_company prompt
// takes the default country (NO) for an absent or empty ("") country only,
// as the tools do; a blank one (" ", "  ", "\t") is no country code and is
// refused with the Go API's unsupported_country envelope (the JSON-RPC
// error's data, code -32602), on every MCP door: Streamable HTTP and stdio,
// with and without the fast path.
func TestExplainCompanyBlankCountryIsNoCountry(t *testing.T) {
	t.Parallel()
	fake := newP12Fake(t)
	reg := p12Registry(t, fake)
	doors := p12RawDoors(t, fake)
	type answer struct {
		Code        int64
		Data        json.RawMessage
		Description string
	}
	read := func(raw []byte) answer {
		var msg struct {
			Result struct{ Description string }
			Error  struct {
				Code int64
				Data json.RawMessage
			}
		}
		if err := json.Unmarshal(raw, &msg); err != nil {
			t.Fatalf("not a JSON-RPC answer: %v: %.300s", err, raw)
		}
		return answer{msg.Error.Code, msg.Error.Data, msg.Result.Description}
	}
	for _, country := range []string{" ", "  ", "\t", "", "no"} {
		want := answer{Description: "Plain-language summary of company 923609016 (NO)"}
		if _, err := reg.Validate(country, "923609016"); country != "" && err != nil {
			env, _ := ops.EnvelopeJSON(err)
			want = answer{Code: -32602, Data: env}
		}
		if country == " " && want.Code == 0 {
			t.Fatal("the Go API takes a blank country")
		}
		args := map[string]string{"id": "923609016"}
		if country != "" {
			args["country"] = country
		}
		msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "prompts/get",
			"params": map[string]any{"name": "explain_company", "arguments": args}})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range doors {
			if diff := cmp.Diff(want, read(d.ask(msg))); diff != "" {
				t.Errorf("%s explain_company with country %q (-want +got):\n%s", d.name, country, diff)
			}
		}
	}
	// An empty country given is the default too.
	msg := []byte(`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"explain_company","arguments":{"id":"923609016","country":""}}}`)
	for _, d := range doors {
		if diff := cmp.Diff(answer{Description: "Plain-language summary of company 923609016 (NO)"}, read(d.ask(msg))); diff != "" {
			t.Errorf("%s explain_company with country \"\" (-want +got):\n%s", d.name, diff)
		}
	}
}
