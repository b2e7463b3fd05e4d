package idcheck_test

import (
	"testing"

	"github.com/companyregistry/registry/idcheck"
)

// TestContainsPersonalNumber: a search query that holds a personal
// identity number is refused wherever the number stands and whichever
// separator it is written with, as ParseOrganisationsnummer would read it
// (the research, se-deadlines.md "the organisation number and the personal
// identity number": the third and fourth digits of an organisation number
// are at least 20; personnummer, folkbokföringslagen 18 §, are a date of
// birth, YYMMDD-NNNN or YYYYMMDD-NNNN).
func TestContainsPersonalNumber(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"810105-2382", true},
		{"Anna 810105-2382", true},
		{"Anna 810105\u20102382", true}, // U+2010 hyphen
		{"Anna 810105\u20112382", true}, // U+2011 non-breaking hyphen
		{"Anna 810105\u22122382", true}, // U+2212 minus sign
		{"Anna 810105\u20132382", true}, // en dash
		{"Anna 810105+2382", true},      // over a hundred years old
		{"Anna (810105-2382)", true},
		{"Anna 810105-2382,", true},
		{"pnr:810105-2382", true},
		{"pnr810105-2382x", true},
		{"Anna 19810105-2382", true},
		{"Anna 19810105 2382 Stockholm", true},
		{"Anna 810105-2382 5", true}, // a group after it
		{"12 810105-2382", true},     // a group before it
		{"8101052382", true},
		{"198101052382", true},
		{"SE810105238201", true},
		{"moms: se 810105-2382 01", true},
		{"Firma SE810105238201.", true},
		{"810105\u00a02382", true}, // NBSP
		{"810105-2382 och 556016-0680", true},

		{"", false},
		{"Volvo", false},
		{"556016-0680", false},                // an organisation number
		{"Volvo AB 556016-0680", false},       // an organisation number
		{"165560160680", false},               // its twelve-digit form
		{"SE556016068001", false},             // its VAT number
		{"0123456789012", false},              // thirteen digits in a row
		{"810105-238", false},                 // nine digits
		{"Bygg 2010 AB", false},               // a year
		{"81 01 05", false},                   // six digits
		{"810105/2382", false},                // a slash is no separator of the number
		{"8101052382 1", true},                // ten digits, then another group
		{"\xff810105-2382\xff", true},         // invalid UTF-8 around it
		{"SE", false},                         // the prefix alone
		{"E810105238201", false},              // twelve digits that start with 81, no SE
		{"S E810105238201", false},            // S and E apart
		{"SE 1 810105238201", false},          // SE belongs to the first group only
		{"Hotell 1912 & Co 0000000000", true}, // ten digits of a date shape
	} {
		if got := idcheck.ContainsPersonalNumber(tt.in); got != tt.want {
			t.Errorf("ContainsPersonalNumber(%q) = %t, want %t", tt.in, got, tt.want)
		}
	}
}

// Not parallel: testing.AllocsPerRun panics in a parallel test.
func TestContainsPersonalNumberAllocs(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	for _, in := range []string{"Anna (SE 810105\u20102382 01)", "Volvo AB 556016-0680"} {
		if allocs := testing.AllocsPerRun(100, func() { _ = idcheck.ContainsPersonalNumber(in) }); allocs != 0 {
			t.Errorf("ContainsPersonalNumber(%q) allocates %.0f times", in, allocs)
		}
	}
}

// FuzzContainsPersonalNumber: a string that ParseOrganisationsnummer reads
// as a personal identity number is found, alone and between words and
// punctuation; nothing panics.
func FuzzContainsPersonalNumber(f *testing.F) {
	for _, s := range []string{"810105-2382", "Anna (810105\u20102382)", "SE810105238201", "556016-0680", "", "\xff", "SE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := idcheck.ContainsPersonalNumber(in)
		if _, p := idcheck.ParseOrganisationsnummer(in); p == idcheck.ProblemPersonalNumber && !got {
			t.Fatalf("%q is a personal identity number, not found", in)
		}
		if wrapped := idcheck.ContainsPersonalNumber("Anna (" + in + "),"); wrapped != got {
			t.Fatalf("%q: %t alone, %t between words and punctuation", in, got, wrapped)
		}
	})
}
