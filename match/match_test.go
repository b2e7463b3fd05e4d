package match_test

import (
	"fmt"
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

func FuzzScore(f *testing.F) {
	f.Add("equinor asa", "EQUINOR ASA")
	f.Add("a*", "")
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
