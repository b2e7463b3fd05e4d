package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/companyregistry/registry/schema"
)

// ExampleFor prints the strict, self-contained schema of the health
// response, the contract a document is checked against.
func ExampleFor() {
	b, err := json.Marshal(schema.For(schema.HealthResponse))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"type":"object","properties":{"status":{"type":"string","enum":["ok"]},"version":{"type":"string"},"countries":{"type":"array","items":{"type":"string","pattern":"^[A-Z]{2}$"}},"cache":{"type":"string","enum":["memory","redis","none","custom"]},"redis":{"type":["object","null"],"properties":{"reachable":{"type":"boolean"}},"required":["reachable"],"additionalProperties":false}},"$schema":"https://json-schema.org/draft/2020-12/schema","title":"HealthResponse","description":"The liveness answer.","required":["status","version","countries","cache","redis"],"additionalProperties":false}
}

// ExampleOutput prints the outputSchema an MCP tool returning a validation
// result advertises: nullable fields as anyOf with null, no patterns, and a
// $id that changes whenever the schema does.
func ExampleOutput() {
	s := schema.Output(schema.ValidationResult)
	fmt.Println(s.Properties["normalized"].AnyOf[1].Type, s.Properties["country"].Pattern == "")
	fmt.Println(s.ID[:len(schema.IDPrefix)+len(schema.ValidationResult)])
	// Output:
	// null true
	// urn:companyregistry:schema:ValidationResult
}
