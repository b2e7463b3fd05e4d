package no

import (
	"net/http"
	"strings"
	"testing"
)

func TestOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opt     Option
		wantErr bool
	}{
		{"base URL", WithBaseURL("http://localhost:8080/api/"), false},
		{"relative base URL", WithBaseURL("/api"), true},
		{"base URL with query", WithBaseURL("https://x.test/api?a=1"), true},
		{"ftp base URL", WithBaseURL("ftp://x.test/api"), true},
		{"base URL with user info", WithBaseURL("https://user:secret@x.test/api"), true},
		{"HTTP client", WithHTTPClient(&http.Client{}), false},
		{"nil HTTP client", WithHTTPClient(nil), true},
		{"contact e-mail", WithContactEmail("ops@example.org"), false},
		{"empty contact e-mail", WithContactEmail(""), false},
		{"contact e-mail with a name", WithContactEmail("Ops <ops@example.org>"), true},
		{"contact e-mail with a newline", WithContactEmail("ops@example.org\r\nX: y"), true},
		{"nil option", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := New(tt.opt)
			if (err != nil) != tt.wantErr {
				t.Errorf("New(%s) error = %v, want error %t", tt.name, err, tt.wantErr)
			}
		})
	}
}

// The base URL keeps its path and loses a trailing slash.
func TestBaseURLTrailingSlash(t *testing.T) {
	t.Parallel()
	c, err := New(WithBaseURL("http://localhost:8080/api/"))
	if err != nil {
		t.Fatal(err)
	}
	if c.up.BaseURL() != "http://localhost:8080/api" {
		t.Errorf("baseURL = %q", c.up.BaseURL())
	}
}

// The rules document has the identifier with a worked example, the legal
// form table, the status precedence and the deadline rules.
func TestRules(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	doc := c.Rules()
	for _, want := range []string{
		"## Identifier: organisasjonsnummer",
		"3, 2, 7, 6, 5, 4, 3, 2",
		"9×3 + 2×2 + 3×7 + 6×6 + 0×5 + 9×4 + 0×3 + 1×2 = 126; 126 mod 11 = 5; 11 − 5 = 6, which is the ninth digit (6)",
		"## Organisation forms",
		"| AS | Private limited company | Aksjeselskap | yes | yes | yes |",
		"| ENK | Sole proprietorship | Enkeltpersonforetak | no | no | unknown (depends on facts the register does not publish) |",
		"## Status",
		"1. `deleted`", "2. `bankrupt`", "3. `under_compulsory_liquidation`", "4. `under_liquidation`",
		"NLOD",
		// Review D3: harRegistrertAntallAnsatte false (research/brreg.md,
		// pitfall 4: never synthesise 0).
		"`employees_reported` is false and `employees` stays null; the deadlines then list the payroll report with `mandatory: false`",
		// Review D7: the deadline table agrees with the engine, for which a
		// NUF in Foretaksregisteret always owes accounts (regnskapsloven
		// § 1-2, Brønnøysund's list of who must file; research/brreg.md §7)
		// and the tax return that duty presumes.
		"GFS, NUF (when in Foretaksregisteret), PK, SE, SF, SPA, STI, VPFO always; ANS, BA, DA, ENK, FLI, KS, NUF (otherwise), SA only when",
		"KS, NUF (when in Foretaksregisteret), SA, SE always; BA, FLI, NUF (otherwise), STI only when",
		"0.95", "0.8", "0.6", "0.4",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("rules document lacks %q", want)
		}
	}
	for _, f := range legalForms() {
		if !strings.Contains(doc, "| "+f.Code+" | ") {
			t.Errorf("rules document lacks the row of %s", f.Code)
		}
	}
	if !strings.HasSuffix(doc, "\n") {
		t.Error("rules document does not end with a newline")
	}
}
