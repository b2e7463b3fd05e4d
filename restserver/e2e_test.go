package restserver_test

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/restserver"
)

// These tests run the real national modules (countries.All) behind the real
// handler and a real HTTP server, with the registers faked at the HTTP
// level: URL → handler → Registry → module → upstream request → JSON.

const (
	brregBase = "http://brreg.test/api"
	chBase    = "http://ch.test"
	chKey     = "test-key-never-shown"
)

func upstreamFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/upstream/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsonResponder(t testing.TB, status int, fixture string) httpmock.Responder {
	body := ""
	if fixture != "" {
		body = upstreamFixture(t, fixture)
	}
	return func(*http.Request) (*http.Response, error) {
		res := httpmock.NewStringResponse(status, body)
		res.Header.Set("Content-Type", "application/json")
		return res, nil
	}
}

// newUpstreams registers the scripted answers of both registers.
func newUpstreams(t testing.TB) *httpmock.MockTransport {
	t.Helper()
	mt := httpmock.NewMockTransport()
	// Brønnøysund.
	mt.RegisterResponder("GET", brregBase+"/enheter/923609016", jsonResponder(t, 200, "brreg_enhet_923609016.json"))
	mt.RegisterResponder("GET", brregBase+"/enheter/100000008", jsonResponder(t, 404, ""))
	mt.RegisterResponder("GET", brregBase+"/underenheter/100000008", jsonResponder(t, 404, ""))
	mt.RegisterResponder("GET", brregBase+"/enheter/433695968", jsonResponder(t, 404, ""))
	mt.RegisterResponder("GET", brregBase+"/underenheter/433695968", jsonResponder(t, 410, "brreg_underenhet_410_433695968.json"))
	mt.RegisterResponder("GET", brregBase+"/enheter/974760673", jsonResponder(t, 503, ""))
	mt.RegisterResponder("GET", brregBase+"/enheter/971524960", func(r *http.Request) (*http.Response, error) {
		<-r.Context().Done() // a register that never answers
		return nil, r.Context().Err()
	})
	mt.RegisterResponder("GET", brregBase+"/enheter/982463718", func(*http.Request) (*http.Response, error) {
		res := httpmock.NewStringResponse(429, "")
		res.Header.Set("Retry-After", "42")
		return res, nil
	})
	mt.RegisterResponder("GET", brregBase+"/enheter", func(r *http.Request) (*http.Response, error) {
		if r.URL.Query().Get("navn") == "zzzqqq" {
			return jsonResponder(t, 200, "brreg_search_empty.json")(r)
		}
		return jsonResponder(t, 200, "brreg_search_digitaliseringsdirektoratet.json")(r)
	})
	// Companies House, which needs the key as the Basic user name.
	auth := func(next httpmock.Responder) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			if user, _, ok := r.BasicAuth(); !ok || user != chKey {
				return httpmock.NewStringResponse(401, `{"error":"Invalid Authorization","type":"ch:service"}`), nil
			}
			return next(r)
		}
	}
	mt.RegisterResponder("GET", chBase+"/company/08957400", auth(jsonResponder(t, 200, "ch_company_08957400.json")))
	mt.RegisterResponder("GET", chBase+"/company/SC999999", auth(jsonResponder(t, 404, "ch_404_company-profile-not-found.json")))
	mt.RegisterResponder("GET", chBase+"/company/00000429", auth(func(*http.Request) (*http.Response, error) {
		res := httpmock.NewStringResponse(429, "")
		res.Header.Set("X-Ratelimit-Reset", strconv.FormatInt(time.Now().Add(90*time.Second).Unix(), 10))
		return res, nil
	}))
	mt.RegisterResponder("GET", chBase+"/search/companies", auth(jsonResponder(t, 200, "ch_search_bbc.json")))
	return mt
}

type e2e struct {
	*harness
	upstream *httpmock.MockTransport
}

