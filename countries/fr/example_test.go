package fr_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/fr"
)

// Example builds a Registry over the French module, pointed at a test
// server that serves a recorded answer of the API Recherche d'entreprises,
// and looks Danone up by its VAT number: the lookup reaches the API with
// the SIREN 552032534. Then its next deadlines and its officers.
func Example() {
	body, err := os.ReadFile("testdata/recherche-entreprises/search_q-552032534_DANONE_SA-5599_active_body.json")
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /search", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("q") != "552032534" {
			_, _ = w.Write([]byte(`{"results":[],"total_results":0,"page":1,"per_page":1,"total_pages":0}`))
			return
		}
		_, _ = w.Write(body)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	france, err := fr.New(fr.WithBaseURL(srv.URL), fr.WithHTTPClient(srv.Client()), fr.WithContactEmail("ops@example.org"))
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{france})
	if err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	rep, err := reg.Lookup(ctx, "FR", "FR 27 552 032 534")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.ID, rep.Name, "-", *rep.LegalForm)
	fmt.Println("status:", rep.Status, "VAT:", *rep.VATNumber, "APE:", rep.IndustryCodes[0].Code)

	dl, err := reg.Deadlines(ctx, "FR", "552032534", registry.NewDate(2026, 11, 24))
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range dl.Deadlines[:4] {
		fmt.Println(d.Kind, d.DueDate, "mandatory:", d.Mandatory)
	}

	roles, err := reg.Roles(ctx, "FR", "552032534")
	if err != nil {
		log.Fatal(err)
	}
	first := roles.Roles[0]
	fmt.Println(len(roles.Roles), "officers; first:", first.Group, first.RoleCode, *first.Holder.BirthYear)
	// Output:
	// 552032534 DANONE - Public limited company with a board of directors (SA)
	// status: active VAT: FR27552032534 APE: 70.10Z
	// dsn 2026-12-07 mandatory: true
	// cfe 2026-12-15 mandatory: false
	// corporate_tax_instalment 2026-12-15 mandatory: false
	// vat_return 2026-12-23 mandatory: false
	// 13 officers; first: board Président du conseil d'administration 1958
}
