package idcheck_test

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/companyregistry/registry/idcheck"
	"github.com/google/go-cmp/cmp"
)

// yTunnusResult is what ParseYTunnus returns, in a form cmp can print.
type yTunnusResult struct {
	Code    string
	Problem idcheck.Problem
}

func parseYTunnus(input string) yTunnusResult {
	y, p := idcheck.ParseYTunnus(input)
	return yTunnusResult{Code: y.String(), Problem: p}
}

// mod11YTunnus is an independent statement of the Y-tunnus rule as
// python-stdnum's fi.alv writes it: the eight digits weighted 7, 9, 10, 5,
// 8, 4, 2, 1 sum to a multiple of 11 (which excludes remainder 1 of the
// first seven, since no single digit is 10).
func mod11YTunnus(digits string) bool {
	if len(digits) != 8 {
		return false
	}
	weights := []int{7, 9, 10, 5, 8, 4, 2, 1}
	sum := 0
	for i, w := range weights {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
		sum += int(digits[i]-'0') * w
	}
	return sum%11 == 0
}

// TestParseYTunnusVectors checks every Finnish row of the research vectors
// (python-stdnum 1.18 verdicts on codes from stdnum's doctests, PRH
// recordings and third-party documents).
func TestParseYTunnusVectors(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/nordic_id_vectors.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 || cols[0] != "FI" {
			continue
		}
		n++
		input, verdict, compact, source := cols[2], cols[3], cols[4], cols[5]
		t.Run(cols[1]+" "+input, func(t *testing.T) {
			t.Parallel()
			y, p := idcheck.ParseYTunnus(input)
			var want yTunnusResult
			switch verdict {
			case "valid":
				// stdnum's compact form is the eight digits; ours adds the
				// hyphen before the check digit.
				want = yTunnusResult{Code: compact[:7] + "-" + compact[7:], Problem: idcheck.ProblemNone}
				if y.Digits() != compact {
					t.Errorf("Digits() = %q, want %q", y.Digits(), compact)
				}
			case "invalid":
				want.Problem = map[string]idcheck.Problem{
					"InvalidChecksum": idcheck.ProblemChecksum,
					"InvalidLength":   idcheck.ProblemLength,
				}[compact]
				if want.Problem == idcheck.ProblemNone {
					t.Fatalf("unknown stdnum error %q", compact)
				}
			default:
				t.Fatalf("unknown verdict %q", verdict)
			}
			if diff := cmp.Diff(want, yTunnusResult{y.String(), p}); diff != "" {
				t.Errorf("ParseYTunnus(%q) (source: %s) mismatch (-want +got):\n%s", input, source, diff)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 12 {
		t.Errorf("found %d Finnish vectors, want 12 (11 ytunnus, 1 alv)", n)
	}
}

// spellings0112038 returns accepted ways of writing Nokia's 0112038-9.
func spellings0112038() []string {
	return []string{
		"0112038-9",
		"01120389",
		"0112038 9",
		"0112038 - 9",
		" 0112038-9 ",
		"\t0112038-9\r\n",
		"0112038\u20139",
		"0112038\u22129",
		"0112038\u00a09",
		"\ufeff0112038-9",
		"FI01120389",
		"fi01120389",
		"Fi 0112038-9",
		"FI 01120389",
		"FI-0112038-9",
		"0 1 1 2 0 3 8 9",
	}
}

func TestParseYTunnusSpellings(t *testing.T) {
	t.Parallel()
	want := yTunnusResult{Code: "0112038-9", Problem: idcheck.ProblemNone}
	for _, input := range spellings0112038() {
		t.Run(strconv.Quote(input), func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(want, parseYTunnus(input)); diff != "" {
				t.Errorf("ParseYTunnus(%q) mismatch (-want +got):\n%s", input, diff)
			}
		})
	}
}

func TestParseYTunnus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  yTunnusResult
	}{
		{name: "Supercell", input: "2336509-6", want: yTunnusResult{"2336509-6", idcheck.ProblemNone}},
		{name: "remainder 0", input: "0000000-0", want: yTunnusResult{"0000000-0", idcheck.ProblemNone}},
		// 1000001: 7 + 2 = 9, check 2; 1000003: 7 + 6 = 13, r 2, check 9.
		{name: "computed check 2", input: "1000001-2", want: yTunnusResult{"1000001-2", idcheck.ProblemNone}},
		{name: "computed check 9", input: "1000003-9", want: yTunnusResult{"1000003-9", idcheck.ProblemNone}},
		// 1000004: 7 + 8 = 15, r 4, check 7.
		{name: "checksum", input: "1000004-8", want: yTunnusResult{"", idcheck.ProblemChecksum}},
		// 0000006: 6 × 2 = 12, remainder 1: never issued.
		{name: "remainder 1", input: "0000006-0", want: yTunnusResult{"", idcheck.ProblemCheckValue10}},
		{name: "remainder 1 any check digit", input: "0000006-1", want: yTunnusResult{"", idcheck.ProblemCheckValue10}},
		{name: "empty", input: "", want: yTunnusResult{"", idcheck.ProblemEmpty}},
		{name: "only spaces and hyphens", input: " - ", want: yTunnusResult{"", idcheck.ProblemEmpty}},
		{name: "FI only", input: "FI", want: yTunnusResult{"", idcheck.ProblemLength}},
		{name: "seven digits", input: "0112038", want: yTunnusResult{"", idcheck.ProblemLength}},
		{name: "legacy six digits", input: "112038-9", want: yTunnusResult{"", idcheck.ProblemLength}},
		{name: "nine digits", input: "01120389-0", want: yTunnusResult{"", idcheck.ProblemLength}},
		{name: "many digits", input: strings.Repeat("1", 100), want: yTunnusResult{"", idcheck.ProblemLength}},
		{name: "dot", input: "0112038.9", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "slash", input: "0112038/9", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "letter", input: "0112038-9X", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "other country", input: "SE01120389", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "FI at the end", input: "01120389FI", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "FI twice", input: "FIFI01120389", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "EUID", input: "FIFPRO.0112038-9", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "fullwidth digit", input: "\uff10112038-9", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "invalid UTF-8", input: "0112038-9\xff", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
		{name: "NUL", input: "0112038-9\x00", want: yTunnusResult{"", idcheck.ProblemBadCharacter}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, parseYTunnus(tc.input)); diff != "" {
				t.Errorf("ParseYTunnus(%q) mismatch (-want +got):\n%s", tc.input, diff)
			}
		})
	}
}

