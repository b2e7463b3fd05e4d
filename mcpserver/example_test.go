package mcpserver_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/mcpserver"
)

// ExampleNew connects an in-process client to the server and calls a tool.
// An invalid identifier is a normal result with valid false.
func ExampleNew() {
	ctx := context.Background()
	nor, err := no.New() // countries.All(cfg) for every default module
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}
	srv, err := mcpserver.New(reg)
	if err != nil {
		log.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "validate_company_id", Arguments: map[string]any{"id": "923 609 017"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// false
	// {"country":"NO","registry":"brreg","id_scheme":"organisasjonsnummer","input":"923 609 017","valid":false,"normalized":null,"formatted":null,"reason":"The ninth digit is not the MOD11 check digit of the first eight digits.","hint":"Check the number for a mistyped or swapped digit, or search by name with search_company (GET /v1/NO/search?q=\u003cname\u003e)."}
}

// ExampleHandler mounts the Streamable HTTP endpoint at /mcp and /mcp/ (so
// that neither redirects) next to other routes.
func ExampleHandler() {
	nor, err := no.New()
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}
	h, err := mcpserver.Handler(reg)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	_ = http.Server{Addr: ":8080", Handler: mux} // ListenAndServe in a real program
}
