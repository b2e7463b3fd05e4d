package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	registry "github.com/companyregistry/registry"
)

// The library's error texts and hints speak of its operations by neutral
// names; the adapters send the REST route and MCP tool of the operation
// instead. Each phrase below is written by the library exactly as given,
// and SurfaceText rewrites it to what both adapters send, so the REST and
// MCP documents stay byte-identical to each other and to what they sent
// before the library's texts were made neutral.
const (
	// PhraseSearch ends a hint that offers a search by name (idcheck's
	// hints and the modules' invalid_id and not_found errors).
	PhraseSearch = "search by name with the search operation"
	// PhraseValidate names the validation that works without the
	// register (the UK module's not-ready hint).
	PhraseValidate = "the validate operation still works"
	// PhraseLookup names the lookup that gives a search hit's full report
	// (the Registry's hint of a search result with hits).
	PhraseLookup = "look up its id with the lookup operation"
)

// SurfaceText returns s with the library's neutral operation phrases
// rewritten to the REST route and MCP tool the adapters name for country:
// [PhraseSearch] becomes "search by name with search_company
// (GET /v1/{country}/search?q=<name>)" and [PhraseValidate]
// "validate_company_id still works" and [PhraseLookup] "look up its id with
// lookup_company (GET /v1/{country}/company/<id>)". Text without them is
// returned as it is, without allocating; so is any text when country is
// empty.
func SurfaceText(country, s string) string {
	if country == "" || !strings.Contains(s, " operation") {
		return s
	}
	if strings.Contains(s, PhraseSearch) {
		s = strings.ReplaceAll(s, PhraseSearch, "search by name with search_company (GET /v1/"+country+"/search?q=<name>)")
	}
	if strings.Contains(s, PhraseValidate) {
		s = strings.ReplaceAll(s, PhraseValidate, "validate_company_id still works")
	}
	if strings.Contains(s, PhraseLookup) {
		s = strings.ReplaceAll(s, PhraseLookup, surfaceLookup(country))
	}
	return s
}

// surfaceLookup is what [PhraseLookup] becomes for country.
func surfaceLookup(country string) string {
	return "look up its id with lookup_company (GET /v1/" + country + "/company/<id>)"
}

// SurfaceSearchJSON returns b, the JSON of a search result for country (a
// canonical code, as the result's own country member), with its hint as
// the adapters send it: [PhraseLookup] rewritten as [SurfaceText] does. b
// is never modified: a result without the phrase is returned as it is, one
// with it as a copy. The phrase and its rewriting are plain ASCII that
// JSON writes as it is but for "<" and ">", which are escaped as
// json.Marshal escapes them.
func SurfaceSearchJSON(country string, b []byte) []byte {
	if country == "" || !bytes.Contains(b, []byte(PhraseLookup)) {
		return b
	}
	with, err := json.Marshal(surfaceLookup(country))
	if err != nil {
		return b
	}
	return bytes.ReplaceAll(b, []byte(PhraseLookup), with[1:len(with)-1])
}

// surfaceError returns e with its message and hint as the adapters send
// them ([SurfaceText] for e's country): e itself when nothing changes, else
// a copy, so that an error the Registry shares (a cached not_found) is
// never modified.
func surfaceError(e *registry.Error) *registry.Error {
	msg, hint := SurfaceText(e.Country, e.Message), SurfaceText(e.Country, e.Hint)
	if msg == e.Message && hint == e.Hint {
		return e
	}
	c := *e
	c.Message, c.Hint = msg, hint
	return &c
}

// SurfaceValidation returns v with its reason and hint as the adapters send
// them ([SurfaceText] for v's country): v itself when nothing changes, else
// a copy. v is never modified. A nil v gives nil.
func SurfaceValidation(v *registry.ValidationResult) *registry.ValidationResult {
	if v == nil {
		return nil
	}
	var reason, hint *string
	changed := false
	if v.Reason != nil {
		if s := SurfaceText(v.Country, *v.Reason); s != *v.Reason {
			reason, changed = &s, true
		}
	}
	if v.Hint != nil {
		if s := SurfaceText(v.Country, *v.Hint); s != *v.Hint {
			hint, changed = &s, true
		}
	}
	if !changed {
		return v
	}
	c := *v
	if reason != nil {
		c.Reason = reason
	}
	if hint != nil {
		c.Hint = hint
	}
	return &c
}

// SearchJSON is the Registry's search answer as the adapters send it: the
// result's JSON with its hint surfaced ([SurfaceSearchJSON]), or the
// error. Like the Registry's bytes, the answer must not be modified.
func (o *Ops) SearchJSON(ctx context.Context, country, query string, limit int) ([]byte, error) {
	b, err := o.Backend.SearchJSON(ctx, country, query, limit)
	if err != nil {
		return nil, err
	}
	// The search succeeded, so the country has a module.
	info, _ := o.Module(country)
	return SurfaceSearchJSON(info.Country, b), nil
}
