package idcheck_test

import (
	"strings"
	"testing"

	"github.com/companyregistry/registry/idcheck"
	"github.com/google/go-cmp/cmp"
)

// companyNumberResult is what ParseCompanyNumber returns, in a form cmp can
// print.
type companyNumberResult struct {
	Number  string
	Problem idcheck.Problem
}

func parseCompanyNumber(input string) companyNumberResult {
	n, p := idcheck.ParseCompanyNumber(input)
	return companyNumberResult{Number: n.String(), Problem: p}
}

func valid(number string) companyNumberResult {
	return companyNumberResult{Number: number, Problem: idcheck.ProblemNone}
}

func invalid(p idcheck.Problem) companyNumberResult {
	return companyNumberResult{Problem: p}
}

// companyNumberTest is one case of TestParseCompanyNumber.
type companyNumberTest struct {
	name  string
	input string
	want  companyNumberResult
}

// companyNumberTests returns the cases shared by the table test, the
// allocation test and the fuzz seed corpus.
func companyNumberTests() []companyNumberTest {
	return []companyNumberTest{
		{name: "england and wales", input: "00002065", want: valid("00002065")},
		{name: "new company", input: "12279804", want: valid("12279804")},
		{name: "padded digits", input: "12345", want: valid("00012345")},
		{name: "padded 2065", input: "2065", want: valid("00002065")},
		{name: "one digit", input: "6", want: valid("00000006")},
		{name: "spaced digits", input: "0000 2065", want: valid("00002065")},
		{name: "scotland", input: "SC571653", want: valid("SC571653")},
		{name: "lower case", input: "sc294759", want: valid("SC294759")},
		{name: "padded prefix", input: "SC12345", want: valid("SC012345")},
		{name: "padded lower prefix", input: "sc1", want: valid("SC000001")},
		{name: "space after prefix", input: "SC 294759", want: valid("SC294759")},
		{name: "spaces around", input: "  sc 294 759\t", want: valid("SC294759")},
		{name: "NBSP", input: "SC\u00a0294759", want: valid("SC294759")},
		{name: "zero width space", input: "\u200bSC294759", want: valid("SC294759")},
		{name: "northern ireland", input: "NI000016", want: valid("NI000016")},
		{name: "northern ireland padded", input: "ni16", want: valid("NI000016")},
		{name: "R0 padded", input: "R0123", want: valid("R0000123")},
		{name: "R0 lower", input: "r0123456", want: valid("R0123456")},
		{name: "LLP", input: "OC123456", want: valid("OC123456")},
		{name: "overseas entity", input: "OE001962", want: valid("OE001962")},
		{name: "NO prefix", input: "NO000123", want: valid("NO000123")},
		{name: "suffix R", input: "SC00123R", want: valid("SC00123R")},
		{name: "suffix C digits", input: "1234567C", want: valid("1234567C")},
		{name: "suffix A", input: "NI01234A", want: valid("NI01234A")},
		{name: "RS suffix letter", input: "RS00712R", want: valid("RS00712R")},
		{name: "RS suffix pair", input: "rs0071fi", want: valid("RS0071FI")},
		{name: "SO CUS", input: "SO123CUS", want: valid("SO123CUS")},
		{name: "OC suffix OC", input: "OC1234OC", want: valid("OC1234OC")},
		{name: "OC with P", input: "OCP1234C", want: valid("OCP1234C")},

		{name: "empty", input: "", want: invalid(idcheck.ProblemEmpty)},
		{name: "only spaces", input: "   ", want: invalid(idcheck.ProblemEmpty)},
		{name: "only NBSP", input: "\u00a0", want: invalid(idcheck.ProblemEmpty)},
		// Issue 13: what people type. Dots, hyphens and dashes are dropped
		// like spaces.
		{name: "dash", input: "SC-294759", want: valid("SC294759")},
		{name: "hyphen groups", input: "0044-5790", want: valid("00445790")},
		{name: "dot groups", input: "00.445.790", want: valid("00445790")},
		{name: "spaced groups", input: "00 445 790", want: valid("00445790")},
		{name: "en dash", input: "sc\u2013294759", want: valid("SC294759")},
		{name: "lower prefix with dots", input: "oc.123.456", want: valid("OC123456")},
		{name: "short with dash", input: "445-790", want: valid("00445790")},
		{name: "only separators", input: " .-. ", want: invalid(idcheck.ProblemEmpty)},
		{name: "slash", input: "0044/5790", want: invalid(idcheck.ProblemBadCharacter)},
		{name: "dashed VAT", input: "GB-123-4567-89", want: invalid(idcheck.ProblemVATNumber)},
		// An unlisted two-letter prefix: rejected, as no company has one.
		{name: "unlisted prefix", input: "QQ123456", want: invalid(idcheck.ProblemPrefix)},
		{name: "unlisted lower prefix", input: "zz-1234", want: invalid(idcheck.ProblemPrefix)},
		{name: "punctuation", input: "SC294759!", want: invalid(idcheck.ProblemBadCharacter)},
		{name: "fullwidth letters", input: "\uff33\uff23294759", want: invalid(idcheck.ProblemBadCharacter)},
		{name: "invalid UTF-8", input: "\xff", want: invalid(idcheck.ProblemBadCharacter)},
		{name: "nine digits", input: "999999999", want: invalid(idcheck.ProblemLength)},
		{name: "eleven digits", input: "07495895333", want: invalid(idcheck.ProblemLength)},
		{name: "prefix and seven digits", input: "SC2947591", want: invalid(idcheck.ProblemLength)},
		{name: "long", input: strings.Repeat("1", 100), want: invalid(idcheck.ProblemLength)},
		{name: "prefix only", input: "SC", want: invalid(idcheck.ProblemLength)},
		{name: "R0 only", input: "r0", want: invalid(idcheck.ProblemLength)},
		{name: "one letter prefix", input: "S1234567", want: invalid(idcheck.ProblemPrefix)},
		{name: "one letter", input: "S", want: invalid(idcheck.ProblemPrefix)},
		{name: "unknown prefix", input: "XX123456", want: invalid(idcheck.ProblemPrefix)},
		{name: "GB prefix", input: "GB123456", want: invalid(idcheck.ProblemPrefix)},
		{name: "RO with letter O", input: "RO123456", want: invalid(idcheck.ProblemPrefix)},
		{name: "R1", input: "R1234567", want: invalid(idcheck.ProblemPrefix)},
		{name: "three letters", input: "SCO12345", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "letter in digits", input: "SC12A456", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "letter in all digits", input: "1234A678", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "letter O for zero", input: "SC29475O", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "suffix form is not padded", input: "234567C", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "short prefixed suffix form", input: "SC1234R", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "suffix A outside NI and SL", input: "SC12345A", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "suffix on OE", input: "OE00196R", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "all letters", input: "SCABCDEF", want: invalid(idcheck.ProblemLetterInNumber)},
		{name: "VAT 9 digits", input: "GB123456789", want: invalid(idcheck.ProblemVATNumber)},
		{name: "VAT spaced", input: "GB 123 4567 89", want: invalid(idcheck.ProblemVATNumber)},
		{name: "VAT 12 digits lower", input: "gb123456789012", want: invalid(idcheck.ProblemVATNumber)},
		{name: "VAT government department", input: "GBGD001", want: invalid(idcheck.ProblemVATNumber)},
		{name: "VAT health authority", input: "GB HA599", want: invalid(idcheck.ProblemVATNumber)},
		{name: "GB 10 digits", input: "GB1234567890", want: invalid(idcheck.ProblemLength)},
	}
}

