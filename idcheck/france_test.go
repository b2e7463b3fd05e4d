package idcheck_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/companyregistry/registry/idcheck"
	"github.com/google/go-cmp/cmp"
)

// frResult is what a French parser returns, in a form cmp can print.
type frResult struct {
	Canonical string
	Problem   idcheck.Problem
}

func parseSIREN(in string) frResult {
	s, p := idcheck.ParseSIREN(in)
	return frResult{s.String(), p}
}

func parseSIRET(in string) frResult {
	s, p := idcheck.ParseSIRET(in)
	return frResult{s.String(), p}
}

// parseTVA returns the number without its FR prefix, as stdnum's compact
// form has it.
func parseTVA(in string) frResult {
	v, p := idcheck.ParseFrenchVAT(in)
	return frResult{strings.TrimPrefix(v.String(), "FR"), p}
}

var frParsers = map[string]func(string) frResult{"fr.siren": parseSIREN, "fr.siret": parseSIRET, "fr.tva": parseTVA}

// stdnumProblems maps python-stdnum's exceptions to the Problems that may
// report them: stdnum calls an empty input InvalidFormat.
var stdnumProblems = map[string][]idcheck.Problem{
	"InvalidFormat":   {idcheck.ProblemBadCharacter, idcheck.ProblemEmpty},
	"InvalidLength":   {idcheck.ProblemLength},
	"InvalidChecksum": {idcheck.ProblemChecksum},
}

// readTSV returns the rows of testdata/name, without comments and the
// header.
func readTSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		if first {
			first = false
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// checkStdnum compares one parser's answer with python-stdnum's verdict.
func checkStdnum(t *testing.T, scheme, input, verdict, compact, source string) {
	t.Helper()
	got := frParsers[scheme](input)
	if verdict == "VALID" {
		if diff := cmp.Diff(frResult{compact, idcheck.ProblemNone}, got); diff != "" {
			t.Errorf("%s %q (%s): python-stdnum says valid (-stdnum +idcheck):\n%s", scheme, input, source, diff)
		}
		return
	}
	want, ok := stdnumProblems[verdict]
	if !ok {
		t.Fatalf("unknown stdnum verdict %q", verdict)
	}
	ok = false
	for _, p := range want {
		ok = ok || got.Problem == p
	}
	if !ok || got.Canonical != "" {
		t.Errorf("%s %q (%s): python-stdnum says %s, idcheck %v %q", scheme, input, source, verdict, got.Problem, got.Canonical)
	}
}

// TestFranceVectors checks every row of the research vectors: python-stdnum
// 1.18's verdicts on the API's recorded identifiers (Danone, La Poste,
// GANYMEDE, RED NEEDLES), stdnum's doctests and constructed cases.
func TestFranceVectors(t *testing.T) {
	t.Parallel()
	rows := readTSV(t, "france_id_vectors.tsv")
	if len(rows) != 21 {
		t.Fatalf("%d vectors, want 21", len(rows))
	}
	for _, r := range rows {
		scheme, input, verdict, compact, source := r[0], r[1], r[2], r[3], r[4]
		verdict = strings.TrimPrefix(verdict, "INVALID ")
		t.Run(scheme+" "+input, func(t *testing.T) {
			t.Parallel()
			checkStdnum(t, scheme, input, verdict, compact, source)
		})
	}
}

// TestFranceStdnumAgreement checks every generated identifier of
// testdata/france_stdnum_agreement.tsv (written once by
// gen_france_stdnum.py with python-stdnum 1.18): valid for idcheck exactly
// when valid for stdnum, with the same compact form, and invalid for the
// same class of reason.
func TestFranceStdnumAgreement(t *testing.T) {
	t.Parallel()
	rows := readTSV(t, "france_stdnum_agreement.tsv")
	count := map[string]int{}
	for _, r := range rows {
		if len(r) != 4 {
			t.Fatalf("row %q", r)
		}
		count[r[0]+" "+r[2]]++
		checkStdnum(t, r[0], r[1], r[2], r[3], "generated")
	}
	// Each scheme has valid numbers and each kind of failure.
	for _, scheme := range []string{"fr.siren", "fr.siret", "fr.tva"} {
		for _, v := range []string{"VALID", "InvalidFormat", "InvalidLength", "InvalidChecksum"} {
			if count[scheme+" "+v] < 20 {
				t.Errorf("only %d rows of %s %s", count[scheme+" "+v], scheme, v)
			}
		}
	}
}

// The vectors of the research note on French deadlines (§8), beyond the
// TSV: each with python-stdnum 1.18's verdict as the note records it.
func TestFranceResearchNoteVectors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scheme, input string
		want          frResult
	}{
		{"fr.siren", "404833048", frResult{"404833048", idcheck.ProblemNone}},
		{"fr.siren", "443121975", frResult{"443121975", idcheck.ProblemNone}},
		{"fr.siren", "302474648", frResult{"302474648", idcheck.ProblemNone}},
		{"fr.siren", "404833047", frResult{"", idcheck.ProblemChecksum}},
		{"fr.siren", "000000001", frResult{"", idcheck.ProblemChecksum}},
		{"fr.siren", "5520325340", frResult{"", idcheck.ProblemLength}},
		{"fr.siren", "55203253A", frResult{"", idcheck.ProblemBadCharacter}},
		{"fr.siret", "88087814500015", frResult{"88087814500015", idcheck.ProblemNone}},
		{"fr.siret", "30002576400048", frResult{"30002576400048", idcheck.ProblemNone}},
		{"fr.siret", "35600000000047", frResult{"35600000000047", idcheck.ProblemNone}},
		{"fr.siret", "35600000049838", frResult{"", idcheck.ProblemChecksum}},
		{"fr.siret", "5520325340064", frResult{"", idcheck.ProblemLength}},
		{"fr.siret", "552032534006460", frResult{"", idcheck.ProblemLength}},
		{"fr.tva", "FR39356000000", frResult{"39356000000", idcheck.ProblemNone}},
		{"fr.tva", "FR46443121975", frResult{"46443121975", idcheck.ProblemNone}},
		{"fr.tva", "FR40303265045", frResult{"40303265045", idcheck.ProblemNone}},
		{"fr.tva", "fr27552032534", frResult{"27552032534", idcheck.ProblemNone}},
		{"fr.tva", "FRK7399859412", frResult{"K7399859412", idcheck.ProblemNone}},
		{"fr.tva", "FR34000123456", frResult{"34000123456", idcheck.ProblemNone}},
		{"fr.tva", "FR09880878145", frResult{"09880878145", idcheck.ProblemNone}},
		{"fr.tva", "FR28552032534", frResult{"", idcheck.ProblemChecksum}},
		{"fr.tva", "FR27552032535", frResult{"", idcheck.ProblemChecksum}},
		{"fr.tva", "FR84323140391", frResult{"", idcheck.ProblemChecksum}},
		{"fr.tva", "FR2755203253", frResult{"", idcheck.ProblemLength}},
		{"fr.tva", "FR11000123456", frResult{"", idcheck.ProblemChecksum}},
		{"fr.tva", "IO334175221", frResult{"", idcheck.ProblemBadCharacter}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, frParsers[tc.scheme](tc.input)); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.scheme, tc.input, diff)
		}
	}
}

