// Package moduletest holds the helpers the tests of the country modules
// (the packages under countries/) share, and that the tests of the packages
// above them (restserver, mcpserver, changes, examples/server) use too:
// recorded answers and fuzz seeds from testdata, an httpmock responder for
// JSON, golden files, a Registry without retry pauses and with a roomy
// timeout, and a buffer safe for a concurrent logger. The conformance suite
// a module's users run lives in package countrytest; this package is only
// for this module's own tests.
package moduletest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
)

// Recording returns the bytes of testdata/<elem...>, or fails the test.
func Recording(t testing.TB, elem ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ReadFiles returns the bytes of every file matching the pattern (see
// filepath.Glob), such as "testdata/prh/*.json", in the order of their
// names, or fails the test.
func ReadFiles(t testing.TB, pattern string) [][]byte {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]byte, 0, len(files))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// AddFiles seeds f with every file matching the pattern; see [ReadFiles].
func AddFiles(f *testing.F, pattern string) {
	f.Helper()
	for _, b := range ReadFiles(f, pattern) {
		f.Add(b)
	}
}

// JSONResponder answers status with body as application/json and the
// extra headers given as name, value pairs.
func JSONResponder(status int, body []byte, header ...string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		resp := httpmock.NewBytesResponse(status, body)
		resp.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			resp.Header.Set(header[i], header[i+1])
		}
		resp.Request = req
		return resp, nil
	}
}

// Sequence answers the first request with the first responder, the second
// with the second and so on; the last one answers every request after it.
// It is safe for concurrent requests.
func Sequence(responders ...httpmock.Responder) httpmock.Responder {
	var mu sync.Mutex
	n := 0
	return func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		r := responders[min(n, len(responders)-1)]
		n++
		mu.Unlock()
		return r(req)
	}
}

// Indent returns v as JSON indented by two spaces with a final newline,
// escaping <, > and & only when escapeHTML; a string is returned as is.
func Indent(t testing.TB, v any, escapeHTML bool) []byte {
	t.Helper()
	if s, ok := v.(string); ok {
		return []byte(s)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode: %v", err)
	}
	return buf.Bytes()
}

// Golden compares got with the file at path, or writes got there when
// update is set (the test's -update flag).
func Golden(t *testing.T, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// Build calls a module's New with opts and returns the module, or fails
// the test.
func Build[M any, O any](t testing.TB, newModule func(...O) (M, error), opts ...O) M {
	t.Helper()
	m, err := newModule(opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

// RulesBuiltOnce checks that m's Rules is not empty and does not allocate:
// a module builds it once, in New, because MCP reads it on every resource
// read. testing.AllocsPerRun refuses to run in a parallel test, so the
// calling test must not be parallel.
func RulesBuiltOnce(t *testing.T, m interface{ Rules() string }) {
	t.Helper()
	if m.Rules() == "" {
		t.Fatal("Rules() is empty")
	}
	if n := testing.AllocsPerRun(100, func() { _ = m.Rules() }); n != 0 {
		t.Errorf("Rules() allocates %v times per call, want 0", n)
	}
}

// AsError returns err as a *registry.Error, or fails the test.
func AsError(t testing.TB, err error) *registry.Error {
	t.Helper()
	var e *registry.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *registry.Error", err, err)
	}
	return e
}

// NewRegistry returns a Registry over m with no pause before the retry and
// the longest per-attempt upstream timeout (a minute, so that a loaded
// machine never turns a fake register's answer into a timeout and a
// retry), then opts. A test of a register that never answers sets a short
// timeout in opts, and makes no call in that Registry that must answer.
func NewRegistry(t testing.TB, m registry.Country, opts ...registry.Option) *registry.Registry {
	t.Helper()
	reg, err := registry.New([]registry.Country{m},
		append([]registry.Option{registry.WithRetryPause(0), registry.WithUpstreamTimeout(time.Minute)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// SyncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
// The zero value is empty and ready.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// Len returns the number of bytes written.
func (s *SyncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

// String returns what was written.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
