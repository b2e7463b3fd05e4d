package idcheck_test

import (
	"strings"
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
		{"556016-0680", false},                 // an organisation number
		{"Volvo AB 556016-0680", false},        // an organisation number
		{"165560160680", false},                // its twelve-digit form
		{"SE556016068001", false},              // its VAT number
		{"0123456789012", false},               // thirteen digits in a row
		{"810105-238", false},                  // nine digits
		{"Bygg 2010 AB", false},                // a year
		{"81 01 05", false},                    // six digits
		{"810105/2382", false},                 // a slash is no separator of the number
		{"8101052382 1", true},                 // ten digits, then another group
		{"\xff810105-2382\xff", true},          // invalid UTF-8 around it
		{"SE", false},                          // the prefix alone
		{"E810105238201", false},               // twelve digits that start with 81, no SE
		{"S E810105238201", false},             // S and E apart
		{"SE 1 810105238201", false},           // SE belongs to the first group only
		{"Hotell 1912 & Co 0000000000", false}, // month 00, day 00: no date of birth
		{"Anna 810165-2382", true},             // a samordningsnummer: day 05 + 60
		{"Anna 810192-2382", false},            // day 92: neither
		{"Anna 811305-2382", false},            // month 13
		{"Anna 19810165 2382", true},           // twelve digits, samordningsnummer
		{"SE810165238201", true},               // a VAT number holding a samordningsnummer
		{"SE811305238201", false},              // a VAT number: YYMMDD 81 13 05, month 13
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
		if _, p := idcheck.ParseOrganisationsnummer(in); p == idcheck.ProblemPersonalNumber && !got && dateOfBirth(in) {
			t.Fatalf("%q is a personal identity number, not found", in)
		}
		if wrapped := idcheck.ContainsPersonalNumber("Anna (" + in + "),"); wrapped != got {
			t.Fatalf("%q: %t alone, %t between words and punctuation", in, got, wrapped)
		}
	})
}

// dateOfBirth reports, of an input ParseOrganisationsnummer reads as a
// personal identity number, whether its digits hold a date of birth (month
// 01–12, day 01–31 or 61–91): written apart from the code it checks.
func dateOfBirth(in string) bool {
	var ds []int
	for _, r := range in {
		if r >= '0' && r <= '9' {
			ds = append(ds, int(r-'0'))
		}
	}
	at := 2
	upper := strings.ToUpper(in)
	if len(ds) == 12 && !strings.Contains(upper, "SE") {
		at = 4
	}
	if len(ds) < at+4 {
		return false
	}
	m, d := ds[at]*10+ds[at+1], ds[at+2]*10+ds[at+3]
	return m >= 1 && m <= 12 && (d >= 1 && d <= 31 || d >= 61 && d <= 91)
}
