package countrytest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// A Replay serves recorded answers of a register by path, and 404 for
// anything else; give it to a module as its HTTP client's transport, and
// the module and [countrytest.Run] to a test.
func ExampleReplay() {
	rp := countrytest.NewReplay(map[string]countrytest.Answer{
		"/api/units/1234": {Body: []byte(`{"id":"1234","name":"ACME"}`)},
	})
	client := &http.Client{Transport: rp}
	for _, u := range []string{"https://register.test/api/units/1234", "https://register.test/api/units/5678"} {
		resp, err := client.Get(u)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(strings.TrimSpace(fmt.Sprint(resp.StatusCode, " ", resp.Header.Get("Content-Type"), " ", string(body))))
	}
	fmt.Println("requests:", rp.Calls())
	// Output:
	// 200 application/json {"id":"1234","name":"ACME"}
	// 404
	// requests: 2
}

// Run is called from one test of the module's package, with the module
// built over a fake register and what that register knows.
func ExampleRun() {
	testConformance := func(t *testing.T) {
		rp := countrytest.NewReplay(map[string]countrytest.Answer{
			"/api/units/1234":      {Body: []byte(`{"id":"1234","name":"ACME XX"}`)},
			"/api/units?name=acme": {Body: []byte(`[{"id":"1234","name":"ACME XX"}]`)},
		})
		countrytest.Run(t, newFake(rp, ""), countrytest.Config{
			ValidID:       "12 34",
			InvalidIDs:    []string{"123", "abcd"},
			UnknownID:     "9999",
			Query:         "acme",
			UpstreamCalls: rp.Calls,
			WithTransport: func(rt http.RoundTripper) (registry.Country, error) { return newFake(rt, ""), nil },
		})
	}
	_ = testConformance // in a real module: func TestConformance(t *testing.T) { ... }
}

// RunReplay builds the module over recorded answers and runs the suite,
// with the failures of the register played through the same build
// function.
func ExampleRunReplay() {
	testConformance := func(t *testing.T) {
		answers := map[string]countrytest.Answer{
			"/api/units/1234":      {Body: []byte(`{"id":"1234","name":"ACME XX"}`)},
			"/api/units?name=acme": {Body: []byte(`[{"id":"1234","name":"ACME XX"}]`)},
		}
		build := func(rt http.RoundTripper) (registry.Country, error) { return newFake(rt, ""), nil }
		countrytest.RunReplay(t, answers, build, countrytest.Config{
			ValidID:    "12 34",
			InvalidIDs: []string{"123", "abcd"},
			UnknownID:  "9999",
			Query:      "acme",
		})
	}
	_ = testConformance // in a real module: func TestConformance(t *testing.T) { ... }
}
