package idcheck_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/companyregistry/registry/idcheck"
	"github.com/google/go-cmp/cmp"
)

// orgNrResult is what ParseOrgNr returns, in a form cmp can print.
type orgNrResult struct {
	Number  string
	Problem idcheck.Problem
}

func parseOrgNr(input string) orgNrResult {
	n, p := idcheck.ParseOrgNr(input)
	return orgNrResult{Number: n.String(), Problem: p}
}

// mod11Valid is an independent statement of the MOD11 rule for
// organisation numbers.
func mod11Valid(digits string) bool {
	if len(digits) != 9 {
		return false
	}
	weights := []int{3, 2, 7, 6, 5, 4, 3, 2}
	sum := 0
	for i, w := range weights {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
		sum += int(digits[i]-'0') * w
	}
	check := (11 - sum%11) % 11
	return check != 10 && int(digits[8]-'0') == check
}

// spellings923609016 returns accepted ways of writing 923609016.
func spellings923609016() []string {
	return []string{
		"923609016",
		"923 609 016",
		"923  609  016",
		"9 2 3 6 0 9 0 1 6",
		"923\u00a0609\u00a0016",
		"923\u202f609\u202f016",
		"923\u2009609\u2009016",
		"923\u3000609\u3000016",
		"923.609.016",
		"923-609-016",
		"923/609/016",
		"923\u2013609\u2013016",
		"923\u2011609\u2011016",
		"923\u2212609\u2212016",
		" 923609016 ",
		"\t923609016\r\n",
		"\u200b923609016",
		"\ufeff923 609 016",
		"NO923609016",
		"no923609016",
		"No 923 609 016",
		"NO-923.609.016",
		"923609016MVA",
		"923 609 016 MVA",
		"923609016mva",
		"no923609016mva",
		"nO923609016mVa",
		"NO923609016MVA",
		"NO 923 609 016 MVA",
		"NO\u00a0923\u00a0609\u00a0016\u00a0MVA",
		" NO 923.609.016 MVA ",
		"NO-923-609-016-MVA",
	}
}

func TestParseOrgNrSpellings(t *testing.T) {
	t.Parallel()
	want := orgNrResult{Number: "923609016", Problem: idcheck.ProblemNone}
	for _, input := range spellings923609016() {
		t.Run(strconv.Quote(input), func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(want, parseOrgNr(input)); diff != "" {
				t.Errorf("ParseOrgNr(%q) mismatch (-want +got):\n%s", input, diff)
			}
		})
	}
}

func TestParseOrgNr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  orgNrResult
	}{
		{name: "valid", input: "923609016", want: orgNrResult{"923609016", idcheck.ProblemNone}},
		{name: "valid 974760673", input: "974760673", want: orgNrResult{"974760673", idcheck.ProblemNone}},
		{name: "valid remainder 0", input: "934154150", want: orgNrResult{"934154150", idcheck.ProblemNone}},
		{name: "checksum mismatch", input: "923609017", want: orgNrResult{"", idcheck.ProblemChecksum}},
		{name: "check value 10", input: "934157150", want: orgNrResult{"", idcheck.ProblemCheckValue10}},
		{name: "checksum 833286602", input: "833286602", want: orgNrResult{"", idcheck.ProblemChecksum}},
		{name: "checksum spaced", input: "NO 923 609 017 MVA", want: orgNrResult{"", idcheck.ProblemChecksum}},
		{name: "empty", input: "", want: orgNrResult{"", idcheck.ProblemEmpty}},
		{name: "only spaces", input: "   ", want: orgNrResult{"", idcheck.ProblemEmpty}},
		{name: "only NBSP", input: "\u00a0", want: orgNrResult{"", idcheck.ProblemEmpty}},
		{name: "only separators", input: " .-/ ", want: orgNrResult{"", idcheck.ProblemEmpty}},
		{name: "eight digits", input: "92360901", want: orgNrResult{"", idcheck.ProblemLength}},
		{name: "ten digits", input: "9236090160", want: orgNrResult{"", idcheck.ProblemLength}},
		{name: "many digits", input: strings.Repeat("9", 100), want: orgNrResult{"", idcheck.ProblemLength}},
		{name: "NO only", input: "NO", want: orgNrResult{"", idcheck.ProblemLength}},
		{name: "MVA only", input: "mva", want: orgNrResult{"", idcheck.ProblemLength}},
		{name: "NO MVA", input: "NO MVA", want: orgNrResult{"", idcheck.ProblemLength}},
		{name: "NOMVA", input: "NOMVA", want: orgNrResult{"", idcheck.ProblemLength}},
		{name: "letter", input: "923609016X", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "other country code", input: "SE923609016", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "NO at the end", input: "923609016 NO", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "MVA at the start", input: "MVA923609016", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "MVA twice", input: "923609016 MVA MVA", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "split NO", input: "N O 923609016", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "NOO", input: "NOO923609016", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "comma", input: "923,609,016", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "plus", input: "+47923609016", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "fullwidth digits", input: "\uff19\uff12\uff13609016", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "invalid UTF-8", input: "923609016\xff", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "invalid UTF-8 before MVA", input: "923609016\xffMVA", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
		{name: "NUL", input: "923609016\x00", want: orgNrResult{"", idcheck.ProblemBadCharacter}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, parseOrgNr(tc.input)); diff != "" {
				t.Errorf("ParseOrgNr(%q) mismatch (-want +got):\n%s", tc.input, diff)
			}
		})
	}
}

