package dk

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/internal/moduletest"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testBase is the base URL of the fake register. Its path makes a request
// that ignores the configured base URL fail to match.
const testBase = "https://cvr.test/cvr-permanent"

// The test credential; no error, log line or answer may hold it.
const (
	testUser        = "ops-user"
	testPassword    = "pw-S3CRET-91c2"
	testCredentials = testUser + ":" + testPassword
)

const (
	apsID         = "41774037"
	fondID        = "11617034"
	enkID         = "99000015"
	bankruptID    = "99000023"
	dissolvedID   = "99000031"
	unknownID     = "13585628"
	apsFile       = "virksomhed_search_cvrNummer_41774037_aps_cvr-v-20220630_2024-02_REDACTED.json"
	fondFile      = "virksomhed_search_cvrNummer_11617034_fond_cvr-v-20181028_2019-09_REDACTED.json"
	searchFile    = "virksomhed_search_name_assure_4hits_cvr-v-20220630_2024-02_REDACTED.json"
	emptyFile     = "virksomhed_search_empty_hits-total-0_SYNTHETIC.json"
	enkFile       = "virksomhed_search_cvrNummer_99000015_enk_SYNTHETIC.json"
	bankruptFile  = "virksomhed_search_cvrNummer_99000023_bankrupt_SYNTHETIC.json"
	dissolvedFile = "virksomhed_search_cvrNummer_99000031_dissolved_SYNTHETIC.json"
	partialFile   = "virksomhed_search_partial_timed-out_SYNTHETIC.json"
	error401File  = "error_401_nginx_SYNTHETIC.html"
)

// recording returns the bytes of testdata/cvr/name.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	return moduletest.Recording(t, "cvr", name)
}

// checkGolden compares v, encoded as indented JSON (or as is, for a
// string), with testdata/golden/name, rewriting the file under -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	moduletest.Golden(t, filepath.Join("testdata", "golden", name), moduletest.Indent(t, v, false), *update)
}

// query is what the fake register reads of a request body.
type query struct {
	Query struct {
		Term  map[string]json.RawMessage `json:"term"`
		Match map[string]string          `json:"match"`
	} `json:"query"`
	Size   int    `json:"size"`
	Source source `json:"_source"`
}

// fakeCVR stands in for the CVR distribution. It answers only a POST to
// testBase's /virksomhed/_search with the test credential and a JSON body:
// a term query on Vrvirksomhed.cvrNummer from byCVR (else the empty
// answer), a match query on Vrvirksomhed.navne.navn with search (else the
// empty answer). Any other request gets 418 and fails the test. It keeps
// the bodies it received.
type fakeCVR struct {
	t      testing.TB
	byCVR  map[string]countrytest.Answer
	search countrytest.Answer

	mu     sync.Mutex
	bodies []query
}

func newFakeCVR(t testing.TB, byCVR map[string]string, search string) *fakeCVR {
	f := &fakeCVR{t: t, byCVR: map[string]countrytest.Answer{}}
	for id, file := range byCVR {
		f.byCVR[id] = countrytest.Answer{Body: recording(t, file)}
	}
	f.search = countrytest.Answer{Body: recording(t, emptyFile)}
	if search != "" {
		f.search = countrytest.Answer{Body: recording(t, search)}
	}
	return f
}

func (f *fakeCVR) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(req.Body)
	_ = req.Body.Close()
	refuse := func(why string) (*http.Response, error) {
		f.t.Errorf("fake CVR: %s (%s %s)", why, req.Method, req.URL)
		return &http.Response{StatusCode: http.StatusTeapot, Body: io.NopCloser(strings.NewReader("")), Header: http.Header{}, Request: req}, nil
	}
	if req.Method != http.MethodPost || req.URL.String() != testBase+searchPath {
		return refuse("unexpected request")
	}
	if user, pw, ok := req.BasicAuth(); !ok || user != testUser || pw != testPassword {
		return refuse("wrong or missing credential")
	}
	if req.Header.Get("Content-Type") != "application/json" || !strings.HasPrefix(req.Header.Get("User-Agent"), "companyregistry/") {
		return refuse("wrong headers")
	}
	var q query
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return refuse("body is not a query: " + err.Error())
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, q)
	f.mu.Unlock()
	a := countrytest.Answer{Body: recording(f.t, emptyFile)}
	switch {
	case q.Query.Term != nil:
		if got, ok := f.byCVR[string(q.Query.Term["Vrvirksomhed.cvrNummer"])]; ok {
			a = got
		}
	case q.Query.Match != nil:
		a = f.search
	default:
		return refuse("neither a term nor a match query")
	}
	return countrytest.NewReplay(map[string]countrytest.Answer{req.URL.Path: a}).RoundTrip(req)
}

// queries returns the bodies received so far.
func (f *fakeCVR) queries() []query {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]query(nil), f.bodies...)
}

// newTestCountry returns a module with the test credential that talks to
// rt.
func newTestCountry(t testing.TB, rt http.RoundTripper, opts ...Option) *Country {
	t.Helper()
	return moduletest.Build(t, New, append([]Option{WithBaseURL(testBase), WithCredentials(testCredentials),
		WithHTTPClient(&http.Client{Transport: rt})}, opts...)...)
}

// newTestRegistry builds a Registry over a module that talks to rt, with
// no pause before the retry.
func newTestRegistry(t testing.TB, rt http.RoundTripper, opts ...registry.Option) *registry.Registry {
	t.Helper()
	return moduletest.NewRegistry(t, newTestCountry(t, rt), opts...)
}
