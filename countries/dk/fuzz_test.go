package dk

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/moduletest"
)

// FuzzDecodeSearchAnswer feeds arbitrary JSON into the decoder of the CVR
// distribution's answers and every mapping: nothing panics, every report,
// search result and roles list encodes and keeps the interface's
// invariants, and the deadlines of every report are computed.
func FuzzDecodeSearchAnswer(f *testing.F) {
	// The real answers are up to 600 KB, too large for the fuzzer to
	// mutate quickly: each seeds the corpus with every list cut to its
	// first two entries, which keeps the register's shapes.
	for _, b := range moduletest.ReadFiles(f, filepath.Join("testdata", "cvr", "*.json")) {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			f.Fatal(err)
		}
		small, err := json.Marshal(trimLists(v, 2))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(small)
	}
	f.Add([]byte(`null`))
	f.Add([]byte(`{"hits":{"total":{"value":"1e999","relation":"gte"},"hits":[{"_source":{"Vrvirksomhed":{"cvrNummer":"41774037",` +
		`"navne":[{"navn":"\ud800","periode":{"gyldigFra":"2020-02-30"}}],"virksomhedsform":[{"virksomhedsformkode":"80"}],` +
		`"attributter":[{"type":"REGNSKABSÅR_SLUT","vaerdier":[{"vaerdi":"--02-29","periode":{}}]},{"type":"KAPITAL","vaerdier":[{"vaerdi":"NaN"}]}],` +
		`"deltagerRelation":[{"deltager":{"enhedstype":"VIRKSOMHED","forretningsnoegle":1,"navne":[{"navn":"X"}]},` +
		`"organisationer":[{"hovedtype":"REGISTER","medlemsData":[{"attributter":[{"type":"EJERANDEL_PROCENT","vaerdier":[{"vaerdi":"7"}]}]}]}]}]}}}]}}`))
	f.Add([]byte(`{"timed_out":false,"_shards":{"failed":"0"},"hits":{"total":2,"hits":[{"_source":{"Vrvirksomhed":null}},{"_source":{}}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var ans searchAnswer
		if json.Unmarshal(body, &ans) != nil {
			return
		}
		_ = ans.complete()
		for _, co := range ans.companies() {
			rep := mapCompany(co, apsID)
			if _, err := json.Marshal(rep); err != nil {
				t.Fatalf("report does not encode: %v", err)
			}
			if !rep.Status.Valid() || rep.ID != apsID || rep.Confidence != 1 || rep.PreviousNames == nil || rep.Notes == nil || rep.Registers == nil {
				t.Errorf("defaults lost: %+v", rep)
			}
			if rep.Employees != nil && (*rep.Employees < 0 || rep.EmployeesReported == nil || !*rep.EmployeesReported) {
				t.Errorf("employees %d with employees_reported %v", *rep.Employees, rep.EmployeesReported)
			}
			for i, c := range rep.IndustryCodes {
				if c.Rank != i+1 || c.Code == "" {
					t.Errorf("industry code %+v", c)
				}
			}
			out, err := (&Country{}).Deadlines(rep, registry.NewDate(2026, 11, 24))
			if err != nil || out == nil {
				t.Fatalf("Deadlines = %v, %v", out, err)
			}
			roles, notes := mapRoles(co)
			if _, err := json.Marshal(roles); err != nil {
				t.Fatalf("roles do not encode: %v", err)
			}
			for _, r := range roles {
				if !r.Group.Valid() || r.Holder.Name == "" || (r.Holder.Kind != registry.HolderPerson && r.Holder.Kind != registry.HolderEntity) ||
					(r.Holder.Kind == registry.HolderPerson && (r.Holder.ID != nil || r.Holder.BirthYear != nil)) || r.Control == nil || r.Notes == nil {
					t.Errorf("role %+v", r)
				}
				if r.Current != (r.ResignedAt == nil) && r.Current {
					t.Errorf("a current role with an end: %+v", r)
				}
			}
			for _, n := range notes {
				if !strings.HasSuffix(n, ".") {
					t.Errorf("note %q", n)
				}
			}
		}
		for _, limit := range []int{1, 20, 100} {
			sr := searchResult(&ans, "assure", limit)
			if _, err := json.Marshal(sr); err != nil {
				t.Fatalf("result does not encode: %v", err)
			}
			if len(sr.Hits) > limit || sr.Total < len(sr.Hits) || sr.Truncated != (sr.Total > len(sr.Hits)) {
				t.Errorf("hits %d, total %d, truncated %t", len(sr.Hits), sr.Total, sr.Truncated)
			}
			for _, h := range sr.Hits {
				if n, p := idcheck.ParseCVR(h.ID); p != idcheck.ProblemNone || n.String() != h.ID || h.Name == "" || h.Confidence != countrykit.HitConfidence {
					t.Errorf("hit %+v", h)
				}
			}
		}
	})
}

// trimLists returns v, decoded JSON, with every array cut to its first n
// elements.
func trimLists(v any, n int) any {
	switch x := v.(type) {
	case []any:
		x = x[:min(len(x), n)]
		for i := range x {
			x[i] = trimLists(x[i], n)
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = trimLists(x[k], n)
		}
	}
	return v
}
