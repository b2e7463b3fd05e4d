package registry_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// normalizingCountry is a fakeCountry that is a [registry.IDNormalizer]:
// it counts its Validate and NormalizeID calls, and NormalizeID panics
// when panicNormalize is set.
type normalizingCountry struct {
	*fakeCountry
	validates, normalizes atomic.Int64
	panicNormalize        bool
}

func (c *normalizingCountry) Validate(input string) registry.ValidationResult {
	c.validates.Add(1)
	return c.fakeCountry.Validate(input)
}

func (c *normalizingCountry) NormalizeID(input string) (string, bool) {
	c.normalizes.Add(1)
	if c.panicNormalize {
		panic("normalize exploded")
	}
	v := c.fakeCountry.Validate(input)
	if !v.Valid {
		return "", false
	}
	return *v.Normalized, true
}

// TestIDNormalizer: a module that is an IDNormalizer gives the canonical
// form of a valid identifier without Validate (the lookup reaches the
// module with it); an invalid one is still answered with Validate's
// reason and hint; a panic in NormalizeID is internal_error, as one in
// Validate is.
func TestIDNormalizer(t *testing.T) {
	t.Parallel()
	c := &normalizingCountry{fakeCountry: &fakeCountry{code: "NO"}}
	r, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0), registry.WithoutCache())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.Lookup(t.Context(), "NO", "123 456")
	if err != nil {
		t.Fatal(err)
	}
	if rep.ID != "123456" || c.normalizes.Load() != 1 || c.validates.Load() != 0 {
		t.Errorf("lookup of %q, %d NormalizeID and %d Validate calls; want 123456, 1 and 0", rep.ID, c.normalizes.Load(), c.validates.Load())
	}

	_, err = r.Lookup(t.Context(), "NO", "12345x")
	want := registry.Error{Code: registry.CodeInvalidID, Country: "NO", Registry: "fake",
		Message: "The identifier must be six digits.", Hint: "Check the number or search by name."}
	if e := registry.AsError(err); e == nil {
		t.Fatalf("invalid id: %v", err)
	} else if diff := cmp.Diff(want, *e); diff != "" {
		t.Errorf("invalid id (-want +got):\n%s", diff)
	}
	if c.validates.Load() != 1 {
		t.Errorf("%d Validate calls for an invalid id, want 1", c.validates.Load())
	}

	c.panicNormalize = true
	_, err = r.Lookup(t.Context(), "NO", "123456")
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeInternalError || strings.Contains(e.Message, "exploded") {
		t.Errorf("a panic in NormalizeID: %v, want internal_error without the panic", err)
	}
}
