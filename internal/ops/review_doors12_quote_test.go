package ops_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/ops"
)

// TestReview_Doors12QuoteHidesPersonalNumbers (doors12 item 4): Quote
// writes a caller's value as %q of its Shown form, unless the value, the
// shown cut or its quote has the form of a Swedish personal identity
// number (idcheck.ContainsPersonalNumber, the rule change monitoring
// applies to an invalid id): then NotQuoted stands in for it.
func TestReview_Doors12QuoteHidesPersonalNumbers(t *testing.T) {
	t.Parallel()
	x30 := strings.Repeat("x", 30)
	in := []string{
		"idz",                       // a name
		"810105-2382",               // the form of a personal number
		"pnr:8101052382",            // inside a word
		x30 + "8101052382" + "5",    // eleven digits: none, but the 40-byte cut holds ten
		"\x81" + "0105-2382",        // %q writes \x81, joining the digits after it
		strings.Repeat("y", 45),     // long, cut
		x30 + "0123456789012",       // thirteen digits: no date of birth is searched for in them
		"08-123 456 78",             // a telephone number (day 34)
		"limit=810105\u20102382 ok", // U+2010 hyphen
	}
	var got []string
	for _, s := range in {
		got = append(got, ops.Quote(s))
	}
	want := []string{
		`"idz"`,
		ops.NotQuoted,
		ops.NotQuoted,
		ops.NotQuoted,
		ops.NotQuoted,
		`"` + strings.Repeat("y", 40) + `..."`,
		`"` + x30 + `0123456789..."`,
		`"08-123 456 78"`,
		ops.NotQuoted,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Quote (-want +got):\n%s", diff)
	}
	if shown, ok := ops.Quotable("idz"); !ok || shown != "idz" {
		t.Errorf("Quotable(idz) = %q, %v", shown, ok)
	}
	if shown, ok := ops.Quotable("810105-2382"); ok || shown != "" {
		t.Errorf("Quotable(810105-2382) = %q, %v", shown, ok)
	}
}
