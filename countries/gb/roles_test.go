package gb

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// roleRecording returns a file of testdata/recordings/roles.
func roleRecording(t testing.TB, name string) []byte {
	t.Helper()
	return recording(t, filepath.Join("roles", name))
}

// pagedResponder answers the page whose start_index is the key of pages,
// and an empty page of total for any other start_index. A nil pages map
// answers 404 (no list).
func pagedResponder(t testing.TB, pages map[int][]byte, total int) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		if pages == nil {
			return moduletest.JSONResponder(404, roleRecording(t, "error_404_company-psc-not-found_RECONSTRUCTED.json"))(req)
		}
		start, _ := strconv.Atoi(req.URL.Query().Get("start_index"))
		if b, ok := pages[start]; ok {
			return moduletest.JSONResponder(200, b)(req)
		}
		return moduletest.JSONResponder(200, []byte(`{"items":[],"total_results":`+strconv.Itoa(total)+`}`))(req)
	}
}

// rolesScenario is one company's three lists; a file name of "" answers 404.
type rolesScenario struct {
	name       string
	id         string
	officers   []string // pages, 50 items apart
	psc        string
	statements string
}

// serve registers the scenario's profile and lists on mt.
func (s rolesScenario) serve(t testing.TB, mt *httpmock.MockTransport) {
	mt.RegisterResponder(http.MethodGet, testBase+"/company/"+s.id,
		moduletest.JSONResponder(200, []byte(`{"company_name":"COMPANY `+s.id+`","company_number":"`+s.id+`","company_status":"active","type":"ltd"}`)))
	var officers map[int][]byte
	if len(s.officers) > 0 {
		officers = map[int][]byte{}
		for i, f := range s.officers {
			officers[i*officersPerPage] = roleRecording(t, f)
		}
	}
	one := func(f string) map[int][]byte {
		if f == "" {
			return nil
		}
		return map[int][]byte{0: roleRecording(t, f)}
	}
	mt.RegisterResponder(http.MethodGet, testBase+"/company/"+s.id+"/officers", pagedResponder(t, officers, 0))
	mt.RegisterResponder(http.MethodGet, testBase+"/company/"+s.id+"/persons-with-significant-control", pagedResponder(t, one(s.psc), 0))
	mt.RegisterResponder(http.MethodGet, testBase+"/company/"+s.id+"/persons-with-significant-control-statements", pagedResponder(t, one(s.statements), 0))
}

// rolesScenarios covers every roles recording at least once.
func rolesScenarios() []rolesScenario {
	const empty = "officers_empty-list_200_SYNTHETIC.json"
	const noPSC = "psc_list_empty_200_34777777_ch-service-itest.json"
	return []rolesScenario{
		{name: "04475590_you-limited", id: "04475590", officers: []string{"officers_04475590_you-limited_2020-10.json"}, psc: noPSC},
		{name: "07798925_iwoca_psc-404", id: "07798925", officers: []string{"officers_07798925_iwoca_2020-12_json_pp.json"}},
		{name: "01710788_2016-shape", id: "01710788", officers: []string{"officers_01710788_2016-02.json"}, psc: noPSC},
		{name: "00445790_tesco_trimmed", id: "00445790", officers: []string{"officers_00445790_tesco-plc_2026-07_TRIMMED.json"}, psc: noPSC},
		{name: "03610056_corporate-secretary", id: "03610056", officers: []string{"officers_03610056_corporate-secretary_2026-07.json"}, psc: noPSC},
		{name: "03977902_corporate-psc-alphabet", id: "03977902", officers: []string{empty}, psc: "psc_list_03977902_corporate-entity-alphabet_2026-07.json"},
		{name: "04053514_ceased-individuals-and-corporate-psc", id: "04053514", psc: "psc_list_04053514_individual-ceased-and-corporate_2020-10.json"},
		{name: "05124262_psc-statement", id: "05124262", officers: []string{empty}, statements: "psc_statements_05124262_2026-07.json"},
		{name: "12345678_legal-person-psc_SYNTHETIC", id: "12345678", officers: []string{empty}, psc: "psc_list_12345678_legal-person_SYNTHETIC.json"},
		{name: "34777777_nothing", id: "34777777", officers: []string{empty}, psc: noPSC},
		{name: "12345678_second-page-of-officers_SYNTHETIC", id: "12345678", psc: noPSC,
			officers: []string{"officers_12345678_page0-of-2_SYNTHETIC.json", "officers_12345678_page1-of-2_SYNTHETIC.json"}},
		{name: "OC123456_llp-members_SYNTHETIC", id: "OC123456", officers: []string{"officers_OC123456_llp-members-corporate-director_SYNTHETIC.json"}, psc: noPSC},
		{name: "12345678_ceased-psc-and-statements_SYNTHETIC", id: "12345678", officers: []string{empty},
			psc: "psc_list_12345678_ceased-individual-super-secure_SYNTHETIC.json", statements: "psc_statements_12345678_SYNTHETIC.json"},
	}
}

