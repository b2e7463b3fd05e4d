package fi

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// Every spelling of a business ID reaches the register as the canonical
// 0112038-9, with the User-Agent and Accept headers, and shares one cache
// entry: four lookups, one upstream request.
func TestLookupCanonicalID(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	nokia := recording(t, nokiaFile)
	mt.RegisterResponder(http.MethodGet, testBase+"/companies", func(r *http.Request) (*http.Response, error) {
		if got := r.URL.RawQuery; got != "businessId=0112038-9" {
			return httpmock.NewStringResponse(http.StatusTeapot, "query "+got), nil
		}
		if ua := r.Header.Get("User-Agent"); !strings.Contains(ua, "ops@example.org") {
			return httpmock.NewStringResponse(http.StatusTeapot, "user agent "+ua), nil
		}
		if a := r.Header.Get("Accept"); a != "application/json" {
			return httpmock.NewStringResponse(http.StatusTeapot, "accept "+a), nil
		}
		return moduletest.JSONResponder(http.StatusOK, nokia)(r)
	})
	c := newTestCountry(t, mt, WithContactEmail("ops@example.org"))
	reg, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	// The spec: id is "canonical national identifier, letters and digits
	// only"; id_formatted "identifier as a local writes it". Every spelling
	// resolves to the one id.
	for _, input := range []string{"FI01120389", "0112038 9", "01120389", "fi-0112038-9", "0112038-9"} {
		rep, err := reg.Lookup(t.Context(), "FI", input)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", input, err)
		}
		if rep.ID != nokiaID || rep.IDFormatted == nil || *rep.IDFormatted != nokiaWritten || rep.Name != "Nokia Oyj" {
			t.Errorf("Lookup(%q) = %s (%v) %s", input, rep.ID, rep.IDFormatted, rep.Name)
		}
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("upstream calls = %d, want 1 (one canonical cache key)", got)
	}
}

// The register answers an unknown business ID with 200 and no company:
// not_found, cached like any not_found (one upstream call for two
// lookups), not retried.
func TestNotFoundIs200(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/companies", moduletest.JSONResponder(http.StatusOK, recording(t, emptyFile)))
	reg := newTestRegistry(t, mt)
	for range 2 {
		_, err := reg.Lookup(t.Context(), "FI", "2077474-0")
		if e := moduletest.AsError(t, err); e.Code != registry.CodeNotFound || e.HTTPStatus() != http.StatusNotFound {
			t.Fatalf("code %s, want not_found", e.Code)
		}
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("upstream calls = %d, want 1", got)
	}
}

// Each failure of the register maps to its code, retryability and
// UpstreamStatus; the Registry retries only the retryable ones. The generic
// failures (a 500, a redirect, a body that is not JSON) are played by the
// conformance suite (TestConformance); these rows are PRH's own answers and
// what the suite does not check (the status kept, the retry count).
func TestLookupFailures(t *testing.T) {
	t.Parallel()
	nokia := recording(t, nokiaFile)
	tests := []struct {
		name        string
		status      int
		contentType string
		header      http.Header
		body        []byte
		wantCode    registry.Code
		wantRetry   bool
		wantStatus  int
		wantDetails map[string]any
	}{
		{name: "400", status: 400, body: recording(t, error400File), wantCode: registry.CodeInvalidID, wantStatus: 400},
		{name: "404 (not the register's answer)", status: 404, wantCode: registry.CodeUpstreamError, wantStatus: 404},
		{name: "429 with Retry-After", status: 429, header: http.Header{"Retry-After": {"7"}}, body: []byte("Too many requests"),
			contentType: "text/plain", wantCode: registry.CodeRateLimited, wantStatus: 429, wantDetails: map[string]any{"retry_after": 7}},
		{name: "429 without Retry-After", status: 429, wantCode: registry.CodeRateLimited, wantStatus: 429, wantDetails: map[string]any{"retry_after": 60}},
		{name: "503", status: 503, wantCode: registry.CodeUpstreamError, wantRetry: true, wantStatus: 503},
		{name: "200 HTML", status: 200, contentType: "text/html", body: nokia, wantCode: registry.CodeUpstreamError, wantRetry: true},
		{name: "200 another company", status: 200, body: recording(t, konkFile), wantCode: registry.CodeUpstreamError, wantRetry: true},
		{name: "200 too large", status: 200, body: append(append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), maxBodyBytes)...), '"', '}'),
			wantCode: registry.CodeUpstreamError, wantRetry: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/companies", func(*http.Request) (*http.Response, error) {
				r := httpmock.NewBytesResponse(tt.status, tt.body)
				ct := tt.contentType
				if ct == "" {
					ct = "application/json"
				}
				r.Header.Set("Content-Type", ct)
				for k, v := range tt.header {
					r.Header[k] = v
				}
				return r, nil
			})
			// The module's own error.
			_, err := newTestCountry(t, mt).Lookup(t.Context(), nokiaID)
			e := moduletest.AsError(t, err)
			got := struct {
				Code      registry.Code
				Retryable bool
				Status    int
				Details   map[string]any
			}{e.Code, e.Retryable, e.UpstreamStatus, e.Details}
			want := got
			want.Code, want.Retryable, want.Status, want.Details = tt.wantCode, tt.wantRetry, tt.wantStatus, tt.wantDetails
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("module error mismatch (-want +got):\n%s", diff)
			}
			if strings.Contains(e.Error(), testBase) {
				t.Errorf("the error names the URL: %v", e)
			}
			// Through the Registry: one retry for a retryable failure.
			mt.ZeroCallCounters()
			_, err = newTestRegistry(t, mt).Lookup(t.Context(), "FI", nokiaID)
			if e := moduletest.AsError(t, err); e.Code != tt.wantCode {
				t.Errorf("Registry code %s, want %s", e.Code, tt.wantCode)
			}
			wantCalls := 1
			if tt.wantRetry {
				wantCalls = 2
			}
			if got := mt.GetTotalCallCount(); got != wantCalls {
				t.Errorf("upstream calls = %d, want %d", got, wantCalls)
			}
		})
	}
}

