package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
)

func ExampleParseDate() {
	d, err := registry.ParseDate("2026-05-31")
	fmt.Println(d, d.Weekday(), err)
	_, err = registry.ParseDate("2025-02-29")
	fmt.Println(err != nil)
	// Output:
	// 2026-05-31 Sunday <nil>
	// true
}

func ExampleError() {
	err := error(&registry.Error{
		Code:     registry.CodeRateLimited,
		Message:  "Too many requests.",
		Country:  "NO",
		Registry: "brreg",
		Details:  map[string]any{"retry_after": 30},
	})
	fmt.Println(errors.Is(err, registry.ErrRateLimited), registry.AsError(err).HTTPStatus())
	b, _ := json.Marshal(err)
	fmt.Println(string(b))
	// Output:
	// true 429
	// {"error":{"code":"rate_limited","message":"Too many requests.","hint":"Back off for details.retry_after seconds, then retry.","country":"NO","registry":"brreg","details":{"retry_after":30}}}
}

// ExampleNew builds a Registry over the default modules. Without a Companies
// House key the United Kingdom cannot answer yet, so only Finland, France
// and Norway are listed; validation works offline for all four.
func ExampleNew() {
	cs, err := countries.All(countries.Config{ContactEmail: "ops@example.com"})
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(reg.Health(context.Background()).Countries)
	v, err := reg.Validate(countries.GB, "sc 123456")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v.Valid, *v.Normalized)
	// Output:
	// [FI FR NO]
	// true SC123456
}
