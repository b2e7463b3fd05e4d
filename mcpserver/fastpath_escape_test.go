package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzAppendPlainText checks the fast path's one-pass string encoder
// against encoding/json: whenever it accepts a text, it writes exactly what
// json.Marshal writes between the quotes; it accepts every valid UTF-8 text
// without control characters, <, >, &, U+2028, U+2029 or U+FFFD; and a
// refused text leaves the result unwritten.
func FuzzAppendPlainText(f *testing.F) {
	for _, s := range []string{``, `plain`, `{"name":"EQUINOR ASA","a\\b":"\"q\""}`, `Sør-Varanger`, "tab\there",
		`a<b`, "\u2028", "\ufffd", "\xff", `\\\"`, `"`, `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		buf.WriteString("prefix")
		ok := appendPlainText(&buf, s)
		plain := utf8.ValidString(s) && !strings.ContainsAny(s, "<>&\u2028\u2029\ufffd") &&
			strings.IndexFunc(s, func(r rune) bool { return r < 0x20 }) < 0
		if ok != plain {
			t.Fatalf("appendPlainText(%q) = %v, want %v", s, ok, plain)
		}
		if !ok {
			return
		}
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := "prefix\"" + strings.TrimPrefix(buf.String(), "prefix") + "\""; got != "prefix"+string(want) {
			t.Fatalf("appendPlainText(%q) wrote %s, json.Marshal %s", s, got, want)
		}

		// appendResult writes all or nothing.
		var out bytes.Buffer
		out.WriteString("x")
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
		if appendResult(&out, res) != ok || (!ok && out.String() != "x") {
			t.Fatalf("appendResult(%q): ok %v, wrote %q", s, ok, out.String())
		}
	})
}
