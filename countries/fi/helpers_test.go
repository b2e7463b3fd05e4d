package fi

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testBase is the base URL of the fake register. Its path makes a request
// that ignores the configured base URL fail to match.
const testBase = "https://prh.test/opendata-ytj-api/v3"

const (
	nokiaID      = "0112038-9"
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
	opts = append([]Option{WithBaseURL(testBase), WithHTTPClient(&http.Client{Transport: mt})}, opts...)
	c, err := New(opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// newTestRegistry builds a Registry over a module that talks to mt, with
// no pause before the retry.
func newTestRegistry(t *testing.T, mt *httpmock.MockTransport, opts ...registry.Option) *registry.Registry {
	t.Helper()
	opts = append([]registry.Option{registry.WithRetryPause(0)}, opts...)
	reg, err := registry.New([]registry.Country{newTestCountry(t, mt)}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// recording returns the bytes of testdata/prh/name.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "prh", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonResponder answers status with body as application/json.
func jsonResponder(status int, body []byte) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		r := httpmock.NewBytesResponse(status, body)
		r.Header.Set("Content-Type", "application/json")
		return r, nil
	}
}

// asError returns err as a *registry.Error or fails the test.
func asError(t *testing.T, err error) *registry.Error {
	t.Helper()
	var e *registry.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *registry.Error", err, err)
	}
	return e
}

// checkGolden compares v, encoded as indented JSON (or as is, for a
// string), with testdata/golden/name, rewriting the file under -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	var buf bytes.Buffer
	if s, ok := v.(string); ok {
		buf.WriteString(s)
	} else {
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatalf("encode: %v", err)
		}
	}
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./countries/fi -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
