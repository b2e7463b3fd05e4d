package gb

import (
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
)

// TestReview_RefreshOfACompanyIsFourRequests (rev-fix7): doc/decisions.md
// (38a4f76, "The stream and its sweep refresh a company one at a time")
// says the Poller's batch of applyEvery (50) companies takes "at Companies
// House's budget (600 requests per 5 minutes) some 25 s, so several
// flushes (5 s apart) may skip it", and TestReview_StreamNextFlushStillSkipsTheSweepsCompany
// repeats "some 25 s, five flushes": one request a company. A sweep's
// refresh of a company (changes.RegistryFetcher: Registry.Refresh, the
// report and its roles) is four requests at least (profile, officers,
// persons with significant control, their statements), so 50 companies
// are 200 requests, some 100 s at 2 a second: twenty flushes skip a
// company the sweep holds, not five. decisions.md now says some 100 s,
// which this test holds.
func TestReview_RefreshOfACompanyIsFourRequests(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", testBase+"/company/08957400",
		httpmock.NewBytesResponder(http.StatusOK, recording(t, "company_profile_active_ltd_08957400_2024.json")))
	mt.RegisterResponder("GET", testBase+"/company/08957400/officers",
		httpmock.NewBytesResponder(http.StatusOK, recording(t, "roles/officers_empty-list_200_SYNTHETIC.json")))
	mt.RegisterResponder("GET", testBase+"/company/08957400/persons-with-significant-control",
		httpmock.NewBytesResponder(http.StatusOK, recording(t, "roles/psc_list_empty_200_34777777_ch-service-itest.json")))
	mt.RegisterResponder("GET", testBase+"/company/08957400/persons-with-significant-control-statements",
		httpmock.NewBytesResponder(http.StatusOK, recording(t, "roles/psc_statements_12345678_SYNTHETIC.json")))
	reg, err := registry.New([]registry.Country{newTestCountry(t, mt)}, registry.WithoutCache(), registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := reg.Refresh(t.Context(), "GB", "08957400"); err != nil {
		t.Fatal(err)
	}
	// 50 companies at this many requests each, at 600 requests per 300 s.
	n := mt.GetTotalCallCount()
	if secs := 50 * n * 300 / 600; secs != 100 {
		t.Errorf("a refresh is %d requests: a batch of 50 companies takes %d s at Companies House's budget; doc/decisions.md says some 100 s", n, secs)
	}
}