// TestParseOrgNrInvalidIsZero checks that a failed parse returns the zero
// OrgNr, so that no code path can use a partly parsed number.
func TestParseOrgNrInvalidIsZero(t *testing.T) {
	t.Parallel()
	for _, input := range []string{"923609017", "934157150", "92360901", "923609016X", ""} {
		t.Run(strconv.Quote(input), func(t *testing.T) {
			t.Parallel()
			n, p := idcheck.ParseOrgNr(input)
			if p == idcheck.ProblemNone {
				t.Fatalf("ParseOrgNr(%q) problem = ProblemNone, want a problem", input)
			}
			if n != (idcheck.OrgNr{}) {
				t.Errorf("ParseOrgNr(%q) = %q, want the zero OrgNr", input, n[:])
			}
		})
	}
}

// TestParseOrgNrMatchesMOD11 compares ParseOrgNr with mod11Valid on every
// ninth digit for many random eight-digit prefixes.
func TestParseOrgNrMatchesMOD11(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		prefix := strconv.Itoa(10_000_000 + rng.IntN(90_000_000))
		valid := 0
		for d := range 10 {
			s := prefix + strconv.Itoa(d)
			n, p := idcheck.ParseOrgNr(s)
			want := mod11Valid(s)
			if got := p == idcheck.ProblemNone; got != want {
				t.Fatalf("ParseOrgNr(%q) problem = %v, want valid = %v", s, p, want)
			}
			if want {
				valid++
				if n.String() != s {
					t.Fatalf("ParseOrgNr(%q) = %q", s, n.String())
				}
			} else if !p.IsChecksum() {
				t.Fatalf("ParseOrgNr(%q) problem = %v, want a checksum problem", s, p)
			}
		}
		if valid > 1 {
			t.Fatalf("prefix %s has %d valid check digits, want at most 1", prefix, valid)
		}
	}
}

func TestOrgNrStrings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		input         string
		wantString    string
		wantFormatted string
	}{
		{name: "923609016", input: "NO 923.609.016 MVA", wantString: "923609016", wantFormatted: "923 609 016"},
		{name: "934154150", input: "934154150", wantString: "934154150", wantFormatted: "934 154 150"},
		{name: "zero value", input: "invalid", wantString: "", wantFormatted: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n, _ := idcheck.ParseOrgNr(tc.input)
			if diff := cmp.Diff(tc.wantString, n.String()); diff != "" {
				t.Errorf("String() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantFormatted, n.Formatted()); diff != "" {
				t.Errorf("Formatted() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseOrgNrAllocs checks that parsing does not allocate. It does not
// call t.Parallel because testing.AllocsPerRun panics while parallel tests
// run.
func TestParseOrgNrAllocs(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	inputs := append([]string{"923609017", "934157150", "923609016X", "9236", ""}, spellings923609016()...)
	for _, input := range inputs {
		allocs := testing.AllocsPerRun(100, func() {
			idcheck.ParseOrgNr(input)
		})
		if allocs != 0 {
			t.Errorf("ParseOrgNr(%q) allocates %v times, want 0", input, allocs)
		}
	}
}

func FuzzParseOrgNr(f *testing.F) {
	for _, s := range spellings923609016() {
		f.Add(s)
	}
	for _, s := range []string{"", "974760673", "934154150", "923609017", "934157150", "833286602", "NOMVA", "923609016\xff", "\u2013"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		n, p := idcheck.ParseOrgNr(input)
		if p != idcheck.ProblemNone {
			if n != (idcheck.OrgNr{}) {
				t.Fatalf("ParseOrgNr(%q) = %q with problem %v, want the zero OrgNr", input, n[:], p)
			}
			return
		}
		s := n.String()
		if !mod11Valid(s) {
			t.Fatalf("ParseOrgNr(%q) = %q, which fails MOD11", input, s)
		}
		// The digits of the input are the number: NO and MVA hold none
		// and the separators are not ASCII digits.
		var digits strings.Builder
		for i := range len(input) {
			if '0' <= input[i] && input[i] <= '9' {
				digits.WriteByte(input[i])
			}
		}
		if digits.String() != s {
			t.Fatalf("ParseOrgNr(%q) = %q, want the input's digits %q", input, s, digits.String())
		}
		for _, again := range []string{s, n.Formatted()} {
			m, q := idcheck.ParseOrgNr(again)
			if q != idcheck.ProblemNone || m != n {
				t.Fatalf("ParseOrgNr(%q) = %q, %v; want %q, ProblemNone", again, m[:], q, s)
			}
		}
	})
}

func BenchmarkParseOrgNr(b *testing.B) {
	benchmarks := []struct {
		name  string
		input string
	}{
		{name: "canonical", input: "923609016"},
		{name: "spaced", input: "923 609 016"},
		{name: "NO MVA", input: "NO 923 609 016 MVA"},
		{name: "NBSP", input: "923\u00a0609\u00a0016"},
		{name: "checksum", input: "923609017"},
		{name: "bad character", input: "923609016X"},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idcheck.ParseOrgNr(bm.input)
			}
		})
	}
}