// TestRolesGolden (issue 16) answers Registry.Roles for every roles
// recording and compares the report with its reviewed golden file.
func TestRolesGolden(t *testing.T) {
	t.Parallel()
	used := map[string]bool{}
	for _, s := range rolesScenarios() {
		used[s.psc], used[s.statements] = true, true
		for _, f := range s.officers {
			used[f] = true
		}
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			s.serve(t, mt)
			reg := newTestRegistry(t, newTestCountry(t, mt), nil)
			rep, err := reg.Roles(t.Context(), "GB", s.id)
			if err != nil {
				t.Fatalf("Roles: %v", err)
			}
			checkGolden(t, "roles_"+s.name+".golden", rep)
		})
	}
	files, err := filepath.Glob(filepath.Join("testdata", "recordings", "roles", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if b := filepath.Base(f); !used[b] && !strings.HasPrefix(b, "error_404") {
			t.Errorf("no scenario uses %s", b)
		}
	}
}

// TestRolesRules (issue 16) checks the mapping rules on the scenarios:
// resigned officers and ceased PSCs are former, corporate holders are
// entities, births are month and year, natures of control are
// Companies House's texts, statements are notes, pages are followed.
func TestRolesRules(t *testing.T) {
	t.Parallel()
	get := func(t *testing.T, name string) (*registry.RolesReport, *httpmock.MockTransport) {
		t.Helper()
		for _, s := range rolesScenarios() {
			if s.name == name {
				mt := httpmock.NewMockTransport()
				s.serve(t, mt)
				rep, err := newTestRegistry(t, newTestCountry(t, mt), nil).Roles(t.Context(), "GB", s.id)
				if err != nil {
					t.Fatal(err)
				}
				return rep, mt
			}
		}
		t.Fatalf("no scenario %s", name)
		return nil, nil
	}
	notes := func(rep *registry.RolesReport) string { return strings.Join(rep.Notes, "\n") }

	t.Run("you limited", func(t *testing.T) {
		t.Parallel()
		rep, _ := get(t, "04475590_you-limited")
		var current, former int
		for _, r := range rep.Roles {
			if r.Current {
				current++
				if r.ResignedAt != nil {
					t.Errorf("current role with resigned_at: %+v", r)
				}
			} else {
				former++
				if r.ResignedAt == nil {
					t.Errorf("former role without resigned_at: %+v", r)
				}
			}
		}
		if current != 3 || former != 4 {
			t.Errorf("current %d, former %d; want 3 and 4", current, former)
		}
		first := rep.Roles[0]
		if first.Group != registry.RoleBoard || first.Holder.Name != "STEVENSON, Benjamin Thomas" || *first.Holder.BirthYear != 1985 || *first.Holder.BirthMonth != 7 ||
			*first.Holder.Nationality != "British" || *first.Holder.CountryOfResidence != "England" {
			t.Errorf("first role %+v %+v", first, first.Holder)
		}
		var corp *registry.Role
		for i := range rep.Roles {
			if rep.Roles[i].RoleCode == "corporate-nominee-secretary" {
				corp = &rep.Roles[i]
			}
		}
		if corp == nil || corp.Holder.Kind != registry.HolderEntity || corp.Group != registry.RoleSecretary || corp.Holder.BirthYear != nil || corp.Current {
			t.Errorf("corporate nominee secretary %+v", corp)
		}
	})
	t.Run("corporate secretary", func(t *testing.T) {
		t.Parallel()
		rep, _ := get(t, "03610056_corporate-secretary")
		h := rep.Roles[0].Holder
		if h.Kind != registry.HolderEntity || *h.ID != "03849195" || *h.Country != "GB" {
			t.Errorf("holder %+v", h)
		}
	})
	t.Run("second page", func(t *testing.T) {
		t.Parallel()
		rep, mt := get(t, "12345678_second-page-of-officers_SYNTHETIC")
		if len(rep.Roles) != 52 {
			t.Errorf("%d roles, want 52", len(rep.Roles))
		}
		if got := mt.GetCallCountInfo()["GET "+testBase+"/company/12345678/officers"]; got != 2 {
			t.Errorf("officer pages asked %d, want 2", got)
		}
		if strings.Contains(notes(rep), "officers;") {
			t.Errorf("a cut note for a whole list: %v", rep.Notes)
		}
	})
	t.Run("tesco says 74 but sends 2", func(t *testing.T) {
		t.Parallel()
		rep, _ := get(t, "00445790_tesco_trimmed")
		if len(rep.Roles) != 2 || !strings.Contains(notes(rep), "counts 74 officers but sent only 2") {
			t.Errorf("%d roles, notes %v", len(rep.Roles), rep.Notes)
		}
	})
	t.Run("ceased PSC and statements", func(t *testing.T) {
		t.Parallel()
		rep, _ := get(t, "12345678_ceased-psc-and-statements_SYNTHETIC")
		if len(rep.Roles) != 3 || !rep.Roles[0].Current || rep.Roles[0].Holder.Name != "" {
			t.Fatalf("roles %+v", rep.Roles)
		}
		ceased := rep.Roles[1]
		if ceased.Current || ceased.ResignedAt == nil || ceased.ResignedAt.String() != "2025-09-30" || ceased.Group != registry.RoleBeneficialOwner ||
			len(ceased.Control) != 3 || !strings.HasPrefix(ceased.Control[0], "The person holds, directly or indirectly, more than 50%") ||
			!strings.Contains(ceased.Control[2], "not-a-known-nature") {
			t.Errorf("ceased PSC %+v", ceased)
		}
		if c := rep.Roles[2]; c.Current || c.Holder.Kind != registry.HolderEntity || *c.Holder.Country != "GB" {
			t.Errorf("ceased corporate PSC %+v", c)
		}
		n := notes(rep)
		for _, want := range []string{
			"Former PSC statement of 2024-02-02 (withdrawn 2025-09-30): Ms Ceasy Formerly Controlling has failed to comply",
			"PSC statement of 2025-10-01: The company knows or has reasonable cause to believe that there is no registrable person",
		} {
			if !strings.Contains(n, want) {
				t.Errorf("notes lack %q:\n%s", want, n)
			}
		}
	})
}

