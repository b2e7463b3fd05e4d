package fr

import (
	"net/http"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// TestConformance runs the Country contract's conformance suite against the
// module over recorded answers of the API Recherche d'entreprises: Danone
// for a known SIREN, the API's empty answer for an unknown one, and the
// Kikou page for every search. It covers Info, Validate's contract, Ready,
// the purity of Deadlines and Rules, concurrent use, and the API's generic
// failures (5xx, HTML, malformed JSON, redirects, 429, a broken
// connection); the tests beside it keep what is French (the phantom and
// wrong-unit answers, SIRET and VAT lookups, the masked data, the mapping
// and the deadlines).
func TestConformance(t *testing.T) {
	t.Parallel()
	answers := map[string]countrytest.Answer{
		"/api/search?page=1&per_page=1&q=552032534": {Body: recording(t, danoneFile)},
		"/api/search?page=1&per_page=1&q=732829320": {Body: recording(t, emptyFile)},
		"/api/search": {Body: recording(t, kikouFile)},
	}
	build := func(rt http.RoundTripper) (registry.Country, error) {
		return New(WithBaseURL(testBase), WithHTTPClient(&http.Client{Transport: rt}))
	}
	countrytest.RunReplay(t, answers, build, countrytest.Config{
		ValidID:    "FR 27 552 032 534",
		InvalidIDs: []string{"552032535", "55203253", "FR00552032534", "FR34000123456", "123456789", "12345678900003"},
		UnknownID:  "732 829 320",
		Query:      "kikou",
	})
}
