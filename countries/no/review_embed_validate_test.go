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

// reviewStrictNormalizedNO is the remedy the CHANGELOG's Breaking entry
// names: the embedding type overrides NormalizeID too, to agree with its
// Validate.
type reviewStrictNormalizedNO struct{ reviewStrictNO }

func (s reviewStrictNormalizedNO) NormalizeID(input string) (string, bool) {
	v := s.Validate(input)
	if !v.Valid {
		return "", false
	}
	return *v.Normalized, true
}

// TestReview_EmbeddedValidateOverrideBypassed (rev-own7): before
// registry.IDNormalizer the Registry answered a lookup of an identifier
// the module's Validate refuses with invalid_id and never called the
// register. A type that embeds *no.Country and overrides Validate alone
// now gets Norway's NormalizeID promoted, and the Registry skips its
// Validate: the register is called (kept, and said under Breaking in the
// CHANGELOG and in IDNormalizer's doc). One that overrides NormalizeID too
// is refused before any request, as before.
func TestReview_EmbeddedValidateOverrideBypassed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		wrap      func(*no.Country) registry.Country
		wantCode  registry.Code
		wantCalls bool
	}{
		{"Validate overridden alone", func(c *no.Country) registry.Country { return reviewStrictNO{c} }, registry.CodeUpstreamError, true},
		{"NormalizeID overridden too", func(c *no.Country) registry.Country { return reviewStrictNormalizedNO{reviewStrictNO{c}} }, registry.CodeInvalidID, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls reviewCountingTransport
			n, err := no.New(no.WithBaseURL("https://brreg.test/enhetsregisteret/api"), no.WithHTTPClient(&http.Client{Transport: &calls}))
			if err != nil {
				t.Fatal(err)
			}
			m := c.wrap(n)
			if v := m.Validate("NO 923 609 016 MVA"); v.Valid {
				t.Fatal("the strict Validate accepts the VAT form")
			}
			reg, err := registry.New([]registry.Country{m}, registry.WithoutCache(), registry.WithRetryPause(0))
			if err != nil {
				t.Fatal(err)
			}
			_, err = reg.Lookup(t.Context(), "NO", "NO 923 609 016 MVA")
			if e := registry.AsError(err); e == nil || e.Code != c.wantCode {
				t.Errorf("lookup of an id the module's Validate refuses: %v, want %s", err, c.wantCode)
			}
			if got := calls.n.Load() > 0; got != c.wantCalls {
				t.Errorf("the register was called %d times; want calls %t", calls.n.Load(), c.wantCalls)
			}
		})
	}
}

// reviewCountingTransport counts the requests sent to the register and
// answers none of them.
type reviewCountingTransport struct{ n atomic.Int64 }

func (c *reviewCountingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("no register in this test")
}