func newE2E(t *testing.T, key string, opts ...restserver.Option) *e2e {
	t.Helper()
	return newE2EWithTimeout(t, key, roomyTimeout, opts...)
}

// newE2EWithTimeout is newE2E with the Registry's per-attempt upstream
// timeout set to timeout.
func newE2EWithTimeout(t *testing.T, key string, timeout time.Duration, opts ...restserver.Option) *e2e {
	t.Helper()
	mt := newUpstreams(t)
	clock := newFakeClock()
	reg := newE2ERegistry(t, key, mt, clock, registry.WithUpstreamTimeout(timeout))
	return &e2e{harness: newHarnessWith(t, reg, clock, append([]restserver.Option{restserver.WithRateLimit(0)}, opts...)...), upstream: mt}
}

// The Registry's per-attempt upstream timeout in these tests. roomyTimeout
// (the most WithUpstreamTimeout accepts) never ends an attempt at a fake
// register that answers, however loaded the machine: a shorter bound made
// an attempt at an answering fake time out and be retried now and then,
// changing status codes and upstream call counts. hangTimeout ends the
// attempts at the register that never answers (brreg 971524960); only a
// test whose every upstream request hangs uses it.
const (
	roomyTimeout = time.Minute
	hangTimeout  = 20 * time.Millisecond
)

