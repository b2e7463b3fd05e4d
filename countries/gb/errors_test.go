package gb

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// newTestRegistry returns a Registry over c with no retry pause and a
// debug logger writing to log.
func newTestRegistry(t *testing.T, c *Country, log *moduletest.SyncBuffer) *registry.Registry {
	t.Helper()
	opts := []registry.Option{registry.WithClock(fixedNow)}
	if log != nil {
		opts = append(opts, registry.WithLogger(slog.New(slog.NewJSONHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	return moduletest.NewRegistry(t, c, opts...)
}

// Without a key the module exists but cannot answer: lookup, search and
// deadlines give upstream_error whose hint names COMPANIES_HOUSE_API_KEY,
// nothing is sent upstream, validation still works and Countries() leaves
// GB out.
func TestMissingKey(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	c, err := New(WithHTTPClient(&http.Client{Transport: mt}), WithBaseURL(testBase))
	if err != nil {
		t.Fatal(err)
	}
	reg := newTestRegistry(t, c, nil)
	ctx := t.Context()
	calls := map[string]func() error{
		"lookup": func() error { _, err := reg.Lookup(ctx, "GB", "02578066"); return err },
		"search": func() error { _, err := reg.Search(ctx, "GB", "tesco", 10); return err },
		"deadlines": func() error {
			_, err := reg.Deadlines(ctx, "GB", "02578066", registry.NewDate(2026, 1, 15))
			return err
		},
	}
	for name, call := range calls {
		e := moduletest.AsError(t, call())
		if e.Code != registry.CodeUpstreamError || e.HTTPStatus() != http.StatusBadGateway {
			t.Errorf("%s: code %s (HTTP %d), want upstream_error (502)", name, e.Code, e.HTTPStatus())
		}
		if !strings.Contains(e.Hint, "COMPANIES_HOUSE_API_KEY") {
			t.Errorf("%s: hint %q does not name COMPANIES_HOUSE_API_KEY", name, e.Hint)
		}
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d upstream calls without a key, want 0", n)
	}
	v, err := reg.Validate("GB", "sc294759")
	if err != nil || !v.Valid || *v.Normalized != "SC294759" {
		t.Errorf("Validate without a key = %+v, %v; want valid SC294759", v, err)
	}
	if got := reg.Countries().Countries; len(got) != 0 {
		t.Errorf("Countries() = %+v, want GB left out", got)
	}
	if got := c.Info(); !got.RequiresAPIKey || *got.APIKeyEnv != "COMPANIES_HOUSE_API_KEY" {
		t.Errorf("Info() = %+v, want GB requiring COMPANIES_HOUSE_API_KEY", got)
	}
}

// The upstream outcomes map to the interface's codes, and only the
// retryable ones are retried, once.
func TestUpstreamOutcomes(t *testing.T) {
	t.Parallel()
	profile := recording(t, "company_profile_active_ltd_02578066_2022.json")
	reset := strconv.FormatInt(fixedNow().Unix()+42, 10)
	tests := []struct {
		name       string
		responders []httpmock.Responder // one per call; the last repeats
		wantCode   registry.Code        // "" for success
		wantCalls  int
		wantRetry  int // details.retry_after for rate_limited
		wantInHint string
	}{
		{
			name:       "401 invalid key",
			responders: []httpmock.Responder{moduletest.JSONResponder(401, recording(t, "error_401_invalid-authorization.json"), "Www-Authenticate", "Invalid or no Authorisation header has been provided")},
			wantCode:   registry.CodeUpstreamError, wantCalls: 1, wantInHint: "API key",
		},
		{
			name:       "401 empty header",
			responders: []httpmock.Responder{moduletest.JSONResponder(401, recording(t, "error_401_empty-authorization-header.json"))},
			wantCode:   registry.CodeUpstreamError, wantCalls: 1, wantInHint: "COMPANIES_HOUSE_API_KEY",
		},
		{
			name:       "403 blocked",
			responders: []httpmock.Responder{moduletest.JSONResponder(403, nil)},
			wantCode:   registry.CodeUpstreamError, wantCalls: 1, wantInHint: "blocked",
		},
		{
			name:       "404 not found",
			responders: []httpmock.Responder{moduletest.JSONResponder(404, recording(t, "error_404_company-profile-not-found.json"))},
			wantCode:   registry.CodeNotFound, wantCalls: 1, wantInHint: "search by name with the search operation",
		},
		{
			name:       "429 with X-Ratelimit-Reset",
			responders: []httpmock.Responder{moduletest.JSONResponder(429, nil, "X-Ratelimit-Reset", reset, "X-Ratelimit-Remain", "0")},
			wantCode:   registry.CodeRateLimited, wantCalls: 1, wantRetry: 42,
		},
		{
			name:       "429 without headers",
			responders: []httpmock.Responder{moduletest.JSONResponder(429, []byte(`{}`))},
			wantCode:   registry.CodeRateLimited, wantCalls: 1, wantRetry: 60,
		},
		{
			name:       "429 with a reset in the past",
			responders: []httpmock.Responder{moduletest.JSONResponder(429, nil, "X-Ratelimit-Reset", strconv.FormatInt(fixedNow().Unix()-5, 10))},
			wantCode:   registry.CodeRateLimited, wantCalls: 1, wantRetry: 1,
		},
		{
			name:       "500 then 200 is retried once",
			responders: []httpmock.Responder{moduletest.JSONResponder(500, recording(t, "error_500_company-number-too-long.json")), moduletest.JSONResponder(200, profile)},
			wantCalls:  2,
		},
		{
			name:       "502 twice",
			responders: []httpmock.Responder{moduletest.JSONResponder(502, []byte("<html>Bad Gateway</html>"))},
			wantCode:   registry.CodeUpstreamError, wantCalls: 2,
		},
		{
			name:       "malformed JSON then 200",
			responders: []httpmock.Responder{moduletest.JSONResponder(200, []byte(`{"company_name": "TRUNC`)), moduletest.JSONResponder(200, profile)},
			wantCalls:  2,
		},
		{
			name:       "malformed JSON twice",
			responders: []httpmock.Responder{moduletest.JSONResponder(200, []byte(`[1,2,3]`))},
			wantCode:   registry.CodeUpstreamError, wantCalls: 2,
		},
		{
			name:       "empty profile twice",
			responders: []httpmock.Responder{moduletest.JSONResponder(200, []byte(`{}`)), moduletest.JSONResponder(200, []byte(`null`))},
			wantCode:   registry.CodeUpstreamError, wantCalls: 2,
		},
		{
			name:       "timeout twice",
			responders: []httpmock.Responder{httpmock.NewErrorResponder(timeoutError{})},
			wantCode:   registry.CodeUpstreamTimeout, wantCalls: 2,
		},
		{
			name:       "connection refused then 200",
			responders: []httpmock.Responder{httpmock.NewErrorResponder(errors.New("dial tcp: connection refused")), moduletest.JSONResponder(200, profile)},
			wantCalls:  2,
		},
		{
			name:       "418 is not retried",
			responders: []httpmock.Responder{moduletest.JSONResponder(418, nil)},
			wantCode:   registry.CodeUpstreamError, wantCalls: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/company/02578066", moduletest.Sequence(tt.responders...))
			reg := newTestRegistry(t, newTestCountry(t, mt), nil)
			rep, err := reg.Lookup(t.Context(), "GB", "2578066")
			if got := mt.GetTotalCallCount(); got != tt.wantCalls {
				t.Errorf("%d upstream calls, want %d", got, tt.wantCalls)
			}
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Lookup: %v, want success", err)
				}
				if rep.Name != "14 LAWN ROAD LIMITED" {
					t.Errorf("name = %q", rep.Name)
				}
				return
			}
			e := moduletest.AsError(t, err)
			if e.Code != tt.wantCode || e.Country != "GB" || e.Registry != "companieshouse" {
				t.Errorf("error = %s %s/%s %q, want %s for GB/companieshouse", e.Code, e.Country, e.Registry, e.Message, tt.wantCode)
			}
			if tt.wantRetry != 0 && e.RetryAfter() != tt.wantRetry {
				t.Errorf("retry_after = %d, want %d", e.RetryAfter(), tt.wantRetry)
			}
			if !strings.Contains(e.Hint, tt.wantInHint) {
				t.Errorf("hint %q does not contain %q", e.Hint, tt.wantInHint)
			}
		})
	}
}

// timeoutError is a transport error that reports a timeout, as net/http's
// do.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// A not_found answer is cached: the second lookup makes no upstream call.
func TestNotFoundIsCached(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/company/99999999", moduletest.JSONResponder(404, recording(t, "error_404_company-profile-not-found.json")))
	reg := newTestRegistry(t, newTestCountry(t, mt), nil)
	for range 2 {
		if _, err := reg.Lookup(t.Context(), "GB", "99999999"); !errors.Is(err, registry.ErrNotFound) {
			t.Fatalf("Lookup = %v, want not_found", err)
		}
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d upstream calls, want 1", n)
	}
}

// The API key never appears in an error, a log line or a response body: the
// test drives every outcome through the Registry with a debug logger and
// searches every produced text for the key (and its Basic encoding).
func TestKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	log := &moduletest.SyncBuffer{}
	mt := httpmock.NewMockTransport()
	profile := recording(t, "company_profile_active_ltd_02578066_2022.json")
	// Each company number answers with a different outcome; the echo
	// responder puts the request's Authorization header into a body.
	outcomes := map[string]httpmock.Responder{
		"00000001": moduletest.JSONResponder(200, profile),
		"00000002": moduletest.JSONResponder(401, recording(t, "error_401_invalid-authorization.json")),
		"00000003": moduletest.JSONResponder(403, nil),
		"00000004": moduletest.JSONResponder(404, recording(t, "error_404_company-profile-not-found.json")),
		"00000005": moduletest.JSONResponder(429, nil, "X-Ratelimit-Reset", "not a number"),
		"00000006": moduletest.JSONResponder(500, nil),
		"00000007": moduletest.JSONResponder(200, []byte(`{"company_name":`)),
		"00000008": httpmock.NewErrorResponder(timeoutError{}),
		"00000009": func(req *http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("proxy refused request with header %s", req.Header.Get("Authorization"))
		},
		"00000010": func(req *http.Request) (*http.Response, error) {
			b, _ := json.Marshal(map[string]string{"error": "echo", "auth": req.Header.Get("Authorization")})
			return moduletest.JSONResponder(500, b)(req)
		},
	}
	for id, r := range outcomes {
		mt.RegisterResponder(http.MethodGet, testBase+"/company/"+id, r)
	}
	mt.RegisterResponder(http.MethodGet, testBase+"/search/companies", moduletest.JSONResponder(200, recording(t, "search_companies_q-you_2019.json")))
	c := newTestCountry(t, mt)
	reg := newTestRegistry(t, c, log)

	var texts []string
	record := func(v any, err error) {
		if err != nil {
			texts = append(texts, err.Error(), fmt.Sprintf("%+v %#v", err, err))
			for e := err; e != nil; e = errors.Unwrap(e) {
				texts = append(texts, e.Error())
			}
			b, _ := json.Marshal(registry.AsError(err))
			texts = append(texts, string(b))
		}
		if v != nil {
			b, _ := json.Marshal(v)
			texts = append(texts, string(b), fmt.Sprintf("%+v", v))
		}
	}
	ctx := context.Background()
	for id := range outcomes {
		record(reg.Lookup(ctx, "GB", id))
		record(reg.Deadlines(ctx, "GB", id, registry.NewDate(2026, 1, 15)))
		record(c.Lookup(ctx, id))
	}
	record(reg.Search(ctx, "GB", "you", 10))
	record(reg.Countries(), nil)
	record(c.Info(), nil)
	record(reg.Health(t.Context()), nil)
	doc, err := reg.Rules("GB")
	record(doc, err)
	texts = append(texts, log.String(), fmt.Sprintf("%+v %#v", *c, *c))

	secrets := []string{testKey, "KEYSECRET", base64.StdEncoding.EncodeToString([]byte(testKey + ":"))}
	for _, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("output contains the key: %s", text)
			}
		}
	}
	if len(texts) < 40 || !strings.Contains(log.String(), "upstream attempt failed") {
		t.Fatalf("the test produced too little to search (%d texts, log %d bytes)", len(texts), len(log.String()))
	}
}

