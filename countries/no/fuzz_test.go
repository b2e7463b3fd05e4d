package no

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// addRecordings seeds f with every recording in testdata/brreg.
func addRecordings(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "brreg", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
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
