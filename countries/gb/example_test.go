package gb_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/gb"
)

// Example serves a recorded Companies House profile from a local test
// server, looks the company up through a Registry and prints a few fields.
func Example() {
	body, err := os.ReadFile(filepath.Join("testdata", "recordings", "company_profile_active_ltd_08957400_2024.json"))
	if err != nil {
		log.Fatal(err)
	}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, ok := r.BasicAuth(); !ok || r.URL.Path != "/company/08957400" {
			http.Error(w, `{"errors":[{"error":"company-profile-not-found","type":"ch:service"}]}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer upstream.Close()

	// A real deployment passes os.Getenv("COMPANIES_HOUSE_API_KEY").
	uk, err := gb.New(gb.WithAPIKey("example-key"), gb.WithBaseURL(upstream.URL))
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{uk})
	if err != nil {
		log.Fatal(err)
	}
	rep, err := reg.Lookup(context.Background(), "GB", "8957400")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.ID, rep.Name)
	fmt.Println(*rep.LegalForm, "-", rep.Status)
	fmt.Println("formerly", rep.PreviousNames[0])
	for _, d := range rep.PublishedDeadlines {
		fmt.Println(d.Kind, "due", d.DueDate)
	}
	// Output:
	// 08957400 CANDOUR GROUP LIMITED
	// Private limited company - active
	// formerly LONDON & KENT ESTATES LIMITED
	// annual_accounts due 2024-12-31
	// confirmation_statement due 2024-04-08
}

// ExampleCountry_Validate checks company numbers offline; no API key is
// needed.
func ExampleCountry_Validate() {
	uk, err := gb.New()
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range []string{"sc 12345", "GB 123 4567 89"} {
		v := uk.Validate(in)
		if v.Valid {
			fmt.Printf("%q is valid: %s\n", in, *v.Normalized)
		} else {
			fmt.Printf("%q is invalid: %s\n", in, *v.Reason)
		}
	}
	// Output:
	// "sc 12345" is valid: SC012345
	// "GB 123 4567 89" is invalid: This is a UK VAT registration number, not a Companies House company number.
}