// TestRolesPageBound (issue 16): a list longer than the bound is read for
// at most maxOfficerPages pages and the report says it was cut.
func TestRolesPageBound(t *testing.T) {
	t.Parallel()
	const total = 500
	mt := httpmock.NewMockTransport()
	s := rolesScenario{id: "12345678", psc: "psc_list_empty_200_34777777_ch-service-itest.json"}
	s.serve(t, mt)
	mt.RegisterResponder(http.MethodGet, testBase+"/company/12345678/officers", func(req *http.Request) (*http.Response, error) {
		q := req.URL.Query()
		if q.Get("items_per_page") != strconv.Itoa(officersPerPage) {
			t.Errorf("items_per_page %q", q.Get("items_per_page"))
		}
		// Through the module's client: the key as HTTP Basic user name.
		if user, pass, ok := req.BasicAuth(); !ok || user != testKey || pass != "" {
			t.Errorf("authorization %q", req.Header.Get("Authorization"))
		}
		start, _ := strconv.Atoi(q.Get("start_index"))
		items := make([]map[string]any, 0, officersPerPage)
		for i := start; i < start+officersPerPage; i++ {
			items = append(items, map[string]any{"name": fmt.Sprintf("OFFICER, Number %d", i), "officer_role": "director", "appointed_on": "2020-01-01"})
		}
		b, _ := json.Marshal(map[string]any{"items": items, "total_results": total, "start_index": start})
		return moduletest.JSONResponder(200, b)(req)
	})
	rep, err := newTestRegistry(t, newTestCountry(t, mt), nil).Roles(t.Context(), "GB", "12345678")
	if err != nil {
		t.Fatal(err)
	}
	calls := mt.GetCallCountInfo()
	if got := calls["GET "+testBase+"/company/12345678/officers"]; got != maxOfficerPages {
		t.Errorf("officer pages %d, want %d", got, maxOfficerPages)
	}
	if len(rep.Roles) != maxOfficerPages*officersPerPage || rep.Roles[199].Holder.Name != "OFFICER, Number 199" {
		t.Errorf("%d roles", len(rep.Roles))
	}
	want := "Companies House lists 500 officers; this report holds the first 200, the most this service reads for one report (4 page(s) of 50)."
	if !strings.Contains(strings.Join(rep.Notes, "\n"), want) {
		t.Errorf("notes %v", rep.Notes)
	}
	if n := mt.GetTotalCallCount(); n > 1+maxOfficerPages+maxPSCPages+1 {
		t.Errorf("%d upstream requests", n)
	}
}