// newE2ERegistry builds a Registry over the real modules talking to mt,
// with a roomy per-attempt upstream timeout unless opts set another.
func newE2ERegistry(t testing.TB, key string, mt *httpmock.MockTransport, clock *fakeclock.Clock, opts ...registry.Option) *registry.Registry {
	t.Helper()
	cs, err := countries.All(countries.Config{
		BrregBaseURL: brregBase, CompaniesHouseBaseURL: chBase, CompaniesHouseAPIKey: key,
		HTTPClient: &http.Client{Transport: mt},
	})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs, append([]registry.Option{registry.WithClock(clock.Now), registry.WithUpstreamTimeout(roomyTimeout),
		registry.WithRetryPause(0), registry.WithVersion("1.2.3-test")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestEndToEnd is one case per route and per error code the real modules
// can produce. calls is the number of upstream requests the case makes
// (the one retry included).
func TestEndToEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		path   string
		route  string
		status int
		code   registry.Code
		calls  int
		want   []string // substrings of the body
	}{
		{"health", "/health", "/health", 200, "", 0, []string{`"countries":["FI","FR","GB","NO"]`, `"version":"1.2.3-test"`}},
		{"countries", "/v1/countries", "/v1/countries", 200, "", 0, []string{`"country":"GB"`, `"country":"NO"`, `"api_key_env":"COMPANIES_HOUSE_API_KEY"`}},
		{"NO lookup", "/v1/NO/company/923609016", "/v1/{country}/company/{id}", 200, "", 1, []string{`"name":"EQUINOR ASA"`, `"id_formatted":"923 609 016"`}},
		{"NO lookup VAT form", "/v1/no/company/NO%20923%20609%20016%20MVA", "/v1/{country}/company/{id}", 200, "", 1, []string{`"id":"923609016"`}},
		{"NO invalid_id never calls", "/v1/NO/company/923609017", "/v1/{country}/company/{id}", 400, registry.CodeInvalidID, 0, nil},
		{"NO not_found", "/v1/NO/company/100000008", "/v1/{country}/company/{id}", 404, registry.CodeNotFound, 2, nil},
		{"NO gone is not_found", "/v1/NO/company/433695968", "/v1/{country}/company/{id}", 404, registry.CodeNotFound, 2, nil},
		{"NO upstream_error after one retry", "/v1/NO/company/974760673", "/v1/{country}/company/{id}", 502, registry.CodeUpstreamError, 2, nil},
		{"NO upstream_timeout after one retry", "/v1/NO/company/971524960", "/v1/{country}/company/{id}", 504, registry.CodeUpstreamTimeout, 2, nil},
		{"NO upstream rate_limited", "/v1/NO/company/982463718", "/v1/{country}/company/{id}", 429, registry.CodeRateLimited, 1, nil},
		{"UK is unsupported_country", "/v1/UK/company/08957400", "/v1/{country}/company/{id}", 404, registry.CodeUnsupportedCountry, 0, []string{"GB"}},
		{"GB lookup", "/v1/GB/company/8957400", "/v1/{country}/company/{id}", 200, "", 1, []string{`"id":"08957400"`, `"country":"GB"`}},
		{"GB not_found", "/v1/GB/company/SC999999", "/v1/{country}/company/{id}", 404, registry.CodeNotFound, 1, nil},
		{"GB upstream rate_limited", "/v1/GB/company/00000429", "/v1/{country}/company/{id}", 429, registry.CodeRateLimited, 1, nil},
		{"NO search", "/v1/NO/search?q=digitaliseringsdirektoratet&limit=1", "/v1/{country}/search", 200, "", 1, []string{`"query":"digitaliseringsdirektoratet"`, `"hits":[{`}},
		{"NO search zero hits", "/v1/NO/search?q=zzzqqq", "/v1/{country}/search", 200, "", 1, []string{`"hits":[]`, `"total":0`}},
		{"NO search bad_request never calls", "/v1/NO/search?q=equinor&limit=0", "/v1/{country}/search", 400, registry.CodeBadRequest, 0, nil},
		{"NO search q missing", "/v1/NO/search?limit=5", "/v1/{country}/search", 400, registry.CodeBadRequest, 0, nil},
		{"GB search", "/v1/GB/search?q=bbc&limit=3", "/v1/{country}/search", 200, "", 1, []string{`"country":"GB"`}},
		{"NO deadlines", "/v1/NO/company/923609016/deadlines?today=2026-01-15", "/v1/{country}/company/{id}/deadlines", 200, "", 1, []string{`"today":"2026-01-15"`, `"kind":"annual_accounts"`}},
		{"NO deadlines bad today", "/v1/NO/company/923609016/deadlines?today=2026-13-01", "/v1/{country}/company/{id}/deadlines", 400, registry.CodeBadRequest, 0, nil},
		{"NO deadlines not_found", "/v1/NO/company/100000008/deadlines", "/v1/{country}/company/{id}/deadlines", 404, registry.CodeNotFound, 2, nil},
		{"GB deadlines", "/v1/GB/company/08957400/deadlines?today=2024-03-01", "/v1/{country}/company/{id}/deadlines", 200, "", 1, []string{`"company_id":"08957400"`}},
		{"NO validate", "/v1/NO/validate/923%20609%20016", "/v1/{country}/validate/{id}", 200, "", 0, []string{`"valid":true`, `"normalized":"923609016"`}},
		{"NO validate invalid", "/v1/NO/validate/923609017", "/v1/{country}/validate/{id}", 200, "", 0, []string{`"valid":false`}},
		{"GB validate", "/v1/GB/validate/sc%20571653", "/v1/{country}/validate/{id}", 200, "", 0, []string{`"valid":true`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// One server per case: upstream call counts are exact. The
			// case of the register that never answers is the only one
			// whose attempts must end at the Registry's own timeout.
			timeout := roomyTimeout
			if tt.code == registry.CodeUpstreamTimeout {
				timeout = hangTimeout
			}
			h := newE2EWithTimeout(t, chKey, timeout)
			res := h.get(t, tt.path)
			if res.status != tt.status {
				t.Fatalf("GET %s: status %d, want %d\n%s", tt.path, res.status, tt.status, res.body)
			}
			if tt.code != "" {
				if e := errorOf(t, res.body); e.Code != tt.code || e.Hint == "" {
					t.Errorf("envelope code %q hint %q, want %q with a hint", e.Code, e.Hint, tt.code)
				}
			}
			if tt.code == registry.CodeRateLimited {
				if ra, err := strconv.Atoi(res.header.Get("Retry-After")); err != nil || ra < 1 || ra != errorOf(t, res.body).RetryAfter() {
					t.Errorf("Retry-After %q, details.retry_after %d", res.header.Get("Retry-After"), errorOf(t, res.body).RetryAfter())
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(string(res.body), w) {
					t.Errorf("body lacks %s:\n%.600s", w, res.body)
				}
			}
			if n := h.upstream.GetTotalCallCount(); n != tt.calls {
				t.Errorf("%d upstream calls, want %d: %v", n, tt.calls, h.upstream.GetCallCountInfo())
			}
			h.check(t, tt.route, res)
			if strings.Contains(string(res.body), chKey) || strings.Contains(h.logs.String(), chKey) {
				t.Error("the Companies House key leaked into a response or a log")
			}
		})
	}
}

// TestEndToEndGBWithoutKey: a deployment without the Companies House key
// lists only Norway and answers GB lookups 502 naming the variable, without
// calling the register; validation still works.
func TestEndToEndGBWithoutKey(t *testing.T) {
	t.Parallel()
	h := newE2E(t, "")
	if body := string(h.get(t, "/v1/countries").body); strings.Contains(body, `"GB"`) {
		t.Errorf("GB listed without a key: %s", body)
	}
	for _, p := range []string{"/v1/GB/company/08957400", "/v1/GB/search?q=bbc", "/v1/GB/company/08957400/deadlines"} {
		res := h.get(t, p)
		e := errorOf(t, res.body)
		if res.status != 502 || e.Code != registry.CodeUpstreamError || !strings.Contains(e.Hint+e.Message, "COMPANIES_HOUSE_API_KEY") {
			t.Errorf("%s: %d %+v", p, res.status, e)
		}
		h.check(t, strings.Replace(strings.Replace(strings.Split(p, "?")[0], "/GB/", "/{country}/", 1), "08957400", "{id}", 1), res)
	}
	if res := h.get(t, "/v1/GB/validate/08957400"); res.status != 200 {
		t.Errorf("GB validate without key: %d", res.status)
	}
	if n := h.upstream.GetTotalCallCount(); n != 0 {
		t.Errorf("%d upstream calls without a key, want 0", n)
	}
}

// TestEndToEndCachedLookup: the second lookup is served from the cache with
// cached true and the original fetched_at, without a second upstream call.
func TestEndToEndCachedLookup(t *testing.T) {
	t.Parallel()
	h := newE2E(t, chKey)
	first := h.get(t, "/v1/NO/company/923609016")
	h.clock.Advance(time.Hour)
	second := h.get(t, "/v1/NO/company/923%20609%20016")
	if !strings.Contains(string(first.body), `"cached":false`) || !strings.Contains(string(second.body), `"cached":true`) {
		t.Errorf("cached flags: first %v second %v", strings.Contains(string(first.body), `"cached":false`), strings.Contains(string(second.body), `"cached":true`))
	}
	if n := h.upstream.GetTotalCallCount(); n != 1 {
		t.Errorf("%d upstream calls, want 1", n)
	}
	if !strings.Contains(string(second.body), `"fetched_at":"2026-01-15T09:00:00Z"`) {
		t.Errorf("fetched_at changed on a cache hit:\n%.300s", second.body)
	}
	h.check(t, "/v1/{country}/company/{id}", second)
}

// TestEndToEndRulesInLLMSFull: the real countries' rules documents are part
// of /llms-full.txt.
func TestEndToEndRulesInLLMSFull(t *testing.T) {
	t.Parallel()
	h := newE2E(t, chKey)
	body := string(h.get(t, "/llms-full.txt").body)
	for _, w := range []string{"Enhetsregisteret", "Companies House", "organisasjonsnummer", "COMPANIES_HOUSE_API_KEY"} {
		if !strings.Contains(body, w) {
			t.Errorf("llms-full.txt lacks %q", w)
		}
	}
}
