package match_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/companyregistry/registry/match"
)

// TestConfidenceAnchors: the spec's table of confidence anchors for hits.
func TestConfidenceAnchors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query, name string
		want        float64
		basis       string
	}{
		{"equinor asa", "EQUINOR ASA", 0.95, match.BasisExact},
		{"EQUINOR  ASA ", "Equinor ASA", 0.95, match.BasisExact},
		{"equinor", "EQUINOR ASA", 0.8, match.BasisPrefix},
		{"equinor*", "EQUINOR ASA", 0.8, match.BasisPrefix},
		{"asa equinor", "EQUINOR ASA", 0.6, match.BasisTokens},
		{"you limited", "YOU  LIMITED", 0.95, match.BasisExact},
		{"digitaliserings", "DIGITALISERINGSDIREKTORATET", 0.8, match.BasisPrefix},
		{"direktoratet", "DIGITALISERINGSDIREKTORATET", 0.4, match.BasisOther}, // a substring is not a word
		{"statoil", "EQUINOR ASA", 0.4, match.BasisOther},
		{"bbc", "B.B.C. LIMITED", 0.4, match.BasisOther},
		{"ØRSTED", "ørsted as", 0.8, match.BasisPrefix},
		{"", "ANYTHING AS", 0.4, match.BasisOther},
	}
	for _, tc := range tests {
		t.Run(tc.query+"|"+tc.name, func(t *testing.T) {
			t.Parallel()
			got, basis := match.NewQuery(tc.query).Score(tc.name)
			if got != tc.want || basis != tc.basis {
				t.Errorf("Score = %v %q, want %v %q", got, basis, tc.want, tc.basis)
			}
		})
	}
}

// TestRegisterNames: the anchors on names as Brønnøysund and Companies
// House register them (upper case, suffixes, padding spaces).
func TestRegisterNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query, name string
		want        float64
	}{
		{"equinor asa", "EQUINOR ASA", 0.95},                                  // Norway
		{"EQUINOR ASA", "EQUINOR ASA", 0.95},                                  // Norway
		{"  Equinor   asa ", "EQUINOR ASA", 0.95},                             // Norway
		{"brønnøysundregistrene", "BRØNNØYSUNDREGISTRENE", 0.95},              // Norway
		{"equinor", "EQUINOR ASA", 0.8},                                       // Norway
		{"equi", "EQUINOR ASA", 0.8},                                          // Norway
		{"asa equinor", "EQUINOR ASA", 0.6},                                   // Norway
		{"ASA", "EQUINOR ASA", 0.6},                                           // Norway
		{"oljeselskap norske", "DEN NORSKE STATS OLJESELSKAP A.S", 0.6},       // Norway
		{"statoil", "EQUINOR ASA", 0.4},                                       // Norway
		{"equinor energy", "EQUINOR ASA", 0.4},                                // Norway
		{"quinor", "EQUINOR ASA", 0.4},                                        // Norway
		{"*", "EQUINOR ASA", 0.4},                                             // Norway
		{"Digitaliseringsdirektoratet*", "DIGITALISERINGSDIREKTORATET", 0.95}, // Norway
		{"equinor*", "EQUINOR ASA", 0.8},                                      // Norway
		{"you limited", "YOU  LIMITED", 0.95},                                 // United Kingdom
		{"Tesco PLC", "TESCO PLC", 0.95},                                      // United Kingdom
		{"tesco", "TESCO PLC", 0.8},                                           // United Kingdom
		{"plc tesco", "TESCO PLC", 0.6},                                       // United Kingdom
		{"tesco stores", "TESCO PLC", 0.4},                                    // United Kingdom
		{"you", "CLEVER TEC  LTD", 0.4},                                       // United Kingdom
		{"  ", "ANY LTD", 0.4},                                                // United Kingdom
	}
	for _, tc := range tests {
		t.Run(tc.query+"|"+tc.name, func(t *testing.T) {
			t.Parallel()
			if got, _ := match.NewQuery(tc.query).Score(tc.name); got != tc.want {
				t.Errorf("Score(%q) against %q = %v, want %v", tc.name, tc.query, got, tc.want)
			}
		})
	}
}

// FuzzScore: scoring never panics, always gives an anchor and a basis, and a
// name without a wildcard scores 0.95 against itself.
func FuzzScore(f *testing.F) {
	f.Add("equinor asa", "EQUINOR ASA")
	f.Add("a*", "")
	f.Add("BRØNNØYSUNDREGISTRENE", "brønnøy")
	f.Fuzz(func(t *testing.T, q, name string) {
		c, basis := match.NewQuery(q).Score(name)
		switch c {
		case match.Exact, match.Prefix, match.Tokens, match.Other:
		default:
			t.Fatalf("confidence %v is not an anchor", c)
		}
		if basis == "" {
			t.Fatal("no basis")
		}
		if strings.TrimSpace(name) != "" && !strings.Contains(name, "*") {
			if c, _ := match.NewQuery(name).Score(name); c != match.Exact {
				t.Errorf("Score(%q) against itself = %v", name, c)
			}
		}
	})
}

func BenchmarkScore(b *testing.B) {
	q := match.NewQuery("equinor asa")
	names := []string{"EQUINOR ASA", "EQUINOR ENERGY AS", "ASA EQUINOR HOLDING", "STATOIL PETROLEUM AS"}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			q.Score(n)
		}
	}
}

// BenchmarkScoreNonASCII scores precomposed (NFC) names with letters
// outside ASCII, as the Nordic and French registers write them.
func BenchmarkScoreNonASCII(b *testing.B) {
	q := match.NewQuery("bostadsrättsföreningen")
	names := []string{"Bostadsrättsföreningen Exempel", "BRØNNØYSUNDREGISTRENE", "SOCIÉTÉ GÉNÉRALE", "Århus Kommune"}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			q.Score(n)
		}
	}
}

// BenchmarkNewQuery prepares an ASCII and a precomposed query.
func BenchmarkNewQuery(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		match.NewQuery("equinor asa")
		match.NewQuery("Bostadsrättsföreningen Exempel")
	}
}

func ExampleQuery_Score() {
	q := match.NewQuery("equinor")
	for _, name := range []string{"EQUINOR", "EQUINOR ASA", "STATOIL ASA"} {
		c, _ := q.Score(name)
		fmt.Println(name, c)
	}
	// Output:
	// EQUINOR 0.95
	// EQUINOR ASA 0.8
	// STATOIL ASA 0.4
}

// TestSameID: a query that is a hit's identifier, however it is spaced or
// punctuated, scores the identifier anchor (the spec's CompanyReport table:
// "1.0 for an exact identifier lookup"); a name or another number does not.
func TestSameID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query, id string
		want      bool
	}{
		{"552032708", "552032708", true},
		{"552 032 708", "552032708", true},
		{" 923.609.016 ", "923609016", true},
		{"5560360793", "556036-0793", true},
		{"sc123456", "SC123456", true},
		{"55203270800038", "552032708", false}, // a SIRET is not its SIREN
		{"552032708", "", false},
		{"", "", false},
		{"Equinor", "923609016", false},
	}
	for _, tc := range tests {
		if got := match.SameID(tc.query, tc.id); got != tc.want {
			t.Errorf("SameID(%q, %q) = %v, want %v", tc.query, tc.id, got, tc.want)
		}
	}
}
