package gb

import (
	"flag"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	"github.com/companyregistry/registry/internal/moduletest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testKey is the API key of the tests. The key-leak test searches every
// output for it, so it is distinctive.
const testKey = "3f2c9a7e-5b1d-4e8f-a0c6-KEYSECRET-d41d8cd98f00"

const testBase = "https://ch.test"

// fixedNow is the clock of the tests.
func fixedNow() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) }

// newTestCountry returns a module with the test key and base URL whose
// HTTP client uses mt.
func newTestCountry(t testing.TB, mt *httpmock.MockTransport, opts ...Option) *Country {
	t.Helper()
	return moduletest.Build(t, New, append([]Option{
		WithAPIKey(testKey),
		WithBaseURL(testBase),
		WithHTTPClient(&http.Client{Transport: mt}),
		WithContactEmail("ops@example.com"),
		WithClock(fixedNow),
	}, opts...)...)
}

// recording returns a file of testdata/recordings.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	return moduletest.Recording(t, "recordings", name)
}

// checkGolden compares v, encoded as indented JSON, with
// testdata/golden/name, or rewrites the file with -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	moduletest.Golden(t, filepath.Join("testdata", "golden", name), moduletest.Indent(t, v, true), *update)
}

// Rules is built once, in New: MCP reads it on every resource read, so a
// call must not rebuild it.
// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestRulesBuiltOnce(t *testing.T) {
	moduletest.RulesBuiltOnce(t, newTestCountry(t, httpmock.NewMockTransport()))
}
