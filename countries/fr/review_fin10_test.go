package fr

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_FRViceChairSpacedDashReadAsChair: 76622b8 reads a qualité
// "without ... hyphen or spacing differences", but it joins "vice" and
// "president" only when they are one space apart or joined by U+2010..
// U+2013 with no space: a hyphen or dash with spaces around it ("Vice -
// Président", and "Vice – Président", which a word processor's autocorrect
// makes of " - "), an em dash (U+2014) or a minus sign (U+2212) leave
// "vice - president du conseil de surveillance", read by the next case as
// the chair: "Chair of the supervisory board" on the wire, sorted first
// (chairRank), the real chair second. Suggested fix: before the
// "vice president" pass, read U+2014/U+2212 as "-" and drop the spaces
// around a hyphen (or match has("vice") && has("president") for the
// vice-chair).
func TestReview_FRViceChairSpacedDashReadAsChair(t *testing.T) {
	t.Parallel()
	type role struct {
		Qualite string
		Group   registry.RoleGroup
		Label   string
	}
	var got, want []role
	for _, q := range []string{
		"Vice - Président du conseil de surveillance",
		"Vice \u2013 Président du conseil de surveillance",
		"Vice\u2014Président du conseil de surveillance",
		"Vice\u2212Président du conseil de surveillance",
	} {
		g, l := roleOf(q, false)
		got = append(got, role{q, g, l})
		want = append(want, role{q, registry.RoleBoard, "Vice-chair"})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestReview_FRModifierApostropheChairReadAsPresident: qualiteText reads
// U+2019 and U+2018 as the apostrophe, but not U+02BC (modifier letter
// apostrophe, which Unicode recommends for the elided French article and
// some keyboards type) nor a grave or acute accent typed for it; so
// "Président du conseil dʼadministration" is read by has("president"):
// "President" in group management, where the chair of the board of
// directors is in group board and first. Suggested fix: read U+02BC,
// U+0060 and U+00B4 as "'" too.
func TestReview_FRModifierApostropheChairReadAsPresident(t *testing.T) {
	t.Parallel()
	type role struct {
		Qualite string
		Group   registry.RoleGroup
		Label   string
	}
	var got, want []role
	for _, q := range []string{
		"Président du conseil d\u02bcadministration",
		"Président du conseil d`administration",
		"Président du conseil d\u00b4administration",
	} {
		g, l := roleOf(q, false)
		got = append(got, role{q, g, l})
		want = append(want, role{q, registry.RoleBoard, chairOfBoard})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
