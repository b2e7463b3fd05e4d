package changes_test

import (
	"encoding/json"
	"fmt"
	"log"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countrykit"
)

// Compare two snapshots of a company: what a watcher of it is told. In a
// service the snapshots come from a changes.Fetcher (a
// changes.RegistryFetcher reads them fresh from the register) and the
// store.
func ExampleDiff() {
	before := countrykit.NewReport("NO", "brreg", "914375916", "OPULENS NÆRING 4 AS")
	before.Status = registry.StatusActive
	after := countrykit.NewReport("NO", "brreg", "914375916", "TOLLBUGATA 17 OSLO AS")
	after.Status = registry.StatusBankrupt

	snap := func(r *registry.CompanyReport) changes.Snapshot {
		b, err := json.Marshal(r)
		if err != nil {
			log.Fatal(err)
		}
		return changes.Snapshot{Country: r.Country, CompanyID: r.ID, Report: b}
	}
	found, err := changes.Diff(snap(before), snap(after), time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range found {
		fmt.Printf("%s %s: %s -> %s\n", c.CompanyID, c.Kind, c.Old, c.New)
	}
	// Output:
	// 914375916 status_changed: "active" -> "bankrupt"
	// 914375916 name_changed: "OPULENS NÆRING 4 AS" -> "TOLLBUGATA 17 OSLO AS"
}
