package no

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/companyregistry/registry/internal/moduletest"
)

// FuzzValidate (issue #9) feeds arbitrary identifiers to the module's
// Validate, seeded with every organisation number in the recordings: it
// never panics; a valid identifier normalises to nine digits (the only
// shape that is ever put into an upstream URL) and validating the
// normalised form gives it back unchanged.
func FuzzValidate(f *testing.F) {
	orgnr := regexp.MustCompile(`"organisasjonsnummer"\s*:\s*"([^"]*)"`)
	for _, b := range moduletest.ReadFiles(f, filepath.Join("testdata", "brreg", "*.json")) {
		for _, m := range orgnr.FindAllSubmatch(b, -1) {
			f.Add(string(m[1]))
		}
	}
	for _, s := range []string{"NO 923 609 016 MVA", "923.609.016", "923609016/..", "92360901６", "", "MVA", "923609016\n"} {
		f.Add(s)
	}
	c, err := New()
	if err != nil {
		f.Fatal(err)
	}
	nine := regexp.MustCompile(`^[0-9]{9}$`)
	f.Fuzz(func(t *testing.T, input string) {
		v := c.Validate(input)
		if v.Input != input || v.Country != "NO" {
			t.Fatalf("Validate(%q) echoes %q for %s", input, v.Input, v.Country)
		}
		if !v.Valid {
			if v.Normalized != nil || v.Reason == nil || v.Hint == nil {
				t.Fatalf("Validate(%q): invalid without a reason and hint, or with a normalised form", input)
			}
			return
		}
		if v.Normalized == nil || !nine.MatchString(*v.Normalized) {
			t.Fatalf("Validate(%q) normalises to %v, want nine digits", input, v.Normalized)
		}
		again := c.Validate(*v.Normalized)
		if !again.Valid || *again.Normalized != *v.Normalized {
			t.Fatalf("Validate(%q) = %q, which does not validate to itself", input, *v.Normalized)
		}
	})
}

// FuzzNormalizeID: NormalizeID reports what Validate reports, as
// registry.IDNormalizer requires: valid exactly when Validate is, and then
// Validate's normalised form.
func FuzzNormalizeID(f *testing.F) {
	for _, s := range []string{"923609016", "NO 923 609 016 MVA", "923.609.016", "923609017", "92360901６", "", "MVA", "923609016\n", " 923609016"} {
		f.Add(s)
	}
	c, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input string) {
		norm, valid := c.NormalizeID(input)
		v := c.Validate(input)
		if valid != v.Valid {
			t.Fatalf("NormalizeID(%q) valid %v, Validate %v", input, valid, v.Valid)
		}
		want := ""
		if v.Valid {
			want = *v.Normalized
		}
		if norm != want {
			t.Fatalf("NormalizeID(%q) = %q, Validate normalises to %q", input, norm, want)
		}
	})
}
