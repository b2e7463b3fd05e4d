package main

import (
	"bytes"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/leakcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestMain(m *testing.M) {
	leakcheck.Main(m)
}

// fakeBrreg serves the Equinor recording for 923609016 and 404 for every
// other number, and counts the requests.
func fakeBrreg(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	body, err := os.ReadFile("testdata/enhet_923609016_equinor_asa_2026-08.json")
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /enheter/923609016", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &calls
}

// TestRun runs the command's logic against a fake register: a header, an
// identifier with spaces, a blank row, an unknown number, a bad check digit,
// a formula-like cell and a repeat.
func TestRun(t *testing.T) {
	t.Parallel()
	srv, calls := fakeBrreg(t)
	reg, err := newRegistry(func(k string) string {
		if k == "BRREG_BASE_URL" {
			return srv.URL
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open("testdata/clients.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out, errOut bytes.Buffer
	var updates []int
	err = run(t.Context(), reg, config{country: "NO", today: "2026-01-15"}, in, &out, &errOut,
		func(done, total int) { updates = append(updates, done, total) })
	if !errors.Is(err, errSomeFailed) {
		t.Errorf("run = %v, want errSomeFailed", err)
	}
	// Equinor ASA on 2026-01-15 (DESIGN §5 and the 2026 calendar): 31 Jan
	// 2026 is a Saturday, so the shareholder statement rolls to 2 Feb; 31
	// May is a Sunday, so the tax return rolls to 1 Jun; the recording says
	// the 2025 accounts are filed, so annual_accounts is 2026's, due 31 Jul
	// 2027 (fixed by law, no roll-forward). Six rows for each of the two
	// mentions of 923609016, in the input's order.
	path := "testdata/deadlines.golden"
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	for _, due := range []string{",2026-02-02,2026-01-31,true,", ",2026-06-01,2026-05-31,true,", ",2027-07-31,2027-07-31,false,"} {
		if strings.Count(out.String(), due) != 2 {
			t.Errorf("the output does not hold %q twice", due)
		}
	}
	summary := errOut.String()
	for _, s := range []string{"5 identifiers: 12 deadlines written, 0 companies without deadlines, 3 failed.",
		"974760673: not_found:", "923609017: invalid_id:", "=1+2: invalid_id:"} {
		if !strings.Contains(summary, s) {
			t.Errorf("summary lacks %q:\n%s", s, summary)
		}
	}
	if diff := cmp.Diff([]int{5, 5}, updates); diff != "" {
		t.Errorf("progress updates (-want +got):\n%s", diff)
	}
	// One request for Equinor (the repeat is cached), two for the unknown
	// number (/enheter, then /underenheter), none for the invalid ones.
	if n := calls.Load(); n != 3 {
		t.Errorf("%d upstream requests, want 3", n)
	}
}

func TestRunNoIdentifiers(t *testing.T) {
	t.Parallel()
	reg, err := newRegistry(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	err = run(t.Context(), reg, config{country: "NO", today: "2026-01-15"}, strings.NewReader("org_nr\n\n"), &bytes.Buffer{}, &bytes.Buffer{}, func(int, int) {})
	if err == nil || errors.Is(err, errSomeFailed) {
		t.Errorf("run = %v, want an input error", err)
	}
	err = run(t.Context(), reg, config{country: "UK", today: "2026-01-15"}, strings.NewReader("1\n"), &bytes.Buffer{}, &bytes.Buffer{}, func(int, int) {})
	if err == nil || errors.Is(err, errSomeFailed) {
		t.Errorf("country UK: run = %v, want unsupported_country", err)
	}
}

func TestReadIDs(t *testing.T) {
	t.Parallel()
	valid := func(s string) bool { return s == "923609016" }
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"id\n923609016\n", []string{"923609016"}},
		{"\uFEFForgnr;x\n923609016\n", []string{"923609016"}},
		{"923609016\n974760673\n", []string{"923609016", "974760673"}},
		{"12345\n", []string{"12345"}}, // digits: not a header, an invalid identifier
		{" a , b \n\n 9 2 3 ,x,y,z\n", []string{"9 2 3"}},
	} {
		got, err := readIDs(strings.NewReader(tt.in), valid)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.in, diff)
		}
	}
	if _, err := readIDs(strings.NewReader("\"unterminated\n"), valid); err == nil {
		t.Error("a malformed CSV is read")
	}
}

// FuzzReadIDs: any input is read or refused, never a panic, and no
// identifier is blank.
func FuzzReadIDs(f *testing.F) {
	f.Add("id\n923609016\n")
	f.Add("\"a\"\"b\",c\r\n\n")
	f.Fuzz(func(t *testing.T, in string) {
		ids, err := readIDs(strings.NewReader(in), func(string) bool { return false })
		if err != nil {
			return
		}
		for _, id := range ids {
			if strings.TrimSpace(id) == "" {
				t.Fatalf("blank identifier from %q", in)
			}
		}
	})
}

func TestText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"=1+2": "'=1+2", "-x": "'-x", "@a": "'@a", "+1": "'+1", "\tx": "'\tx", "ÆRLIG AS": "ÆRLIG AS", "": ""} {
		if got := text(in); got != want {
			t.Errorf("text(%q) = %q, want %q", in, got, want)
		}
	}
}
