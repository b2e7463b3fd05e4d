package no

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		input string
		want  registry.ValidationResult
	}{
		{"NO 923 609 016 MVA", registry.ValidationResult{
			Country: "NO", Registry: "brreg", IDScheme: countrykit.Ptr("organisasjonsnummer"),
			Input: "NO 923 609 016 MVA", Valid: true,
			Normalized: countrykit.Ptr("923609016"), Formatted: countrykit.Ptr("923 609 016"),
			Reason: countrykit.Ptr(idcheck.NorwayReason(idcheck.ProblemNone)),
		}},
		{"923609017", registry.ValidationResult{
			Country: "NO", Registry: "brreg", IDScheme: countrykit.Ptr("organisasjonsnummer"),
			Input: "923609017", Valid: false,
			Reason: countrykit.Ptr(idcheck.NorwayReason(idcheck.ProblemChecksum)),
			Hint:   countrykit.Ptr(idcheck.NorwayHint(idcheck.ProblemChecksum)),
		}},
		{"", registry.ValidationResult{
			Country: "NO", Registry: "brreg", IDScheme: countrykit.Ptr("organisasjonsnummer"),
			Input: "", Valid: false,
			Reason: countrykit.Ptr(idcheck.NorwayReason(idcheck.ProblemEmpty)),
			Hint:   countrykit.Ptr(idcheck.NorwayHint(idcheck.ProblemEmpty)),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, c.Validate(tt.input)); diff != "" {
				t.Errorf("Validate(%q) mismatch (-want +got):\n%s", tt.input, diff)
			}
		})
	}
}
