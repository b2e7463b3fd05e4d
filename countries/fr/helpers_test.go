package fr

import (
	"flag"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/internal/moduletest"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testBase is the base URL of the fake API. Its path makes a request that
// ignores the configured base URL fail to match.
const testBase = "https://recherche.test/api"

// The recordings of testdata/recherche-entreprises (SOURCES.md there).
const (
	danoneFile     = "search_q-552032534_DANONE_SA-5599_active_body.json"
	naturaliaFile  = "search_q-302474648_NATURALIA-FRANCE_SAS-5710_active_body.json"
	ganymedeFile   = "search_q-880878145_GANYMEDE_SAS-5710_ceased_body.json"
	siretFile      = "search_q-88087814500015_siret-lookup_GANYMEDE_body.json"
	maskedEIFile   = "search_q-300025764_EI-1000_non-diffusible_body.json"
	ceasedEIFile   = "search_q-EI-1000_ceased_REDACTED_body.json"
	redNeedlesFile = "search_q-839517323_RED-NEEDLES_SARL-5499_ceased_REDACTED-liquidator_body.json"
	emptyFile      = "search_q-12345678900003_empty_body.json"
	phantomFile    = "search_q-123456789_invalid-siren-phantom-record_body.json"
	kikouFile      = "search_q-Kikou_page1_body.json"
	laPosteFile    = "search_q-la-poste_page1_capped-10000_body.json"
	error400File   = "error_400_query-too-short_SYNTHETIC.json"
	error500File   = "error_500_unexpected_SYNTHETIC.json"
)

// newTestCountry returns a module that talks to mt.
func newTestCountry(t *testing.T, mt *httpmock.MockTransport, opts ...Option) *Country {
	t.Helper()
	return moduletest.Build(t, New, append([]Option{WithBaseURL(testBase), WithHTTPClient(&http.Client{Transport: mt})}, opts...)...)
}

// newTestRegistry builds a Registry over a module that talks to mt, with
// no pause before the retry.
func newTestRegistry(t *testing.T, mt *httpmock.MockTransport, opts ...registry.Option) *registry.Registry {
	t.Helper()
	return moduletest.NewRegistry(t, newTestCountry(t, mt), opts...)
}

// recording returns the bytes of testdata/recherche-entreprises/name.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	return moduletest.Recording(t, "recherche-entreprises", name)
}

// checkGolden compares v, encoded as indented JSON (or as is, for a
// string), with testdata/golden/name, rewriting the file under -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	moduletest.Golden(t, filepath.Join("testdata", "golden", name), moduletest.Indent(t, v, false), *update)
}
