package registry_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
)

// ExampleRegistry_Refresh reads a company from its register although the
// cache holds it: the register renamed it in between.
func ExampleRegistry_Refresh() {
	var renamed atomic.Bool
	brreg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/roller") {
			fmt.Fprint(w, `{"rollegrupper":[]}`)
			return
		}
		name := "EKSEMPEL AS"
		if renamed.Load() {
			name = "NYTT NAVN AS"
		}
		fmt.Fprintf(w, `{"organisasjonsnummer":"923609016","navn":%q,"organisasjonsform":{"kode":"AS"}}`, name)
	}))
	defer brreg.Close()
	nor, err := no.New(no.WithBaseURL(brreg.URL))
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if _, err := reg.Lookup(ctx, "NO", "923609016"); err != nil {
		log.Fatal(err)
	}
	renamed.Store(true)

	cached, _ := reg.Lookup(ctx, "NO", "923609016")
	fresh, roles, err := reg.Refresh(ctx, "NO", "923609016")
	if err != nil {
		log.Fatal(err)
	}
	again, _ := reg.Lookup(ctx, "NO", "923609016")
	fmt.Println(cached.Name, cached.Cached)
	fmt.Println(fresh.Name, fresh.Cached, len(roles.Roles))
	fmt.Println(again.Name, again.Cached)
	// Output:
	// EKSEMPEL AS true
	// NYTT NAVN AS false 0
	// NYTT NAVN AS true
}
