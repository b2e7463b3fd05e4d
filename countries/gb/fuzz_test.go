package gb

import (
	"encoding/json"
	"path/filepath"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/moduletest"
)

// FuzzMapProfile feeds arbitrary bytes as a company profile: decoding either
// fails cleanly or the mapping succeeds and encodes, without a panic.
func FuzzMapProfile(f *testing.F) {
	moduletest.AddFiles(f, filepath.Join("testdata", "recordings", "company_profile_*.json"))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"accounts":{"accounting_reference_date":{"day":31,"month":"13"}},"date_of_creation":"2025-02-29"}`))
	f.Add([]byte(`{"previous_company_names":[{"name":"A","ceased_on":"x"},{"name":"B"}],"sic_codes":["1","12345",""]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var p profile
		if err := json.Unmarshal(b, &p); err != nil {
			return
		}
		rep := mapProfile("12345678", &p)
		if rep.Country != "GB" || rep.ID != "12345678" {
			t.Fatalf("report for %s/%s", rep.Country, rep.ID)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("encode: %v", err)
		}
	})
}

// FuzzMapSearch feeds arbitrary bytes as a search page and an arbitrary query.
func FuzzMapSearch(f *testing.F) {
	for _, b := range moduletest.ReadFiles(f, filepath.Join("testdata", "recordings", "search_companies_*.json")) {
		f.Add(b, "you", 10)
	}
	f.Add([]byte(`{"items":[{"title":"","company_number":"1"}]}`), "", 1)
	f.Fuzz(func(t *testing.T, b []byte, q string, limit int) {
		var page searchPage
		if err := json.Unmarshal(b, &page); err != nil {
			return
		}
		limit = 1 + abs(limit%100)
		res := mapSearch(q, limit, &page)
		if len(res.Hits) > limit || res.Total < len(res.Hits) {
			t.Fatalf("%d hits, total %d, limit %d", len(res.Hits), res.Total, limit)
		}
		for _, h := range res.Hits {
			if h.Confidence < 0 || h.Confidence > 1 {
				t.Fatalf("confidence %v", h.Confidence)
			}
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("encode: %v", err)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FuzzDeadlinesFromReport feeds arbitrary bytes as a stored report (the
// Registry's cache may live outside the process): reading the duties back
// from it (dutiesOf, companyStatusOf) and computing the deadlines never
// panic, and a kind the company type does not owe never appears.
func FuzzDeadlinesFromReport(f *testing.F) {
	f.Add([]byte(`{"country":"GB","id":"12345678","name":"X","legal_form_code":"ltd","status":"unknown",
		"status_detail":"Companies House company_status is \"administration\" (In Administration).","founded_at":"2019-10-24"}`), int32(20000))
	f.Add([]byte(`{"legal_form_code":"registered-overseas-entity","status":"active","published_deadlines":[{"kind":"annual_accounts","due_date":"2026-01-01"}]}`), int32(0))
	f.Add([]byte(`{"legal_form_code":"LTD","legal_form":"Private limited company (community interest company)","status":"active","registered_at":"2020-02-29"}`), int32(-5))
	f.Add([]byte(`{"status_detail":"Companies House company_status is \"x`), int32(1))
	f.Fuzz(func(t *testing.T, b []byte, day int32) {
		var rep registry.CompanyReport
		if err := json.Unmarshal(b, &rep); err != nil {
			return
		}
		today := registry.NewDate(1970, 1, 1).AddDays(int(day) % 4_000_000)
		out, err := (&Country{}).Deadlines(&rep, today)
		if err != nil || out == nil {
			t.Fatalf("Deadlines = %v, %v", out, err)
		}
		duties := dutiesOf(&rep)
		for _, d := range out.Deadlines {
			if (d.Kind == "annual_accounts" && duties.Accounts.Level == deadlines.UKDutyNone) ||
				(d.Kind == "confirmation_statement" && duties.ConfirmationStatement.Level == deadlines.UKDutyNone) {
				t.Fatalf("%s listed for a type that does not owe it", d.Kind)
			}
		}
	})
}
