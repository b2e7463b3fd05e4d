package match_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/match"
)

// TestReview_MatchNameNotNFCBeforeLowering: 07ec45a removed nfc(name)
// from Score and puts text in NFC only after lower-casing, while NewQuery
// still applies NFC before it too, so query and name are no longer folded
// the same way. "İ" (U+0130) lowers to "i"; its decomposed form "I" +
// U+0307 lowers to "i" + U+0307, which NFC leaves as it is. A register
// name typed decomposed, "I\u0307STANBUL", against the query "İstanbul"
// (the same text, canonically equivalent) scored Exact on 3871337 and
// scores Other now; the package doc promises that a letter typed
// decomposed is the same letter as the precomposed one. Suggested fix:
// fold = nfc(lower(nfc(s))) for names too (as NewQuery), or restore
// nfc(name) in Score.
func TestReview_MatchNameNotNFCBeforeLowering(t *testing.T) {
	t.Parallel()
	type score struct {
		Confidence float64
		Basis      string
	}
	for _, c := range []struct{ query, name string }{
		{"\u0130stanbul", "I\u0307STANBUL"},
		{"\u0130stanbul Ticaret", "ACME I\u0307STANBUL TICARET"},
	} {
		want := score{match.Exact, match.BasisExact}
		if c.name[0] == 'A' {
			want = score{match.Tokens, match.BasisTokens}
		}
		var got score
		got.Confidence, got.Basis = match.NewQuery(c.query).Score(c.name)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Score(%+q) of %+q (-want +got):\n%s", c.query, c.name, diff)
		}
	}
}
