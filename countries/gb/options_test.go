package gb

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/moduletest"
)

// Options validate their input; in particular a base URL with user
// information is refused, so the key can never travel in a URL.
func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opt  Option
	}{
		{"nil option", nil},
		{"nil client", WithHTTPClient(nil)},
		{"nil clock", WithClock(nil)},
		{"relative URL", WithBaseURL("/company")},
		{"ftp URL", WithBaseURL("ftp://ch.test")},
		{"URL with user info", WithBaseURL("https://key:@ch.test")},
		{"URL with query", WithBaseURL("https://ch.test/?a=1")},
		{"e-mail with line break", WithContactEmail("a@example.com\r\nX-Evil: 1")},
		{"e-mail with a name", WithContactEmail("Ops <ops@example.com>")},
		{"not an e-mail", WithContactEmail("ops")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if c, err := New(tt.opt); err == nil {
				t.Errorf("New(%s) = %v, nil; want an error", tt.name, c)
			}
		})
	}
}

// A base URL with a path prefix keeps it (a mirror behind a path), and a
// trailing slash does not double.
func TestBaseURLWithPath(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, "https://mirror.test/ch/company/02578066",
		moduletest.JSONResponder(http.StatusOK, recording(t, "company_profile_active_ltd_02578066_2022.json")))
	c := newTestCountry(t, mt, WithBaseURL("https://mirror.test/ch/"))
	if _, err := c.Lookup(t.Context(), "02578066"); err != nil {
		t.Fatalf("Lookup through a mirror path: %v", err)
	}
}

// Info describes Companies House and names the key's environment
// variable, never the key.
func TestInfo(t *testing.T) {
	t.Parallel()
	c := newTestCountry(t, httpmock.NewMockTransport())
	want := registry.CountryInfo{
		Country:        "GB",
		Registry:       "companieshouse",
		Name:           "Companies House",
		IDScheme:       "company registration number",
		IDExample:      "00002065",
		IDDescription:  "Eight characters: eight digits (England and Wales), or a two-character prefix such as SC, NI, OC or R0 and six digits; shorter numbers are zero-padded; there is no check digit.",
		SourceURL:      "https://api.company-information.service.gov.uk",
		License:        "Open Government Licence v3.0 (Crown copyright)",
		RequiresAPIKey: true,
		APIKeyEnv:      countrykit.Ptr("COMPANIES_HOUSE_API_KEY"),
		TimeZone:       "Europe/London",
	}
	if diff := cmp.Diff(want, c.Info()); diff != "" {
		t.Errorf("Info() mismatch (-want +got):\n%s", diff)
	}
	if v := c.Validate(c.Info().IDExample); !v.Valid {
		t.Errorf("the id example %q is not valid", c.Info().IDExample)
	}
}

// retry_after is X-Ratelimit-Reset minus now in whole seconds, rounded up,
// at least 1 and at most the five-minute window; else Retry-After; else 60.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 500_000_000, time.UTC)
	c := newTestCountry(t, httpmock.NewMockTransport(), WithClock(func() time.Time { return now }))
	tests := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"reset in 42 s", http.Header{"X-Ratelimit-Reset": {itoa(now.Unix() + 42)}}, 42},
		{"reset rounds up", http.Header{"X-Ratelimit-Reset": {itoa(now.Unix() + 1)}}, 1},
		{"reset now", http.Header{"X-Ratelimit-Reset": {itoa(now.Unix())}}, 1},
		{"reset far away", http.Header{"X-Ratelimit-Reset": {itoa(now.Unix() + 86400)}}, 300},
		{"reset garbage", http.Header{"X-Ratelimit-Reset": {"soon"}}, 60},
		// Issue 24, item 6: a reset too large to parse is the window,
		// never the 60 s default; a negative one is ignored; Retry-After
		// may be a date, counted from the clock.
		{"reset out of range", http.Header{"X-Ratelimit-Reset": {"99999999999999999999"}}, 300},
		{"reset negative", http.Header{"X-Ratelimit-Reset": {"-5"}, "Retry-After": {"17"}}, 17},
		{"Retry-After", http.Header{"Retry-After": {"17"}}, 17},
		{"Retry-After out of range", http.Header{"Retry-After": {"99999999999999999999"}}, 300},
		{"Retry-After date", http.Header{"Retry-After": {now.Add(90 * time.Second).UTC().Format(http.TimeFormat)}}, 90},
		{"nothing", http.Header{}, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := c.retryAfter(tt.header); got != tt.want {
				t.Errorf("retryAfter(%v) = %d, want %d", tt.header, got, tt.want)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
