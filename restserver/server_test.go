package restserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/restserver"
)

// TestRoutes is the spec's table of endpoints and error codes, one case per
// route and per code, through a real HTTP server. Every body is pinned in a
// golden file and validated against the served /openapi.json.
func TestRoutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	tests := []struct {
		name   string
		path   string
		route  string // OpenAPI path; "" for the Error component
		status int
		code   registry.Code // for failures
	}{
		{"health", "/health", "/health", 200, ""},
		{"countries", "/v1/countries", "/v1/countries", 200, ""},
		{"lookup", "/v1/ZZ/company/123456", "/v1/{country}/company/{id}", 200, ""},
		{"lookup lower-case country and spaced id", "/v1/zz/company/234%20567", "/v1/{country}/company/{id}", 200, ""},
		{"lookup invalid_id", "/v1/ZZ/company/12345", "/v1/{country}/company/{id}", 400, registry.CodeInvalidID},
		{"lookup not_found", "/v1/ZZ/company/000000", "/v1/{country}/company/{id}", 404, registry.CodeNotFound},
		{"lookup unsupported_country", "/v1/XX/company/123456", "/v1/{country}/company/{id}", 404, registry.CodeUnsupportedCountry},
		{"lookup UK is unsupported_country", "/v1/UK/company/123456", "/v1/{country}/company/{id}", 404, registry.CodeUnsupportedCountry},
		{"lookup upstream rate_limited", "/v1/ZZ/company/429429", "/v1/{country}/company/{id}", 429, registry.CodeRateLimited},
		{"lookup not_implemented", "/v1/ZZ/company/501501", "/v1/{country}/company/{id}", 501, registry.CodeNotImplemented},
		{"lookup upstream_error", "/v1/ZZ/company/500500", "/v1/{country}/company/{id}", 502, registry.CodeUpstreamError},
		{"lookup upstream_error without credential", "/v1/ZY/company/123456", "/v1/{country}/company/{id}", 502, registry.CodeUpstreamError},
		{"lookup upstream_timeout", "/v1/ZZ/company/504504", "/v1/{country}/company/{id}", 504, registry.CodeUpstreamTimeout},
		{"lookup internal_error", "/v1/ZZ/company/666666", "/v1/{country}/company/{id}", 500, registry.CodeInternalError},
		{"search", "/v1/ZZ/search?q=fake", "/v1/{country}/search", 200, ""},
		{"search limit 1", "/v1/ZZ/search?q=fake&limit=1", "/v1/{country}/search", 200, ""},
		{"search zero hits", "/v1/ZZ/search?q=none", "/v1/{country}/search", 200, ""},
		{"search q missing", "/v1/ZZ/search", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search q empty", "/v1/ZZ/search?q=", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search limit 0", "/v1/ZZ/search?q=fake&limit=0", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search limit 101", "/v1/ZZ/search?q=fake&limit=101", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search limit abc", "/v1/ZZ/search?q=fake&limit=abc", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search limit 1.5", "/v1/ZZ/search?q=fake&limit=1.5", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search limit empty", "/v1/ZZ/search?q=fake&limit=", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search malformed query", "/v1/ZZ/search?q=%zz", "/v1/{country}/search", 400, registry.CodeBadRequest},
		{"search bad limit unsupported_country", "/v1/XX/search?q=fake&limit=abc", "/v1/{country}/search", 404, registry.CodeUnsupportedCountry},
		{"search upstream_error without credential", "/v1/ZY/search?q=fake", "/v1/{country}/search", 502, registry.CodeUpstreamError},
		{"deadlines", "/v1/ZZ/company/345678/deadlines?today=2026-01-15", "/v1/{country}/company/{id}/deadlines", 200, ""},
		{"deadlines default today", "/v1/ZZ/company/345678/deadlines", "/v1/{country}/company/{id}/deadlines", 200, ""},
		{"deadlines today unparseable", "/v1/ZZ/company/123456/deadlines?today=15.01.2026", "/v1/{country}/company/{id}/deadlines", 400, registry.CodeBadRequest},
		{"deadlines today empty", "/v1/ZZ/company/123456/deadlines?today=", "/v1/{country}/company/{id}/deadlines", 400, registry.CodeBadRequest},
		{"deadlines invalid_id", "/v1/ZZ/company/1/deadlines", "/v1/{country}/company/{id}/deadlines", 400, registry.CodeInvalidID},
		{"deadlines not_found", "/v1/ZZ/company/000000/deadlines", "/v1/{country}/company/{id}/deadlines", 404, registry.CodeNotFound},
		{"deadlines unsupported_country", "/v1/XX/company/123456/deadlines?today=bad", "/v1/{country}/company/{id}/deadlines", 404, registry.CodeUnsupportedCountry},
		{"validate valid", "/v1/ZZ/validate/123.456", "/v1/{country}/validate/{id}", 200, ""},
		{"validate invalid is 200", "/v1/ZZ/validate/12345x", "/v1/{country}/validate/{id}", 200, ""},
		{"validate works without credential", "/v1/ZY/validate/123456", "/v1/{country}/validate/{id}", 200, ""},
		{"validate unsupported_country", "/v1/XX/validate/123456", "/v1/{country}/validate/{id}", 404, registry.CodeUnsupportedCountry},
		{"unknown route", "/v2/ZZ/company/123456", "", 404, registry.CodeNotFound},
		{"unknown route under v1", "/v1/ZZ/company", "", 404, registry.CodeNotFound},
		{"root", "/", "", 404, registry.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := h.get(t, tt.path)
			if res.status != tt.status {
				t.Fatalf("GET %s: status %d, want %d\n%s", tt.path, res.status, tt.status, res.body)
			}
			if ct := res.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if tt.code != "" {
				e := errorOf(t, res.body)
				if e.Code != tt.code {
					t.Errorf("code %q, want %q", e.Code, tt.code)
				}
				if e.Hint == "" {
					t.Error("hint is empty; the spec makes it mandatory")
				}
				if got := res.header.Get("Cache-Control"); got != "no-store" {
					t.Errorf("Cache-Control %q on an error, want no-store", got)
				}
			}
			h.check(t, tt.route, res)
			golden(t, "routes/"+strings.ReplaceAll(tt.name, " ", "_")+".golden", indent(t, res.body))
		})
	}
}

