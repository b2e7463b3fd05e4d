package no

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/moduletest"
)

const (
	equinorID   = "923609016"
	digdirSubID = "924203617"
)

// Issue #3: a number /enheter does not know is looked up in /underenheter.
func TestLookupFallsBackToUnderenheter(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+digdirSubID, httpmock.NewBytesResponder(http.StatusNotFound, nil))
	mt.RegisterResponder(http.MethodGet, testBase+"/underenheter/"+digdirSubID,
		moduletest.JSONResponder(http.StatusOK, recording(t, "underenhet_924203617_digdir_avd_bronnoysund_bedr_2025-02.json")))
	reg := newTestRegistry(t, mt)

	rep, err := reg.Lookup(t.Context(), "NO", "924 203 617")
	if err != nil {
		t.Fatal(err)
	}
	got := struct {
		IsSubunit bool
		ParentID  *string
		City      *string
	}{rep.IsSubunit, rep.ParentID, rep.BusinessAddress.City}
	want := struct {
		IsSubunit bool
		ParentID  *string
		City      *string
	}{true, countrykit.Ptr("991825827"), countrykit.Ptr("BRØNNØYSUND")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sub-unit report mismatch (-want +got):\n%s", diff)
	}
	wantCalls := map[string]int{
		"GET " + testBase + "/enheter/" + digdirSubID:      1,
		"GET " + testBase + "/underenheter/" + digdirSubID: 1,
	}
	if diff := cmp.Diff(wantCalls, mt.GetCallCountInfo()); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
}

// Issue #3 / spec "Company lookup": 404 with an empty body on both registers
// is not_found; it is not retried, and it is cached (for one hour).
func TestLookupNotFoundOnBothRegisters(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	empty := recording(t, "http_404_response_body_EMPTY.txt")
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+equinorID, httpmock.NewBytesResponder(http.StatusNotFound, empty))
	mt.RegisterResponder(http.MethodGet, testBase+"/underenheter/"+equinorID, httpmock.NewBytesResponder(http.StatusNotFound, empty))
	reg := newTestRegistry(t, mt)

	for range 2 {
		_, err := reg.Lookup(t.Context(), "NO", equinorID)
		if !errors.Is(err, registry.ErrNotFound) {
			t.Fatalf("Lookup error = %v, want not_found", err)
		}
		e := moduletest.AsError(t, err)
		if e.Gone || e.Country != "NO" || e.Registry != "brreg" || !strings.Contains(e.Hint, "search") {
			t.Errorf("not_found error = %+v, want Gone false, NO/brreg and a hint naming search", e)
		}
	}
	if got := mt.GetTotalCallCount(); got != 2 {
		t.Errorf("upstream calls = %d, want 2 (one per register, then the cached not_found)", got)
	}
}

// recordingCache wraps the memory cache and records deletions.
type recordingCache struct {
	cache.Cache
	mu      sync.Mutex
	deleted []string
}

func (c *recordingCache) Delete(ctx context.Context, key string) error {
	c.mu.Lock()
	c.deleted = append(c.deleted, key)
	c.mu.Unlock()
	return c.Cache.Delete(ctx, key)
}

