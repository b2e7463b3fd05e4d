package restserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/restserver"
)

// ExampleNew serves a Registry over HTTP and validates an identifier.
func ExampleNew() {
	reg, err := registry.New([]registry.Country{&fakeCountry{code: "ZZ"}})
	if err != nil {
		panic(err)
	}
	h, err := restserver.New(reg, restserver.WithRateLimit(60), restserver.WithPublicURL("https://registry.example.com"))
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	res, err := http.Get(srv.URL + "/v1/ZZ/validate/123%20456")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	fmt.Println(string(body))
	// Output:
	// 200 application/json
	// {"country":"ZZ","registry":"fakezz","id_scheme":"fake number","input":"123 456","valid":true,"normalized":"123456","formatted":"123 456","reason":"Six digits.","hint":null}
}
