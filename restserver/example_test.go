package restserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

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

// A batch of deadlines in one request: each identifier gets its
// DeadlineReport or its own error, in the order of the request. A failed
// item is itself an error envelope (its error member is the single route's),
// so it decodes as a registry.Error.
func Example_deadlinesBatch() {
	reg, err := registry.New([]registry.Country{&fakeCountry{code: "ZZ"}})
	if err != nil {
		panic(err)
	}
	h, err := restserver.New(reg)
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	body := strings.NewReader(`{"ids": ["123 456", "12345", "000000"], "today": "2026-01-15"}`)
	res, err := http.Post(srv.URL+"/v1/ZZ/deadlines:batch", "application/json", body)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	var batch struct {
		Count, Failed int
		Items         []json.RawMessage
	}
	if err := json.NewDecoder(res.Body).Decode(&batch); err != nil {
		panic(err)
	}
	fmt.Printf("%d items, %d failed\n", batch.Count, batch.Failed)
	for _, raw := range batch.Items {
		var it struct {
			ID     string
			Status int
			Report *registry.DeadlineReport
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			panic(err)
		}
		if it.Report != nil {
			fmt.Printf("%-8q %d %s due %s\n", it.ID, it.Status, it.Report.Deadlines[0].Kind, it.Report.Deadlines[0].DueDate)
			continue
		}
		var e registry.Error
		if err := json.Unmarshal(raw, &e); err != nil {
			panic(err)
		}
		fmt.Printf("%-8q %d %s\n", it.ID, it.Status, e.Code)
	}
	// Output:
	// 3 items, 2 failed
	// "123 456" 200 tax_return due 2026-05-31
	// "12345"  400 invalid_id
	// "000000" 404 not_found
}
