package sqlstore_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Read13DecisionsNameARemovedTest: doc/decisions.md's section
// "fix-sweep12b" says of its part that stands (after Batch.Unwatched was
// taken out) that DeleteWatch's ROW EXCLUSIVE on watch_companies is proved
// by TestDeleteWatchQueuesBehindUnwatchedApplyPostgres, "which sees the wait
// cycle without it"; no such test is in this package (it went with
// Batch.Unwatched). Every test the section's standing part names as a
// proof of this package's code must exist.
func TestReview_Read13DecisionsNameARemovedTest(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "doc", "decisions.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "### fix-sweep12b:")
	if start < 0 {
		t.Fatal("no fix-sweep12b section in doc/decisions.md")
	}
	section := text[start+1:]
	section = section[:strings.Index(section, "\n###")]
	// The sentence about DeleteWatch's table lock, kept by the lead.
	i := strings.Index(section, "`DeleteWatch` now takes ROW EXCLUSIVE on")
	if i < 0 {
		t.Fatal("the section no longer says why DeleteWatch takes ROW EXCLUSIVE")
	}
	claim := section[i:]
	claim = claim[:strings.Index(claim, ".\n")+1]
	named := regexp.MustCompile("`(Test[A-Za-z0-9_]+)`").FindAllStringSubmatch(claim, -1)
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var tests strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tests.Write(b)
	}
	var missing []string
	for _, m := range named {
		if !strings.Contains(tests.String(), "func "+m[1]+"(") {
			missing = append(missing, m[1])
		}
	}
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		t.Errorf("doc/decisions.md names as the proof of DeleteWatch's lock tests this package lacks (-want +got):\n%s\nclaim: %s", diff, claim)
	}
}