func TestUnknownRouteHintNamesLLMSTxt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.get(t, "/nope")
	if e := errorOf(t, res.body); !strings.Contains(e.Hint, "/llms.txt") {
		t.Errorf("hint %q does not name /llms.txt", e.Hint)
	}
}

// TestWrongMethod: a known route with another method is a 405 envelope with
// an Allow header; HEAD works like GET without a body.
func TestWrongMethod(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, tt := range []struct{ method, path string }{
		{http.MethodPost, "/v1/ZZ/company/123456"},
		{http.MethodDelete, "/v1/countries"},
		{http.MethodPut, "/health"},
		{http.MethodPost, "/v1/ZZ/search?q=x"},
		{http.MethodPatch, "/v1/ZZ/company/123456/deadlines"},
		{http.MethodPost, "/v1/ZZ/validate/123456"},
		{http.MethodPost, "/llms.txt"},
		{http.MethodOptions, "/openapi.json"},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			t.Parallel()
			res := h.do(t, tt.method, tt.path, nil)
			if res.status != http.StatusMethodNotAllowed {
				t.Fatalf("status %d, want 405", res.status)
			}
			if got := res.header.Get("Allow"); got != "GET, HEAD" {
				t.Errorf("Allow %q, want %q", got, "GET, HEAD")
			}
			if e := errorOf(t, res.body); e.Code != registry.CodeBadRequest || !strings.Contains(e.Hint, "GET") {
				t.Errorf("envelope %+v, want bad_request naming GET", e)
			}
			h.check(t, "", res)
		})
	}
	res := h.do(t, http.MethodHead, "/v1/ZZ/company/123456", nil)
	if res.status != http.StatusOK || len(res.body) != 0 {
		t.Errorf("HEAD: status %d, body %q; want 200 and no body", res.status, res.body)
	}
}

