package match_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"

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

// TestDecomposedName: a name the register wrote with decomposed letters
// (A + U+030A for Å) scores like its precomposed spelling against a
// precomposed query, and a query with both forms mixed like either.
func TestDecomposedName(t *testing.T) {
	t.Parallel()
	type score struct {
		Confidence float64
		Basis      string
	}
	for _, c := range []struct {
		query, name string
		want        score
	}{
		{"\u00c5rhus kommune", "A\u030aRHUS KOMMUNE", score{match.Exact, match.BasisExact}},
		{"\u00e5rhus", "A\u030arhus Kommune", score{match.Prefix, match.BasisPrefix}},
		{"kommune \u00c5rhus", "A\u030arhus Kommune", score{match.Tokens, match.BasisTokens}},
		{"Soci\u00e9te\u0301", "SOCIE\u0301T\u00c9 G\u00c9N\u00c9RALE", score{match.Prefix, match.BasisPrefix}},
		{"Aarhus", "A\u030arhus Kommune", score{match.Other, match.BasisOther}}, // another spelling stays another word
	} {
		var got score
		got.Confidence, got.Basis = match.NewQuery(c.query).Score(c.name)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Score(%+q) of %+q (-want +got):\n%s", c.query, c.name, diff)
		}
	}
}

// FuzzScore: scoring never panics, always gives an anchor and a basis, a
// name without a wildcard scores 0.95 against itself, and the decomposed
// (NFD) spellings of query and name score as the strings themselves.
func FuzzScore(f *testing.F) {
	f.Add("equinor asa", "EQUINOR ASA")
	f.Add("a*", "")
	f.Add("BRØNNØYSUNDREGISTRENE", "brønnøy")
	f.Add("Socie\u0301te\u0301", "SOCI\u00c9T\u00c9 G\u00c9N\u00c9RALE")
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
		if d, _ := match.NewQuery(norm.NFD.String(q)).Score(norm.NFD.String(name)); d != c {
			t.Errorf("Score(%+q) of %+q = %v, but %v in NFD", q, name, c, d)
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

// ExampleFold: a name typed with a decomposed letter (o and U+0308) folds
// as the register's precomposed spelling, and Words gives its words.
func ExampleFold() {
	fmt.Println(match.Fold("  Öresund   Åkeri AB ") == match.Fold("O\u0308RESUND \u00c5KERI ab"))
	fmt.Printf("%q\n", match.Words("Bostadsrättsföreningen Exempel (BRF)"))
	// Output:
	// true
	// ["bostadsrättsföreningen" "exempel" "brf"]
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

// BenchmarkFoldSwedishNames: what folding a name for Sweden's index costs
// with Fold against the plain lower-casing the index used before (its
// own copy, without NFC): doc/decisions.md, "One folding, one date rule".
func BenchmarkFoldSwedishNames(b *testing.B) {
	names := []string{"Volvo Lastvagnar AB", "Bostadsrättsföreningen Solrosen 3", "Andersson & Söner Åkeri Aktiebolag",
		"HSB Bostadsrättsförening Örnen i Malmö", "Nordic Consulting Group AB", "Lindqvist Bygg Handelsbolag"}
	b.Run("lower", func(b *testing.B) {
		for b.Loop() {
			for _, n := range names {
				_ = strings.Join(strings.Fields(strings.ToLower(n)), " ")
			}
		}
	})
	b.Run("Fold", func(b *testing.B) {
		for b.Loop() {
			for _, n := range names {
				_ = match.Fold(n)
			}
		}
	})
}
