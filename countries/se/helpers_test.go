package se

import (
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/companyregistry/registry/countrytest"
	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/internal/moduletest"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const (
	testBase     = "https://bv.test/vardefulla-datamangder/v1"
	testTokenURL = "https://bv-portal.test/oauth2/token"
	testCreds    = "test-client:test-SECRET-4711"
)

func recording(t testing.TB, name string) []byte {
	t.Helper()
	return moduletest.Recording(t, "bolagsverket", name)
}

// register is a fake Bolagsverket: the token endpoint, and
// /organisationer and /dokumentlista answered by the identifier in the
// body (the API takes it there), from recordings. It counts requests and
// keeps every request body and URL for the personal-data checks.
type register struct {
	mu       sync.Mutex
	orgs     map[string]countrytest.Answer
	docs     map[string]countrytest.Answer
	calls    int
	requests []string // method, URL and body of each request
	bad      []byte   // the 400 of an identifier the test environment does not hold
}

func (r *register) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		_ = req.Body.Close()
	}
	r.mu.Lock()
	r.calls++
	r.requests = append(r.requests, req.Method+" "+req.URL.String()+" "+string(body))
	r.mu.Unlock()
	var q struct {
		ID string `json:"identitetsbeteckning"`
	}
	_ = json.Unmarshal(body, &q)
	a := countrytest.Answer{Status: http.StatusNotFound}
	switch {
	case req.URL.Host == "bv-portal.test" && req.URL.Path == "/oauth2/token":
		a = countrytest.Answer{Body: []byte(`{"access_token":"tok-1","scope":"x","token_type":"Bearer","expires_in":3600}`)}
	case req.Header.Get("Authorization") != "Bearer tok-1":
		a = countrytest.Answer{Status: http.StatusUnauthorized}
	case strings.HasSuffix(req.URL.Path, "/organisationer"):
		if x, ok := r.orgs[q.ID]; ok {
			a = x
		} else {
			a = countrytest.Answer{Status: 400, Body: r.bad}
		}
	case strings.HasSuffix(req.URL.Path, "/dokumentlista"):
		if x, ok := r.docs[q.ID]; ok {
			a = x
		} else {
			a = countrytest.Answer{Body: []byte(`{"dokument":[]}`)}
		}
	}
	rp := countrytest.NewReplay(map[string]countrytest.Answer{req.URL.Path: a})
	return rp.RoundTrip(req)
}

func (r *register) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// newRegister answers the test environment's recordings.
func newRegister(t testing.TB) *register {
	t.Helper()
	ans := func(name string) countrytest.Answer { return countrytest.Answer{Body: recording(t, name)} }
	return &register{
		bad: recording(t, "dokumentlista_400_identifier-not-on-test-allowlist_test-env_2026-09-08.json"),
		orgs: map[string]countrytest.Answer{
			"5567223705": ans("organisationer_5567223705_ab_scb-finns-ej_test-env_2026-09-07.json"),
			"9124001992": ans("organisationer_9124001992_hb_test-env_2026-09-07.json"),
			"7164099017": ans("organisationer_7164099017_brf_test-env_2026-09-07.json"),
			"7020008350": ans("organisationer_7020008350_ek_test-env_2026-09-07.json"),
			"5299999994": ans("organisationer_200_aktiebolag_docs-example.json"),
			"5590852777": ans("organisationer_production_ab_2025-12_REDACTED.json"),
			"5561890038": ans("organisationer_200_partial-failure-OTILLGANGLIG_UPPGIFTSKALLA_docs-example.json"),
			"5560160680": ans("organisationer_198101032384_finns-ej-hos-bolagsverket_test-env_2026-09-07.json"),
		},
		docs: map[string]countrytest.Answer{
			"5567223705": ans("dokumentlista_5561890038_3-reports_test-env_2026-09-08.json"),
		},
	}
}

// sampleBulk returns the path of the synthetic bulk file.
func sampleBulk() string { return filepath.Join("testdata", "bulk_sample_SYNTHETIC.txt") }

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	moduletest.Golden(t, filepath.Join("testdata", "golden", name), moduletest.Indent(t, v, false), *update)
}
