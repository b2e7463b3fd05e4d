package gb

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/companyregistry/registry/internal/moduletest"
)

// FuzzValidate (issue #9) feeds arbitrary identifiers to the module's
// Validate, seeded with every company number in the recordings: it never
// panics; a valid identifier normalises to eight upper-case letters or
// digits (the only shape that is ever put into an upstream URL) and
// validating the normalised form gives it back unchanged.
func FuzzValidate(f *testing.F) {
	number := regexp.MustCompile(`"company_number"\s*:\s*"([^"]*)"`)
	for _, b := range moduletest.ReadFiles(f, filepath.Join("testdata", "recordings", "*.json")) {
		for _, m := range number.FindAllSubmatch(b, -1) {
			f.Add(string(m[1]))
		}
	}
	for _, s := range []string{"sc 571653", "8957400", "GB08957400", "08957400/../x", "０８９５７４００", "", "SC", "OC3000001"} {
		f.Add(s)
	}
	c, err := New()
	if err != nil {
		f.Fatal(err)
	}
	eight := regexp.MustCompile(`^[A-Z0-9]{8}$`)
	f.Fuzz(func(t *testing.T, input string) {
		v := c.Validate(input)
		if v.Input != input || v.Country != "GB" {
			t.Fatalf("Validate(%q) echoes %q for %s", input, v.Input, v.Country)
		}
		if !v.Valid {
			if v.Normalized != nil || v.Reason == nil || v.Hint == nil {
				t.Fatalf("Validate(%q): invalid without a reason and hint, or with a normalised form", input)
			}
			return
		}
		if v.Normalized == nil || !eight.MatchString(*v.Normalized) {
			t.Fatalf("Validate(%q) normalises to %v, want eight letters or digits", input, v.Normalized)
		}
		again := c.Validate(*v.Normalized)
		if !again.Valid || *again.Normalized != *v.Normalized {
			t.Fatalf("Validate(%q) = %q, which does not validate to itself", input, *v.Normalized)
		}
	})
}
