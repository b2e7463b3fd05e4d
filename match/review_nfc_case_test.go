package match_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/match"
)

// TestReview_MatchNFCThenLowerNotNFC: query and name are brought to NFC
// before they are lower-cased, but lower-casing an NFC string can leave a
// string that is not NFC: "J" + U+030C (no precomposed capital J with caron)
// lowers to "j" + U+030C, whose NFC is U+01F0 ǰ; Greek capital iota with
// dialytika and tonos (U+03AA U+0301) lowers to U+03CA U+0301, whose NFC is
// U+0390 ΐ. So a name that equals the query ignoring letter case, in NFC,
// scores Other instead of Exact. Fix: normalise after lower-casing.
func TestReview_MatchNFCThenLowerNotNFC(t *testing.T) {
	t.Parallel()
	type score struct {
		Confidence float64
		Basis      string
	}
	for _, c := range []struct{ query, name string }{
		{"\u01f0ansen", "J\u030cANSEN"},
		{"\u0390\u03c1\u03b9\u03c3", "\u03aa\u0301\u03a1\u0399\u03a3"},
	} {
		var got score
		got.Confidence, got.Basis = match.NewQuery(c.query).Score(c.name)
		if diff := cmp.Diff(score{match.Exact, match.BasisExact}, got); diff != "" {
			t.Errorf("Score(%+q) of %+q (-want +got):\n%s", c.query, c.name, diff)
		}
	}
}
