package restserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/restserver"
)

// ExampleNew serves a Registry over HTTP and validates an identifier
// (offline: validation never calls the register).
func ExampleNew() {
	nor, err := no.New() // countries.All(cfg) for every default module
	if err != nil {
		panic(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		panic(err)
	}
	h, err := restserver.New(reg, restserver.WithRateLimit(60), restserver.WithPublicURL("https://registry.example.com"))
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	res, err := http.Get(srv.URL + "/v1/no/validate/923%20609%20016")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	fmt.Println(string(body))
	// Output:
	// 200 application/json
	// {"country":"NO","registry":"brreg","id_scheme":"organisasjonsnummer","input":"923 609 016","valid":true,"normalized":"923609016","formatted":"923 609 016","reason":"Nine digits with a correct MOD11 check digit.","hint":null}
}
