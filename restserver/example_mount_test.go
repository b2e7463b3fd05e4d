package restserver_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/restserver"
)

// Example_mount serves REST and MCP under /registry/ next to an
// application's own routes and behind its own middleware. WithBasePath makes
// every advertised link, the MCP endpoint and every hint start with
// /registry.
func Example_mount() {
	// A stand-in for Brønnøysund's API, so that the example runs offline.
	brreg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"status":404}`, http.StatusNotFound)
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

	rest, err := restserver.New(reg, restserver.WithBasePath("/registry"), restserver.WithMCPPath("/mcp"))
	if err != nil {
		log.Fatal(err)
	}
	mcpHandler, err := mcpserver.Handler(reg)
	if err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "the app's home") })
	mux.Handle("/registry/mcp", mcpHandler)
	mux.Handle("/registry/", http.StripPrefix("/registry", rest))
	// The application's own middleware wraps everything, e.g. its auth.
	auth := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer app-token" {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	srv := httptest.NewServer(auth(mux))
	defer srv.Close()

	get := func(path string) string {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer app-token")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return fmt.Sprint(res.StatusCode, " ", strings.ReplaceAll(string(b), srv.URL, "http://app.example"))
	}
	fmt.Print(get("/"))
	fmt.Println(get("/registry/v1/NO/validate/923609016")[:38])
	for _, line := range strings.Split(get("/registry/llms.txt"), "\n") {
		if strings.Contains(line, "MCP endpoint") || strings.Contains(line, "[Countries]") {
			fmt.Println(line[:strings.Index(line, ")")+1])
		}
	}
	fmt.Println(get("/registry/nowhere"))
	// Output:
	// 200 the app's home
	// 200 {"country":"NO","registry":"brreg"
	// - [Countries](http://app.example/registry/v1/countries)
	// - [MCP endpoint](http://app.example/registry/mcp)
	// 404 {"error":{"code":"not_found","message":"There is no route at this path.","hint":"Read /registry/llms.txt for the routes of this service; GET /registry/v1/countries lists the supported countries.","country":null,"registry":null,"details":{}}}
}