// A register that does not answer within the Registry's per-attempt timeout
// is tried twice and answered with upstream_timeout.
func TestHungUpstreamTimesOut(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/company/02578066", func(req *http.Request) (*http.Response, error) {
		<-req.Context().Done()
		return nil, req.Context().Err()
	})
	reg, err := registry.New([]registry.Country{newTestCountry(t, mt)},
		registry.WithRetryPause(0), registry.WithUpstreamTimeout(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reg.Lookup(t.Context(), "GB", "02578066")
	if e := moduletest.AsError(t, err); e.Code != registry.CodeUpstreamTimeout || e.HTTPStatus() != http.StatusGatewayTimeout {
		t.Errorf("error = %s, want upstream_timeout (504)", e.Code)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d upstream calls, want 2", n)
	}
}

// Every error of an HTTP answer other than 200 carries the status in
// UpstreamStatus, from which the Registry logs the cause of a failed
// attempt; a transport failure and a bad 200 body carry none.
func TestUpstreamStatusOnErrors(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusNotFound, http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests,
		http.StatusTeapot, http.StatusInternalServerError, http.StatusBadGateway, http.StatusMovedPermanently} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/company/00002065", moduletest.JSONResponder(status, []byte(`{}`)))
			_, err := newTestCountry(t, mt).Lookup(t.Context(), "00002065")
			var e *registry.Error
			if !errors.As(err, &e) || e.UpstreamStatus != status {
				t.Errorf("error %v, want an *registry.Error with UpstreamStatus %d", err, status)
			}
		})
	}
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/company/00002065", moduletest.JSONResponder(http.StatusOK, []byte(`{`)))
	_, err := newTestCountry(t, mt).Lookup(t.Context(), "00002065")
	var e *registry.Error
	if !errors.As(err, &e) || e.UpstreamStatus != 0 {
		t.Errorf("bad 200 body: error %v, want UpstreamStatus 0", err)
	}
}
