package no

import (
	"net/http"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// TestConformance runs the Country contract's conformance suite against the
// module over recorded answers of Enhetsregisteret. It replaces the checks of
// Info, Validate, the failures of the register (content type, redirects,
// 5xx, 429) and the purity of Deadlines that this package used to test on
// its own.
func TestConformance(t *testing.T) {
	t.Parallel()
	answers := map[string]countrytest.Answer{
		"/enhetsregisteret/api/enheter/" + equinorID: {Body: recording(t, "enhet_923609016_equinor_asa_2026-08.json")},
		"/enhetsregisteret/api/enheter":              {Body: recording(t, "search_enheter_navn_digitaliseringsdirektoratet_size1_2025-02.json")},
	}
	build := func(rt http.RoundTripper) (registry.Country, error) {
		return New(WithBaseURL(testBase), WithHTTPClient(&http.Client{Transport: rt}))
	}
	countrytest.RunReplay(t, answers, build, countrytest.Config{
		ValidID:    "NO 923 609 016 MVA",
		InvalidIDs: []string{"923609017", "92360901", "9236090166", "ABCDEFGHI"},
		UnknownID:  "974 760 673",
		Query:      "digitaliseringsdirektoratet",
		Today:      registry.NewDate(2026, 3, 1),
	})
}