// New leaves the caller's client as it was: the module refuses redirects
// on its own copy (that no redirect is followed is checked by
// TestConformance).
func TestCallersClientUnchanged(t *testing.T) {
	t.Parallel()
	client := &http.Client{Transport: httpmock.NewMockTransport()}
	if _, err := New(WithBaseURL(testBase), WithHTTPClient(client)); err != nil {
		t.Fatal(err)
	}
	if client.CheckRedirect != nil {
		t.Error("New changed the caller's client")
	}
}

// Search sends the query as one escaped name parameter, keeps the
// register's order and total, and cuts at the limit; an over-long query
// is bad_request without a request.
func TestSearch(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/companies", url.Values{"name": {"Supercell & Co?"}},
		moduletest.JSONResponder(http.StatusOK, recording(t, searchFile)))
	c := newTestCountry(t, mt)
	res, err := c.Search(t.Context(), "Supercell & Co?", 2)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	if diff := cmp.Diff([]string{"23365096", "28751674"}, ids); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if res.Total != 3 || !res.Truncated {
		t.Errorf("total %d truncated %t, want 3 true", res.Total, res.Truncated)
	}
	_, err = c.Search(t.Context(), strings.Repeat("ä", maxNameRunes+1), 20)
	if e := moduletest.AsError(t, err); e.Code != registry.CodeBadRequest {
		t.Errorf("long query: %s, want bad_request", e.Code)
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("upstream calls = %d, want 1", got)
	}
}

// Options validate their input.
func TestOptions(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]Option{
		"relative base URL":   WithBaseURL("avoindata.prh.fi/v3"),
		"base URL with query": WithBaseURL("https://prh.test/v3?x=1"),
		"base URL with user":  WithBaseURL("https://user:secret@prh.test/v3"),
		"nil client":          WithHTTPClient(nil),
		"bad e-mail":          WithContactEmail("Ops <ops@example.org>"),
		"nil option":          nil,
	} {
		c, err := New(opt)
		if err == nil || c != nil {
			t.Errorf("%s: New = %v, %v; want an error", name, c, err)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error repeats the credential: %v", name, err)
		}
	}
	c, err := New(WithBaseURL("https://mirror.test/v3/"))
	if err != nil || c.up.BaseURL() != "https://mirror.test/v3" {
		t.Errorf("trailing slash: %v, %v", c, err)
	}
	if c.Info().SourceURL != DefaultBaseURL {
		t.Errorf("Info().SourceURL = %s, want the public API", c.Info().SourceURL)
	}
}

// Validate gives the canonical id (letters and digits only, as the spec's
// id) as normalized and the written form as formatted, and the Finnish
// reason and hint for a failure, in two allocations.
func TestValidate(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	c := newTestCountry(t, httpmock.NewMockTransport())
	for _, in := range []string{"FI 01120389", "0112038-9", "01120389", "0112038 9", "FI01120389"} {
		v := c.Validate(in)
		if !v.Valid || *v.Normalized != nokiaID || *v.Formatted != nokiaWritten || *v.IDScheme != idScheme {
			t.Errorf("%q: normalized %v formatted %v: %+v", in, v.Normalized, v.Formatted, v)
		}
	}
	v := c.Validate("0112038-8")
	if v.Valid || v.Normalized != nil || !strings.Contains(*v.Reason, "MOD11") || !strings.Contains(*v.Hint, "the search operation") {
		t.Errorf("invalid: %+v", v)
	}
	if n := testing.AllocsPerRun(100, func() { c.Validate("0112038-9") }); n > 2 {
		t.Errorf("Validate allocates %v times, want at most 2", n)
	}
}

// A body that breaks off while it is read is a retryable upstream_error
// without an HTTP status, wrapping the read error.
func TestBodyBreaksOff(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/companies", func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(http.StatusOK, "")
		r.Header.Set("Content-Type", "application/json")
		r.Body = io.NopCloser(io.MultiReader(strings.NewReader(`{"totalResults":1,"compa`), iotest.ErrReader(io.ErrUnexpectedEOF)))
		return r, nil
	})
	c := newTestCountry(t, mt)
	_, err := c.Lookup(t.Context(), nokiaID)
	if e := moduletest.AsError(t, err); e.Code != registry.CodeUpstreamError || !e.Retryable || e.UpstreamStatus != 0 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("broken body: %+v", e)
	}
}
