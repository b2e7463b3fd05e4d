package gb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
)

// The rules document names the number format and prefixes, every legal
// form, every status and includes the deadline rules of package deadlines.
func TestRulesDocument(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	doc := c.Rules()
	want := []string{"## Company numbers", "| SC |", "| OE |", "R0", "## Legal forms", "## Status", "COMPANIES_HOUSE_API_KEY", deadlines.UnitedKingdomRules()}
	for code := range legalForms {
		want = append(want, "| `"+code+"` |")
	}
	for s := range statusRules {
		want = append(want, "| `"+s+"` |")
	}
	for _, w := range want {
		if !strings.Contains(doc, w) {
			t.Errorf("rules document lacks %q", w)
		}
	}
	if c.Rules() != doc {
		t.Error("Rules() is not deterministic")
	}
	// The golden file holds this module's part; the deadline section
	// belongs to package deadlines and is checked above.
	own, ok := strings.CutSuffix(doc, deadlines.UnitedKingdomRules())
	if !ok {
		t.Fatal("the rules document does not end with the deadline rules")
	}
	doc = own
	path := filepath.Join("testdata", "golden", "rules_GB.md.golden")
	if *update {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(golden), doc); diff != "" {
		t.Errorf("rules document mismatch (-want +got):\n%s", diff)
	}
}

// TestRulesNumberNormalisation (issue 13, review D6): what the rules
// document says of company numbers is what idcheck does
// (research/companieshouse.md §4: eight characters, a two-letter prefix
// from Companies House's list or eight digits, no check digit): spaces,
// dots, hyphens and dashes are removed, and a two-letter prefix not on the
// list is rejected.
func TestRulesNumberNormalisation(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if doc := c.Rules(); !strings.Contains(doc, "spaces, dots, hyphens and dashes (U+2010 to U+2015 and the minus sign U+2212) are removed") ||
		!strings.Contains(doc, "a two-letter prefix not on the list below is rejected") {
		t.Error("rules document does not say which separators are removed and that an unknown prefix is rejected")
	}
	for _, in := range []string{"0044-5790", "00.445.790", "00 445 790", "00\u2010445\u2013790", "00\u2014445\u2212790"} {
		if n, prob := idcheck.ParseCompanyNumber(in); prob != idcheck.ProblemNone || n.String() != "00445790" {
			t.Errorf("ParseCompanyNumber(%q) = %q, %v; want 00445790", in, n, prob)
		}
	}
	if _, prob := idcheck.ParseCompanyNumber("RO123456"); prob != idcheck.ProblemPrefix {
		t.Errorf("ParseCompanyNumber(RO123456) problem %v, want ProblemPrefix", prob)
	}
}
