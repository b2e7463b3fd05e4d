package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkEncode encodes res as the SDK's stdio transport writes the answer to
// request id: a message of its own, and inside a batch answer after a
// second message.
func sdkEncode(t *testing.T, id any, res mcp.Result) (single, batch []byte) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		t.Fatal(err)
	}
	jid, err := jsonrpc.MakeID(id)
	if err != nil {
		t.Fatal(err)
	}
	single, err = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: jid, Result: bytes.TrimRight(buf.Bytes(), "\n")})
	if err != nil {
		t.Fatal(err)
	}
	other, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: jid, Result: json.RawMessage(`{"x":"<&>"}`)})
	if err != nil {
		t.Fatal(err)
	}
	batch, err = json.Marshal([]json.RawMessage{single, other})
	if err != nil {
		t.Fatal(err)
	}
	return append(single, '\n'), append(batch, '\n')
}

// TestMarkWriter checks that the marker the middleware answers a cached
// list with comes out of the stdio writer as the bytes the SDK writes for
// the cached result itself, in a message and in a batch answer (which
// escapes <, > and &), and that other writes pass unchanged.
func TestMarkWriter(t *testing.T) {
	t.Parallel()
	c := newListCache()
	lists := map[string]mcp.Result{
		"tools/list": &mcp.ListToolsResult{Tools: []*mcp.Tool{{Name: "a<b>&c", Description: "x\u2028y <&> \"q\"",
			InputSchema: json.RawMessage(`{"type":"object"}`)}}},
		"prompts/list": &mcp.ListPromptsResult{Prompts: []*mcp.Prompt{{Name: "p", Description: "<p>"}}},
	}
	for m, res := range lists {
		c.store(m, res)
	}
	var out bytes.Buffer
	w := c.stdioWriter(&out)
	sdk := func(context.Context, string, mcp.Request) (mcp.Result, error) {
		t.Error("the middleware called the SDK for a cached list")
		return nil, errors.New("unexpected")
	}
	h := c.middleware(sdk)
	for m, res := range lists {
		marker, err := h(t.Context(), m, &mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []any{float64(7), "s<1>"} {
			wantSingle, wantBatch := sdkEncode(t, id, res)
			single, batch := sdkEncode(t, id, marker)
			if bytes.Equal(single, wantSingle) {
				t.Fatalf("%s: the marker is the result itself", m)
			}
			for _, tc := range []struct{ in, want []byte }{{single, wantSingle}, {batch, wantBatch}} {
				out.Reset()
				n, err := w.Write(tc.in)
				if err != nil || n != len(tc.in) {
					t.Fatalf("Write: %d, %v; want %d, nil", n, err, len(tc.in))
				}
				if diff := cmp.Diff(string(tc.want), out.String()); diff != "" {
					t.Errorf("%s id %v (-sdk +written):\n%s", m, id, diff)
				}
			}
		}
	}
	// The tag without a marker's ending, or the marker of a list not
	// cached, is written as it is (neither can come from the SDK).
	for _, in := range []string{
		`{"a":` + string(c.tag) + `9"}` + "\n",
		`{"a":` + string(c.tag) + `1"}` + "\n",
		`{"a":` + string(c.tag),
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
	} {
		out.Reset()
		if n, err := w.Write([]byte(in)); err != nil || n != len(in) || out.String() != in {
			t.Errorf("Write(%q) = %d, %v; wrote %q", in, n, err, out.String())
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestMarkWriterError checks that a failed write is reported.
func TestMarkWriterError(t *testing.T) {
	t.Parallel()
	c := newListCache()
	c.store("tools/list", &mcp.ListToolsResult{Tools: []*mcp.Tool{}})
	w := c.stdioWriter(failWriter{})
	single, _ := sdkEncode(t, float64(1), c.marks[0])
	for _, in := range [][]byte{single, []byte("{}\n")} {
		if n, err := w.Write(in); err == nil || n != 0 {
			t.Errorf("Write(%q) = %d, %v; want 0 and an error", in, n, err)
		}
	}
}
