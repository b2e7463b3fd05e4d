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

// ExampleCountry_Roles asks a Registry over the Norwegian module who runs
// Equinor ASA, from recorded answers (the roles capture's persons were
// renamed by its publisher). Current roles come first, the board first,
// the chair first; the deregistered member comes last.
func ExampleCountry_Roles() {
	serve := func(mux *http.ServeMux, path, file string) {
		body, err := os.ReadFile(file)
		if err != nil {
			log.Fatal(err)
		}
		mux.HandleFunc("GET /enhetsregisteret/api"+path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		})
	}
	mux := http.NewServeMux()
	serve(mux, "/enheter/923609016", "testdata/brreg/enhet_923609016_equinor_asa_2026-08.json")
	serve(mux, "/enheter/923609016/roller", "testdata/brreg/roles/roller_923609016_equinor_asa_2026-09_ANONYMISED-TRIMMED.json")
	srv := httptest.NewServer(mux)
	defer srv.Close()

	nor, err := no.New(no.WithBaseURL(srv.URL+"/enhetsregisteret/api"), no.WithHTTPClient(srv.Client()))
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}
	rep, err := reg.Roles(context.Background(), "NO", "923 609 016")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Name)
	for _, r := range rep.Roles {
		state := "current"
		if !r.Current {
			state = "former"
		}
		fmt.Printf("%-8s %-7s %-34s %s (%s %d)\n", state, r.Group, r.Role, r.Holder.Name, r.Holder.Kind, len(r.Notes))
	}
	// Output:
	// EQUINOR ASA
	// current  board   Chair of the board                 Ola Nordmann (person 0)
	// current  board   Board member                       Anne Berg (person 0)
	// current  board   Board member                       Jonas Lie (person 1)
	// current  board   Alternate board member (deputy, not a sitting member) Ingrid Dahl (person 1)
	// current  management Chief executive (general manager)  Kari Nordmann (person 0)
	// current  auditor Auditor                            ERNST & YOUNG AS (entity 1)
	// former   board   Board member                       Per Olav Hansen (person 1)
}
