package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// TestBatch runs a batch against a fake Brønnøysund: one real recording,
// one unknown number and one with a bad check digit.
func TestBatch(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile("testdata/enhet_923609016_equinor_asa_2026-08.json")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /enheter/923609016", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	mux.HandleFunc("GET /", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	reg, err := newRegistry(func(k string) string {
		if k == "BRREG_BASE_URL" {
			return " " + srv.URL + "\n" // trimmed, as the server trims it
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = run(t.Context(), reg, "NO", registry.NewDate(2026, 1, 15), []string{"923 609 016", "974760673", "923609017"}, &out, &errOut)
	if !errors.Is(err, errSomeFailed) {
		t.Errorf("run = %v, want errSomeFailed", err)
	}
	// Equinor ASA (VAT-registered, reports employees), seen on 2026-01-15.
	// Expected dates from the law (DESIGN §5) and the 2026 calendar:
	// 31 Jan 2026 is a Saturday, so the shareholder statement rolls to 2 Feb;
	// 31 May 2026 is a Sunday, so the tax return rolls to 1 Jun. The recording
	// says the 2025 accounts are filed, so annual_accounts moves to 2026's,
	// due 31 Jul 2027.
	want := `DUE         DAYS  KIND                            COMPANY      MANDATORY
2026-02-02  18    shareholder_register_statement  EQUINOR ASA  true
2026-02-05  21    payroll_report                  EQUINOR ASA  true
2026-02-10  26    vat_return                      EQUINOR ASA  true
2026-06-01  137   tax_return                      EQUINOR ASA  true
2026-06-30  166   general_meeting                 EQUINOR ASA  true
2027-07-31  562   annual_accounts                 EQUINOR ASA  true
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	wantErr := "974760673\tnot_found\t"
	if got := errOut.String(); !bytes.Contains(errOut.Bytes(), []byte(wantErr)) || !bytes.Contains(errOut.Bytes(), []byte("923609017\tinvalid_id\t")) {
		t.Errorf("stderr:\n%s", got)
	}
}

// TestWriteTableNullDaysUntil: days_until is nullable; a deadline without
// it prints "-" in DAYS instead of crashing, and rows come soonest first.
func TestWriteTableNullDaysUntil(t *testing.T) {
	t.Parallel()
	rows := []row{
		{d: registry.Deadline{Kind: "tax_return", DueDate: registry.NewDate(2026, 6, 1), DaysUntil: countrykit.Ptr(137), Mandatory: true}, name: "A AS"},
		{d: registry.Deadline{Kind: "vat_return", DueDate: registry.NewDate(2026, 2, 10), DaysUntil: nil}, name: "B AS"},
	}
	var out bytes.Buffer
	if err := writeTable(&out, rows); err != nil {
		t.Fatal(err)
	}
	want := `DUE         DAYS  KIND        COMPANY  MANDATORY
2026-02-10  -     vat_return  B AS     false
2026-06-01  137   tax_return  A AS     true
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
