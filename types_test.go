package registry_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// specFields lists, per resource, every field name of
// interface-spec.md "Resources and their fields", written out by hand from the
// spec so that a typo in a struct tag fails TestSpecFieldNames.
var specFields = map[string]string{
	"CompanyReport": `country registry id id_formatted id_scheme name previous_names legal_form_code legal_form
		legal_form_local limited_liability has_board_duty has_annual_accounts_duty status status_detail is_active
		registered_at founded_at business_register_registered_at bankruptcy_date deregistered_at vat_registered
		vat_registered_at vat_number in_business_register registers employees employees_reported industry_codes
		sector_code sector purpose activity share_capital share_capital_currency business_address postal_address
		website email phone parent_id is_subunit in_group last_annual_accounts_year published_deadlines confidence
		confidence_basis cached fetched_at source source_url license notes`,
	"Address":           `lines postal_code city municipality municipality_code country_code country_name`,
	"IndustryCode":      `code description scheme rank`,
	"PublishedDeadline": `kind due_date period_start period_end overdue source`,
	"SearchResult":      `country registry query hits total truncated cached fetched_at hint`,
	"SearchHit": `country registry id name legal_form_code legal_form status city municipality registered_at
		is_subunit confidence confidence_basis source_url`,
	"DeadlineReport": `country registry company_id company_name today deadlines notes`,
	"Deadline": `country registry kind name local_name authority statutory_date due_date rolled_forward
		period_label period_start period_end recurrence mandatory applies_because days_until source_url`,
	"ValidationResult":  `country registry id_scheme input valid normalized formatted reason hint`,
	"CountriesResponse": `countries`,
	"CountryInfo": `country registry name id_scheme id_example id_description source_url license is_stub
		requires_api_key api_key_env`,
	// cache and redis are additive fields beyond the spec's (scale-out).
	"HealthResponse": `status version countries cache redis`,
}

func keysOf(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal(%T): %v", v, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("Unmarshal(%s): %v", b, err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestSpecFieldNames: every field of every resource is present in the JSON
// of a zero value, with exactly the spec's names.
func TestSpecFieldNames(t *testing.T) {
	t.Parallel()
	zero := map[string]any{
		"CompanyReport":     registry.CompanyReport{},
		"Address":           registry.Address{},
		"IndustryCode":      registry.IndustryCode{},
		"PublishedDeadline": registry.PublishedDeadline{},
		"SearchResult":      registry.SearchResult{},
		"SearchHit":         registry.SearchHit{},
		"DeadlineReport":    registry.DeadlineReport{Today: registry.NewDate(2026, 1, 15)},
		"Deadline":          registry.Deadline{},
		"ValidationResult":  registry.ValidationResult{},
		"CountriesResponse": registry.CountriesResponse{},
		"CountryInfo":       registry.CountryInfo{},
		"HealthResponse":    registry.HealthResponse{},
	}
	for name, v := range zero {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := strings.Fields(specFields[name])
			slices.Sort(want)
			if diff := cmp.Diff(want, keysOf(t, v)); diff != "" {
				t.Errorf("JSON keys of zero %s (-spec +got):\n%s", name, diff)
			}
		})
	}
}

