package dk

import (
	"net/http"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
)

// TestConformance runs the Country contract's conformance suite against the
// module over recorded answers of the CVR distribution: the ApS 41774037
// for a known CVR number, the empty answer for an unknown one, and the
// four-hit page for a search. The lookups are recorded under their exact
// query bodies (one POST path serves every call), and any other query, a
// search among them, gets the search page. It covers Info, Validate's
// contract, Ready, the purity of Deadlines and Rules, concurrent use, and
// the register's generic failures (5xx, HTML, malformed JSON, redirects,
// 429, a broken connection); the tests beside it keep what is Danish.
func TestConformance(t *testing.T) {
	t.Parallel()
	path := "/cvr-permanent" + searchPath
	lookup := source{Excludes: lookupExcludes}
	answers := map[string]countrytest.Answer{
		path + " " + string(termQuery(apsID, lookup)):     {Body: recording(t, apsFile)},
		path + " " + string(termQuery(unknownID, lookup)): {Body: recording(t, emptyFile)},
		path: {Body: recording(t, searchFile)},
	}
	build := func(rt http.RoundTripper) (registry.Country, error) {
		return New(WithBaseURL(testBase), WithCredentials(testCredentials), WithHTTPClient(&http.Client{Transport: rt}))
	}
	countrytest.RunReplay(t, answers, build, countrytest.Config{
		ValidID:    "DK 41 77 40 37",
		InvalidIDs: []string{"41774038", "01234567", "1358562", "4177403712"},
		UnknownID:  unknownID,
		Query:      "assure",
	})
}