// TestParseYTunnusMatchesMOD11 compares ParseYTunnus with mod11YTunnus on
// every check digit of many random seven-digit prefixes: exactly one check
// digit is valid, except for remainder 1, where none is.
func TestParseYTunnusMatchesMOD11(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 11))
	none := 0
	for range 3000 {
		prefix := strconv.Itoa(10_000_000 + rng.IntN(10_000_000))[1:]
		valid := 0
		for d := range 10 {
			s := prefix + strconv.Itoa(d)
			y, p := idcheck.ParseYTunnus(s)
			want := mod11YTunnus(s)
			if got := p == idcheck.ProblemNone; got != want {
				t.Fatalf("ParseYTunnus(%q) problem = %v, want valid = %v", s, p, want)
			}
			if want {
				valid++
				if y.Digits() != s || y.String() != s[:7]+"-"+s[7:] {
					t.Fatalf("ParseYTunnus(%q) = %q", s, y)
				}
			} else if !p.IsChecksum() {
				t.Fatalf("ParseYTunnus(%q) problem = %v, want a checksum problem", s, p)
			}
		}
		switch valid {
		case 0:
			none++
			if _, p := idcheck.ParseYTunnus(prefix + "0"); p != idcheck.ProblemCheckValue10 {
				t.Fatalf("prefix %s has no valid check digit but problem %v", prefix, p)
			}
		case 1:
		default:
			t.Fatalf("prefix %s has %d valid check digits", prefix, valid)
		}
	}
	if none == 0 {
		t.Error("no prefix with remainder 1 was drawn; the test does not cover it")
	}
}

