package apitoken_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes/apitoken"
)

const (
	erpToken = "erp-0123456789abcdef-token"
	crmToken = "crm-fedcba9876543210=="
)

// TestParse: name=token entries; a token is found by its own text only,
// and the set keeps no token.
func TestParse(t *testing.T) {
	t.Parallel()
	s, err := apitoken.Parse(" erp=" + erpToken + " , crm=" + crmToken)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"erp", "crm"}, s.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	for token, want := range map[string]string{erpToken: "erp", crmToken: "crm", "": "", erpToken + "x": "",
		strings.ToUpper(erpToken): "", apitoken.Hash(erpToken): ""} {
		if got, ok := s.Lookup(token); got != want || ok != (want != "") {
			t.Errorf("Lookup(%q) = %q, %v", token, got, ok)
		}
	}
	empty, err := apitoken.Parse("  ")
	if err != nil || empty.Len() != 0 {
		t.Errorf("empty: %v, %v", empty, err)
	}
	var none *apitoken.Set
	if _, ok := none.Lookup(erpToken); ok || none.Len() != 0 || none.Names() != nil {
		t.Error("a nil set knows a token")
	}
}

// TestParseErrors: each malformed setting is refused with an error that
// names the entry and never shows a token.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	secret := "s3cr3t-s3cr3t-s3cr3t"
	for in, want := range map[string]string{
		"erp=" + secret + ",":                    "entry 2 is empty",
		"erp" + secret:                           "entry 1 has no '='",
		"erp=short":                              "entry 1: a token must have 16 to 512 characters",
		"erp=" + secret + " x":                   "entry 1: a token has no spaces",
		"=" + secret:                             "entry 1: a name must have 1 to 64 characters",
		"e r p=" + secret:                        "entry 1: a name has only letters",
		"erp=" + secret + ",erp=" + secret + "x": "entry 2: its name is given before",
		"erp=" + secret + ",crm=" + secret:       "entry 2: its token is given before",
		secret + secret + "=x":                   "entry 1: a token must have",
	} {
		_, err := apitoken.Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
			continue
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "erp") {
			t.Errorf("the error shows a token or a name: %v", err)
		}
	}
}

// TestParseFile: "name sha256-hex" lines with comments; the file holds no
// token, yet the token is found.
func TestParseFile(t *testing.T) {
	t.Parallel()
	file := "# tokens of the registry\n\n" + apitoken.Line("erp", erpToken) + "\n  " +
		"crm " + strings.ToUpper(apitoken.Hash(crmToken)) + "  \n"
	if strings.Contains(file, erpToken) {
		t.Fatal("the file holds a token")
	}
	s, err := apitoken.ParseFile(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if name, ok := s.Lookup(crmToken); name != "crm" || !ok {
		t.Errorf("crm: %q %v", name, ok)
	}
	if name, ok := s.Lookup(erpToken); name != "erp" || !ok {
		t.Errorf("erp: %q %v", name, ok)
	}
	// sha256("abc"), the FIPS 180-2 example.
	if got := apitoken.Hash("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("Hash(abc) = %s", got)
	}
	for in, want := range map[string]string{
		"erp":                                 "line 1 is not",
		"erp " + erpToken:                     "line 1: the hash is not 64 hexadecimal digits",
		"erp a b":                             "line 1 is not",
		"# c\nerp " + strings.Repeat("z", 64): "line 2: the hash",
		apitoken.Line("erp", "x") + "\n" + apitoken.Line("erp", "y"): "line 2: its name is given before",
		apitoken.Line("erp", "x") + "\n" + apitoken.Line("crm", "x"): "line 2: its token is given before",
		strings.Repeat("x", 5000):                                    "line 1: ",
	} {
		_, err := apitoken.ParseFile(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFile(%.40q) = %v, want %q", in, err, want)
		}
	}
}

// FuzzParse: any setting parses or fails with an error that never shows a
// token; every parsed token is found under its name.
func FuzzParse(f *testing.F) {
	f.Add("erp=" + erpToken + ",crm=" + crmToken)
	f.Add("=,=,")
	f.Add("a=b=c=d=e=f=g=h=i=j")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := apitoken.Parse(in)
		if err != nil || strings.TrimSpace(in) == "" {
			return
		}
		for _, part := range strings.Split(in, ",") {
			name, token, _ := strings.Cut(strings.TrimSpace(part), "=")
			if got, ok := s.Lookup(token); !ok || got != name {
				t.Fatalf("Lookup(token of %q) = %q, %v", name, got, ok)
			}
		}
	})
}

// FuzzParseFile: any file parses or fails; never a panic.
func FuzzParseFile(f *testing.F) {
	f.Add(apitoken.Line("erp", erpToken) + "\n# x\n")
	f.Add("a b c\n")
	f.Add("erp " + strings.Repeat("0", 64) + "\nerp " + strings.Repeat("1", 64))
	f.Fuzz(func(t *testing.T, in string) {
		s, err := apitoken.ParseFile(strings.NewReader(in))
		if err == nil && s.Len() > apitoken.MaxTokens {
			t.Fatalf("%d tokens", s.Len())
		}
	})
}