// Issue #3: 410 means removed from open data: not_found whose hint says
// so, Gone set so the Registry purges the cache entry, and nothing cached.
func TestLookupGone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		id        string
		file      string
		subunit   bool
		wantCalls int
	}{
		{"main unit", "151515150", "enhet_410_gone_SYNTHETIC.json", false, 1},
		{"sub-unit", "433695968", "underenhet_410_gone_433695968_2025-05.json", true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			gone := moduletest.JSONResponder(http.StatusGone, recording(t, tt.file))
			if tt.subunit {
				mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+tt.id, httpmock.NewBytesResponder(http.StatusNotFound, nil))
				mt.RegisterResponder(http.MethodGet, testBase+"/underenheter/"+tt.id, gone)
			} else {
				mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+tt.id, gone)
			}
			mem, err := cache.NewMemory()
			if err != nil {
				t.Fatal(err)
			}
			rc := &recordingCache{Cache: mem}
			reg := newTestRegistry(t, mt, registry.WithCache(rc))

			_, err = reg.Lookup(t.Context(), "NO", tt.id)
			if !errors.Is(err, registry.ErrNotFound) {
				t.Fatalf("Lookup error = %v, want not_found", err)
			}
			if e := moduletest.AsError(t, err); !strings.Contains(e.Hint, "removed this unit from its open data") {
				t.Errorf("hint = %q, want it to say the unit was removed from open data", e.Hint)
			}
			if diff := cmp.Diff([]string{"companyregistry/2/NO/company/" + tt.id}, rc.deleted); diff != "" {
				t.Errorf("cache deletions mismatch (-want +got):\n%s", diff)
			}
			if got := mt.GetTotalCallCount(); got != tt.wantCalls {
				t.Errorf("upstream calls = %d, want %d (410 is not retried)", got, tt.wantCalls)
			}
			// Nothing was cached: the next lookup asks the register again.
			_, _ = reg.Lookup(t.Context(), "NO", tt.id)
			if got := mt.GetTotalCallCount(); got != 2*tt.wantCalls {
				t.Errorf("upstream calls after a second lookup = %d, want %d", got, 2*tt.wantCalls)
			}
		})
	}
}

// Spec "Errors": an identifier that fails the checksum never reaches the
// register and yields invalid_id.
func TestLookupInvalidChecksumMakesNoRequest(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	reg := newTestRegistry(t, mt)
	for _, id := range []string{"923609017", "934157150", "12345", "NO 923 609 01X MVA"} {
		_, err := reg.Lookup(t.Context(), "NO", id)
		if !errors.Is(err, registry.ErrInvalidID) {
			t.Errorf("Lookup(%q) error = %v, want invalid_id", id, err)
		}
		if _, err := reg.Deadlines(t.Context(), "NO", id, registry.NewDate(2026, 1, 15)); !errors.Is(err, registry.ErrInvalidID) {
			t.Errorf("Deadlines(%q) error = %v, want invalid_id", id, err)
		}
	}
	if got := mt.GetTotalCallCount(); got != 0 {
		t.Errorf("upstream calls = %d, want 0", got)
	}
}