// TestRolesUpstreamErrors (issue 16): a failing list fails the report with
// the lookup's mapping; retryable failures are retried once.
func TestRolesUpstreamErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		path     string
		resp     httpmock.Responder
		wantCode registry.Code
		wantHits int
	}{
		{"officers 401", "/officers", moduletest.JSONResponder(401, recording(t, "error_401_invalid-authorization.json")), registry.CodeUpstreamError, 1},
		{"officers 429", "/officers", moduletest.JSONResponder(429, nil, "X-Ratelimit-Reset", "1795860060"), registry.CodeRateLimited, 1},
		{"psc 500", "/persons-with-significant-control", moduletest.JSONResponder(500, nil), registry.CodeUpstreamError, 2},
		{"psc not JSON", "/persons-with-significant-control", moduletest.JSONResponder(200, []byte(`{"items":[`)), registry.CodeUpstreamError, 2},
		{"statements 403", "/persons-with-significant-control-statements", moduletest.JSONResponder(403, nil), registry.CodeUpstreamError, 1},
		{"officers items not a list", "/officers", moduletest.JSONResponder(200, []byte(`{"items":{}}`)), registry.CodeUpstreamError, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			rolesScenarios()[0].serve(t, mt)
			mt.RegisterResponder(http.MethodGet, testBase+"/company/04475590"+tt.path, tt.resp)
			_, err := newTestRegistry(t, newTestCountry(t, mt), nil).Roles(t.Context(), "GB", "04475590")
			if e := moduletest.AsError(t, err); e.Code != tt.wantCode || e.Country != "GB" {
				t.Errorf("error %+v, want %s", e, tt.wantCode)
			}
			if got := mt.GetCallCountInfo()["GET "+testBase+"/company/04475590"+tt.path]; got != tt.wantHits {
				t.Errorf("%s asked %d times, want %d", tt.path, got, tt.wantHits)
			}
		})
	}
}

// TestOfficerRolesMatchEnumerations: the officer role table has every value
// of Companies House's officer_role enumeration with its label, and nothing
// else.
func TestOfficerRolesMatchEnumerations(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	for _, r := range officerRoles() {
		if _, dup := got[r.Code]; dup {
			t.Errorf("%s twice", r.Code)
		}
		got[r.Code] = r.Label
		if !r.Group.Valid() || r.Group == "" {
			t.Errorf("%s: group %q", r.Code, r.Group)
		}
	}
	if diff := cmp.Diff(enumeration(t, "officer_role"), got); diff != "" {
		t.Errorf("officer roles (-enumeration +table):\n%s", diff)
	}
}

