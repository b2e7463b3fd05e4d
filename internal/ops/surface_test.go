package ops_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/gb"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/ops"
)

// The library writes the neutral phrases; SurfaceText gives the text the
// adapters sent before the library's texts were made neutral, byte for
// byte, and leaves every other text (and an empty country) alone.
func TestSurfaceText(t *testing.T) {
	t.Parallel()
	tests := []struct{ country, in, want string }{
		{"NO", "Check the number, or " + ops.PhraseSearch + ".",
			"Check the number, or search by name with search_company (GET /v1/NO/search?q=<name>)."},
		{"FI", "Check the ID. Or " + ops.PhraseSearch + ". Sole traders may be missing.",
			"Check the ID. Or search by name with search_company (GET /v1/FI/search?q=<name>). Sole traders may be missing."},
		{"GB", "Set the key; until then " + ops.PhraseValidate + " for GB.",
			"Set the key; until then validate_company_id still works for GB."},
		{"NO", "Call the countries operation and choose a country code from it.", "Call the countries operation and choose a country code from it."},
		{"", "Check the number, or " + ops.PhraseSearch + ".", "Check the number, or " + ops.PhraseSearch + "."},
		{"NO", "", ""},
	}
	for _, tt := range tests {
		if got := ops.SurfaceText(tt.country, tt.in); got != tt.want {
			t.Errorf("SurfaceText(%q, %q):\n got %q\nwant %q", tt.country, tt.in, got, tt.want)
		}
	}
	// A text without a phrase comes back as the same string, not a copy.
	plain := strings.Repeat("Retry once; the register did not answer. ", 2)
	if got := ops.SurfaceText("NO", plain); unsafe.StringData(got) != unsafe.StringData(plain) {
		t.Error("SurfaceText copied a text without a phrase")
	}
}

// Every hint of idcheck is neutral in the Go API (no tool, no route) and
// names the REST route and MCP tool of its own country once surfaced.
func TestIDCheckHintsSurface(t *testing.T) {
	t.Parallel()
	hints := map[string]func(idcheck.Problem) string{
		"NO": idcheck.NorwayHint, "GB": idcheck.UKHint, "FI": idcheck.FinlandHint,
		"DK": idcheck.DenmarkHint, "SE": idcheck.SwedenHint,
	}
	for k := idcheck.FrenchUnknown; k <= idcheck.FrenchVATNumber; k++ {
		hints["FR/"+k.String()] = func(p idcheck.Problem) string { return idcheck.FranceHint(k, p) }
	}
	for name, hint := range hints {
		country, _, _ := strings.Cut(name, "/")
		for p := idcheck.ProblemEmpty; p <= idcheck.ProblemVATNumber+1; p++ {
			h := hint(p)
			if strings.Contains(h, "search_company") || strings.Contains(h, "/v1/") || !strings.Contains(h, ops.PhraseSearch) {
				t.Errorf("%s %v: the Go API's hint %q is not neutral", country, p, h)
			}
			want := "search by name with search_company (GET /v1/" + country + "/search?q=<name>)"
			if got := ops.SurfaceText(country, h); !strings.Contains(got, want) || strings.Contains(got, " operation") {
				t.Errorf("%s %v: surfaced hint %q does not name %q", country, p, got, want)
			}
		}
	}
}