// Issue #3: upstream outcomes and the Registry's retry-once path.
func TestLookupUpstreamOutcomes(t *testing.T) {
	t.Parallel()
	equinor := recording(t, "enhet_923609016_equinor_asa_2026-08.json")
	tests := []struct {
		name      string
		responses []httpmock.Responder // successive answers of /enheter/923609016
		timeout   time.Duration
		wantCode  registry.Code // "" for success
		wantCalls int
		wantRetry int // details.retry_after for rate_limited
	}{
		{name: "503 then 200 is retried once", wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(503, nil), moduletest.JSONResponder(200, equinor)}},
		{name: "500 twice is upstream_error", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(500, recording(t, "error_500_docs.json"))}},
		{name: "malformed JSON twice", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(200, []byte("<html>maintenance</html>"))}},
		{name: "truncated JSON then 200", wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(200, equinor[:len(equinor)/2]), moduletest.JSONResponder(200, equinor)}},
		{name: "body of another unit", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(200, recording(t, "enhet_991825827_digdir_orgl_2025-02.json"))}},
		{name: "empty object", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(200, []byte("{}"))}},
		{name: "body over the size limit", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(200, []byte(`{"navn":"`+strings.Repeat("A", maxBodyBytes)+`"}`))}},
		{name: "body broken off twice", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{func(*http.Request) (*http.Response, error) {
				r := httpmock.NewBytesResponse(http.StatusOK, nil)
				r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(equinor[:100]), iotest.ErrReader(io.ErrUnexpectedEOF)))
				return r, nil
			}}},
		{name: "connection error twice", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{httpmock.ConnectionFailure}},
		{name: "timeout twice", wantCode: registry.CodeUpstreamTimeout, wantCalls: 2, timeout: 20 * time.Millisecond,
			responses: []httpmock.Responder{func(r *http.Request) (*http.Response, error) {
				<-r.Context().Done()
				return nil, r.Context().Err()
			}}},
		{name: "400 is invalid_id, not retried", wantCode: registry.CodeInvalidID, wantCalls: 1,
			responses: []httpmock.Responder{moduletest.JSONResponder(400, recording(t, "error_400_invalid_orgnr_roller_docs.json"))}},
		{name: "429 with Retry-After", wantCode: registry.CodeRateLimited, wantCalls: 1, wantRetry: 120,
			responses: []httpmock.Responder{moduletest.JSONResponder(429, nil).HeaderSet(http.Header{"Retry-After": {"120"}})}},
		{name: "429 without Retry-After", wantCode: registry.CodeRateLimited, wantCalls: 1, wantRetry: 60,
			responses: []httpmock.Responder{moduletest.JSONResponder(429, nil)}},
		{name: "403 is a final upstream_error", wantCode: registry.CodeUpstreamError, wantCalls: 1,
			responses: []httpmock.Responder{moduletest.JSONResponder(403, nil)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+equinorID, moduletest.Sequence(tt.responses...))
			opts := []registry.Option{}
			if tt.timeout > 0 {
				opts = append(opts, registry.WithUpstreamTimeout(tt.timeout))
			}
			reg := newTestRegistry(t, mt, opts...)
			rep, err := reg.Lookup(t.Context(), "NO", equinorID)
			if got := mt.GetTotalCallCount(); got != tt.wantCalls {
				t.Errorf("upstream calls = %d, want %d", got, tt.wantCalls)
			}
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Lookup error = %v, want success", err)
				}
				if rep.Name != "EQUINOR ASA" {
					t.Errorf("Name = %q, want EQUINOR ASA", rep.Name)
				}
				return
			}
			e := moduletest.AsError(t, err)
			if e.Code != tt.wantCode {
				t.Fatalf("code = %s (%v), want %s", e.Code, err, tt.wantCode)
			}
			if e.Country != "NO" || e.Registry != "brreg" {
				t.Errorf("error country/registry = %q/%q, want NO/brreg", e.Country, e.Registry)
			}
			if tt.wantCode == registry.CodeRateLimited && e.RetryAfter() != tt.wantRetry {
				t.Errorf("retry_after = %d, want %d", e.RetryAfter(), tt.wantRetry)
			}
			// Nothing half-decoded or failed was cached: a second lookup
			// asks the register again.
			before := mt.GetTotalCallCount()
			_, _ = reg.Lookup(t.Context(), "NO", equinorID)
			if mt.GetTotalCallCount() == before {
				t.Errorf("a failed lookup (%s) was answered from the cache", tt.wantCode)
			}
		})
	}
}

// Issue #3: versioned Accept headers and a User-Agent naming the library,
// its version and the operator's contact e-mail.
func TestRequestHeaders(t *testing.T) {
	t.Parallel()
	type seen struct{ Accept, UserAgent string }
	var mu sync.Mutex
	var got []seen
	record := func(status int, body []byte) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			got = append(got, seen{r.Header.Get("Accept"), r.Header.Get("User-Agent")})
			mu.Unlock()
			return moduletest.JSONResponder(status, body)(r)
		}
	}
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+digdirSubID, record(http.StatusNotFound, nil))
	mt.RegisterResponder(http.MethodGet, testBase+"/underenheter/"+digdirSubID,
		record(http.StatusOK, recording(t, "underenhet_924203617_digdir_avd_bronnoysund_bedr_2025-02.json")))
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter", record(http.StatusOK, recording(t, "search_enheter_empty_2025-02.json")))
	c := newTestCountry(t, mt, WithContactEmail("ops@example.org"))
	if _, err := c.Lookup(t.Context(), digdirSubID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(t.Context(), "x", 1); err != nil {
		t.Fatal(err)
	}
	ua := "companyregistry/" + registry.Version + " (+https://github.com/companyregistry/registry; ops@example.org)"
	want := []seen{
		{"application/vnd.brreg.enhetsregisteret.enhet.v2+json", ua},
		{"application/vnd.brreg.enhetsregisteret.underenhet.v2+json", ua},
		{"application/vnd.brreg.enhetsregisteret.enhet.v2+json", ua},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request headers mismatch (-want +got):\n%s", diff)
	}
}

