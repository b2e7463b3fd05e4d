package restserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/restserver"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func newFakeClock() *fakeclock.Clock {
	return fakeclock.New(time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC))
}

// fakeCountry is a registry.Country with scripted answers. Identifiers are
// six digits; some of them script a failure:
//
//	000000 not_found        500500 upstream 5xx (retried, then 502)
//	504504 times out (504)  429429 upstream rate limit (429, retry_after 30)
//	501501 not_implemented  666666 panics (500)
//	111111 a sole proprietorship (ENK)
type fakeCountry struct {
	code     string
	needsKey bool
}

func (f *fakeCountry) Info() registry.CountryInfo {
	info := registry.CountryInfo{
		Country: f.code, Registry: "fake" + strings.ToLower(f.code), Name: "Fake register " + f.code,
		IDScheme: "fake number", IDExample: "123456", IDDescription: "Six digits.",
		SourceURL: "https://fake.example/api", License: "CC0",
	}
	if f.needsKey {
		info.RequiresAPIKey = true
		info.APIKeyEnv = countrykit.Ptr("FAKE_API_KEY")
	}
	return info
}

func (f *fakeCountry) Ready() error {
	if f.needsKey {
		return &registry.Error{Code: registry.CodeUpstreamError, Message: "No API key is configured for the fake register.",
			Hint: "Set FAKE_API_KEY and restart the service."}
	}
	return nil
}

func (f *fakeCountry) Validate(input string) registry.ValidationResult {
	id := strings.NewReplacer(" ", "", ".", "").Replace(input)
	v := registry.ValidationResult{Country: f.code, Registry: f.Info().Registry, IDScheme: countrykit.Ptr("fake number"), Input: input}
	if len(id) != 6 || strings.Trim(id, "0123456789") != "" {
		v.Reason = countrykit.Ptr("A fake number has six digits.")
		v.Hint = countrykit.Ptr("Check the number, or search by name.")
		return v
	}
	v.Valid = true
	v.Normalized = &id
	v.Formatted = countrykit.Ptr(id[:3] + " " + id[3:])
	v.Reason = countrykit.Ptr("Six digits.")
	return v
}

func (f *fakeCountry) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	switch id {
	case "000000":
		return nil, &registry.Error{Code: registry.CodeNotFound, Message: "No unit with this number."}
	case "500500":
		return nil, &registry.Error{Code: registry.CodeUpstreamError, Message: "The fake register answered 503.", Retryable: true}
	case "504504":
		// What a module returns when an attempt's deadline has passed,
		// returned at once, so that the Registry's timeout can be roomy
		// and never end a call that answers. That the timeout ends a
		// hanging call is tested in the registry package and by
		// TestEndToEnd.
		return nil, fmt.Errorf("fake register: %w", context.DeadlineExceeded)
	case "429429":
		return nil, &registry.Error{Code: registry.CodeRateLimited, Message: "The fake register is rate limiting this service.",
			Details: map[string]any{"retry_after": 30}}
	case "501501":
		return nil, &registry.Error{Code: registry.CodeNotImplemented, Message: "The fake register cannot look this up."}
	case "666666":
		panic("fake module exploded")
	}
	r := countrykit.NewReport(f.code, f.Info().Registry, id, "FAKE COMPANY "+id+" AS")
	r.IDFormatted = countrykit.Ptr(id[:3] + " " + id[3:])
	r.LegalFormCode = countrykit.Ptr("AS")
	r.Status = registry.StatusActive
	r.FoundedAt = registry.NewDate(2001, time.February, 3).Ptr()
	r.BusinessAddress = &registry.Address{Lines: []string{"Gate 1"}, City: countrykit.Ptr("OSLO")}
	if id == "111111" {
		r.Name = "OLA NORDMANN"
		r.LegalFormCode = countrykit.Ptr("ENK")
		r.Notes = []string{"A sole proprietorship is registered in a person's name: personal data."}
	}
	return r, nil
}

func (f *fakeCountry) Search(_ context.Context, query string, limit int) (*registry.SearchResult, error) {
	res := &registry.SearchResult{Country: f.code, Registry: f.Info().Registry, Query: query}
	if query == "none" {
		res.Hint = countrykit.Ptr("Try a shorter name.")
		return res, nil
	}
	for i, id := range []string{"123456", "654321"} {
		if i >= limit {
			res.Truncated = true
			break
		}
		h := countrykit.NewHit(f.code, f.Info().Registry, id, strings.ToUpper(query)+" AS")
		h.Confidence = 0.8
		res.Hits = append(res.Hits, h)
	}
	res.Total = 2
	return res, nil
}

