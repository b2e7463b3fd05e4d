package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
	"github.com/google/go-cmp/cmp"
)

// TestEnvelopeJSON: the envelope of an error, and a fixed internal_error
// envelope (the same as encoding that error) when it cannot be encoded.
func TestEnvelopeJSON(t *testing.T) {
	t.Parallel()
	nf := &registry.Error{Code: registry.CodeNotFound, Message: "gone", Country: "NO"}
	b, e := ops.EnvelopeJSON(fmt.Errorf("wrapped: %w", nf))
	want, _ := json.Marshal(nf)
	if string(b) != string(want) || e != nf {
		t.Errorf("EnvelopeJSON = %s, %v; want %s and the same *Error", b, e, want)
	}
	internal := &registry.Error{Code: registry.CodeInternalError, Message: "The error could not be encoded."}
	fallback, _ := json.Marshal(internal)
	for name, err := range map[string]error{
		"nil":         nil,
		"bad details": &registry.Error{Code: registry.CodeBadRequest, Details: map[string]any{"f": func() {}}},
	} {
		b, e := ops.EnvelopeJSON(err)
		if string(b) != string(fallback) {
			t.Errorf("%s: body %s, want %s", name, b, fallback)
		}
		if e.Code != registry.CodeInternalError || e.Message != internal.Message {
			t.Errorf("%s: error %+v, want the internal_error", name, e)
		}
	}
}

// fakeCountry is a minimal module: country NO, registry fake.
type fakeCountry struct{}

func (fakeCountry) Info() registry.CountryInfo {
	return registry.CountryInfo{Country: "NO", Registry: "fake", Name: "Fake", IDScheme: "six digits"}
}
func (fakeCountry) Ready() error { return nil }
func (fakeCountry) Validate(in string) registry.ValidationResult {
	return registry.ValidationResult{Country: "NO", Registry: "fake", Input: in}
}
func (fakeCountry) Lookup(context.Context, string) (*registry.CompanyReport, error) { return nil, nil }
func (fakeCountry) Search(context.Context, string, int) (*registry.SearchResult, error) {
	return nil, nil
}
func (fakeCountry) Deadlines(*registry.CompanyReport, registry.Date) (*registry.DeadlineReport, error) {
	return nil, nil
}
func (fakeCountry) Rules() string { return "" }

func newOps(t *testing.T) *ops.Ops {
	t.Helper()
	reg, err := registry.New([]registry.Country{fakeCountry{}})
	if err != nil {
		t.Fatal(err)
	}
	return ops.New(reg)
}

// TestBadRequestChecksTheCountryFirst: an adapter's parameter error is the
// Registry's own unsupported_country for an unknown code (spec endpoint
// rule 7) and otherwise a bad_request naming the country and registry.
func TestBadRequestChecksTheCountryFirst(t *testing.T) {
	t.Parallel()
	r := newOps(t)
	_, want := r.Reg.Validate("uk", "123456")
	if diff := cmp.Diff(registry.AsError(want), r.BadRequest("uk", "m", "h")); diff != "" {
		t.Errorf("unknown country (-want +got):\n%s", diff)
	}
	for _, in := range []string{"NO", " no "} {
		want := &registry.Error{Code: registry.CodeBadRequest, Message: "m", Hint: "h", Country: "NO", Registry: "fake"}
		if diff := cmp.Diff(want, r.BadRequest(in, "m", "h")); diff != "" {
			t.Errorf("BadRequest(%q) (-want +got):\n%s", in, diff)
		}
	}
}

// TestParseLimit: an absent limit is the default, a given one must be an
// integer (empty is not), and an unknown country wins (spec endpoint rule 7).
func TestParseLimit(t *testing.T) {
	t.Parallel()
	r := newOps(t)
	tests := []struct {
		raw     string
		present bool
		want    int
		msg     string
	}{
		{"", false, registry.DefaultSearchLimit, ""},
		{"7", true, 7, ""},
		{"0", true, 0, ""}, // the range is Search's
		{"", true, 0, `limit must be an integer from 1 to 100; got "".`},
		{"1.5", true, 0, `limit must be an integer from 1 to 100; got "1.5".`},
		{strings.Repeat("9", 50), true, 0, `limit must be an integer from 1 to 100; got "` + strings.Repeat("9", 40) + `...".`},
	}
	for _, tc := range tests {
		n, err := r.ParseLimit("no", tc.raw, tc.present)
		if tc.msg == "" {
			if err != nil || n != tc.want {
				t.Errorf("ParseLimit(%q, %v) = %d, %v; want %d", tc.raw, tc.present, n, err, tc.want)
			}
			continue
		}
		want := &registry.Error{Code: registry.CodeBadRequest, Country: "NO", Registry: "fake", Message: tc.msg,
			Hint: "Retry with limit between 1 and 100 (default 10)."}
		if diff := cmp.Diff(want, registry.AsError(err)); diff != "" {
			t.Errorf("ParseLimit(%q) (-want +got):\n%s", tc.raw, diff)
		}
	}
	if _, err := r.ParseLimit("SE", "x", true); !errors.Is(err, registry.ErrUnsupportedCountry) {
		t.Errorf("unknown country: %v, want unsupported_country", err)
	}
}

// TestUnknownMember: the least name in byte order that is not allowed,
// the empty name included (it sorts first); none when every name is.
func TestUnknownMember(t *testing.T) {
	t.Parallel()
	type result struct {
		Name  string
		Found bool
	}
	members := func(names ...string) map[string]json.RawMessage {
		m := map[string]json.RawMessage{}
		for _, n := range names {
			m[n] = json.RawMessage(`1`)
		}
		return m
	}
	got := map[string]result{}
	for name, m := range map[string]map[string]json.RawMessage{
		"all allowed":     members("ids", "today"),
		"one unknown":     members("ids", "zz"),
		"least of two":    members("zz", "id", "today"),
		"empty name":      members("ids", ""),
		"empty and other": members("zz", "", "aa"),
		"none":            members(),
	} {
		n, ok := ops.UnknownMember(m, "ids", "today")
		got[name] = result{n, ok}
	}
	want := map[string]result{
		"all allowed": {}, "one unknown": {"zz", true}, "least of two": {"id", true},
		"empty name": {"", true}, "empty and other": {"", true}, "none": {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
