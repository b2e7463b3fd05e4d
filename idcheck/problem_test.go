package idcheck_test

import (
	"strings"
	"testing"

	"github.com/companyregistry/registry/idcheck"
	"github.com/google/go-cmp/cmp"
)

// allProblems returns every Problem constant.
func allProblems() []idcheck.Problem {
	return []idcheck.Problem{
		idcheck.ProblemNone,
		idcheck.ProblemEmpty,
		idcheck.ProblemBadCharacter,
		idcheck.ProblemLength,
		idcheck.ProblemChecksum,
		idcheck.ProblemCheckValue10,
		idcheck.ProblemPrefix,
		idcheck.ProblemLetterInNumber,
		idcheck.ProblemVATNumber,
	}
}

// TestSentences checks the shape of every reason and hint: a capitalised
// sentence ending with a period, and a hint exactly for the invalid cases
// that names the search tool.
func TestSentences(t *testing.T) {
	t.Parallel()
	funcs := []struct {
		name   string
		reason func(idcheck.Problem) string
		hint   func(idcheck.Problem) string
	}{
		{name: "Reason", reason: idcheck.Problem.Reason},
		{name: "Norway", reason: idcheck.NorwayReason, hint: idcheck.NorwayHint},
		{name: "UK", reason: idcheck.UKReason, hint: idcheck.UKHint},
	}
	for _, f := range funcs {
		for _, p := range append(allProblems(), idcheck.Problem(200)) {
			t.Run(f.name+"/"+p.String(), func(t *testing.T) {
				t.Parallel()
				checkSentence(t, "reason", f.reason(p))
				if f.hint == nil {
					return
				}
				hint := f.hint(p)
				if p == idcheck.ProblemNone {
					if diff := cmp.Diff("", hint); diff != "" {
						t.Errorf("hint for a valid number mismatch (-want +got):\n%s", diff)
					}
					return
				}
				checkSentence(t, "hint", hint)
				// The library's neutral name of the search; the adapters
				// rewrite it to their route and tool (internal/ops).
				if !strings.Contains(hint, "search by name with the search operation") || strings.Contains(hint, "search_company") || strings.Contains(hint, "/v1/") {
					t.Errorf("hint %q does not offer the search operation by its neutral name", hint)
				}
			})
		}
	}
}

func checkSentence(t *testing.T, what, s string) {
	t.Helper()
	if s == "" || s[0] < 'A' || s[0] > 'Z' || !strings.HasSuffix(s, ".") {
		t.Errorf("%s %q is not a capitalised sentence ending with a period", what, s)
	}
}

func TestNorwayReason(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{name: "valid", input: "923609016", want: "Nine digits with a correct MOD11 check digit."},
		{name: "check value 10", input: "934157150", want: "The first eight digits give MOD11 check value 10, so no valid organisation number starts with them."},
		{name: "checksum", input: "923609017", want: "The ninth digit is not the MOD11 check digit of the first eight digits."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, p := idcheck.ParseOrgNr(tc.input)
			if diff := cmp.Diff(tc.want, idcheck.NorwayReason(p)); diff != "" {
				t.Errorf("NorwayReason mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUKVATHint(t *testing.T) {
	t.Parallel()
	_, p := idcheck.ParseCompanyNumber("GB 123 4567 89")
	want := "Use the company's Companies House number, which is not its VAT number, or search by name with the search operation."
	if diff := cmp.Diff(want, idcheck.UKHint(p)); diff != "" {
		t.Errorf("UKHint mismatch (-want +got):\n%s", diff)
	}
}

func TestProblemString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    idcheck.Problem
		want string
	}{
		{p: idcheck.ProblemNone, want: "ProblemNone"},
		{p: idcheck.ProblemCheckValue10, want: "ProblemCheckValue10"},
		{p: idcheck.ProblemVATNumber, want: "ProblemVATNumber"},
		{p: idcheck.Problem(200), want: "Problem(200)"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, tc.p.String()); diff != "" {
				t.Errorf("String() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProblemIsChecksum(t *testing.T) {
	t.Parallel()
	for _, p := range allProblems() {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			want := p == idcheck.ProblemChecksum || p == idcheck.ProblemCheckValue10
			if diff := cmp.Diff(want, p.IsChecksum()); diff != "" {
				t.Errorf("IsChecksum() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