func TestNo422Ever(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	for _, p := range []string{"/v1/ZZ/search?limit=-1", "/v1/ZZ/search?q=a&limit=99999999999999999999",
		"/v1/ZZ/company/%00/deadlines?today=x", "/v1/ZZ/validate/%FF", "/v1/%20/company/1"} {
		if res := h.get(t, p); res.status == 422 || res.status >= 500 {
			t.Errorf("GET %s: status %d", p, res.status)
		}
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.get(t, "/v1/ZZ/company/123456")
	for k, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Cache-Control":          "no-cache",
		"Content-Type":           "application/json",
		"Server":                 "",
	} {
		if got := res.header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if got := h.get(t, "/health").header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("/health Cache-Control %q, want no-store", got)
	}
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if got := h.do(t, "GET", "/health", map[string]string{"X-Request-ID": "abc-123"}).header.Get("X-Request-ID"); got != "abc-123" {
		t.Errorf("echoed X-Request-ID %q, want abc-123", got)
	}
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	a := h.get(t, "/health").header.Get("X-Request-ID")
	b := h.get(t, "/health").header.Get("X-Request-ID")
	if !hex32.MatchString(a) || a == b {
		t.Errorf("generated IDs %q, %q; want distinct 32 hex digits", a, b)
	}
	bad := h.do(t, "GET", "/health", map[string]string{"X-Request-ID": `"><script>`}).header.Get("X-Request-ID")
	if !hex32.MatchString(bad) {
		t.Errorf("unsafe X-Request-ID echoed as %q; want a generated one", bad)
	}
}

// TestAccessLog: one JSON record per request with the route pattern, never
// the raw path, the query or an ENK identifier.
func TestAccessLog(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.do(t, "GET", "/v1/ZZ/company/111111", map[string]string{"X-Request-ID": "req-1", "Authorization": "Bearer secret-token"})
	h.get(t, "/v1/ZZ/search?q=ola+nordmann")
	h.get(t, "/v1/ZZ/company/666666")
	lines := h.logs.lines(t)
	if len(lines) != 3 {
		t.Fatalf("%d log records, want 3:\n%s", len(lines), h.logs.String())
	}
	first := lines[0]
	for k, want := range map[string]any{"msg": "request", "method": "GET", "route": "GET /v1/{country}/company/{id}",
		"status": 200.0, "request_id": "req-1", "client_ip": "127.0.0.1", "level": "INFO"} {
		if got := first[k]; got != want {
			t.Errorf("log %s = %v, want %v", k, got, want)
		}
	}
	if _, ok := first["duration"]; !ok {
		t.Error("log record has no duration")
	}
	if lines[2]["level"] != "ERROR" || lines[2]["status"] != 500.0 {
		t.Errorf("a 500 is logged as %v %v, want ERROR 500", lines[2]["level"], lines[2]["status"])
	}
	all := h.logs.String()
	for _, secret := range []string{"111111", "nordmann", "NORDMANN", "secret-token", "q="} {
		if strings.Contains(all, secret) {
			t.Errorf("the access log contains %q:\n%s", secret, all)
		}
	}
}

// TestRateLimit: the 61st request in a minute from one address is 429 with
// Retry-After and details.retry_after; the first of the next minute is not.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for i := 1; i <= 60; i++ {
		if res := h.get(t, "/v1/ZZ/validate/123456"); res.status != 200 {
			t.Fatalf("request %d: status %d", i, res.status)
		}
	}
	res := h.get(t, "/v1/ZZ/company/123456")
	if res.status != http.StatusTooManyRequests {
		t.Fatalf("61st request: status %d, want 429", res.status)
	}
	e := errorOf(t, res.body)
	if e.Code != registry.CodeRateLimited || e.RetryAfter() < 1 {
		t.Errorf("envelope %+v, want rate_limited with details.retry_after >= 1", e)
	}
	if got := res.header.Get("Retry-After"); got != fmt.Sprint(e.RetryAfter()) {
		t.Errorf("Retry-After %q, want %d", got, e.RetryAfter())
	}
	h.check(t, "/v1/{country}/company/{id}", res)
	// Exempt routes still answer.
	for _, p := range []string{"/health", "/llms.txt", "/llms-full.txt", "/server.json", "/openapi.json"} {
		if res := h.get(t, p); res.status != 200 {
			t.Errorf("%s while limited: %d", p, res.status)
		}
	}
	h.clock.Advance(time.Minute)
	if res := h.get(t, "/v1/ZZ/validate/123456"); res.status != 200 {
		t.Errorf("first request of the next minute: status %d, want 200", res.status)
	}
}

