package fi

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

// testBase is the base URL of the fake register. Its path makes a request
// that ignores the configured base URL fail to match.
const testBase = "https://prh.test/opendata-ytj-api/v3"

const (
	nokiaID      = "01120389"  // the canonical id: letters and digits only
	nokiaWritten = "0112038-9" // id_formatted, and what the register is asked for
	bankruptID   = "0000000-0"
	nokiaFile    = "companies_businessId-0112038-9_nokia-oyj_2026-05.json"
	emptyFile    = "companies_businessId-unknown_empty_2026-05.json"
	searchFile   = "companies_name-supercell_3hits_2026-05.json"
	konkFile     = "companies_bankrupt-KONK_SYNTHETIC.json"
	error400File = "error_400_SYNTHETIC.json"
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

// recording returns the bytes of testdata/prh/name.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	return moduletest.Recording(t, "prh", name)
}

// checkGolden compares v, encoded as indented JSON (or as is, for a
// string), with testdata/golden/name, rewriting the file under -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	moduletest.Golden(t, filepath.Join("testdata", "golden", name), moduletest.Indent(t, v, false), *update)
}
