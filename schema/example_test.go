package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/companyregistry/registry/schema"
)

// ExampleFor prints the self-contained schema of the health response, as an
// MCP tool's outputSchema or a client-side validator would use it.
func ExampleFor() {
	b, err := json.Marshal(schema.For(schema.HealthResponse))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"type":"object","properties":{"status":{"type":"string","enum":["ok"]},"version":{"type":"string"},"countries":{"type":"array","items":{"type":"string","pattern":"^[A-Z]{2}$"}}},"$schema":"https://json-schema.org/draft/2020-12/schema","title":"HealthResponse","description":"The liveness answer.","required":["status","version","countries"],"additionalProperties":false}
}