// pscEnumeration reads one section of testdata/enumerations/psc_descriptions.yml.
func pscEnumeration(t *testing.T, section string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "enumerations", "psc_descriptions.yml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := regexp.MustCompile(`^\s+'([^']+)'\s*:\s*(?:"(.*)"|'(.*)')\s*$`)
	out := map[string]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		s := sc.Text()
		if s != "" && !strings.HasPrefix(s, " ") {
			in = strings.TrimSpace(s) == section+":"
			continue
		}
		if m := line.FindStringSubmatch(s); in && m != nil {
			out[m[1]] = m[2] + m[3]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no section %q", section)
	}
	return out
}

// TestPSCDescriptionsMatchEnumerations keeps psc_descriptions.go in step
// with Companies House's psc_descriptions.yml.
func TestPSCDescriptionsMatchEnumerations(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		section string
		fn      func(string) (string, bool)
	}{
		{"description", controlDescription},
		{"statement_description", statementDescription},
		{"super_secure_description", superSecureDescription},
	} {
		want := pscEnumeration(t, tt.section)
		for code, text := range want {
			if got, ok := tt.fn(code); !ok || got != text {
				t.Errorf("%s(%q) = %q, %v; want %q", tt.section, code, got, ok, text)
			}
		}
		if _, ok := tt.fn("no-such-code"); ok {
			t.Errorf("%s knows no-such-code", tt.section)
		}
	}
	if len(pscEnumeration(t, "description")) < 80 {
		t.Error("too few natures of control read")
	}
}

// TestRolesNoPersonalDataInErrorsOrLogs (issue 16): whatever Companies
// House answers, no error and no log line holds an officer's or a PSC's
// name.
func TestRolesNoPersonalDataInErrorsOrLogs(t *testing.T) {
	t.Parallel()
	var secrets []string
	bodies := moduletest.ReadFiles(t, filepath.Join("testdata", "recordings", "roles", "*.json"))
	for _, b := range bodies {
		var p listPage[struct {
			Name        string `json:"name"`
			Kind        string `json:"kind"`
			OfficerRole string `json:"officer_role"`
		}]
		if json.Unmarshal(b, &p) != nil {
			continue
		}
		for _, it := range p.Items {
			if strings.HasPrefix(it.OfficerRole, "corporate") || strings.Contains(it.Kind, "corporate") || strings.Contains(it.Kind, "legal") || it.Name == "" {
				continue
			}
			secrets = append(secrets, it.Name)
			for _, part := range strings.FieldsFunc(it.Name, func(r rune) bool { return r == ' ' || r == ',' }) {
				if len(part) >= 5 {
					secrets = append(secrets, part)
				}
			}
		}
	}
	if len(secrets) < 50 {
		t.Fatalf("only %d names collected", len(secrets))
	}
	log := &moduletest.SyncBuffer{}
	var texts []string
	for i, b := range bodies {
		for _, resp := range []httpmock.Responder{
			moduletest.JSONResponder(200, b), moduletest.JSONResponder(200, b[:len(b)/2]), moduletest.JSONResponder(500, b), moduletest.JSONResponder(404, b),
			moduletest.JSONResponder(401, b), moduletest.JSONResponder(429, b), moduletest.JSONResponder(418, b), moduletest.JSONResponder(200, append([]byte(`{"items":"`), b...)),
		} {
			for _, path := range []string{"/officers", "/persons-with-significant-control", "/persons-with-significant-control-statements"} {
				mt := httpmock.NewMockTransport()
				rolesScenarios()[i%len(rolesScenarios())].serve(t, mt)
				id := rolesScenarios()[i%len(rolesScenarios())].id
				mt.RegisterResponder(http.MethodGet, testBase+"/company/"+id+path, resp)
				_, err := newTestRegistry(t, newTestCountry(t, mt), log).Roles(t.Context(), "GB", id)
				if err != nil {
					texts = append(texts, err.Error(), fmt.Sprintf("%+v", err))
					if e := registry.AsError(err); e != nil {
						texts = append(texts, e.Hint)
					}
				}
			}
		}
	}
	all := strings.Join(texts, "\n") + log.String()
	if len(texts) < 50 || !strings.Contains(log.String(), "upstream attempt failed") {
		t.Fatalf("too little to search: %d texts, %d bytes of log", len(texts), len(log.String()))
	}
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("an error or log line holds %q", s)
		}
	}
}

