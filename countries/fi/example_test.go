package fi_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/fi"
)

// Example builds a Registry over the Finnish module, pointed at a test
// server that serves a recorded YTJ answer, and looks up Nokia Oyj by its
// VAT number; the lookup reaches the register with the canonical business
// ID 0112038-9.
func Example() {
	body, err := os.ReadFile("testdata/prh/companies_businessId-0112038-9_nokia-oyj_2026-05.json")
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /opendata-ytj-api/v3/companies", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("businessId") != "0112038-9" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"totalResults":0,"companies":[]}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	fin, err := fi.New(
		fi.WithBaseURL(srv.URL+"/opendata-ytj-api/v3"),
		fi.WithHTTPClient(srv.Client()),
		fi.WithContactEmail("ops@example.org"),
	)
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{fin})
	if err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	rep, err := reg.Lookup(ctx, "FI", "FI01120389")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.ID, rep.Name)
	fmt.Println(*rep.LegalFormCode, "-", *rep.LegalForm, "-", *rep.LegalFormLocal)
	fmt.Println("status:", rep.Status, "VAT:", *rep.VATNumber)
	fmt.Println("previously:", rep.PreviousNames[0])

	dl, err := reg.Deadlines(ctx, "FI", "0112038-9", registry.NewDate(2026, 11, 24))
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range dl.Deadlines {
		fmt.Println(d.Kind, d.DueDate)
	}

	_, err = reg.Lookup(ctx, "FI", "2077474-0")
	fmt.Println(registry.AsError(err).Code)
	// Output:
	// 01120389 Nokia Oyj
	// 17 - Public limited company - Julkinen osakeyhtiö
	// status: active VAT: FI01120389
	// previously: Oy Nokia Ab
	// employer_separate_report 2026-12-07
	// employer_contributions 2026-12-14
	// vat_return 2026-12-14
	// tax_return 2027-04-30
	// general_meeting 2027-06-30
	// financial_statements 2027-08-31
	// not_found
}

// ExampleCountry_Validate checks business IDs offline.
func ExampleCountry_Validate() {
	fin, err := fi.New()
	if err != nil {
		log.Fatal(err)
	}
	for _, id := range []string{"2336509 6", "FI23365096", "2336509-7"} {
		v := fin.Validate(id)
		if v.Valid {
			fmt.Println(id, "valid:", *v.Normalized)
			continue
		}
		fmt.Println(id, "invalid:", *v.Reason)
	}
	// Output:
	// 2336509 6 valid: 23365096
	// FI23365096 valid: 23365096
	// 2336509-7 invalid: The digit after the hyphen is not the MOD11 check digit of the seven digits before it.
}