// TestRateLimitSpoofedForwardedFor: X-Forwarded-For from a peer that is not
// a trusted proxy changes nothing.
func TestRateLimitSpoofedForwardedFor(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(5))
	for i := range 5 {
		h.do(t, "GET", "/v1/countries", map[string]string{"X-Forwarded-For": fmt.Sprintf("203.0.113.%d", i)})
	}
	res := h.do(t, "GET", "/v1/countries", map[string]string{"X-Forwarded-For": "198.51.100.7"})
	if res.status != http.StatusTooManyRequests {
		t.Errorf("status %d with a spoofed X-Forwarded-For, want 429", res.status)
	}
	for _, l := range h.logs.lines(t) {
		if l["client_ip"] != "127.0.0.1" {
			t.Errorf("logged client_ip %v, want the peer 127.0.0.1", l["client_ip"])
		}
	}
}

// TestRateLimitTrustedProxy: behind a trusted proxy each forwarded client
// has its own bucket.
func TestRateLimitTrustedProxy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(2), restserver.WithTrustedProxies("127.0.0.0/8"))
	for _, client := range []string{"203.0.113.1", "203.0.113.2"} {
		for i := range 2 {
			xff := map[string]string{"X-Forwarded-For": "198.51.100.99, " + client}
			if res := h.do(t, "GET", "/v1/countries", xff); res.status != 200 {
				t.Fatalf("client %s request %d: %d", client, i+1, res.status)
			}
		}
	}
	if res := h.do(t, "GET", "/v1/countries", map[string]string{"X-Forwarded-For": "203.0.113.1"}); res.status != 429 {
		t.Errorf("third request of a forwarded client: %d, want 429", res.status)
	}
	if got := h.logs.lines(t)[0]["client_ip"]; got != "203.0.113.1" {
		t.Errorf("logged client_ip %v, want the forwarded 203.0.113.1", got)
	}
}

func TestRateLimitDisabled(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	for i := range 200 {
		if res := h.get(t, "/v1/ZZ/validate/123456"); res.status != 200 {
			t.Fatalf("request %d: %d", i+1, res.status)
		}
	}
}

func TestTextResourcesNeverLimited(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(1))
	for i := range 70 {
		for _, p := range []string{"/health", "/llms.txt", "/llms-full.txt", "/server.json", "/openapi.json"} {
			if res := h.get(t, p); res.status != 200 {
				t.Fatalf("%s request %d: %d", p, i+1, res.status)
			}
		}
	}
}

func TestOptionErrors(t *testing.T) {
	t.Parallel()
	reg := newRegistry(t, newFakeClock())
	for name, opt := range map[string]restserver.Option{
		"negative rate":        restserver.WithRateLimit(-1),
		"zero clients":         restserver.WithMaxClients(0),
		"bad proxy":            restserver.WithTrustedProxies("10.0.0.0/33"),
		"proxy name":           restserver.WithTrustedProxies("proxy.local"),
		"relative public URL":  restserver.WithPublicURL("/x"),
		"ftp public URL":       restserver.WithPublicURL("ftp://x"),
		"public URL query":     restserver.WithPublicURL("https://x?a=1"),
		"public URL with user": restserver.WithPublicURL("https://u:p@x"),
		"relative MCP path":    restserver.WithMCPPath("mcp"),
		"nil logger":           restserver.WithLogger(nil),
		"nil clock":            restserver.WithClock(nil),
		"nil option":           nil,
	} {
		if _, err := restserver.New(reg, opt); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
	if _, err := restserver.New(nil); err == nil {
		t.Error("New(nil) succeeded")
	}
	if _, err := restserver.New(reg, restserver.WithTrustedProxies("10.0.0.1", " fd00::/8 ", ""),
		restserver.WithPublicURL("https://registry.example.com/"), restserver.WithMCPPath("")); err != nil {
		t.Errorf("valid options: %v", err)
	}
}

// TestSameDocumentAsLibrary: the REST body is the JSON of what the Registry
// returns, byte for byte (the MCP surface encodes the same values).
func TestSameDocumentAsLibrary(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	h := newHarnessWith(t, reg, clock)
	rep, err := reg.Deadlines(t.Context(), "ZZ", "123456", registry.NewDate(2026, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(rep)
	got := h.get(t, "/v1/ZZ/company/123456/deadlines?today=2026-03-01").body
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("(-library +REST):\n%s", diff)
	}
}
