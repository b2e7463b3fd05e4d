package no_test

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
)

// reviewStrictNO is what a program outside the repository can have written
// before registry.IDNormalizer existed: Norway's module with a stricter
// Validate, here one that accepts only the bare nine digits (no spaces, no
// NO/MVA affixes). Go promotes *no.Country's new NormalizeID to it, so it
// is now an IDNormalizer whose NormalizeID is not its Validate.
type reviewStrictNO struct{ *no.Country }

func (s reviewStrictNO) Validate(input string) registry.ValidationResult {
	v := s.Country.Validate(input)
	if v.Valid && input != *v.Normalized {
		reason, hint := "Write the nine digits only.", "Drop the spaces and the NO and MVA affixes."
		v.Valid, v.Normalized, v.Formatted, v.Reason, v.Hint = false, nil, nil, &reason, &hint
	}
	return v
}

// TestReview_EmbeddedValidateOverrideBypassed: before the change the
// Registry answered a lookup of an identifier the module's Validate
// refuses with invalid_id and never called the register; now a module
// that embeds *no.Country and overrides Validate is bypassed, because the
// promoted NormalizeID (no.go) accepts the id and normalizeID
// (operations.go) no longer calls Validate for it. The CHANGELOG lists
// IDNormalizer under "Added", not "Breaking".
func TestReview_EmbeddedValidateOverrideBypassed(t *testing.T) {
	t.Parallel()
	var calls reviewCountingTransport
	c, err := no.New(no.WithBaseURL("https://brreg.test/enhetsregisteret/api"), no.WithHTTPClient(&http.Client{Transport: &calls}))
	if err != nil {
		t.Fatal(err)
	}
	m := reviewStrictNO{c}
	if v := m.Validate("NO 923 609 016 MVA"); v.Valid {
		t.Fatal("the strict Validate accepts the VAT form")
	}
	reg, err := registry.New([]registry.Country{m}, registry.WithoutCache(), registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reg.Lookup(t.Context(), "NO", "NO 923 609 016 MVA")
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeInvalidID {
		t.Errorf("lookup of an id the module's Validate refuses: %v, want invalid_id", err)
	}
	if n := calls.n.Load(); n != 0 {
		t.Errorf("the register was called %d times for an id the module's Validate refuses", n)
	}
}

// reviewCountingTransport counts the requests sent to the register and
// answers none of them.
type reviewCountingTransport struct{ n atomic.Int64 }

func (c *reviewCountingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("no register in this test")
}