// TestFrenchVATKeys: the key of each research SIREN, computed (the note
// gives 27, 39, 44, 83, 46, 09 with its leading zero, 40, 14).
func TestFrenchVATKeys(t *testing.T) {
	t.Parallel()
	want := map[string]string{"552032534": "27", "356000000": "39", "732829320": "44", "404833048": "83", "443121975": "46",
		"880878145": "09", "839517323": "40", "302474648": "14"}
	for siren, key := range want {
		s, p := idcheck.ParseSIREN(siren)
		if p != idcheck.ProblemNone {
			t.Fatalf("%s: %v", siren, p)
		}
		if s.VATKey() != key || s.VATNumber() != "FR"+key+siren {
			t.Errorf("%s: key %q, VAT %q; want %s", siren, s.VATKey(), s.VATNumber(), key)
		}
		v, p := idcheck.ParseFrenchVAT(s.VATNumber())
		if got, ok := v.SIREN(); p != idcheck.ProblemNone || !ok || got != s {
			t.Errorf("%s: the computed VAT number does not parse back to the SIREN: %v %v", siren, p, got)
		}
	}
}

// TestParseFrenchIDSpellings: the ways a user writes Danone's identifiers
// all give its SIREN, and say which identifier it was.
func TestParseFrenchIDSpellings(t *testing.T) {
	t.Parallel()
	type res struct {
		Kind  idcheck.FrenchIDKind
		SIREN string
		SIRET string
		VAT   string
		P     idcheck.Problem
	}
	tests := map[string]res{
		"552032534":             {idcheck.FrenchSIREN, "552032534", "", "", idcheck.ProblemNone},
		"552 032 534":           {idcheck.FrenchSIREN, "552032534", "", "", idcheck.ProblemNone},
		" 552.032.534 ":         {idcheck.FrenchSIREN, "552032534", "", "", idcheck.ProblemNone},
		"552\u00a0032\u202f534": {idcheck.FrenchSIREN, "552032534", "", "", idcheck.ProblemNone},
		"\t552032534\r\n":       {idcheck.FrenchSIREN, "552032534", "", "", idcheck.ProblemNone},
		"55203253400646":        {idcheck.FrenchSIRET, "552032534", "55203253400646", "", idcheck.ProblemNone},
		"552 032 534 00646":     {idcheck.FrenchSIRET, "552032534", "55203253400646", "", idcheck.ProblemNone},
		"FR27552032534":         {idcheck.FrenchVATNumber, "552032534", "", "FR27552032534", idcheck.ProblemNone},
		"fr 27 552 032 534":     {idcheck.FrenchVATNumber, "552032534", "", "FR27552032534", idcheck.ProblemNone},
		"FR-27-552-032-534":     {idcheck.FrenchVATNumber, "552032534", "", "FR27552032534", idcheck.ProblemNone},
		" FR27\u2013552032534":  {idcheck.FrenchVATNumber, "552032534", "", "FR27552032534", idcheck.ProblemNone},
		"FR34000123456":         {idcheck.FrenchVATNumber, "", "", "FR34000123456", idcheck.ProblemNone},
		"FR28552032534":         {idcheck.FrenchVATNumber, "", "", "", idcheck.ProblemChecksum},
		"552032535":             {idcheck.FrenchSIREN, "", "", "", idcheck.ProblemChecksum},
		"55203253400647":        {idcheck.FrenchSIRET, "", "", "", idcheck.ProblemChecksum},
		// Eleven digits are a VAT number without its FR, as ParseFrenchVAT
		// and python-stdnum's fr.tva read them.
		"27552032534":           {idcheck.FrenchVATNumber, "552032534", "", "FR27552032534", idcheck.ProblemNone},
		"27 552 032 534":        {idcheck.FrenchVATNumber, "552032534", "", "FR27552032534", idcheck.ProblemNone},
		"28552032534":           {idcheck.FrenchVATNumber, "", "", "", idcheck.ProblemChecksum},
		"1234567890":            {idcheck.FrenchUnknown, "", "", "", idcheck.ProblemLength},
		"552-032-534":           {idcheck.FrenchUnknown, "", "", "", idcheck.ProblemBadCharacter},
		"":                      {idcheck.FrenchUnknown, "", "", "", idcheck.ProblemEmpty},
		" . ":                   {idcheck.FrenchUnknown, "", "", "", idcheck.ProblemEmpty},
		"FR":                    {idcheck.FrenchVATNumber, "", "", "", idcheck.ProblemEmpty},
		"552032534\xff":         {idcheck.FrenchUnknown, "", "", "", idcheck.ProblemBadCharacter},
		"\uff15\uff15\uff12":    {idcheck.FrenchUnknown, "", "", "", idcheck.ProblemBadCharacter},
		strings.Repeat("1", 99): {idcheck.FrenchUnknown, "", "", "", idcheck.ProblemLength},
	}
	for in, want := range tests {
		t.Run(strconv.Quote(in), func(t *testing.T) {
			t.Parallel()
			id, p := idcheck.ParseFrenchID(in)
			got := res{id.Kind, id.SIREN.String(), id.SIRET.String(), id.VAT.String(), p}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ParseFrenchID(%q) (-want +got):\n%s", in, diff)
			}
		})
	}
}

