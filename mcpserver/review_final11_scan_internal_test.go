package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
)

// escapeKeys writes the first byte of every plain key as \u00XX, which
// encoding/json reads as the same name and the hand scanner refuses: the
// same arguments, decided by the fallback.
func escapeKeys(raw string) string {
	re := regexp.MustCompile(`"([a-z])([a-zA-Z0-9_]*)"(\s*):`)
	return re.ReplaceAllStringFunc(raw, func(m string) string {
		return `"\u00` + fmt.Sprintf("%02x", m[1]) + m[2:]
	})
}

// answer is what args gives, comparable.
type reviewAnswer struct {
	Args toolArgs
	Err  string
}

func reviewArgs(h *handlers, raw string, allowed ...string) reviewAnswer {
	a, err := h.args([]byte(raw), allowed...)
	var e *registry.Error
	s := ""
	if errors.As(err, &e) {
		s = string(e.Code) + "|" + e.Country + "|" + e.Message + "|" + e.Hint
	} else if err != nil {
		s = err.Error()
	}
	return reviewAnswer{a, s}
}

// TestScanArgsScalarsMatchFallback (rev-final11, passes) checks the scanner's
// scalars against encoding/json's fallback on the tools' argument sets.
func TestScanArgsScalarsMatchFallback(t *testing.T) {
	reg, err := registry.New([]registry.Country{tinyCountry{}})
	if err != nil {
		t.Fatal(err)
	}
	h := &handlers{reg: reg, ops: ops.New(reg), log: slog.New(slog.DiscardHandler), tools: map[string]rawTool{}}
	digits := strings.Repeat("9", 5000)
	inputs := []string{
		`{"limit":5}`, `{"limit":1e400}`, `{"limit":-0}`, `{"limit":-0.0}`, `{"limit":01}`, `{"limit":1.0}`, `{"limit":1.5}`,
		`{"limit":5e0}`, `{"limit":1E1}`, `{"limit":-1}`, `{"limit":0}`, `{"limit":101}`, `{"limit":100}`, `{"limit":1e9}`, `{"limit":1e10}`,
		`{"limit":` + digits + `}`, `{"limit":0.` + digits + `}`, `{"limit":1` + digits + `e-5000}`, `{"limit":-` + digits + `}`,
		`{"limit":true}`, `{"limit":false}`, `{"limit":null}`, `{"limit":nul}`, `{"limit":tru}`, `{"limit":+1}`, `{"limit":.5}`,
		`{"name":"x","limit":5}`, `{"limit":5,"name":"x"}`, `{"limit":5,"name":"x","country":"NO"}`, `{"country":"SE","limit":0}`,
		`{"limit" : 5 }`, "{\"limit\":\t5\n}", "{\"limit\":5\r\n,\"name\":\"x\"}", `{ "name" : "x" , "limit" : 5 }`,
		`{"limit":5,"limit":6}`, `{"name":"a","limit":5,"name":"b"}`, `{"limit":5,}`, `{"limit":5 6}`, `{"limit":5]`, `{"limit":5`,
		`{"limit":5}x`, `{"limit":5} `, `{"limit":"5"}`, `{"limit":" 5"}`, `{"limit":""}`,
		`{"id":1}`, `{"id":true}`, `{"id":null}`, `{"id":-0}`, `{"country":1}`, `{"country":null,"id":"x"}`, `{"country":false}`,
		`{"today":null}`, `{"today":0}`, `{"today":2026}`, `{"name":null,"limit":null}`,
		`{"x":1}`, `{"x":null}`, `{"zz":true,"aa":1}`, `{"limit":5,"x":1e400}`, `{"country":"XX","x":1}`, `{"country":"XX","limit":1e400}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`, `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}`,
		`{"limit":1,"name":"n","country":"NO","id":"1","today":null}`,
	}
	allowedSets := [][]string{nil, {"id", "country"}, {"id", "country", "today"}, {"name", "country", "limit"},
		{"id", "name", "country", "today", "limit"}}
	for _, in := range inputs {
		esc := escapeKeys(in)
		if esc == in {
			t.Fatalf("%s: no key to escape", in)
		}
		if _, ok := scanArgs(bytes.TrimSpace([]byte(esc)), nil); ok {
			t.Fatalf("%s: the scanner takes the escaped form", esc)
		}
		for _, allowed := range allowedSets {
			want := reviewArgs(h, esc, allowed...)
			got := reviewArgs(h, in, allowed...)
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(toolArgs{})); diff != "" {
				t.Errorf("args(%.80s, %v) (-fallback +scanner):\n%s", in, allowed, diff)
			}
		}
	}
}