func (f *fakeCountry) Deadlines(rep *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	due := registry.NewDate(today.Year, time.May, 31)
	return &registry.DeadlineReport{
		Country: f.code, Registry: f.Info().Registry, CompanyID: rep.ID, CompanyName: &rep.Name, Today: today,
		Deadlines: []registry.Deadline{{Country: f.code, Registry: f.Info().Registry, Kind: "tax_return", Name: "Tax return",
			Authority: "Fake tax office", StatutoryDate: due, DueDate: due, Mandatory: true,
			AppliesBecause: "Every fake company files one.", DaysUntil: countrykit.Ptr(due.DaysSince(today))}},
		Notes: []string{"Calendar year assumed."},
	}, nil
}

func (f *fakeCountry) Rules() string {
	return "# Fake " + f.code + "\n\n## Identifier\n\nSix digits.\n\n```\n# not a heading\n```\n"
}

// newRegistry builds a Registry over the fake countries ZZ (ready) and ZY
// (needs a key it does not have).
func newRegistry(t testing.TB, clock *fakeclock.Clock) *registry.Registry {
	t.Helper()
	reg, err := registry.New([]registry.Country{&fakeCountry{code: "ZZ"}, &fakeCountry{code: "ZY", needsKey: true}},
		registry.WithClock(clock.Now), registry.WithUpstreamTimeout(roomyTimeout),
		registry.WithRetryPause(0), registry.WithVersion("1.2.3-test"))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// logBuffer collects JSON log lines safely across goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// lines decodes the JSON log lines.
func (l *logBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		out = append(out, m)
	}
	return out
}

type harness struct {
	srv   *httptest.Server
	clock *fakeclock.Clock
	logs  *logBuffer
	api   *openAPI
}

// newHarness starts a real HTTP server over the fake registry.
func newHarness(t *testing.T, opts ...restserver.Option) *harness {
	t.Helper()
	clock := newFakeClock()
	return newHarnessWith(t, newRegistry(t, clock), clock, opts...)
}

func newHarnessWith(t *testing.T, reg *registry.Registry, clock *fakeclock.Clock, opts ...restserver.Option) *harness {
	t.Helper()
	logs := &logBuffer{}
	opts = append([]restserver.Option{
		restserver.WithClock(clock.Now),
		restserver.WithLogger(slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	}, opts...)
	h, err := restserver.New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	// api is set here, not lazily: parallel subtests share a harness.
	return &harness{srv: srv, clock: clock, logs: logs, api: &openAPI{}}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// send sends req with c and reads the whole answer.
func send(t *testing.T, c *http.Client, req *http.Request) response {
	t.Helper()
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func (h *harness) do(t *testing.T, method, path string, header map[string]string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, h.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	return send(t, h.srv.Client(), req)
}

func (h *harness) get(t *testing.T, path string) response {
	t.Helper()
	return h.do(t, http.MethodGet, path, nil)
}

// errorCode decodes an error envelope.
func errorOf(t *testing.T, b []byte) *registry.Error {
	t.Helper()
	var e registry.Error
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("not an error envelope: %v\n%s", err, b)
	}
	return &e
}

// openAPI validates responses against the served /openapi.json.
type openAPI struct {
	once     sync.Once
	compiler *sjs.Compiler
	err      error
	mu       sync.Mutex
}

const openAPIURL = "mem:///openapi.json"

func (h *harness) openAPI(t *testing.T) *openAPI {
	t.Helper()
	h.api.once.Do(func() {
		res := h.get(t, "/openapi.json")
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(res.body))
		if err != nil {
			h.api.err = err
			return
		}
		c := sjs.NewCompiler()
		c.AssertFormat()
		h.api.err = c.AddResource(openAPIURL, doc)
		h.api.compiler = c
	})
	if h.api.err != nil {
		t.Fatalf("openapi.json: %v", h.api.err)
	}
	return h.api
}

// check validates body against the schema /openapi.json documents for
// route (an OpenAPI path) and status; route "" means the Error component.
func (h *harness) check(t *testing.T, route string, res response) {
	t.Helper()
	api := h.openAPI(t)
	ptr := "/components/schemas/Error"
	if route != "" {
		esc := strings.NewReplacer("~", "~0", "/", "~1").Replace(route)
		ptr = "/paths/" + esc + "/get/responses/" + itoa(res.status) + "/content/application~1json/schema"
	}
	api.mu.Lock()
	sch, err := api.compiler.Compile(openAPIURL + "#" + (&url.URL{Path: ptr}).EscapedPath())
	api.mu.Unlock()
	if err != nil {
		t.Fatalf("openapi.json documents no JSON response %d for %s: %v", res.status, route, err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(res.body))
	if err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, res.body)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("response %d of %s does not match openapi.json: %v\n%s", res.status, route, err, res.body)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// indent pretty-prints JSON for golden files.
func indent(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	out.WriteByte('\n')
	return out.Bytes()
}