func TestFrenchIDStrings(t *testing.T) {
	t.Parallel()
	s, _ := idcheck.ParseSIREN("552032534")
	st, _ := idcheck.ParseSIRET("55203253400646")
	v, _ := idcheck.ParseFrenchVAT("FRK7399859412")
	got := []string{s.String(), s.Formatted(), st.String(), st.Formatted(), st.NIC(), st.SIREN().String(), v.String(), v.Formatted(), v.Key()}
	want := []string{"552032534", "552 032 534", "55203253400646", "552 032 534 00646", "00646", "552032534", "FRK7399859412", "FR K7 399 859 412", "K7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var zs idcheck.SIREN
	var zt idcheck.SIRET
	var zv idcheck.FrenchVAT
	if _, ok := zv.SIREN(); ok || zv.Monaco() {
		t.Error("the zero FrenchVAT has a SIREN or is Monaco's")
	}
	for _, z := range []string{zs.String(), zs.Formatted(), zs.VATKey(), zs.VATNumber(), zt.String(), zt.Formatted(), zt.NIC(),
		zt.SIREN().String(), zv.String(), zv.Formatted(), zv.Key()} {
		if z != "" {
			t.Errorf("a zero value's method returned %q", z)
		}
	}
}

// Every Problem the French parsers report has its own reason and a hint
// that offers a search.
func TestFranceReasonAndHint(t *testing.T) {
	t.Parallel()
	kinds := []idcheck.FrenchIDKind{idcheck.FrenchUnknown, idcheck.FrenchSIREN, idcheck.FrenchSIRET, idcheck.FrenchVATNumber}
	for _, k := range kinds {
		for _, p := range []idcheck.Problem{idcheck.ProblemEmpty, idcheck.ProblemBadCharacter, idcheck.ProblemLength, idcheck.ProblemChecksum} {
			r, h := idcheck.FranceReason(k, p), idcheck.FranceHint(k, p)
			if r == "" || r == p.Reason() || !strings.HasSuffix(r, ".") {
				t.Errorf("%v %v: reason %q", k, p, r)
			}
			if !strings.Contains(h, "search by name with the search operation.") {
				t.Errorf("%v %v: hint %q", k, p, h)
			}
		}
		if idcheck.FranceHint(k, idcheck.ProblemNone) != "" || idcheck.FranceReason(k, idcheck.ProblemNone) == "" {
			t.Errorf("%v: valid reason or hint", k)
		}
	}
}

// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestFrenchParsersAllocs(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	n := testing.AllocsPerRun(100, func() {
		_, _ = idcheck.ParseSIREN("552 032 534")
		_, _ = idcheck.ParseSIRET("552 032 534 00646")
		_, _ = idcheck.ParseFrenchVAT("FR 27 552 032 534")
		_, _ = idcheck.ParseFrenchID("FRK7399859412")
	})
	if n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// FuzzParseFrenchID: no input panics; a valid identifier's canonical and
