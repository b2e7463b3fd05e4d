package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/mcpserver"
)

// TestReview_Doors12LongArgumentSameAnswerWhateverItsSpelling (doors12
// item 3): a long id or name (20,000 bytes, past the 16 KiB bound on
// arguments encoding/json decodes) gets the Go API's error for its value
// over HTTP (the fast path), over stdio and through the SDK's path,
// however JSON spells it: plain, with a \u escape for one of its
// characters, with \" (which has no plain spelling), or with an escaped
// member name. Before, a spelling with an escape fell past the hand
// scanner and got the generic "The tool arguments are larger than 16 KiB."
func TestReview_Doors12LongArgumentSameAnswerWhateverItsSpelling(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	long := strings.Repeat("9", 20000)
	name := strings.Repeat("a", 20000)
	type spelling struct {
		tool, args string
		api        func() error
	}
	lookup := func(id string) func() error {
		return func() error { _, err := reg.Lookup(context.Background(), "NO", id); return err }
	}
	search := func(q string) func() error {
		return func() error { _, err := reg.Search(context.Background(), "NO", q, 10); return err }
	}
	cases := map[string]spelling{
		"id plain":            {"lookup_company", `{"id":"` + long + `"}`, lookup(long)},
		"id \\u0039":          {"lookup_company", `{"id":"` + long[1:] + `\u0039"}`, lookup(long)},
		"id escaped name":     {"lookup_company", `{"\u0069d":"` + long + `"}`, lookup(long)},
		"id \\\"":             {"lookup_company", `{"id":"\"` + long + `","country":"NO"}`, lookup(`"` + long)},
		"id \\u0022":          {"lookup_company", `{"country":"NO","id":"\u0022` + long + `"}`, lookup(`"` + long)},
		"id \\n":              {"lookup_company", `{"id":"\n` + long + `"}`, lookup("\n" + long)},
		"name plain":          {"search_company", `{"name":"` + name + `A","limit":5}`, search(name + "A")},
		"name \\u0041":        {"search_company", `{"name":"` + name + `\u0041","limit":5}`, search(name + "A")},
		"name \\u0041 null":   {"search_company", `{"name":"` + name + `\u0041","limit":null,"country":null}`, search(name + "A")},
		"name \\ud83d\\ude00": {"search_company", `{"name":"` + name + `\ud83d\ude00"}`, search(name + "\U0001F600")},
	}
	want := map[string]any{}
	for k, c := range cases {
		b, _ := ops.EnvelopeJSON(c.api())
		want[k] = parse(t, b)
	}

	// HTTP, the fast path.
	srv, _ := newHTTPServer(t)
	gotHTTP := map[string]any{}
	for k, c := range cases {
		status, body := post(t, srv.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+c.tool+
			`","arguments":`+c.args+`}}`, nil)
		var res struct {
			Result struct {
				IsError bool
				Content []struct{ Text string }
			}
		}
		if err := json.Unmarshal(body, &res); err != nil || status != 200 || !res.Result.IsError || len(res.Result.Content) != 1 {
			t.Fatalf("HTTP %s: %d %.300s", k, status, body)
		}
		gotHTTP[k] = parse(t, []byte(res.Result.Content[0].Text))
	}
	if diff := cmp.Diff(want, gotHTTP); diff != "" {
		t.Errorf("HTTP: Go API errors vs tool texts (-api +mcp):\n%s", diff)
	}

	// Stdio, and the SDK's path (in memory): the client sends the
	// arguments as written (a json.RawMessage).
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeIO(ctx, reg, inR, outW); _ = outW.Close() }()
	stdio, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdio.Close(); cancel(); <-done })
	for door, cs := range map[string]*mcp.ClientSession{"stdio": stdio, "sdk": connect(t, reg)} {
		got := map[string]any{}
		for k, c := range cases {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
			if err != nil || !res.IsError || len(res.Content) != 1 {
				t.Fatalf("%s %s: %v %+v", door, k, err, res)
			}
			got[k] = parse(t, []byte(res.Content[0].(*mcp.TextContent).Text))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Go API errors vs tool texts (-api +mcp):\n%s", door, diff)
		}
	}
}
