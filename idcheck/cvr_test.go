package idcheck_test

import (
	"bufio"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/idcheck"
)

// cvrResult is what ParseCVR returns, in a form cmp can print.
type cvrResult struct {
	Number  string
	Problem idcheck.Problem
}

func parseCVR(input string) cvrResult {
	c, p := idcheck.ParseCVR(input)
	return cvrResult{Number: c.String(), Problem: p}
}

// dkMod11 is an independent statement of the CVR rule as python-stdnum's
// dk.cvr writes it (arthurdejong/python-stdnum, stdnum/dk/cvr.py): eight
// digits, the first not 0, weighted 2, 7, 6, 5, 4, 3, 2, 1, summing to a
// multiple of 11.
func dkMod11(digits string) bool {
	if len(digits) != 8 || digits[0] == '0' {
		return false
	}
	weights := []int{2, 7, 6, 5, 4, 3, 2, 1}
	sum := 0
	for i, w := range weights {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
		sum += int(digits[i]-'0') * w
	}
	return sum%11 == 0
}

// dkStdnumProblems are the Problems of ParseCVR that each python-stdnum
// exception of dk.cvr.validate stands for. stdnum raises InvalidFormat for
// anything that is not all digits after cleaning, and for a leading 0.
var dkStdnumProblems = map[string][]idcheck.Problem{
	"InvalidFormat":   {idcheck.ProblemEmpty, idcheck.ProblemBadCharacter, idcheck.ProblemPrefix},
	"InvalidLength":   {idcheck.ProblemLength},
	"InvalidChecksum": {idcheck.ProblemChecksum, idcheck.ProblemCheckValue10},
}