// Issue #3: a query is passed as one escaped parameter.
func TestSearchEscapesQuery(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterMatcherResponder(http.MethodGet, testBase+"/enheter",
		httpmock.NewMatcher("navn is the whole query", func(r *http.Request) bool {
			q := r.URL.Query()
			return len(q) == 2 && q.Get("navn") == "a&size=1000" && q.Get("size") == "20"
		}),
		moduletest.JSONResponder(http.StatusOK, recording(t, "search_enheter_empty_2025-02.json")))
	reg := newTestRegistry(t, mt)
	res, err := reg.Search(t.Context(), "NO", "a&size=1000", 10)
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	if res.Query != "a&size=1000" || mt.GetTotalCallCount() != 1 {
		t.Errorf("query = %q, calls = %d; want the query echoed and one call", res.Query, mt.GetTotalCallCount())
	}
}

// The search endpoint accepts names of at most 180 characters; a longer
// query is bad_request without a request.
func TestSearchQueryTooLong(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter", moduletest.JSONResponder(http.StatusOK, recording(t, "search_enheter_empty_2025-02.json")))
	c := newTestCountry(t, mt)
	if _, err := c.Search(t.Context(), strings.Repeat("ø", maxNameRunes+1), 10); !errors.Is(err, registry.ErrBadRequest) {
		t.Errorf("181 characters: error = %v, want bad_request", err)
	}
	if got := mt.GetTotalCallCount(); got != 0 {
		t.Errorf("181 characters: upstream calls = %d, want 0", got)
	}
	if _, err := c.Search(t.Context(), strings.Repeat("ø", maxNameRunes), 10); err != nil {
		t.Errorf("180 characters: error = %v, want none", err)
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("180 characters: upstream calls = %d, want 1", got)
	}
}

// A search the register answers with 400 is bad_request, asked once. The
// other failures of a search (5xx, malformed body, 429) are checked by the
// conformance suite (TestConformance).
func TestSearchBadRequest(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter", moduletest.JSONResponder(400, recording(t, "error_400_invalid_naeringskode_2026-04.json")))
	reg := newTestRegistry(t, mt)
	_, err := reg.Search(t.Context(), "NO", "equinor", 5)
	if e := moduletest.AsError(t, err); e.Code != registry.CodeBadRequest {
		t.Errorf("code = %s, want bad_request", e.Code)
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("upstream calls = %d, want 1", got)
	}
}

// A report survives the Registry's cache unchanged: the cached answer
// equals the live one except for cached: true, and the register is asked
// once.
func TestLookupCachedReportRoundTrips(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+equinorID,
		moduletest.JSONResponder(http.StatusOK, recording(t, "enhet_923609016_equinor_asa_2026-08.json")))
	reg := newTestRegistry(t, mt)
	live, err := reg.Lookup(t.Context(), "NO", equinorID)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := reg.Lookup(t.Context(), "NO", "923 609 016")
	if err != nil {
		t.Fatal(err)
	}
	if !cached.Cached || live.Cached {
		t.Errorf("cached flags: live %t, cached %t; want false, true", live.Cached, cached.Cached)
	}
	cached.Cached = false
	if diff := cmp.Diff(live, cached); diff != "" {
		t.Errorf("cached report differs (-live +cached):\n%s", diff)
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("upstream calls = %d, want 1", got)
	}
}

// TestUpstreamStatus: an error of an unexpected HTTP status carries it in
// Error.UpstreamStatus, which the Registry logs as the cause of a failed
// attempt (issue 13: "ops can see why an upstream call failed").
func TestUpstreamStatus(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusTeapot} {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+equinorID, httpmock.NewBytesResponder(status, nil))
		_, err := newTestCountry(t, mt).Lookup(t.Context(), equinorID)
		if got := moduletest.AsError(t, err).UpstreamStatus; got != status {
			t.Errorf("HTTP %d: UpstreamStatus %d", status, got)
		}
	}
}