// TestZeroValuesEncodeNullsAndEmptyCollections: unknown is null, lists and
// maps are [] and {}, never null; zero enums encode as their spec defaults.
func TestZeroValuesEncodeNullsAndEmptyCollections(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"CompanyReport", registry.CompanyReport{}, `{"country":"","registry":"","id":"","id_formatted":null,"id_scheme":null,"name":"","previous_names":[],"legal_form_code":null,"legal_form":null,"legal_form_local":null,"limited_liability":null,"has_board_duty":null,"has_annual_accounts_duty":null,"status":"unknown","status_detail":null,"is_active":false,"registered_at":null,"founded_at":null,"business_register_registered_at":null,"bankruptcy_date":null,"deregistered_at":null,"vat_registered":null,"vat_registered_at":null,"vat_number":null,"in_business_register":null,"registers":{},"employees":null,"employees_reported":null,"industry_codes":[],"sector_code":null,"sector":null,"purpose":null,"activity":null,"share_capital":null,"share_capital_currency":null,"business_address":null,"postal_address":null,"website":null,"email":null,"phone":null,"parent_id":null,"is_subunit":false,"in_group":null,"last_annual_accounts_year":null,"published_deadlines":[],"confidence":0,"confidence_basis":null,"cached":false,"fetched_at":null,"source":null,"source_url":null,"license":null,"notes":[]}`},
		{"Address", registry.Address{}, `{"lines":[],"postal_code":null,"city":null,"municipality":null,"municipality_code":null,"country_code":null,"country_name":null}`},
		{"SearchResult", registry.SearchResult{}, `{"country":"","registry":"","query":"","hits":[],"total":0,"truncated":false,"cached":false,"fetched_at":null,"hint":null}`},
		{"SearchHit", registry.SearchHit{}, `{"country":"","registry":"","id":"","name":"","legal_form_code":null,"legal_form":null,"status":"unknown","city":null,"municipality":null,"registered_at":null,"is_subunit":false,"confidence":0,"confidence_basis":null,"source_url":null}`},
		{"DeadlineReport", registry.DeadlineReport{Today: registry.NewDate(2026, 1, 15)}, `{"country":"","registry":"","company_id":"","company_name":null,"today":"2026-01-15","deadlines":[],"notes":[]}`},
		{"Deadline", registry.Deadline{StatutoryDate: registry.NewDate(2026, 5, 31), DueDate: registry.NewDate(2026, 6, 1)}, `{"country":"","registry":"","kind":"","name":"","local_name":null,"authority":"","statutory_date":"2026-05-31","due_date":"2026-06-01","rolled_forward":false,"period_label":null,"period_start":null,"period_end":null,"recurrence":"annual","mandatory":false,"applies_because":"","days_until":null,"source_url":null}`},
		{"CountriesResponse", registry.CountriesResponse{}, `{"countries":[]}`},
		{"HealthResponse", registry.HealthResponse{Version: "1"}, `{"status":"ok","version":"1","countries":[],"cache":"memory","redis":null}`},
		{"CompanyReport pointer", &registry.CompanyReport{Status: registry.StatusActive}, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				// Pointer receivers use the same encoding: is_active mirrors status.
				if !strings.Contains(string(b), `"status":"active"`) || !strings.Contains(string(b), `"is_active":true`) {
					t.Errorf("pointer encoding: %s", b)
				}
				return
			}
			if diff := cmp.Diff(tc.want, string(b)); diff != "" {
				t.Errorf("encoding (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConstructorDefaults: status unknown, confidence 1.0 on reports and 0.5
// on hits, as the spec's defaults say.
func TestConstructorDefaults(t *testing.T) {
	t.Parallel()
	rep := countrykit.NewReport("NO", "brreg", "923609016", "EQUINOR ASA")
	if rep.Status != registry.StatusUnknown || rep.Confidence != 1.0 || rep.IsActive {
		t.Errorf("NewCompanyReport defaults: status %q confidence %v is_active %v", rep.Status, rep.Confidence, rep.IsActive)
	}
	hit := countrykit.NewHit("NO", "brreg", "923609016", "EQUINOR ASA")
	if hit.Status != registry.StatusUnknown || hit.Confidence != 0.5 {
		t.Errorf("NewSearchHit defaults: status %q confidence %v", hit.Status, hit.Confidence)
	}
}

func TestIsActiveMirrorsStatus(t *testing.T) {
	t.Parallel()
	for _, s := range []registry.Status{"", registry.StatusActive, registry.StatusBankrupt, registry.StatusDeleted} {
		r := registry.CompanyReport{Status: s, IsActive: s != registry.StatusActive} // deliberately inconsistent
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			IsActive bool `json:"is_active"`
		}
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.IsActive != (s == registry.StatusActive) {
			t.Errorf("status %q: is_active %v", s, back.IsActive)
		}
	}
}

func TestReportRoundTrip(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 15, 10, 30, 0, 0, time.FixedZone("CET", 3600))
	rep := countrykit.NewReport("NO", "brreg", "923609016", "EQUINOR ASA")
	rep.Status = registry.StatusActive
	rep.FoundedAt = registry.NewDate(1972, 9, 18).Ptr()
	rep.FetchedAt = &at
	rep.Employees = countrykit.Ptr(0)
	rep.IndustryCodes = []registry.IndustryCode{{Code: "06.100", Rank: 1}}
	rep.BusinessAddress = &registry.Address{Lines: []string{}, City: countrykit.Ptr("STAVANGER")}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"fetched_at":"2026-01-15T09:30:00Z"`) {
		t.Errorf("fetched_at not UTC with Z: %s", b)
	}
	if !strings.Contains(string(b), `"employees":0`) {
		t.Errorf("a published zero must stay 0: %s", b)
	}
	var back registry.CompanyReport
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	want := *rep
	want.IsActive = true
	utc := at.UTC()
	want.FetchedAt = &utc
	if diff := cmp.Diff(want, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestStatusAndRecurrenceRejectUnknownValues(t *testing.T) {
	t.Parallel()
	var s registry.Status
	if err := json.Unmarshal([]byte(`"liquidated"`), &s); err == nil {
		t.Error("Status accepted an undefined value")
	}
	if _, err := json.Marshal(registry.Status("weird")); err == nil {
		t.Error("Status encoded an undefined value")
	}
	var r registry.Recurrence
	if err := json.Unmarshal([]byte(`"weekly"`), &r); err == nil {
		t.Error("Recurrence accepted an undefined value")
	}
	if err := json.Unmarshal([]byte(`"bimonthly"`), &r); err != nil || r != registry.RecurrenceBimonthly {
		t.Errorf("Recurrence bimonthly: %v %q", err, r)
	}
}
