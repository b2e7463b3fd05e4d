package no_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
)

// Example builds a Registry over the Norwegian module, pointed at a test
// server that serves a recorded Enhetsregisteret answer, and looks up
// Equinor ASA by its organisation number written the VAT way.
func Example() {
	body, err := os.ReadFile("testdata/brreg/enhet_923609016_equinor_asa_2026-08.json")
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /enhetsregisteret/api/enheter/923609016", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	nor, err := no.New(
		no.WithBaseURL(srv.URL+"/enhetsregisteret/api"),
		no.WithHTTPClient(srv.Client()),
		no.WithContactEmail("ops@example.org"),
	)
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}

	rep, err := reg.Lookup(context.Background(), "NO", "NO 923 609 016 MVA")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.ID, *rep.IDFormatted, rep.Name)
	fmt.Println(*rep.LegalFormCode, "-", *rep.LegalForm)
	fmt.Println("status:", rep.Status, "employees:", *rep.Employees)
	fmt.Println("VAT:", *rep.VATNumber)
	fmt.Println("previously:", rep.PreviousNames[0])
	// Output:
	// 923609016 923 609 016 EQUINOR ASA
	// ASA - Public limited company
	// status: active employees: 21239
	// VAT: NO923609016MVA
	// previously: STATOIL ASA
}

// ExampleCountry_Validate checks organisation numbers offline.
func ExampleCountry_Validate() {
	nor, err := no.New()
	if err != nil {
		log.Fatal(err)
	}
	for _, id := range []string{"923.609.016", "923609017"} {
		v := nor.Validate(id)
		if v.Valid {
			fmt.Println(id, "valid:", *v.Normalized, *v.Formatted)
			continue
		}
		fmt.Println(id, "invalid:", *v.Reason)
	}
	// Output:
	// 923.609.016 valid: 923609016 923 609 016
	// 923609017 invalid: The ninth digit is not the MOD11 check digit of the first eight digits.
}
