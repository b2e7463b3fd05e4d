package se

import (
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
)

// TestReview_SESearchPersonalNumberOtherSpellings: the change makes a
// search query that holds a personal identity number bad_request, so that
// the number is neither searched for, cached nor echoed in the answer's
// query (issue 26: "a personal identity number is … never logged, cached
// under its clear value"). Lookup refuses the same number written with
// the dashes ParseOrganisationsnummer accepts (U+2010 hyphen, U+2212
// minus, U+2011) — but Search lets these through, and lets the plain
// number through when it is next to punctuation a user naturally types
// ("(810105-2382)", "810105-2382,", "pnr:810105-2382"). The answer then
// carries the number in its query field and the Registry caches it under
// the clear value.
func TestReview_SESearchPersonalNumberOtherSpellings(t *testing.T) {
	t.Parallel()
	c := build(t, newRegister(t))
	for _, q := range []string{
		"Anna 810105\u20102382", // U+2010 hyphen
		"Anna 810105\u22122382", // U+2212 minus sign
		"810105\u20112382",      // U+2011 non-breaking hyphen
		"Anna (810105-2382)",
		"Anna 810105-2382,",
		"pnr:810105-2382",
	} {
		// The identifier parser itself calls the number personal (or it is
		// plainly one once the punctuation is taken away).
		num := strings.Trim(q[strings.IndexAny(q, "0123456789"):], "(),")
		if _, p := idcheck.ParseOrganisationsnummer(num); p != idcheck.ProblemPersonalNumber {
			t.Fatalf("%q: the parser says %v", num, p)
		}
		res, err := c.Search(t.Context(), q, 5)
		e := registry.AsError(err)
		if e == nil || e.Code != registry.CodeBadRequest {
			echoed := res != nil && strings.Contains(res.Query, "2382")
			t.Errorf("%q: searched (answer echoes the number: %t), want bad_request", q, echoed)
		}
	}
}
