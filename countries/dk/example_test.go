package dk_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/dk"
)

// Example builds a Registry over the Danish module, pointed at a test
// server that serves a recorded answer of the CVR distribution, looks up
// Tietgen Invest ApS by its VAT number, and computes its deadlines and
// roles. The credential is "username:password", as CVR_CREDENTIALS holds
// it.
func Example() {
	body, err := os.ReadFile("testdata/cvr/virksomhed_search_cvrNummer_41774037_aps_cvr-v-20220630_2024-02_REDACTED.json")
	if err != nil {
		log.Fatal(err)
	}
	empty := []byte(`{"timed_out":false,"_shards":{"failed":0},"hits":{"total":0,"hits":[]}}`)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /cvr-permanent/virksomhed/_search", func(w http.ResponseWriter, r *http.Request) {
		if user, pw, ok := r.BasicAuth(); !ok || user != "ops" || pw != "secret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		q, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if bytes.Contains(q, []byte(`"Vrvirksomhed.cvrNummer":41774037`)) {
			_, _ = w.Write(body)
			return
		}
		_, _ = w.Write(empty)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	den, err := dk.New(
		dk.WithBaseURL(srv.URL+"/cvr-permanent"),
		dk.WithCredentials("ops:secret"),
		dk.WithHTTPClient(srv.Client()),
		dk.WithContactEmail("ops@example.org"),
	)
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{den})
	if err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	rep, err := reg.Lookup(ctx, "DK", "DK41774037")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.ID, rep.Name)
	fmt.Println(*rep.LegalFormCode, "-", *rep.LegalForm, "-", *rep.LegalFormLocal)
	fmt.Println("status:", rep.Status, "capital:", *rep.ShareCapital, *rep.ShareCapitalCurrency)

	dl, err := reg.Deadlines(ctx, "DK", "41774037", registry.NewDate(2026, 11, 24))
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range dl.Deadlines {
		fmt.Println(d.Kind, d.DueDate, "mandatory:", d.Mandatory)
	}

	roles, err := reg.Roles(ctx, "DK", "41774037")
	if err != nil {
		log.Fatal(err)
	}
	r := roles.Roles[0]
	fmt.Println(r.Group, r.Role, "since", r.AppointedAt)

	_, err = reg.Lookup(ctx, "DK", "13585628")
	fmt.Println(registry.AsError(err).Code)
	// Output:
	// 41774037 Tietgen Invest ApS
	// 80 - Private limited company - Anpartsselskab
	// status: active capital: 600000 DKK
	// employer_withholding 2026-12-10 mandatory: false
	// vat_return 2027-03-01 mandatory: false
	// tax_prepayment 2027-03-22 mandatory: false
	// annual_report 2027-06-30 mandatory: true
	// general_meeting 2027-06-30 mandatory: true
	// tax_return 2027-06-30 mandatory: true
	// tax_balance 2027-11-22 mandatory: false
	// board Chair of the board since 2020-12-09
	// not_found
}

// ExampleCountry_Validate checks CVR numbers offline; it needs no
// credential.
func ExampleCountry_Validate() {
	den, err := dk.New()
	if err != nil {
		log.Fatal(err)
	}
	for _, id := range []string{"DK 22 75 62 14", "22756214", "22756215"} {
		v := den.Validate(id)
		if v.Valid {
			fmt.Println(id, "valid:", *v.Normalized)
			continue
		}
		fmt.Println(id, "invalid:", *v.Reason)
	}
	// Output:
	// DK 22 75 62 14 valid: 22756214
	// 22756214 valid: 22756214
	// 22756215 invalid: The eighth digit is not the modulus-11 check digit of the first seven digits.
}
