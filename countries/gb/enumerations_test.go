package gb

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// enumeration reads one top-level table of Companies House's
// api-enumerations constants.yml ("name:" followed by indented
// 'key' : "value" lines).
func enumeration(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "enumerations", "constants.yml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, " ") {
			in = strings.TrimSpace(line) == name+":"
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `'"`)
		v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), `"`))
		out[k] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no table %q in constants.yml", name)
	}
	return out
}

// Every company type of the official enumerations has a legal form with the
// same English label, and nothing else is in the table.
func TestLegalFormsMatchEnumerations(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	for code, lf := range legalForms {
		got[code] = lf.label
	}
	if diff := cmp.Diff(enumeration(t, "company_type"), got); diff != "" {
		t.Errorf("legal forms differ from constants.yml company_type (-want +got):\n%s", diff)
	}
}

// Every company_status of the official enumerations is mapped, with its
// label.
func TestStatusRulesMatchEnumerations(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	for s, r := range statusRules {
		got[s] = r.label
	}
	if diff := cmp.Diff(enumeration(t, "company_status"), got); diff != "" {
		t.Errorf("status rules differ from constants.yml company_status (-want +got):\n%s", diff)
	}
}

// The labels of company_status_detail and company_subtype match the
// enumerations.
func TestDetailAndSubtypeLabelsMatchEnumerations(t *testing.T) {
	t.Parallel()
	for k, want := range enumeration(t, "company_status_detail") {
		if got := statusDetailLabel(k); got != want {
			t.Errorf("statusDetailLabel(%q) = %q, want %q", k, got, want)
		}
	}
	for k, want := range enumeration(t, "company_subtype") {
		if got, ok := subtypeLabel(k); !ok || got != want {
			t.Errorf("subtypeLabel(%q) = %q, %v, want %q", k, got, ok, want)
		}
	}
}

// The generated SIC table holds every description of the enumerations.
func TestSICDescriptionsMatchEnumerations(t *testing.T) {
	t.Parallel()
	want := enumeration(t, "sic_descriptions")
	if len(want) < 1000 {
		t.Fatalf("only %d SIC codes read", len(want))
	}
	for code, d := range want {
		if got, ok := sicDescription(code); !ok || got != d {
			t.Errorf("sicDescription(%q) = %q, %v, want %q", code, got, ok, d)
		}
	}
	if _, ok := sicDescription("00000"); ok {
		t.Error("sicDescription(00000) found a description")
	}
}
