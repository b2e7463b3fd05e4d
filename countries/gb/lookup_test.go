package gb

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// Every recorded company profile maps to a reviewed golden report.
func TestLookupRecordingsMatchGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, id string
	}{
		{"company_profile_active_ltd_02578066_2022.json", "02578066"},
		{"company_profile_active_ltd_08957400_2020.json", "08957400"},
		{"company_profile_active_ltd_08957400_2024.json", "08957400"},
		{"company_profile_active_ltd_first-accounts-pending_12279804_2020.json", "12279804"},
		{"company_profile_dissolved_private-unlimited-nsc_00000006_2018.json", "00000006"},
		{"company_profile_liquidation_ltd_synthetic.json", "34567890"},
		{"company_profile_active-proposal-to-strike-off_ltd_synthetic.json", "45678901"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/company/"+tt.id, moduletest.JSONResponder(http.StatusOK, recording(t, tt.file)))
			rep, err := newTestCountry(t, mt).Lookup(t.Context(), tt.id)
			if err != nil {
				t.Fatalf("Lookup(%s): %v", tt.id, err)
			}
			checkGolden(t, strings.TrimSuffix(tt.file, ".json")+".golden", rep)
		})
	}
}

// The Streaming API's copy of a Scottish company's profile (the only real
// SC profile recorded) maps like a REST profile; its missing overdue flags
// are null.
func TestLookupStreamEventProfileMatchesGolden(t *testing.T) {
	t.Parallel()
	var event struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(recording(t, "stream_company_profile_event_active_ltd_SC571653_2022.json"), &event); err != nil {
		t.Fatal(err)
	}
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/company/SC571653", moduletest.JSONResponder(http.StatusOK, event.Data))
	rep, err := newTestCountry(t, mt).Lookup(t.Context(), "SC571653")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "stream_company_profile_event_active_ltd_SC571653_2022.golden", rep)
}

// The request carries HTTP Basic authentication with the key as user name
// and an empty password, the contact e-mail in the User-Agent, and asks for
// JSON.
func TestLookupSendsBasicAuthAndUserAgent(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	var got *http.Request
	mt.RegisterResponder(http.MethodGet, testBase+"/company/02578066", func(req *http.Request) (*http.Response, error) {
		got = req
		return moduletest.JSONResponder(http.StatusOK, recording(t, "company_profile_active_ltd_02578066_2022.json"))(req)
	})
	if _, err := newTestCountry(t, mt).Lookup(t.Context(), "02578066"); err != nil {
		t.Fatal(err)
	}
	wantAuth := "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":"))
	if a := got.Header.Get("Authorization"); a != wantAuth {
		t.Errorf("Authorization = %q, want %q", a, wantAuth)
	}
	if ua := got.Header.Get("User-Agent"); !strings.Contains(ua, "ops@example.com") {
		t.Errorf("User-Agent = %q, want the contact e-mail in it", ua)
	}
	// The User-Agent every module sends (internal/upstream.UserAgent).
	if ua, want := got.Header.Get("User-Agent"), "companyregistry/"+registry.Version+" (+https://github.com/companyregistry/registry; ops@example.com)"; ua != want {
		t.Errorf("User-Agent = %q, want %q", ua, want)
	}
	if acc := got.Header.Get("Accept"); acc != "application/json" {
		t.Errorf("Accept = %q, want application/json", acc)
	}
	if got.URL.User != nil {
		t.Errorf("the URL carries user information: %v", got.URL.User)
	}
}

// A number that is not canonical never reaches Companies House, which
// answers HTTP 500 to malformed numbers.
func TestLookupNeverSendsMalformedNumber(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"999999999", "12345", "sc012345", "GB123456789", ""} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			_, err := newTestCountry(t, mt).Lookup(t.Context(), id)
			if err == nil {
				t.Fatalf("Lookup(%q) = nil error, want invalid_id", id)
			}
			if n := mt.GetTotalCallCount(); n != 0 {
				t.Errorf("Lookup(%q) made %d upstream calls, want 0", id, n)
			}
		})
	}
}
