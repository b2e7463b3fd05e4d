package ops_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/ops"
)

// TestReview_Final11ShownKeepsTheFirstBytes (rev-final11): Shown's doc
// says a long value is quoted as "its first ShownMax bytes (no rune cut in
// two)". strings.ToValidUTF8 on the first 40 bytes drops every invalid byte
// among them, not only a rune cut at the end: REST's ?limit= is query-
// unescaped, so limit=%FF... (41 bytes) is quoted `got "..."` where 40
// bytes gave `got "\xff…"`, and "1\xff2…" loses its \xff. A value of at
// most 40 bytes keeps its invalid bytes (%q escapes them), so the quote
// changes with the length. Fix: drop only an incomplete rune at the cut.
func TestReview_Final11ShownKeepsTheFirstBytes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{strings.Repeat("\xff", 41), strings.Repeat("\xff", 40) + "..."},
		{"1\xff2" + strings.Repeat("3", 40), "1\xff2" + strings.Repeat("3", 37) + "..."},
		{strings.Repeat("a", 39) + "ø", strings.Repeat("a", 39) + "..."}, // the cut rune: dropped, as documented
	} {
		if diff := cmp.Diff(tc.want, ops.Shown(tc.in)); diff != "" {
			t.Errorf("Shown(%q) (-doc +got):\n%s", tc.in, diff)
		}
	}
}
