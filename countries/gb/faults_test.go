package gb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// Issue #9: JSON with parameters and a missing Content-Type are decoded;
// text/plain is a retryable upstream_error like the HTML page the
// conformance suite plays (TestConformance covers the HTML page, the
// redirects, 5xx, 429 and broken connections).
func TestContentType(t *testing.T) {
	t.Parallel()
	body := recording(t, "company_profile_active_ltd_08957400_2024.json")
	for _, tt := range []struct {
		contentType string
		wantCode    registry.Code // "" for success
		wantCalls   int
	}{
		{contentType: "application/json", wantCalls: 1},
		{contentType: "application/json; charset=utf-8", wantCalls: 1},
		{contentType: "", wantCalls: 1},
		{contentType: "text/plain; charset=utf-8", wantCode: registry.CodeUpstreamError, wantCalls: 2},
	} {
		t.Run(tt.contentType, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/company/08957400", func(*http.Request) (*http.Response, error) {
				r := httpmock.NewBytesResponse(http.StatusOK, body)
				if tt.contentType != "" {
					r.Header.Set("Content-Type", tt.contentType)
				}
				return r, nil
			})
			reg := newTestRegistry(t, newTestCountry(t, mt), nil)
			_, err := reg.Lookup(t.Context(), "GB", "08957400")
			if got := mt.GetTotalCallCount(); got != tt.wantCalls {
				t.Errorf("upstream calls = %d, want %d", got, tt.wantCalls)
			}
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Lookup: %v", err)
				}
				return
			}
			if e := moduletest.AsError(t, err); e.Code != tt.wantCode {
				t.Errorf("code = %s (%v), want %s", e.Code, err, tt.wantCode)
			}
		})
	}
}

// Issue #9: the module never follows a redirect (TestConformance checks
// that the target is never called), and it does so on a copy: the caller's
// client keeps its redirect policy.
func TestCallersClientUnchanged(t *testing.T) {
	t.Parallel()
	client := &http.Client{Transport: httpmock.NewMockTransport()}
	newTestCountry(t, httpmock.NewMockTransport(), WithHTTPClient(client))
	if client.CheckRedirect != nil {
		t.Error("New changed the caller's client")
	}
}

// An answer other than 200 is judged by its status alone: its body is only
// drained (at most 64 KiB), never read in full, so a 404 with a huge body is
// still not_found and a 503 with one is still a retryable upstream_error.
func TestNon200BodyIsOnlyDrained(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 2*maxBodyBytes)
	for _, tt := range []struct {
		status    int
		wantCode  registry.Code
		wantCalls int
	}{
		{status: http.StatusNotFound, wantCode: registry.CodeNotFound, wantCalls: 1},
		{status: http.StatusServiceUnavailable, wantCode: registry.CodeUpstreamError, wantCalls: 2},
	} {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/company/08957400", httpmock.NewStringResponder(tt.status, huge))
			reg := newTestRegistry(t, newTestCountry(t, mt), nil)
			_, err := reg.Lookup(t.Context(), "GB", "08957400")
			if got := mt.GetTotalCallCount(); got != tt.wantCalls {
				t.Errorf("upstream calls = %d, want %d", got, tt.wantCalls)
			}
			e := moduletest.AsError(t, err)
			if e.Code != tt.wantCode {
				t.Errorf("code = %s (%v), want %s", e.Code, err, tt.wantCode)
			}
			if strings.Contains(e.Message, "larger than") {
				t.Errorf("message = %q: the body of a %d was read in full", e.Message, tt.status)
			}
		})
	}
}