func TestYTunnusStrings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		input                       string
		str, formatted, digits, vat string
	}{
		{"FI 0112038 9", "0112038-9", "0112038-9", "01120389", "FI01120389"},
		{"23365096", "2336509-6", "2336509-6", "23365096", "FI23365096"},
		{"invalid", "", "", "", ""},
	}
	for _, tc := range tests {
		y, _ := idcheck.ParseYTunnus(tc.input)
		got := []string{y.String(), y.Formatted(), y.Digits(), y.VATNumber()}
		if diff := cmp.Diff([]string{tc.str, tc.formatted, tc.digits, tc.vat}, got); diff != "" {
			t.Errorf("%q: String, Formatted, Digits, VATNumber mismatch (-want +got):\n%s", tc.input, diff)
		}
	}
}

// Every failure has a reason and a hint that names the search; the valid
// code has a reason and no hint.
func TestFinlandReasonAndHint(t *testing.T) {
	t.Parallel()
	for _, p := range []idcheck.Problem{idcheck.ProblemEmpty, idcheck.ProblemBadCharacter, idcheck.ProblemLength,
		idcheck.ProblemChecksum, idcheck.ProblemCheckValue10} {
		r, h := idcheck.FinlandReason(p), idcheck.FinlandHint(p)
		if !strings.HasSuffix(r, ".") || !strings.Contains(h, "search by name with the search operation") {
			t.Errorf("%v: reason %q, hint %q", p, r, h)
		}
	}
	if idcheck.FinlandHint(idcheck.ProblemNone) != "" || idcheck.FinlandReason(idcheck.ProblemNone) == "" {
		t.Error("ProblemNone: want a reason and no hint")
	}
}

// TestParseYTunnusAllocs checks that parsing does not allocate. Not
// parallel: testing.AllocsPerRun panics while parallel tests run.
func TestParseYTunnusAllocs(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	inputs := append([]string{"0112038-8", "0000006-0", "0112038.9", "112038-9", ""}, spellings0112038()...)
	for _, input := range inputs {
		if allocs := testing.AllocsPerRun(100, func() { idcheck.ParseYTunnus(input) }); allocs != 0 {
			t.Errorf("ParseYTunnus(%q) allocates %v times, want 0", input, allocs)
		}
	}
}

func FuzzParseYTunnus(f *testing.F) {
	for _, s := range spellings0112038() {
		f.Add(s)
	}
	for _, s := range []string{"", "0000006-0", "112038-9", "FI", "FIFI", "2077474-1", "\u2013", "0112038-9\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		y, p := idcheck.ParseYTunnus(input)
		if p != idcheck.ProblemNone {
			if y != (idcheck.YTunnus{}) {
				t.Fatalf("ParseYTunnus(%q) = %q with problem %v, want the zero YTunnus", input, y.Digits(), p)
			}
			return
		}
		if !mod11YTunnus(y.Digits()) {
			t.Fatalf("ParseYTunnus(%q) = %q, which fails MOD11", input, y)
		}
		// The digits of the input are the code: FI holds none and the
		// separators are not ASCII digits.
		var digits strings.Builder
		for i := range len(input) {
			if '0' <= input[i] && input[i] <= '9' {
				digits.WriteByte(input[i])
			}
		}
		if digits.String() != y.Digits() {
			t.Fatalf("ParseYTunnus(%q) = %q, want the input's digits %q", input, y.Digits(), digits.String())
		}
		for _, again := range []string{y.String(), y.Digits(), y.VATNumber()} {
			z, q := idcheck.ParseYTunnus(again)
			if q != idcheck.ProblemNone || z != y {
				t.Fatalf("ParseYTunnus(%q) = %q, %v; want %q", again, z, q, y)
			}
		}
	})
}

func BenchmarkParseYTunnus(b *testing.B) {
	for _, input := range []string{"0112038-9", "FI01120389", "0112038-8"} {
		b.Run(input, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idcheck.ParseYTunnus(input)
			}
		})
	}
}
