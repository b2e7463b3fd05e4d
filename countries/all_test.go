package countries_test

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
)

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAllOrder: Norway, the United Kingdom, Finland, Denmark, France, then
// Sweden;
// the zero Config leaves GB and DK present but not ready, and Finland and
// France (keyless) ready.
func TestAllOrder(t *testing.T) {
	t.Parallel()
	cs, err := countries.All(countries.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, c := range cs {
		codes = append(codes, c.Info().Country)
	}
	if diff := cmp.Diff([]string{"NO", "GB", "FI", "DK", "FR", "SE"}, codes); diff != "" {
		t.Fatalf("codes (-want +got):\n%s", diff)
	}
	if cs[0].Ready() != nil {
		t.Errorf("NO not ready: %v", cs[0].Ready())
	}
	if cs[2].Ready() != nil {
		t.Errorf("FI not ready: %v", cs[2].Ready())
	}
	if cs[4].Ready() != nil {
		t.Errorf("FR not ready: %v", cs[4].Ready())
	}
	err = cs[1].Ready()
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeUpstreamError {
		t.Errorf("GB without a key: Ready() = %v, want upstream_error", err)
	}
	err = cs[3].Ready()
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeUpstreamError || !strings.Contains(e.Hint, "CVR_CREDENTIALS") {
		t.Errorf("DK without a credential: Ready() = %v, want upstream_error naming CVR_CREDENTIALS", err)
	}
}

// TestAllConfig: the base URLs, the key and the HTTP client reach the
// modules; each upstream is asked exactly where the Config says.
func TestAllConfig(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", "http://brreg.test/api/enheter/923609016",
		httpmock.NewStringResponder(200, fixture(t, "brreg_enhet_923609016.json")).HeaderSet(http.Header{"Content-Type": {"application/json"}}))
	mt.RegisterResponder("GET", "http://ch.test/company/08957400",
		func(r *http.Request) (*http.Response, error) {
			if !strings.Contains(r.Header.Get("User-Agent"), "ops@example.com") {
				return httpmock.NewStringResponse(403, `{}`), nil
			}
			if user, _, ok := r.BasicAuth(); !ok || user != "test-key" {
				return httpmock.NewStringResponse(401, `{"error":"Invalid Authorization"}`), nil
			}
			res := httpmock.NewStringResponse(200, fixture(t, "ch_company_08957400.json"))
			res.Header.Set("Content-Type", "application/json")
			return res, nil
		})
	mt.RegisterResponder("GET", "http://prh.test/v3/companies?businessId=0112038-9",
		func(r *http.Request) (*http.Response, error) {
			if !strings.Contains(r.Header.Get("User-Agent"), "ops@example.com") {
				return httpmock.NewStringResponse(403, `{}`), nil
			}
			res := httpmock.NewStringResponse(200, fixture(t, "prh_companies_0112038-9.json"))
			res.Header.Set("Content-Type", "application/json")
			return res, nil
		})
	mt.RegisterResponder("GET", "http://recherche.test/search?page=1&per_page=1&q=552032534",
		func(r *http.Request) (*http.Response, error) {
			if !strings.Contains(r.Header.Get("User-Agent"), "ops@example.com") {
				return httpmock.NewStringResponse(403, `{}`), nil
			}
			res := httpmock.NewStringResponse(200, fixture(t, "recherche-entreprises_search_552032534.json"))
			res.Header.Set("Content-Type", "application/json")
			return res, nil
		})
	cs, err := countries.All(countries.Config{
		BrregBaseURL:          "http://brreg.test/api",
		PRHBaseURL:            "http://prh.test/v3",
		CompaniesHouseBaseURL: "http://ch.test",
		CompaniesHouseAPIKey:  "test-key",
		ContactEmail:          "ops@example.com",
		HTTPClient:            &http.Client{Transport: mt},

		RechercheEntreprisesBaseURL: "http://recherche.test",
	})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		t.Fatal(err)
	}
	if got := reg.Health(t.Context()).Countries; len(got) != 4 {
		t.Errorf("countries answering: %v, want FI, FR, GB and NO", got)
	}
	no, err := reg.Lookup(t.Context(), "NO", "923609016")
	if err != nil || no.Name != "EQUINOR ASA" {
		t.Errorf("NO lookup: %v %v", no, err)
	}
	gb, err := reg.Lookup(t.Context(), "GB", "8957400")
	if err != nil || gb.ID != "08957400" {
		t.Errorf("GB lookup: %v %v", gb, err)
	}
	fi, err := reg.Lookup(t.Context(), "FI", "FI01120389")
	if err != nil || fi.Name != "Nokia Oyj" {
		t.Errorf("FI lookup: %v %v", fi, err)
	}
	fr, err := reg.Lookup(t.Context(), "FR", "FR 27 552 032 534")
	if err != nil || fr.Name != "DANONE" {
		t.Errorf("FR lookup: %v %v", fr, err)
	}
	if n := mt.GetTotalCallCount(); n != 4 {
		t.Errorf("%d upstream calls, want 4 (%v)", n, mt.GetCallCountInfo())
	}
}

func TestAllErrors(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]countries.Config{
		"brreg URL": {BrregBaseURL: "ftp://x"},
		"ch URL":    {CompaniesHouseBaseURL: "::"},
		"prh URL":   {PRHBaseURL: "prh.test/v3"},
		"cvr URL":   {CVRBaseURL: "http://user:pw@cvr.test"},
		"cvr cred":  {CVRCredentials: "no-colon"},
		"email":     {ContactEmail: "a\nb"},

		"recherche-entreprises URL": {RechercheEntreprisesBaseURL: "https://user:pw@recherche.test"},
	} {
		if _, err := countries.All(cfg); err == nil {
			t.Errorf("%s: All succeeded", name)
		}
	}
}

// TestConfigFromEnv: the environment variables of DESIGN §3, each to its
// field, trimmed; unset and blank ones leave the field empty.
func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		env  map[string]string
		want countries.Config
	}{
		"unset": {env: nil, want: countries.Config{}},
		"blank": {
			env:  map[string]string{"BRREG_BASE_URL": " ", "COMPANIES_HOUSE_BASE_URL": "\t", "COMPANIES_HOUSE_API_KEY": "\n", "REGISTRY_CONTACT_EMAIL": "  "},
			want: countries.Config{},
		},
		"every variable, trimmed": {
			env: map[string]string{
				"BRREG_BASE_URL":           " http://brreg.test/api ",
				"COMPANIES_HOUSE_BASE_URL": "\thttps://ch.test\n",
				"COMPANIES_HOUSE_API_KEY":  " key\n",
				"PRH_BASE_URL":             " https://prh.test/v3 ",
				"CVR_BASE_URL":             " http://cvr.test/cvr-permanent ",
				"CVR_CREDENTIALS":          "\tuser:pass ",
				"REGISTRY_CONTACT_EMAIL":   "ops@example.com ",
				"REGISTRY_RATE_LIMIT":      "7",

				"RECHERCHE_ENTREPRISES_BASE_URL": " https://recherche.test ",
			},
			want: countries.Config{
				BrregBaseURL:          "http://brreg.test/api",
				CompaniesHouseBaseURL: "https://ch.test",
				CompaniesHouseAPIKey:  "key",
				PRHBaseURL:            "https://prh.test/v3",
				CVRBaseURL:            "http://cvr.test/cvr-permanent",
				CVRCredentials:        "user:pass",
				ContactEmail:          "ops@example.com",

				RechercheEntreprisesBaseURL: "https://recherche.test",
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := countries.ConfigFromEnv(func(k string) string { return tt.env[k] })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