func TestParseCompanyNumber(t *testing.T) {
	t.Parallel()
	for _, tc := range companyNumberTests() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, parseCompanyNumber(tc.input)); diff != "" {
				t.Errorf("ParseCompanyNumber(%q) mismatch (-want +got):\n%s", tc.input, diff)
			}
		})
	}
}

// TestParseCompanyNumberPrefixes checks every prefix in the Companies House
// prefix table of the research notes, padded and unpadded.
func TestParseCompanyNumberPrefixes(t *testing.T) {
	t.Parallel()
	prefixes := []string{
		"SC", "NI", "R0", "OC", "SO", "NC", "LP", "SL", "NL", "FC", "SF", "NF", "BR",
		"GE", "GS", "GN", "SE", "ES", "EN", "AC", "SA", "NA", "ZC", "SZ", "NZ",
		"IP", "SP", "NP", "NO", "IC", "SI", "NV", "RC", "SR", "NR", "RS", "SG",
		"PC", "CE", "CS", "FE", "OE",
	}
	for _, prefix := range prefixes {
		t.Run(prefix, func(t *testing.T) {
			t.Parallel()
			for input, want := range map[string]string{
				prefix + "123456":                   prefix + "123456",
				strings.ToLower(prefix) + "42":      prefix + "000042",
				prefix[:1] + " " + prefix[1:] + "7": prefix + "000007",
			} {
				if diff := cmp.Diff(valid(want), parseCompanyNumber(input)); diff != "" {
					t.Errorf("ParseCompanyNumber(%q) mismatch (-want +got):\n%s", input, diff)
				}
			}
		})
	}
}