// TestParseCVRVectors checks every Danish row of the research vectors
// (python-stdnum 1.18 verdicts on numbers from stdnum's doctests,
// Erhvervsstyrelsen's worked example, CVR recordings and third-party
// documents).
func TestParseCVRVectors(t *testing.T) {
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
		if len(cols) < 6 || cols[0] != "DK" {
			continue
		}
		n++
		input, verdict, compact, source := cols[2], cols[3], cols[4], cols[5]
		t.Run(input, func(t *testing.T) {
			t.Parallel()
			got := parseCVR(input)
			switch verdict {
			case "valid":
				if diff := cmp.Diff(cvrResult{Number: compact}, got); diff != "" {
					t.Errorf("ParseCVR(%q) (source: %s) mismatch (-want +got):\n%s", input, source, diff)
				}
			case "invalid":
				want, ok := dkStdnumProblems[compact]
				if !ok {
					t.Fatalf("unknown stdnum error %q", compact)
				}
				if got.Number != "" || !slices.Contains(want, got.Problem) {
					t.Errorf("ParseCVR(%q) (source: %s) = %+v, want one of %v", input, source, got, want)
				}
			default:
				t.Fatalf("unknown verdict %q", verdict)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 19 {
		t.Errorf("found %d Danish vectors, want 19", n)
	}
}

// TestParseCVRAgreesWithStdnum runs ParseCVR on every input of a table
// generated once with python-stdnum 1.18's dk.cvr.validate (Debian
// bookworm's python3-stdnum; testdata/cvr_stdnum.py, committed with its
// output testdata/cvr_stdnum_1.18.tsv): the same verdict on each, the same
// compact form for the valid ones, and a Problem of the class of stdnum's
// exception for the others. The inputs use every separator stdnum drops
// (space, hyphen, dot, comma, slash, colon), also between D and K.
func TestParseCVRAgreesWithStdnum(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/cvr_stdnum_1.18.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows, valid := 0, 0
	for line := 0; sc.Scan(); line++ {
		if line < 2 { // the comment and the column names
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 3 {
			t.Fatalf("malformed row %q", sc.Text())
		}
		rows++
		input, verdict, compact := cols[0], cols[1], cols[2]
		got := parseCVR(input)
		if verdict == "valid" {
			valid++
			if got != (cvrResult{Number: compact}) {
				t.Errorf("ParseCVR(%q) = %+v, stdnum: valid %s", input, got, compact)
			}
			continue
		}
		want, ok := dkStdnumProblems[verdict]
		if !ok {
			t.Fatalf("unknown stdnum verdict %q", verdict)
		}
		if got.Number != "" || !slices.Contains(want, got.Problem) {
			t.Errorf("ParseCVR(%q) = %+v, stdnum: %s (want one of %v)", input, got, verdict, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != 1723 || valid < 600 {
		t.Errorf("%d rows, %d valid; want 1723 rows and at least 600 valid", rows, valid)
	}
}

// TestParseCVRRules checks the rows of the research note's CVR table that
// the vectors file does not hold, and the edges of the rule, each with its
// source.
func TestParseCVRRules(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		input string
		want  cvrResult
		why   string
	}{
		{"13748136", cvrResult{Number: "13748136"}, "Erhvervsstyrelsen's worked example: sum 126, remainder 5, check 6 (erhvervsstyrelsen.dk/modulus_11)"},
		{"24256790", cvrResult{Number: "24256790"}, "Elixir cvr package docs (hexdocs.pm/cvr)"},
		{"10000130", cvrResult{Number: "10000130"}, "remainder 0 gives check digit 0 (Erhvervsstyrelsen)"},
		{"24256791", cvrResult{Problem: idcheck.ProblemChecksum}, "Elixir cvr package docs"},
		{"10000000", cvrResult{Problem: idcheck.ProblemChecksum}, "Elixir cvr package docs"},
		{"12345678", cvrResult{Problem: idcheck.ProblemChecksum}, "computed"},
		{"01234567", cvrResult{Problem: idcheck.ProblemPrefix}, "a CVR number never starts with 0 (stdnum: InvalidFormat)"},
		{"0123", cvrResult{Problem: idcheck.ProblemPrefix}, "stdnum checks the leading 0 before the length"},
		{"1358562", cvrResult{Problem: idcheck.ProblemLength}, "seven digits"},
		{"1358562812", cvrResult{Problem: idcheck.ProblemLength}, "ten digits: a P-number is another scheme"},
		{"", cvrResult{Problem: idcheck.ProblemEmpty}, "empty"},
		{" - . ", cvrResult{Problem: idcheck.ProblemEmpty}, "separators only"},
		{"DK", cvrResult{Problem: idcheck.ProblemEmpty}, "the prefix only"},
		{"DKDK13585628", cvrResult{Problem: idcheck.ProblemBadCharacter}, "one prefix only (stdnum: InvalidFormat)"},
		{"13585628DK", cvrResult{Problem: idcheck.ProblemBadCharacter}, "the prefix comes first"},
		{"1358/5628", cvrResult{Number: "13585628"}, "a slash is a separator (python-stdnum dk.cvr removes ' -.,/:')"},
		{"13,58,56,28", cvrResult{Number: "13585628"}, "commas too (stdnum)"},
		{"DK:13585628", cvrResult{Number: "13585628"}, "a colon after DK (stdnum)"},
		{"D-K 13585628", cvrResult{Number: "13585628"}, "stdnum removes the separators before it looks for DK"},
		{"D13585628", cvrResult{Problem: idcheck.ProblemBadCharacter}, "D without K (stdnum: InvalidFormat)"},
		{" , / : ", cvrResult{Problem: idcheck.ProblemEmpty}, "separators only (stdnum: InvalidFormat)"},
		{"1358;5628", cvrResult{Problem: idcheck.ProblemBadCharacter}, "a semicolon is not one of stdnum's separators"},
		{"CVR 13585628", cvrResult{Problem: idcheck.ProblemBadCharacter}, "only DK may precede the digits"},
		{"13585628\xff", cvrResult{Problem: idcheck.ProblemBadCharacter}, "invalid UTF-8"},
	} {
		if diff := cmp.Diff(tt.want, parseCVR(tt.input)); diff != "" {
			t.Errorf("ParseCVR(%q) (%s) mismatch (-want +got):\n%s", tt.input, tt.why, diff)
		}
	}
	// Every last digit after a prefix with remainder 1 fails: 1000005
	// weighs 2·1 + 2·5 = 12, remainder 1 (the research note's row).
	for d := range 10 {
		in := "1000005" + strconv.Itoa(d)
		if got := parseCVR(in); got.Problem != idcheck.ProblemCheckValue10 {
			t.Errorf("ParseCVR(%q) = %+v, want ProblemCheckValue10", in, got)
		}
	}
}

// cvrSpellings returns accepted ways of writing 13585628.
func cvrSpellings() []string {
	return []string{
		"13585628", "13 58 56 28", "1358 5628", " 13585628 ", "\t13585628\r\n", "13.58.56.28", "13-58-56-28",
		"13\u00a058\u00a056\u00a028", "\ufeff13585628", "1358\u20135628", "DK13585628", "dk13585628", "Dk 13585628",
		"DK 13 58 56 28", "DK-13585628", "DK.13585628",
	}
}

func TestParseCVRSpellings(t *testing.T) {
	t.Parallel()
	want := cvrResult{Number: "13585628"}
	for _, input := range cvrSpellings() {
		if diff := cmp.Diff(want, parseCVR(input)); diff != "" {
			t.Errorf("ParseCVR(%q) mismatch (-want +got):\n%s", input, diff)
		}
	}
}

// TestParseCVRMatchesMOD11 compares ParseCVR with dkMod11 on every check
// digit of many random seven-digit prefixes: exactly one check digit is
// valid, except for remainder 1, where none is.
func TestParseCVRMatchesMOD11(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 11))
	none := 0
	for range 3000 {
		prefix := strconv.Itoa(1_000_000 + rng.IntN(9_000_000))
		valid := 0
		for d := range 10 {
			s := prefix + strconv.Itoa(d)
			c, p := idcheck.ParseCVR(s)
			want := dkMod11(s)
			if got := p == idcheck.ProblemNone; got != want {
				t.Fatalf("ParseCVR(%q) problem = %v, want valid = %v", s, p, want)
			}
			if want {
				valid++
				if c.String() != s {
					t.Fatalf("ParseCVR(%q) = %q", s, c)
				}
			} else if !p.IsChecksum() {
				t.Fatalf("ParseCVR(%q) problem = %v, want a checksum problem", s, p)
			}
		}
		switch valid {
		case 0:
			none++
			if _, p := idcheck.ParseCVR(prefix + "0"); p != idcheck.ProblemCheckValue10 {
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

func TestCVRStrings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ input, str, formatted, vat string }{
		{"DK 41 77 40 37", "41774037", "41774037", "DK41774037"},
		{"invalid", "", "", ""},
	} {
		c, _ := idcheck.ParseCVR(tc.input)
		if diff := cmp.Diff([]string{tc.str, tc.formatted, tc.vat}, []string{c.String(), c.Formatted(), c.VATNumber()}); diff != "" {
			t.Errorf("%q: String, Formatted, VATNumber mismatch (-want +got):\n%s", tc.input, diff)
		}
	}
}

// Every failure has a reason and a hint that names the search; the valid
// number has a reason and no hint.
func TestDenmarkReasonAndHint(t *testing.T) {
	t.Parallel()
	for _, p := range []idcheck.Problem{idcheck.ProblemEmpty, idcheck.ProblemBadCharacter, idcheck.ProblemPrefix,
		idcheck.ProblemLength, idcheck.ProblemChecksum, idcheck.ProblemCheckValue10, idcheck.ProblemVATNumber} {
		r, h := idcheck.DenmarkReason(p), idcheck.DenmarkHint(p)
		if !strings.HasSuffix(r, ".") || !strings.Contains(h, "search by name with the search operation") {
			t.Errorf("%v: reason %q, hint %q", p, r, h)
		}
	}
	if idcheck.DenmarkHint(idcheck.ProblemNone) != "" || idcheck.DenmarkReason(idcheck.ProblemNone) == "" {
		t.Error("ProblemNone: want a reason and no hint")
	}
}

// TestParseCVRAllocs checks that parsing does not allocate. Not parallel:
// testing.AllocsPerRun panics while parallel tests run.
func TestParseCVRAllocs(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	inputs := append([]string{"13585627", "01234567", "1358/5628", "1358562", ""}, cvrSpellings()...)
	for _, input := range inputs {
		if allocs := testing.AllocsPerRun(100, func() { idcheck.ParseCVR(input) }); allocs != 0 {
			t.Errorf("ParseCVR(%q) allocates %v times, want 0", input, allocs)
		}
	}
}

func FuzzParseCVR(f *testing.F) {
	for _, s := range cvrSpellings() {
		f.Add(s)
	}
	for _, s := range []string{"", "01234567", "10000050", "DK", "DKDK", "13585627", "\u2013", "13585628\xff", "1358562812"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		c, p := idcheck.ParseCVR(input)
		if p != idcheck.ProblemNone {
			if c != (idcheck.CVR{}) {
				t.Fatalf("ParseCVR(%q) = %q with problem %v, want the zero CVR", input, c, p)
			}
			return
		}
		if !dkMod11(c.String()) {
			t.Fatalf("ParseCVR(%q) = %q, which fails modulus 11", input, c)
		}
		// The digits of the input are the number: DK holds none and the
		// separators are not ASCII digits.
		var digits strings.Builder
		for i := range len(input) {
			if '0' <= input[i] && input[i] <= '9' {
				digits.WriteByte(input[i])
			}
		}
		if digits.String() != c.String() {
			t.Fatalf("ParseCVR(%q) = %q, want the input's digits %q", input, c, digits.String())
		}
		for _, again := range []string{c.String(), c.Formatted(), c.VATNumber()} {
			d, q := idcheck.ParseCVR(again)
			if q != idcheck.ProblemNone || d != c {
				t.Fatalf("ParseCVR(%q) = %q, %v; want %q", again, d, q, c)
			}
		}
	})
}

func BenchmarkParseCVR(b *testing.B) {
	for _, input := range []string{"13585628", "DK 13 58 56 28", "13585627"} {
		b.Run(input, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idcheck.ParseCVR(input)
			}
		})
	}
}
