package fr

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_FRQualiteSpellingOnePass: qualiteSpelling (9414daf) is one
// strings.Replacer, which replaces in a single pass, so a no-break space
// between "vice" and "président" becomes a space but the "vice président"
// it leaves is not rewritten to "vice-président": the vice-chair of a
// supervisory board, written "Vice\u00a0président du conseil de
// surveillance", is labelled "Chair of the supervisory board" (a wrong
// role on the wire). And the chair labels are not read without the
// accent, though the commit says "no accent": "PRESIDENT DU CONSEIL
// D'ADMINISTRATION" (capitals are often written unaccented) is "Other
// officer". Suggested fix: normalise in two steps (apostrophe and spaces,
// then the vice-chair), and add "president" → "président".
func TestReview_FRQualiteSpellingOnePass(t *testing.T) {
	t.Parallel()
	var got []string
	for _, q := range []string{
		"Vice\u00a0président du conseil de surveillance",
		"Vice\u00a0President du conseil d’administration",
		"PRESIDENT DU CONSEIL D'ADMINISTRATION",
		"President du conseil de surveillance",
	} {
		_, l := roleOf(q, false)
		got = append(got, l)
	}
	want := []string{"Vice-chair", "Vice-chair", "Chair of the board of directors", "Chair of the supervisory board"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}