// TestParseCompanyNumberAllocs checks that parsing does not allocate. It
// does not call t.Parallel because testing.AllocsPerRun panics while
// parallel tests run.
func TestParseCompanyNumberAllocs(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	for _, tc := range companyNumberTests() {
		allocs := testing.AllocsPerRun(100, func() {
			idcheck.ParseCompanyNumber(tc.input)
		})
		if allocs != 0 {
			t.Errorf("ParseCompanyNumber(%q) allocates %v times, want 0", tc.input, allocs)
		}
	}
}

func FuzzParseCompanyNumber(f *testing.F) {
	for _, tc := range companyNumberTests() {
		f.Add(tc.input)
	}
	f.Fuzz(func(t *testing.T, input string) {
		n, p := idcheck.ParseCompanyNumber(input)
		if p != idcheck.ProblemNone {
			if n != (idcheck.CompanyNumber{}) {
				t.Fatalf("ParseCompanyNumber(%q) = %q with problem %v, want the zero CompanyNumber", input, n[:], p)
			}
			return
		}
		s := n.String()
		if len(s) != 8 {
			t.Fatalf("ParseCompanyNumber(%q) = %q, want 8 characters", input, s)
		}
		for i := range len(s) {
			if c := s[i]; (c < '0' || c > '9') && (c < 'A' || c > 'Z') {
				t.Fatalf("ParseCompanyNumber(%q) = %q, want only A-Z and 0-9", input, s)
			}
		}
		m, q := idcheck.ParseCompanyNumber(s)
		if q != idcheck.ProblemNone || m != n {
			t.Fatalf("ParseCompanyNumber(%q) = %q, %v; want %q, ProblemNone", s, m[:], q, s)
		}
	})
}

func BenchmarkParseCompanyNumber(b *testing.B) {
	benchmarks := []struct {
		name  string
		input string
	}{
		{name: "digits", input: "00002065"},
		{name: "prefix", input: "SC294759"},
		{name: "padded lower", input: "sc 12345"},
		{name: "suffix form", input: "RS0071FI"},
		{name: "VAT", input: "GB 123 4567 89"},
		{name: "unknown prefix", input: "XX123456"},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idcheck.ParseCompanyNumber(bm.input)
			}
		})
	}
}

func TestCompanyNumberStringZero(t *testing.T) {
	t.Parallel()
	if diff := cmp.Diff("", idcheck.CompanyNumber{}.String()); diff != "" {
		t.Errorf("CompanyNumber{}.String() mismatch (-want +got):\n%s", diff)
	}
}
