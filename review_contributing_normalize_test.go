package registry_test

import (
	"testing"

	registry "github.com/companyregistry/registry"
)

// TestReview_ContributingSaysNormalizeIDBeforeEveryOperation (rev-fix7):
// CONTRIBUTING.md (9690d64) says of registry.IDNormalizer "called before
// every operation on one identifier". 1e3c2ff corrected the interface's
// doc and the CHANGELOG ("the validate operation calls Validate alone";
// "the validate operation and change monitoring keep Validate") but not
// CONTRIBUTING: the validate operation, an operation on one identifier,
// never calls NormalizeID. A contributor reading CONTRIBUTING expects a
// cheap NormalizeID to serve /validate too. CONTRIBUTING now says the
// validate operation keeps Validate, which this test holds.
func TestReview_ContributingSaysNormalizeIDBeforeEveryOperation(t *testing.T) {
	t.Parallel()
	c := &normalizingCountry{fakeCountry: &fakeCountry{code: "NO"}}
	r, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0), registry.WithoutCache())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Validate("NO", "123 456"); err != nil {
		t.Fatal(err)
	}
	if n := c.normalizes.Load(); n != 0 {
		t.Errorf("the validate operation of one identifier made %d NormalizeID calls; CONTRIBUTING and IDNormalizer's doc say it keeps Validate alone", n)
	}
}
