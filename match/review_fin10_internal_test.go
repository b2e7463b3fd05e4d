package match

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_MatchCaselessAllocatesForEveryNonLatinName: 76622b8 runs its
// strings.Replacer on every lower-cased text with a byte of 0xCC or more,
// whether or not it holds "i\u0307" or "ς"; a Replacer of two multi-byte
// strings is the generic one, whose Replace always allocates its buffer and
// the string. So a French name with a typographic apostrophe (U+2019), a
// dash or "€", and every Greek, Cyrillic or CJK name, costs fold three
// allocations more than the same fold without the replacement (6, was 3),
// and Score does it twice (fold and words). doc/decisions.md says
// "allocations are unchanged", measured on names below U+0300 only.
// Suggested fix: call caseless.Replace only when strings.Contains(l,
// "\u0307") || strings.Contains(l, "ς").
func TestReview_MatchCaselessAllocatesForEveryNonLatinName(t *testing.T) {
	before := func(s string) string { // fold as it was in 76622b8^
		return strings.Join(strings.Fields(nfc(strings.ToLower(nfc(s)))), " ")
	}
	got, want := map[string]float64{}, map[string]float64{}
	for _, s := range []string{"L\u2019OISEAU BLEU", "ООО РОМАШКА", "ACME"} {
		if Fold(s) != before(s) {
			t.Fatalf("the premise: %+q has nothing to replace", s)
		}
		got[s] = testing.AllocsPerRun(50, func() { _ = Fold(s) })
		want[s] = testing.AllocsPerRun(50, func() { _ = before(s) })
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("allocations of fold (-before +76622b8):\n%s", diff)
	}
}
