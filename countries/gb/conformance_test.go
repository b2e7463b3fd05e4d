package gb

import (
	"net/http"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// TestConformance runs the Country contract's conformance suite against the
// module over recorded answers of Companies House. It replaces the checks
// this package used to copy from countries/no: a 200 answer that is not
// JSON, redirects never followed, 5xx, 429 and a broken connection for both
// lookup and search, Validate's contract and the purity of Deadlines.
func TestConformance(t *testing.T) {
	t.Parallel()
	answers := map[string]countrytest.Answer{
		"/company/08957400": {Body: recording(t, "company_profile_active_ltd_08957400_2024.json")},
		"/search/companies": {Body: recording(t, "search_companies_q-you_2019.json")},
		"/company/99999999": {Status: http.StatusNotFound, Body: recording(t, "error_404_company-profile-not-found.json")},
	}
	build := func(rt http.RoundTripper) (registry.Country, error) {
		return New(WithAPIKey(testKey), WithBaseURL(testBase), WithHTTPClient(&http.Client{Transport: rt}))
	}
	countrytest.RunReplay(t, answers, build, countrytest.Config{
		ValidID:    "0895-7400",
		InvalidIDs: []string{"GB123456789", "SC2947591", "XX123456", "SC29A759", "999999999"},
		UnknownID:  "99999999",
		Query:      "you",
		Today:      registry.NewDate(2024, 1, 15),
	})
}
