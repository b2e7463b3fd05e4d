package countries_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
)

// TestAllDenmark: the CVR base URL, the credential (as HTTP Basic), the
// contact e-mail and the HTTP client reach the Danish module, which is then
// ready and listed with requires_api_key and CVR_CREDENTIALS; the
// credential is in no error.
func TestAllDenmark(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("POST", "http://cvr.test/cvr-permanent/virksomhed/_search",
		func(r *http.Request) (*http.Response, error) {
			body, _ := io.ReadAll(r.Body)
			user, pw, ok := r.BasicAuth()
			switch {
			case !ok || user != "ops" || pw != "s3cret:pw":
				return httpmock.NewStringResponse(401, "<html>401 Authorization Required</html>"), nil
			case !strings.Contains(r.Header.Get("User-Agent"), "ops@example.com"):
				return httpmock.NewStringResponse(403, `{}`), nil
			case !strings.Contains(string(body), `"Vrvirksomhed.cvrNummer":13585628`):
				return httpmock.NewStringResponse(400, `{}`), nil
			}
			res := httpmock.NewStringResponse(200, `{"timed_out":false,"hits":{"total":0,"hits":[]}}`)
			res.Header.Set("Content-Type", "application/json")
			return res, nil
		})
	cs, err := countries.All(countries.Config{
		CVRBaseURL: "http://cvr.test/cvr-permanent", CVRCredentials: "ops:s3cret:pw",
		ContactEmail: "ops@example.com", HTTPClient: &http.Client{Transport: mt},
	})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		t.Fatal(err)
	}
	var dk *registry.CountryInfo
	for _, c := range reg.Countries().Countries {
		if c.Country == countries.DK {
			dk = &c
		}
	}
	if dk == nil || !dk.RequiresAPIKey || dk.APIKeyEnv == nil || *dk.APIKeyEnv != "CVR_CREDENTIALS" {
		t.Fatalf("DK in the countries: %+v", dk)
	}
	_, err = reg.Lookup(t.Context(), "DK", "DK 13 58 56 28")
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeNotFound {
		t.Errorf("DK lookup: %v, want not_found from the fake register", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d upstream calls, want 1 (%v)", n, mt.GetCallCountInfo())
	}
	if _, err := countries.All(countries.Config{CVRCredentials: "s3cret-without-colon"}); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a malformed credential: %v", err)
	}
}
