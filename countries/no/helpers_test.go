package no

import (
	"flag"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testBase is the base URL of the fake register. Its path makes a request
// that ignores the configured base URL fail to match.
const testBase = "https://brreg.test/enhetsregisteret/api"

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

// recording returns the bytes of testdata/brreg/name.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	return moduletest.Recording(t, "brreg", name)
}

// checkGolden compares v, encoded as indented JSON, with
// testdata/golden/name.json, rewriting the file under -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	moduletest.Golden(t, filepath.Join("testdata", "golden", name+".json"), moduletest.Indent(t, v, false), *update)
}

// Rules is built once, in New: MCP reads it on every resource read, so a
// call must not rebuild it.
// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestRulesBuiltOnce(t *testing.T) {
	moduletest.RulesBuiltOnce(t, newTestCountry(t, httpmock.NewMockTransport()))
}
