package no

import (
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
)

// Issue #9: a 200 answer whose Content-Type is not JSON (a proxy's HTML
// error page) is a retryable upstream_error and is not decoded, even when
// the body happens to be JSON; JSON types with parameters, vendor +json
// types and a missing Content-Type are decoded.
func TestContentType(t *testing.T) {
	t.Parallel()
	equinor := recording(t, "enhet_923609016_equinor_asa_2026-08.json")
	for _, tt := range []struct {
		contentType string
		wantCode    registry.Code // "" for success
		wantCalls   int
	}{
		{contentType: "application/json", wantCalls: 1},
		{contentType: "application/json;charset=UTF-8", wantCalls: 1},
		{contentType: "application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8", wantCalls: 1},
		{contentType: "", wantCalls: 1},
		{contentType: "text/html; charset=utf-8", wantCode: registry.CodeUpstreamError, wantCalls: 2},
		{contentType: "text/plain", wantCode: registry.CodeUpstreamError, wantCalls: 2},
		{contentType: "application/xml", wantCode: registry.CodeUpstreamError, wantCalls: 2},
		{contentType: "text/json+html", wantCode: registry.CodeUpstreamError, wantCalls: 2},
		{contentType: "not a media type;;", wantCode: registry.CodeUpstreamError, wantCalls: 2},
	} {
		t.Run(tt.contentType, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+equinorID, func(*http.Request) (*http.Response, error) {
				r := httpmock.NewBytesResponse(http.StatusOK, equinor)
				if tt.contentType != "" {
					r.Header.Set("Content-Type", tt.contentType)
				}
				return r, nil
			})
			reg := newTestRegistry(t, mt)
			rep, err := reg.Lookup(t.Context(), "NO", equinorID)
			if got := mt.GetTotalCallCount(); got != tt.wantCalls {
				t.Errorf("upstream calls = %d, want %d", got, tt.wantCalls)
			}
			if tt.wantCode == "" {
				if err != nil || rep.Name != "EQUINOR ASA" {
					t.Fatalf("Lookup = %v, %v; want EQUINOR ASA", rep, err)
				}
				return
			}
			if e := asError(t, err); e.Code != tt.wantCode {
				t.Errorf("code = %s (%v), want %s", e.Code, err, tt.wantCode)
			}
		})
	}
}

// Issue #9: redirects are never followed. A redirect (here a loop) is a
// final upstream_error after one request, its target is never called, and
// the caller's own client keeps its redirect policy.
func TestRedirectsAreNotFollowed(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+equinorID, func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(http.StatusFound, "")
		r.Header.Set("Location", testBase+"/enheter/"+equinorID)
		return r, nil
	})
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter", func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(http.StatusMovedPermanently, "")
		r.Header.Set("Location", "https://elsewhere.test/steal")
		return r, nil
	})
	client := &http.Client{Transport: mt}
	c, err := New(WithBaseURL(testBase), WithHTTPClient(client))
	if err != nil {
		t.Fatal(err)
	}
	if client.CheckRedirect != nil {
		t.Error("New changed the caller's client")
	}
	reg, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reg.Lookup(t.Context(), "NO", equinorID)
	if e := asError(t, err); e.Code != registry.CodeUpstreamError {
		t.Errorf("lookup: code %s, want upstream_error", e.Code)
	}
	_, err = reg.Search(t.Context(), "NO", "equinor", 5)
	if e := asError(t, err); e.Code != registry.CodeUpstreamError {
		t.Errorf("search: code %s, want upstream_error", e.Code)
	}
	if got := mt.GetTotalCallCount(); got != 2 {
		t.Errorf("upstream calls = %d, want 2 (one per operation, no redirect followed, no retry)", got)
	}
}
