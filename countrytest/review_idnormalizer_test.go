package countrytest_test

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// reviewNormalizingFake is the fake module made a registry.IDNormalizer
// whose NormalizeID breaks the interface's contract: it reports every
// input valid (Validate rejects "123", "12345" and "abcd"), so the Registry
// sends an identifier Validate refuses to the register.
type reviewNormalizingFake struct{ *fakeModule }

func (f reviewNormalizingFake) NormalizeID(input string) (string, bool) {
	return strings.ReplaceAll(input, " ", ""), true
}

var _ registry.IDNormalizer = reviewNormalizingFake{}

const reviewNormalizerEnv = "COUNTRYTEST_REVIEW_BROKEN_NORMALIZER"

// TestReview_BrokenNormalizerChild is the child of
// TestReview_CountrytestChecksIDNormalizer; it does nothing in a normal run.
func TestReview_BrokenNormalizerChild(t *testing.T) {
	if os.Getenv(reviewNormalizerEnv) == "" {
		t.Skip("runs only as the child of TestReview_CountrytestChecksIDNormalizer")
	}
	build := func(rt http.RoundTripper) (registry.Country, error) {
		return reviewNormalizingFake{newFake(rt, "")}, nil
	}
	countrytest.RunReplay(t, fakeAnswers(), build, countrytest.Config{
		ValidID:    "12 34",
		InvalidIDs: []string{"123", "12345", "abcd"},
		UnknownID:  "9999",
		Query:      "acme",
	})
}

// TestReview_CountrytestChecksIDNormalizer: registry.IDNormalizer's doc
// says "NormalizeID(id) must report what Validate(id) reports", and the
// Registry trusts it on every lookup, roles and refresh (Validate is no
// longer called for an id NormalizeID accepts). The conformance suite, which
// checks every other part of the module contract, must then catch a module
// whose NormalizeID accepts the InvalidIDs Validate rejects. It does not:
// the suite passes such a module.
func TestReview_CountrytestChecksIDNormalizer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestReview_BrokenNormalizerChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), reviewNormalizerEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("countrytest passed a module whose NormalizeID accepts what Validate rejects:\n%s", out)
	}
	if !strings.Contains(string(out), "NormalizeID") {
		t.Errorf("the failure does not name NormalizeID:\n%s", out)
	}
}