// formatted forms parse to the same identifier; ParseFrenchID agrees with
// the parser of the kind it names.
func FuzzParseFrenchID(f *testing.F) {
	for _, s := range []string{"552032534", "552 032 534 00646", "FR27552032534", "FRK7399859412", "FR34000123456", "35600000049837",
		"4Z123456782", "FR", "", "\xff", "fr-27.552 032\u00a0534"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		id, p := idcheck.ParseFrenchID(in)
		if (p == idcheck.ProblemNone) != (id.Kind != idcheck.FrenchUnknown && (id.SIREN != idcheck.SIREN{} || id.VAT.Monaco())) {
			t.Fatalf("ParseFrenchID(%q) = %+v, %v", in, id, p)
		}
		s, sp := idcheck.ParseSIREN(in)
		if sp == idcheck.ProblemNone {
			if again, p := idcheck.ParseSIREN(s.Formatted()); p != idcheck.ProblemNone || again != s {
				t.Errorf("SIREN %q: formatted %q does not parse back", in, s.Formatted())
			}
			if v, p := idcheck.ParseFrenchVAT(s.VATNumber()); p != idcheck.ProblemNone || v.Key() != s.VATKey() {
				t.Errorf("SIREN %q: VAT number %q invalid: %v", in, s.VATNumber(), p)
			}
		}
		st, tp := idcheck.ParseSIRET(in)
		if tp == idcheck.ProblemNone {
			if again, p := idcheck.ParseSIRET(st.Formatted()); p != idcheck.ProblemNone || again != st {
				t.Errorf("SIRET %q: formatted %q does not parse back", in, st.Formatted())
			}
			if _, p := idcheck.ParseSIREN(st.SIREN().String()); p != idcheck.ProblemNone {
				t.Errorf("SIRET %q: its SIREN is invalid", in)
			}
		}
		v, vp := idcheck.ParseFrenchVAT(in)
		if vp == idcheck.ProblemNone {
			if again, p := idcheck.ParseFrenchVAT(v.Formatted()); p != idcheck.ProblemNone || again != v {
				t.Errorf("VAT %q: formatted %q does not parse back", in, v.Formatted())
			}
			if n, ok := v.SIREN(); ok && v.Key()[0] <= '9' && v.Key()[1] <= '9' && n.VATKey() != v.Key() {
				t.Errorf("VAT %q: numeric key %s, SIREN key %s", in, v.Key(), n.VATKey())
			}
		}
		switch id.Kind {
		case idcheck.FrenchSIREN:
			if p != sp || id.SIREN != s {
				t.Errorf("ParseFrenchID(%q) = %+v %v; ParseSIREN %v %v", in, id, p, s, sp)
			}
		case idcheck.FrenchSIRET:
			if p != tp || id.SIRET != st {
				t.Errorf("ParseFrenchID(%q) = %+v %v; ParseSIRET %v %v", in, id, p, st, tp)
			}
		case idcheck.FrenchVATNumber:
			if p != vp || id.VAT != v {
				t.Errorf("ParseFrenchID(%q) = %+v %v; ParseFrenchVAT %v %v", in, id, p, v, vp)
			}
		}
	})
}

func BenchmarkParseFrenchID(b *testing.B) {
	for _, in := range []string{"552032534", "552 032 534 00646", "FR 27 552 032 534", "FRK7399859412"} {
		b.Run(in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = idcheck.ParseFrenchID(in)
			}
		})
	}
}
