package countrytest_test

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/countrytest"
)

// formattedFake is the fake module with a formatted form ("12-34"), which
// its Validate accepts, and a NormalizeID that keeps the dash of a valid
// identifier written with one: it disagrees with Validate on the formatted
// form only.
type formattedFake struct{ *fakeModule }

func (f formattedFake) Validate(input string) registry.ValidationResult {
	res := f.fakeModule.Validate(strings.ReplaceAll(input, "-", ""))
	res.Input = input
	if res.Valid {
		res.Formatted = countrykit.Ptr((*res.Normalized)[:2] + "-" + (*res.Normalized)[2:])
	}
	return res
}

func (f formattedFake) NormalizeID(input string) (string, bool) {
	v := f.Validate(input)
	if !v.Valid {
		return "", false
	}
	if strings.Contains(input, "-") {
		return input, true // broken: Validate says "1234"
	}
	return *v.Normalized, true
}

const reviewFormattedEnv = "COUNTRYTEST_REVIEW_FORMATTED"

// TestReview_CountrytestSkipsNormalizeIDOfTheFormattedForm (rev-fix7):
// 9690d64 says (countrytest's doc, CONTRIBUTING) that the suite checks a
// registry.IDNormalizer "agrees with Validate on every identifier it
// validates". It checks the inputs of checkResult only: the suite also
// validates each valid identifier's formatted form (testValidate), its
// canonical form and the search hits' identifiers, and asks NormalizeID
// about none of them. A module whose NormalizeID gives "12-34" for the
// formatted form that Validate normalises to "1234" passes the suite; the
// Registry would then look up and cache the company under "12-34". The
// formatted form is the one users paste back (the CHANGELOG's Norway
// example: "923 609 016").
func TestReview_CountrytestSkipsNormalizeIDOfTheFormattedForm(t *testing.T) {
	build := func(rt http.RoundTripper) (registry.Country, error) { return formattedFake{newFake(rt, "")}, nil }
	if os.Getenv(reviewFormattedEnv) != "" {
		countrytest.RunReplay(t, fakeAnswers(), build, countrytest.Config{
			ValidID: "12 34", InvalidIDs: []string{"123", "12345", "abcd"}, UnknownID: "9999", Query: "acme",
		})
		return
	}
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	m := formattedFake{newFake(http.DefaultTransport, "")}
	v := m.Validate("12 34")
	if !v.Valid || v.Formatted == nil || *v.Formatted != "12-34" {
		t.Fatalf("the fake's formatted form: %+v", v)
	}
	if norm, _ := m.NormalizeID(*v.Formatted); norm == *v.Normalized {
		t.Fatal("the fake's NormalizeID agrees on the formatted form")
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestReview_CountrytestSkipsNormalizeIDOfTheFormattedForm$", "-test.count=1")
	cmd.Env = append(os.Environ(), reviewFormattedEnv+"=1")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("the suite passed a module whose NormalizeID(%q) is %q where Validate says %q:\n%s", *v.Formatted, *v.Formatted, *v.Normalized, out)
	}
}
