package no

import (
	"encoding/json"
	"path/filepath"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/moduletest"
)

// addRecordings seeds f with every recording in testdata/brreg.
func addRecordings(f *testing.F) {
	moduletest.AddFiles(f, filepath.Join("testdata", "brreg", "*.json"))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"antallAnsatte":-1,"kapital":{"belop":1e999},"historiskeNavn":[{"navn":"\ud800"}]}`))
	f.Add([]byte(`{"organisasjonsform":{"kode":"ENK"},"antallAnsatte":"99999999999999999999"}`))
}

// FuzzMapUnit feeds arbitrary JSON into the unit mapping: it never panics,
// and every report it produces encodes and satisfies the interface's
// invariants.
func FuzzMapUnit(f *testing.F) {
	addRecordings(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var u unit
		if json.Unmarshal(body, &u) != nil {
			return
		}
		for _, subunit := range []bool{false, true} {
			rep := mapUnit(&u, equinorID, subunit)
			b, err := json.Marshal(rep)
			if err != nil {
				t.Fatalf("report does not encode: %v", err)
			}
			var back map[string]any
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("report JSON does not decode: %v", err)
			}
			if !rep.Status.Valid() || rep.Status == registry.StatusUnknown {
				t.Errorf("status = %q", rep.Status)
			}
			if rep.Employees != nil && *rep.Employees < 0 {
				t.Errorf("employees = %d, want >= 0", *rep.Employees)
			}
			for _, c := range rep.IndustryCodes {
				if c.Rank < 1 || c.Code == "" {
					t.Errorf("industry code %+v", c)
				}
			}
			if rep.Confidence != 1 || rep.PreviousNames == nil || rep.Notes == nil || rep.Registers == nil {
				t.Errorf("defaults lost: %+v", rep)
			}
			if (rep.VATNumber != nil) != (rep.VATRegistered != nil && *rep.VATRegistered) {
				t.Errorf("vat_number %v with vat_registered %v", rep.VATNumber, rep.VATRegistered)
			}
			// The report's accounts flag and the deadlines agree (issue 13).
			out, err := (&Country{}).Deadlines(rep, registry.NewDate(2026, 3, 1))
			if err != nil || out == nil {
				t.Fatalf("Deadlines = %v, %v", out, err)
			}
			if rep.Status == registry.StatusActive && !subunit && rep.HasAnnualAccountsDuty != nil {
				listed, mandatory := false, false
				for _, dl := range out.Deadlines {
					if dl.Kind == "annual_accounts" {
						listed, mandatory = true, dl.Mandatory
					}
				}
				if *rep.HasAnnualAccountsDuty != (listed && mandatory) || (!*rep.HasAnnualAccountsDuty && listed) {
					t.Errorf("has_annual_accounts_duty %t, annual_accounts listed %t mandatory %t", *rep.HasAnnualAccountsDuty, listed, mandatory)
				}
			}
		}
	})
}

// FuzzSearchPage feeds arbitrary JSON and queries into the search mapping:
// it never panics, every result encodes, hits are sorted by confidence and
// never exceed the limit, and the confidences are the four anchors.
func FuzzSearchPage(f *testing.F) {
	addRecordings(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var p searchPage
		if json.Unmarshal(body, &p) != nil {
			return
		}
		for _, q := range []string{"sesam", "EQUINOR ASA", "Ø", " "} {
			res := searchResult(&p, q, 3)
			if _, err := json.Marshal(res); err != nil {
				t.Fatalf("result does not encode: %v", err)
			}
			if len(res.Hits) > 3 || res.Total < len(res.Hits) || res.Truncated != (res.Total > len(res.Hits)) {
				t.Errorf("hits %d, total %d, truncated %t", len(res.Hits), res.Total, res.Truncated)
			}
			for _, h := range res.Hits {
				if h.Confidence != countrykit.HitConfidence {
					t.Errorf("confidence %v, want the default before ranking", h.Confidence)
				}
			}
		}
	})
}

// FuzzDeadlinesFromReport feeds arbitrary bytes as a stored report (the
// Registry's cache may live outside the process): reading the duties back
// from it (dutiesOf) and computing the deadlines never panic, never fail,
// and a form-dependent kind appears only when the form's duty applies,
// mandatory exactly when it is a yes; a sub-unit gets none.
func FuzzDeadlinesFromReport(f *testing.F) {
	f.Add([]byte(`{"country":"NO","id":"923609016","name":"X","legal_form_code":"AS","status":"active","founded_at":"2001-11-24",`+
		`"vat_registered":true,"vat_registered_at":"2026-03-15","employees_reported":false}`), int32(20781))
	f.Add([]byte(`{"legal_form_code":"NUF","status":"active","in_business_register":true,"employees":0}`), int32(0))
	f.Add([]byte(`{"legal_form_code":"nuf ","status":"under_liquidation","vat_registered":true,"vat_registered_at":"9999-13-01"}`), int32(-5))
	f.Add([]byte(`{"legal_form_code":"BEDR","is_subunit":true,"parent_id":"923609016","employees_reported":true}`), int32(1))
	f.Add([]byte(`{"legal_form_code":"KOMM","status":"unknown","registered_at":"-9999-01-01","last_annual_accounts_year":99999}`), int32(2932896))
	f.Fuzz(func(t *testing.T, b []byte, day int32) {
		var rep registry.CompanyReport
		if err := json.Unmarshal(b, &rep); err != nil {
			return
		}
		today := registry.NewDate(1970, 1, 1).AddDays(int(day) % 4_000_000)
		out, err := (&Country{}).Deadlines(&rep, today)
		if err != nil || out == nil || out.Deadlines == nil {
			t.Fatalf("Deadlines = %v, %v", out, err)
		}
		if rep.IsSubunit && len(out.Deadlines) != 0 {
			t.Fatalf("a sub-unit got %d deadlines", len(out.Deadlines))
		}
		duties := dutiesOf(&rep)
		byKind := map[string]deadlines.KindDuty{
			"annual_accounts": duties.AnnualAccounts, "general_meeting": duties.GeneralMeeting,
			"tax_return": duties.TaxReturn, "shareholder_register_statement": duties.ShareholderRegisterStatement,
		}
		for _, d := range out.Deadlines {
			if k, ok := byKind[string(d.Kind)]; ok && (!k.Duty.Applies() || d.Mandatory != (k.Duty == deadlines.DutyYes)) {
				t.Fatalf("%s listed (mandatory %t) for a form whose duty is %s", d.Kind, d.Mandatory, k.Duty)
			}
			if d.DueDate.Before(d.StatutoryDate) {
				t.Fatalf("%s due %s before its statutory date %s", d.Kind, d.DueDate, d.StatutoryDate)
			}
		}
	})
}
