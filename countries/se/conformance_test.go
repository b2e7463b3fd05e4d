package se

import (
	"net/http"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// build returns a module over rt with the credential and the synthetic
// bulk file indexed into a fresh directory.
func build(t *testing.T, rt http.RoundTripper, opts ...Option) *Country {
	t.Helper()
	c, err := New(append([]Option{WithBaseURL(testBase), WithTokenURL(testTokenURL), WithCredentials(testCreds),
		WithHTTPClient(&http.Client{Transport: rt}), WithBulkFile(sampleBulk()), WithDataDir(t.TempDir())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.WaitIndexed(t.Context()); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestConformance runs the Country contract's suite over the test
// environment's recordings (the AB 5567223705 for a known number; for an
// unknown one the 200 whose Bolagsverket blocks say ORGANISATION_FINNS_EJ)
// and the synthetic bulk file for searches.
func TestConformance(t *testing.T) {
	t.Parallel()
	reg := newRegister(t)
	m := build(t, reg)
	countrytest.Run(t, m, countrytest.Config{
		ValidID:       "556722-3705",
		InvalidIDs:    []string{"5567223706", "556722370", "198101032384", "880320-0016", "SE556722370502"},
		UnknownID:     "5560160680",
		Query:         "exempel",
		UpstreamCalls: reg.Calls,
		LocalSearch:   true,
		WithTransport: func(rt http.RoundTripper) (registry.Country, error) {
			return New(WithBaseURL(testBase), WithTokenURL(testTokenURL), WithCredentials(testCreds), WithHTTPClient(&http.Client{Transport: rt}))
		},
	})
}
