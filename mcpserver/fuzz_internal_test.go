package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
)

// tinyCountry is the least a Registry needs for the argument parser.
type tinyCountry struct{}

func (tinyCountry) Info() registry.CountryInfo {
	return registry.CountryInfo{Country: "NO", Registry: "brreg"}
}
func (tinyCountry) Ready() error { return nil }
func (tinyCountry) Validate(in string) registry.ValidationResult {
	return registry.ValidationResult{Country: "NO", Registry: "brreg", Input: in}
}
func (tinyCountry) Lookup(context.Context, string) (*registry.CompanyReport, error) {
	return nil, errors.New("unused")
}
func (tinyCountry) Search(context.Context, string, int) (*registry.SearchResult, error) {
	return nil, errors.New("unused")
}
func (tinyCountry) Deadlines(*registry.CompanyReport, registry.Date) (*registry.DeadlineReport, error) {
	return nil, errors.New("unused")
}
func (tinyCountry) Rules() string { return "" }

// FuzzToolArgs checks that any tool arguments either decode or give a
// bad_request envelope, and never panic.
func FuzzToolArgs(f *testing.F) {
	for _, s := range []string{``, `null`, `{}`, `{"id":"923609016","country":"no"}`, `{"limit":"5"}`, `{"limit":1e400}`,
		`{"limit":-0.0}`, `{"today":null,"name":"x"}`, `[1]`, `{"id":1}`, `{"country":{"a":1}}`, `{"x":1,"y":2}`, `"str"`} {
		f.Add([]byte(s))
	}
	reg, err := registry.New([]registry.Country{tinyCountry{}})
	if err != nil {
		f.Fatal(err)
	}
	h := &handlers{reg: reg, ops: ops.New(reg), log: slog.New(slog.DiscardHandler), tools: map[string]rawTool{}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := h.args(raw, "id", "name", "country", "today", "limit")
		if err != nil {
			var e *registry.Error
			if !errors.As(err, &e) || e.Message == "" || e.Hint == "" ||
				!(e.Code == registry.CodeBadRequest || e.Code == registry.CodeUnsupportedCountry && e.Country != "NO") {
				t.Fatalf("args(%q) = %v, want a bad_request (or unsupported_country for a country other than NO) with message and hint", raw, err)
			}
			if _, merr := json.Marshal(e); merr != nil {
				t.Fatal(merr)
			}
			return
		}
		if a.country == "" {
			t.Fatalf("args(%q): empty country", raw)
		}
	})
}

// FuzzParseToolsCall checks that the fast path's request parsers (tools/call
// and the lists) never panic and accept only ids that the SDK echoes
// unchanged, and only the four list methods.
func FuzzParseToolsCall(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"id":"1"}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"b","method":"prompts/list","params":{"cursor":""}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":"x"}}`,
		`[{"jsonrpc":"2.0"}]`, `{}`, `null`,
		`{"jsonrpc":"2.0","id":-0,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"x"}}`,
	} {
		f.Add([]byte(s))
	}
	// The oracle's own copy of the ids the SDK echoes unchanged: integers
	// that survive float64 and int64 (no -0, below 2^53) and plain strings.
	echoed := regexp.MustCompile(`^(0|-?[1-9][0-9]{0,14})$|^"[A-Za-z0-9_.:-]{0,64}"$`)
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, ok := parseMessage(body)
		if !ok {
			return
		}
		id, _, _, ok := parseToolsCall(msg)
		if ok && !echoed.Match(id) {
			t.Fatalf("parseToolsCall(%q) accepted id %s", body, id)
		}
		id, method, ok := parseListRequest(msg)
		if ok && (!echoed.Match(id) || !isListMethod(method)) {
			t.Fatalf("parseListRequest(%q) accepted id %s, method %q", body, id, method)
		}
	})
}
