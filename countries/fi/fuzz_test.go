package fi

import (
	"encoding/json"
	"path/filepath"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/moduletest"
)

// addRecordings seeds f with every recording in testdata/prh and a few
// hostile shapes.
func addRecordings(f *testing.F) {
	moduletest.AddFiles(f, filepath.Join("testdata", "prh", "*.json"))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"totalResults":"1e999","companies":[{"businessId":{"value":"0112038-9"},"names":[{"name":"\ud800","type":1,"version":"x"}]}]}`))
	f.Add([]byte(`{"companies":[{"businessId":{"value":"0112038-9"},"names":[{"name":"A","type":"1"}],"addresses":[{"type":"1","postOffices":[{}]}],` +
		`"registeredEntries":[{"register":6,"type":80,"registrationDate":"2025-02-30"}],"companySituations":[{"type":"sane"}],"endDate":"x"}]}`))
}

// FuzzDecodeCompanies feeds arbitrary JSON into the decoder and both
// mappings: nothing panics, every report and search result encodes and
// keeps the interface's invariants.
func FuzzDecodeCompanies(f *testing.F) {
	addRecordings(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var res companyResult
		if json.Unmarshal(body, &res) != nil {
			return
		}
		for i := range res.Companies {
			rep := mapCompany(&res.Companies[i], nokiaID)
			if _, err := json.Marshal(rep); err != nil {
				t.Fatalf("report does not encode: %v", err)
			}
			if !rep.Status.Valid() {
				t.Errorf("status = %q", rep.Status)
			}
			if rep.ID != nokiaID || rep.Confidence != 1 || rep.PreviousNames == nil || rep.Notes == nil || rep.Registers == nil {
				t.Errorf("defaults lost: %+v", rep)
			}
			if (rep.VATNumber != nil) != (rep.VATRegistered != nil && *rep.VATRegistered) {
				t.Errorf("vat_number %v with vat_registered %v", rep.VATNumber, rep.VATRegistered)
			}
			for _, c := range rep.IndustryCodes {
				if c.Rank != 1 || c.Code == "" {
					t.Errorf("industry code %+v", c)
				}
			}
			// The module's deadlines never panic on what it mapped.
			out, err := (&Country{}).Deadlines(rep, registry.NewDate(2026, 11, 24))
			if err != nil || out == nil {
				t.Fatalf("Deadlines = %v, %v", out, err)
			}
		}
		for _, limit := range []int{1, 20, 100} {
			sr := searchResult(&res, "nokia", limit)
			if _, err := json.Marshal(sr); err != nil {
				t.Fatalf("result does not encode: %v", err)
			}
			if len(sr.Hits) > limit || sr.Total < len(sr.Hits) || sr.Truncated != (sr.Total > len(sr.Hits)) {
				t.Errorf("hits %d, total %d, truncated %t", len(sr.Hits), sr.Total, sr.Truncated)
			}
			for _, h := range sr.Hits {
				if _, p := idcheck.ParseYTunnus(h.ID); p != idcheck.ProblemNone || h.Name == "" || h.Confidence != countrykit.HitConfidence {
					t.Errorf("hit %+v", h)
				}
			}
		}
	})
}
