package fr

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/moduletest"
)

// FuzzDecodeSearchPage feeds arbitrary JSON into the decoder, the mapping of
// a unit, the officers and the search page: nothing panics, every report,
// role list and result encodes and keeps the interface's invariants, the
// placeholder never survives, and the deadlines of a mapped report never
// fail.
func FuzzDecodeSearchPage(f *testing.F) {
	moduletest.AddFiles(f, filepath.Join("testdata", "recherche-entreprises", "*.json"))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"results":[{"siren":552032534,"nom_complet":"[NON-DIFFUSIBLE]","etat_administratif":"A","siege":{"departement":"2A",` +
		`"code_postal":"[NON-DIFFUSIBLE]"},"tranche_effectif_salarie":"21","finances":{"x":{"ca":"1e999"},"2024":{"ca":-5}},` +
		`"dirigeants":[{"type_dirigeant":"personne physique","nom":"É","date_de_naissance":"1970-02-30"}],"tva":["FR27552032534",7]}],` +
		`"total_results":"9e99"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var p searchPage
		if json.Unmarshal(body, &p) != nil {
			return
		}
		id := idcheck.FrenchID{Kind: idcheck.FrenchSIREN}
		id.SIREN, _ = idcheck.ParseSIREN("552032534")
		for i := range p.Results {
			u := &p.Results[i]
			rep := mapUnit(u, id)
			b, err := json.Marshal(rep)
			if err != nil {
				t.Fatalf("report does not encode: %v", err)
			}
			if bytes.Contains(bytes.ToUpper(b), []byte(placeholder)) {
				t.Fatalf("the placeholder survives: %s", b)
			}
			if !rep.Status.Valid() || rep.ID != "552032534" || strings.TrimSpace(rep.Name) == "" || rep.Notes == nil || rep.Registers == nil {
				t.Errorf("report %+v", rep)
			}
			if (rep.VATNumber != nil) != (rep.VATRegistered != nil && *rep.VATRegistered) {
				t.Errorf("vat_number %v with vat_registered %v", rep.VATNumber, rep.VATRegistered)
			}
			out, err := (&Country{}).Deadlines(rep, registry.NewDate(2026, 11, 24))
			if err != nil || out == nil {
				t.Fatalf("Deadlines = %v, %v", out, err)
			}
			roles, _ := mapOfficers(u)
			for _, r := range roles {
				if r.Holder.Name == "" || !r.Group.Valid() || (r.Holder.BirthMonth != nil && (*r.Holder.BirthMonth < 1 || *r.Holder.BirthMonth > 12)) {
					t.Errorf("role %+v", r)
				}
			}
			if b, _ := json.Marshal(roles); bytes.Contains(bytes.ToUpper(b), []byte(placeholder)) {
				t.Fatalf("the placeholder survives in the roles: %s", b)
			}
		}
		for _, limit := range []int{1, 20, 100} {
			sr := searchResult(&p, "kikou", limit)
			b, err := json.Marshal(sr)
			if err != nil {
				t.Fatalf("result does not encode: %v", err)
			}
			if bytes.Contains(bytes.ToUpper(b), []byte(placeholder)) {
				t.Fatalf("the placeholder survives in a hit: %s", b)
			}
			if len(sr.Hits) > limit || sr.Total < len(sr.Hits) || sr.Truncated != (sr.Total > len(sr.Hits)) {
				t.Errorf("hits %d, total %d, truncated %t", len(sr.Hits), sr.Total, sr.Truncated)
			}
			for _, h := range sr.Hits {
				if _, p := idcheck.ParseSIREN(h.ID); p != idcheck.ProblemNone || h.Name == "" || h.Confidence != countrykit.HitConfidence {
					t.Errorf("hit %+v", h)
				}
			}
		}
	})
}
