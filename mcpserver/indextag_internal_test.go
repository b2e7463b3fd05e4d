package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// tagCases are inputs where a search for a quote-led tag can go wrong:
// quotes everywhere, the text without its quote, a tag at either end, a
// tag that overlaps a partial one, several tags.
func tagCases(tag []byte) [][]byte {
	text := tag[1:]
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	return [][]byte{
		nil,
		[]byte(`"`),
		tag,
		text,
		cat(text, tag),
		cat([]byte(`""""`), text, []byte(`"`), tag[:len(tag)-1]),
		cat([]byte(`{"a":`), tag, []byte(`0"}`)),
		cat(tag, []byte(`1"`), tag, []byte(`t12"`)),
		cat([]byte(`"`), tag), // the quote before the tag's own quote
		cat(tag[:len(tag)/2+1], tag),
		bytes.Repeat([]byte(`"a",`), 2000),
		cat(bytes.Repeat([]byte(`"a",`), 2000), tag),
		cat(text, bytes.Repeat([]byte(`x"`), 100), text, []byte(`"`), tag),
	}
}

// TestIndexTag: indexTag finds the tag where bytes.Index does.
func TestIndexTag(t *testing.T) {
	tag := []byte(`"ABCDEFGHIJKLMNOPQRSTUVWXYZ`)
	for i, p := range tagCases(tag) {
		if got, want := indexTag(p, tag), bytes.Index(p, tag); got != want {
			t.Errorf("case %d (%.60q): indexTag = %d, bytes.Index = %d", i, p, got, want)
		}
	}
}

// FuzzIndexTag: indexTag is bytes.Index for any input and any tag of a
// quote and at least one more byte.
func FuzzIndexTag(f *testing.F) {
	tag := []byte(`"ABCDEF`)
	for _, p := range tagCases(tag) {
		f.Add(p, tag[1:])
	}
	f.Add([]byte(`""x""x`), []byte(`"x`))
	f.Fuzz(func(t *testing.T, p, text []byte) {
		if len(text) == 0 {
			return
		}
		tag := append([]byte(`"`), text...)
		if got, want := indexTag(p, tag), bytes.Index(p, tag); got != want {
			t.Fatalf("indexTag(%q, %q) = %d, bytes.Index = %d", p, tag, got, want)
		}
	})
}

// BenchmarkMarkWriterNoMarker: a markWriter passing on a 6.5 KB answer
// without a marker, as every answer of stdioIn's is: a tools/call result
// whose text is a JSON report of short fields (a quote every few bytes,
// as in the NO report perfbench stdio reads).
func BenchmarkMarkWriterNoMarker(b *testing.B) {
	fields := map[string]string{}
	for i := range 220 {
		fields[fmt.Sprintf("field_%03d", i)] = fmt.Sprintf("value %d", i)
	}
	text, err := json.Marshal(fields)
	if err != nil {
		b.Fatal(err)
	}
	report, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7,
		"result": map[string]any{"content": []any{map[string]string{"type": "text", "text": string(text)}}}})
	if err != nil {
		b.Fatal(err)
	}
	c := newListCache()
	mw := c.stdioWriter(discard{})
	b.SetBytes(int64(len(report)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mw.Write(report); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
