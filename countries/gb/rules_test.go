package gb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/deadlines"
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
