package fi

import (
	"net/http"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// TestConformance runs the Country contract's conformance suite against the
// module over recorded answers of PRH's open data API: Nokia for a known
// business ID, the register's empty 200 for an unknown one, and the
// Supercell page for a search. It covers Info, Validate's contract, Ready,
// the purity of Deadlines and Rules, concurrent use, and the register's
// generic failures (5xx, HTML, malformed JSON, redirects, 429, a broken
// connection), which this package no longer tests on its own; the tests
// beside it keep what is Finnish (the 200 not-found, the 400 answer, the
// business ID's spellings, the mapping and the deadlines).
func TestConformance(t *testing.T) {
	t.Parallel()
	const base = "https://prh.test/v3"
	answers := map[string]countrytest.Answer{
		"/v3/companies?businessId=" + nokiaWritten: {Body: recording(t, nokiaFile)},
		"/v3/companies?businessId=2077474-0":       {Body: recording(t, emptyFile)},
		"/v3/companies":                            {Body: recording(t, searchFile)},
	}
	build := func(rt http.RoundTripper) (registry.Country, error) {
		return New(WithBaseURL(base), WithHTTPClient(&http.Client{Transport: rt}))
	}
	countrytest.RunReplay(t, answers, build, countrytest.Config{
		ValidID:    "FI 01120389",
		InvalidIDs: []string{"0112038-8", "112038-9", "0000006-0"},
		UnknownID:  "2077474-0",
		Query:      "supercell",
	})
}
