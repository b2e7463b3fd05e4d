package gb

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

func TestReadyWithoutKeyNamesTheVariable(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var e *registry.Error
	if !errors.As(c.Ready(), &e) {
		t.Fatalf("Ready() = %v, want *registry.Error", c.Ready())
	}
	if e.Code != registry.CodeUpstreamError || e.Country != "GB" || e.Registry != "companieshouse" {
		t.Errorf("Ready() = %+v, want upstream_error for GB/companieshouse", e)
	}
	if !strings.Contains(e.Hint, "COMPANIES_HOUSE_API_KEY") {
		t.Errorf("hint %q does not name COMPANIES_HOUSE_API_KEY", e.Hint)
	}
	k, err := New(WithAPIKey("k"))
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Ready(); err != nil {
		t.Errorf("Ready() with a key = %v, want nil", err)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   string
		want registry.ValidationResult
	}{
		{"sc12345", registry.ValidationResult{
			Country: "GB", Registry: "companieshouse", IDScheme: countrykit.Ptr("company registration number"),
			Input: "sc12345", Valid: true, Normalized: countrykit.Ptr("SC012345"),
			Reason: countrykit.Ptr("Eight characters in a Companies House company number format."),
		}},
		{"GB123456789", registry.ValidationResult{
			Country: "GB", Registry: "companieshouse", IDScheme: countrykit.Ptr("company registration number"),
			Input: "GB123456789", Valid: false,
			Reason: countrykit.Ptr("This is a UK VAT registration number, not a Companies House company number."),
			Hint:   countrykit.Ptr("Use the company's Companies House number, which is not its VAT number, or search by name with the search operation."),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, c.Validate(tt.in)); diff != "" {
				t.Errorf("Validate(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
