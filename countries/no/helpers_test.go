package no

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testBase is the base URL of the fake register. Its path makes a request
// that ignores the configured base URL fail to match.
const testBase = "https://brreg.test/enhetsregisteret/api"

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

// recording returns the bytes of testdata/brreg/name.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "brreg", name))
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

// checkGolden compares v, encoded as indented JSON, with
// testdata/golden/name.json, rewriting the file under -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode: %v", err)
	}
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./countries/no -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// Rules is built once, in New: MCP reads it on every resource read, so a
// call must not rebuild it.
// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestRulesBuiltOnce(t *testing.T) {
	c := newTestCountry(t, httpmock.NewMockTransport())
	if c.Rules() == "" {
		t.Fatal("Rules() is empty")
	}
	if n := testing.AllocsPerRun(100, func() { _ = c.Rules() }); n != 0 {
		t.Errorf("Rules() allocates %v times per call, want 0", n)
	}
}
