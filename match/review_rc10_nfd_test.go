package match_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/match"
)

// TestReview_MatchDecomposedQueryScoredOther: the Registry ranks every
// country's hits with this package. A query typed with decomposed accents
// (e + U+0301 for é, A + U+030A for Å), canonically equivalent to the
// register's precomposed name, is scored 0.4 "does not contain every word"
// where the anchors of the interface give 0.95 (the name equals the
// query) or 0.8 (starts with it): words splits at the combining mark, and
// nothing brings both sides to one normal form.
func TestReview_MatchDecomposedQueryScoredOther(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		query, name string
		want        float64
	}{
		{"Socie\u0301te\u0301 Ge\u0301ne\u0301rale", "SOCI\u00c9T\u00c9 G\u00c9N\u00c9RALE", match.Exact},
		{"A\u030aRHUS", "\u00c5rhus Kommune", match.Prefix},
		{"Kommune A\u030arhus", "\u00c5rhus Kommune", match.Tokens},
	} {
		got, _ := match.NewQuery(c.query).Score(c.name)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Score(%+q) of %q (-want +got):\n%s", c.query, c.name, diff)
		}
	}
}
