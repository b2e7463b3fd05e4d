package countries_test

import (
	"context"
	"fmt"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
)

// ExampleAll builds a Registry over the default modules. Without a
// Companies House key and a CVR credential the United Kingdom and Denmark
// are present but cannot answer, so only Finland, France and Norway are
// listed.
func ExampleAll() {
	cs, err := countries.All(countries.Config{ContactEmail: "ops@example.com"})
	if err != nil {
		panic(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		panic(err)
	}
	for _, c := range cs {
		fmt.Println(c.Info().Country, c.Info().Registry, c.Info().RequiresAPIKey)
	}
	fmt.Println(reg.Health(context.Background()).Countries)
	// Output:
	// NO brreg false
	// GB companieshouse true
	// FI prh false
	// DK cvr true
	// FR sirene false
	// SE bolagsverket true
	// [FI FR NO]
}

// ExampleConfigFromEnv reads the module settings from environment
// variables; a map stands in for [os.Getenv] here.
func ExampleConfigFromEnv() {
	env := map[string]string{"BRREG_BASE_URL": " http://brreg.test/api ", "REGISTRY_CONTACT_EMAIL": "ops@example.com"}
	cfg := countries.ConfigFromEnv(func(k string) string { return env[k] })
	fmt.Printf("%q %q %t\n", cfg.BrregBaseURL, cfg.ContactEmail, cfg.CompaniesHouseAPIKey == "")
	// Output:
	// "http://brreg.test/api" "ops@example.com" true
}