// addRoleRecordings seeds f with every roles recording.
func addRoleRecordings(f *testing.F) {
	moduletest.AddFiles(f, filepath.Join("testdata", "recordings", "roles", "*.json"))
	f.Add([]byte(`{"items":[{"date_of_birth":{"month":"x","year":1e99},"officer_role":"corporate-"},{"identification":{}}]}`))
	f.Add([]byte(`{"items":[{"kind":"super-secure-beneficial-owner","ceased":null,"natures_of_control":["",null]}]}`))
}

// checkRole checks the invariants of a mapped role.
func checkRole(t *testing.T, r registry.Role) {
	t.Helper()
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("role does not encode: %v", err)
	}
	if !r.Group.Valid() || r.Group == "" || r.Role == "" || r.Control == nil || r.Notes == nil {
		t.Errorf("role %+v", r)
	}
	if r.Holder.Kind != registry.HolderPerson && r.Holder.Kind != registry.HolderEntity {
		t.Errorf("holder kind %q", r.Holder.Kind)
	}
	if (r.Holder.BirthYear == nil) != (r.Holder.BirthMonth == nil) || (r.Holder.BirthMonth != nil && (*r.Holder.BirthMonth < 1 || *r.Holder.BirthMonth > 12)) {
		t.Errorf("birth %v %v", r.Holder.BirthYear, r.Holder.BirthMonth)
	}
	if r.Current && r.ResignedAt != nil {
		t.Errorf("current with resigned_at %v", r.ResignedAt)
	}
}

// FuzzMapOfficers feeds arbitrary JSON as an officer page: decoding fails
// cleanly or every officer maps to a valid role.
func FuzzMapOfficers(f *testing.F) {
	addRoleRecordings(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		var p listPage[officerItem]
		if json.Unmarshal(b, &p) != nil {
			return
		}
		for i := range p.Items {
			checkRole(t, mapOfficer(&p.Items[i]))
		}
	})
}

// FuzzMapPSCs feeds arbitrary JSON as a PSC page and as a statement page:
// decoding fails cleanly or every item maps to a valid role or note.
func FuzzMapPSCs(f *testing.F) {
	addRoleRecordings(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		var p listPage[pscItem]
		if json.Unmarshal(b, &p) == nil {
			for i := range p.Items {
				r := mapPSC(&p.Items[i])
				checkRole(t, r)
				if r.Group != registry.RoleBeneficialOwner {
					t.Errorf("group %s", r.Group)
				}
			}
		}
		var s listPage[statementItem]
		if json.Unmarshal(b, &s) == nil {
			names := map[string]string{"/x": "NAME"}
			for i := range s.Items {
				if n := statementNote(&s.Items[i], names); n != "" && !strings.HasSuffix(n, ".") {
					t.Errorf("note %q", n)
				}
			}
		}
	})
}

// TestRulesDocumentRoles: the rules document has the roles section with the
// page bounds and every officer role.
func TestRulesDocumentRoles(t *testing.T) {
	t.Parallel()
	doc := newTestCountry(t, httpmock.NewMockTransport()).Rules()
	for _, want := range []string{"## Roles", "at most 7 requests", "persons-with-significant-control-statements", "beneficial_owner"} {
		if !strings.Contains(doc, want) {
			t.Errorf("rules lack %q", want)
		}
	}
	for _, r := range officerRoles() {
		if !strings.Contains(doc, "| `"+r.Code+"` | "+string(r.Group)+" |") {
			t.Errorf("rules lack %s", r.Code)
		}
	}
}
