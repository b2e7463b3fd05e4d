package match_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/match"
)

// TestReview_MatchDottedIThenAccentNotNFC: 76622b8 removes the U+0307 of
// "i\u0307" after lowerNFC's last NFC, so a mark that the dot kept from
// composing with the i is left decomposed: "i\u0307\u0301" (Python's or
// JavaScript's lower() of "\u0130\u0301", the very case 76622b8 fixes for
// a bare İ) folds to "i\u0301", not NFC, while the name "\u0130\u0301"
// lowers (Go: U+0130 -> "i") to "i\u0301" and NFCs to U+00ED. The query
// that is the name lower-cased scores Other (and words() splits "i" from
// U+0301, a non-letter, so not even Tokens); fold's output is not in NFC,
// though the package doc says query and name are compared in NFC. (A
// canonical-equivalent pair always scores alike: both are put in NFC first.)
// Suggested fix: replace before the last NFC, nfc(caseless(lower(nfc(s)))).
func TestReview_MatchDottedIThenAccentNotNFC(t *testing.T) {
	t.Parallel()
	type score struct {
		Confidence float64
		Basis      string
	}
	type row struct {
		Query, Name string
		Got         score
	}
	var got, want []row
	for _, c := range []struct{ query, name string }{
		{"i\u0307\u0301stanbul", "\u0130\u0301STANBUL"}, // İ with an acute, lower-cased by Python
		{"\u0130\u0301stanbul", "i\u0307\u0301STANBUL"}, // and the other way round
		{"i\u0307\u0308", "\u0130\u0308"},               // İ with a diaeresis
	} {
		r := row{Query: c.query, Name: c.name}
		r.Got.Confidence, r.Got.Basis = match.NewQuery(c.query).Score(c.name)
		got = append(got, r)
		w := r
		w.Got = score{match.Exact, match.BasisExact}
		want = append(want, w)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("query and name equal after lower-casing (-want +got):\n%s", diff)
	}
}

// TestReview_MatchEqualFoldPairsScoredOther: 76622b8 makes "ς" one with
// "σ" because strings.EqualFold holds them equal (ToUpper(ς) is Σ, whose
// lower case is σ), but leaves every other letter of that kind apart: the
// micro sign µ (U+00B5, AltGr+M on a German or French keyboard) upper-cases
// to Greek Μ (U+039C), which lowers to μ (U+03BC), not µ; so a register that
// keeps names in capitals ("ΜLAB" is strings.ToUpper("µLab")) answers a
// hit that EqualFold-equals the query "µlab" and it scores Other (0.4),
// though BasisExact promises "ignoring letter case". The same for ſ, ϐ,
// ϑ, ϕ, ϖ, ϰ, ϱ, ϵ, U+1FBE and ẛ. Pre-existing, but 76622b8's own claim
// ("as strings.EqualFold has them") holds for ς only. Suggested fix: fold
// each rune as unicode.ToLower(unicode.ToUpper(r)) (µ is below U+0300, so
// the byte check must start at 0xC2 for it).
func TestReview_MatchEqualFoldPairsScoredOther(t *testing.T) {
	t.Parallel()
	type row struct {
		Query, Name string
		Confidence  float64
	}
	var got, want []row
	for _, r := range []rune{'µ', 'ſ', 'ϐ', 'ϑ', 'ϕ', 'ϖ', 'ϰ', 'ϱ', 'ϵ', '\u1fbe', 'ẛ', 'ς'} {
		q := string(r) + "lab"
		name := strings.ToUpper(q)
		if !strings.EqualFold(q, name) {
			t.Fatalf("the premise: EqualFold(%+q, %+q)", q, name)
		}
		c, _ := match.NewQuery(q).Score(name)
		got = append(got, row{q, name, c})
		want = append(want, row{q, name, match.Exact})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("query, the name upper-cased, confidence (-want +got):\n%s", diff)
	}
}

// TestReview_MatchDocEqualFoldDottedI: 76622b8's CHANGELOG entry ("a dotted
// i̇ ... and the final sigma ς now compare equal to i and σ, as
// strings.EqualFold has them") and doc/decisions.md ("stayed apart from i
// and σ, though strings.EqualFold holds them equal") say EqualFold holds
// "i\u0307" equal to "i"; it does not (simple folding maps rune to rune,
// and U+0130 has no simple folding either). The rationale the lead gives
// for the dotted i is false; the change is right for another reason
// (Unicode's full case folding and other languages' lower()). Suggested
// fix: say "as other languages lower-case İ" for the dotted i.
func TestReview_MatchDocEqualFoldDottedI(t *testing.T) {
	t.Parallel()
	got := map[string]bool{
		`EqualFold("i\u0307", "i")`: strings.EqualFold("i\u0307", "i"),
		`EqualFold("\u0130", "i")`:  strings.EqualFold("\u0130", "i"),
	}
	// Lead: the docs were corrected (the dotted i is folded because other
	// languages' lower() make it of "İ", not because EqualFold holds it
	// equal); this now records the stdlib's answer they rely on.
	want := map[string]bool{`EqualFold("i\u0307", "i")`: false, `EqualFold("\u0130", "i")`: false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EqualFold of the dotted i (-want +stdlib):\n%s", diff)
	}
}