// EnvelopeJSON sends the surfaced hint without changing the error it was
// given (a cached not_found is shared); an error without a phrase is
// returned as is.
func TestEnvelopeJSONSurfaces(t *testing.T) {
	t.Parallel()
	hint := "Check the number for a mistyped or swapped digit, or " + ops.PhraseSearch + "."
	in := &registry.Error{Code: registry.CodeInvalidID, Message: "The ninth digit is wrong.", Hint: hint, Country: "NO", Registry: "brreg"}
	b, e := ops.EnvelopeJSON(in)
	want := `{"error":{"code":"invalid_id","message":"The ninth digit is wrong.",` +
		`"hint":"Check the number for a mistyped or swapped digit, or search by name with search_company (GET /v1/NO/search?q=\u003cname\u003e).",` +
		`"country":"NO","registry":"brreg","details":{}}}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("envelope (-want +got):\n%s", diff)
	}
	if in.Hint != hint || e == in || e.Code != in.Code {
		t.Errorf("the given error changed (%q) or was not copied", in.Hint)
	}

	// The UK module without a key: its not-ready hint names the validate
	// operation in Go and validate_company_id on the wire.
	m, err := gb.New()
	if err != nil {
		t.Fatal(err)
	}
	ready := registry.AsError(m.Ready())
	if strings.Contains(ready.Hint, "validate_company_id") || !strings.Contains(ready.Hint, ops.PhraseValidate) {
		t.Errorf("the Go API's not-ready hint %q is not neutral", ready.Hint)
	}
	b, _ = ops.EnvelopeJSON(ready)
	if !strings.Contains(string(b), "until then validate_company_id still works for GB.") {
		t.Errorf("envelope %s does not name validate_company_id", b)
	}
}

// SurfaceValidation rewrites a result's hint in a copy; a result without a
// phrase, and nil, come back as they are.
func TestSurfaceValidation(t *testing.T) {
	t.Parallel()
	hint := "Check the ID, or " + ops.PhraseSearch + "."
	reason := "The check digit is wrong."
	in := &registry.ValidationResult{Country: "FI", Registry: "prh", Input: "0112038-8", Reason: &reason, Hint: &hint}
	out := ops.SurfaceValidation(in)
	if out == in || *in.Hint != "Check the ID, or "+ops.PhraseSearch+"." || out.Reason != in.Reason {
		t.Errorf("the given result changed or was not copied: %+v", in)
	}
	b, _ := json.Marshal(out)
	if !strings.Contains(string(b), `search by name with search_company (GET /v1/FI/search?q=\u003cname\u003e).`) {
		t.Errorf("surfaced result %s", b)
	}
	valid := &registry.ValidationResult{Country: "FI", Valid: true, Reason: &reason}
	if ops.SurfaceValidation(valid) != valid || ops.SurfaceValidation(nil) != nil {
		t.Error("a result without a phrase (or nil) was copied")
	}
}

// hitsCountry answers every search with two hits.
type hitsCountry struct{ fakeCountry }

func (hitsCountry) Search(_ context.Context, q string, _ int) (*registry.SearchResult, error) {
	return &registry.SearchResult{Country: "NO", Registry: "fake", Query: q, Hits: []registry.SearchHit{
		{Country: "NO", Registry: "fake", ID: "123456", Name: "ACME AS"},
		{Country: "NO", Registry: "fake", ID: "654321", Name: "ACME HOLDING AS"},
	}}, nil
}

// Every search answer with hits carries a hint (spec, SearchHit: a hit "is
// deliberately thin and must not be acted on directly"): neutral in the Go
// API, naming lookup_company and its route on the wire; the Registry's
// cached bytes are never changed by the rewriting.
func TestSearchHintSurfaces(t *testing.T) {
	t.Parallel()
	reg, err := registry.New([]registry.Country{hitsCountry{}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := reg.Search(t.Context(), "NO", "acme", 10)
	if err != nil {
		t.Fatal(err)
	}
	if res.Hint == nil || !strings.Contains(*res.Hint, ops.PhraseLookup) || strings.Contains(*res.Hint, "lookup_company") {
		t.Errorf("the Go API's hint %v is not the neutral one naming the lookup", res.Hint)
	}
	o := ops.New(reg)
	const want = `"hint":"A hit is thin and not to be acted on directly: look up its id with lookup_company ` +
		`(GET /v1/NO/company/\u003cid\u003e) for the full report first."`
	for range 2 { // live, then from the cache
		b, err := o.SearchJSON(t.Context(), "no", "acme", 10)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("adapter's search answer lacks %s:\n%s", want, b)
		}
		var doc registry.SearchResult
		if err := json.Unmarshal(b, &doc); err != nil || strings.Contains(*doc.Hint, " operation") {
			t.Errorf("surfaced answer does not decode or keeps the neutral phrase (%v): %s", err, b)
		}
	}
	raw, err := o.Backend.SearchJSON(t.Context(), "NO", "acme", 10)
	if err != nil || !strings.Contains(string(raw), ops.PhraseLookup) {
		t.Errorf("the Registry's stored answer was changed (%v): %s", err, raw)
	}
	if got := ops.SurfaceText("GB", "Then "+ops.PhraseLookup+"."); got != "Then look up its id with lookup_company (GET /v1/GB/company/<id>)." {
		t.Errorf("SurfaceText = %q", got)
	}
	plain := []byte(`{"hint":null}`)
	if got := ops.SurfaceSearchJSON("NO", plain); &got[0] != &plain[0] {
		t.Error("SurfaceSearchJSON copied an answer without the phrase")
	}
}
