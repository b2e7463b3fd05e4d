package no

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// rolesNow is the clock of the roles tests.
func rolesNow() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }

// roleRecordings returns the roles recordings of testdata/brreg/roles by
// name (without .json).
func roleRecordings(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "brreg", "roles", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = b
	}
	if len(out) < 11 {
		t.Fatalf("found %d roles recordings, want at least 11", len(out))
	}
	return out
}

// unitBody is a minimal /enheter answer for id.
func unitBody(id, form string) []byte {
	return []byte(`{"organisasjonsnummer":"` + id + `","navn":"UNIT ` + id + `","organisasjonsform":{"kode":"` + form + `","beskrivelse":"x"}}`)
}

// rolesRegistry returns a Registry over a module whose register answers
// /enheter/{id} with a minimal unit of form and /enheter/{id}/roller with
// roles.
func rolesRegistry(t *testing.T, id, form string, roles httpmock.Responder, opts ...registry.Option) (*registry.Registry, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+id, moduletest.JSONResponder(http.StatusOK, unitBody(id, form)))
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+id+"/roller", roles)
	opts = append([]registry.Option{registry.WithClock(rolesNow)}, opts...)
	return newTestRegistry(t, mt, opts...), mt
}

// fullDate matches a full ISO date.
var fullDate = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)

// TestRolesGolden (issue 16) maps every roles recording (real, anonymised,
// documentation examples, synthetic) through Registry.Roles and compares
// the report with its reviewed golden file. No birth date reaches the
// report.
func TestRolesGolden(t *testing.T) {
	t.Parallel()
	for name, body := range roleRecordings(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			id := strings.Split(name, "_")[1]
			form := "AS"
			if strings.Contains(name, "ENK") {
				form = "ENK"
			}
			reg, mt := rolesRegistry(t, id, form, moduletest.JSONResponder(http.StatusOK, body))
			rep, err := reg.Roles(t.Context(), "NO", id)
			if err != nil {
				t.Fatalf("Roles(%s): %v", id, err)
			}
			if got := mt.GetTotalCallCount(); got != 2 {
				t.Errorf("upstream calls = %d, want 2 (the lookup and the roles)", got)
			}
			checkGolden(t, filepath.Join("roles", name), rep)
			out, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range birthDates(t, body) {
				if bytes.Contains(out, []byte(d)) {
					t.Errorf("the report holds the birth date %s", d)
				}
			}
		})
	}
}

// birthDates returns every fodselsdato of a roles body.
func birthDates(t testing.TB, body []byte) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile(`"fodselsdato"\s*:\s*"([^"]*)"`).FindAllSubmatch(body, -1) {
		if fullDate.Match(m[1]) {
			out = append(out, string(m[1]))
		}
	}
	return out
}

// personNames returns every person's and trustee's full name, and the
// name parts of five letters or more, of a roles body.
func personNames(t testing.TB, body []byte) []string {
	t.Helper()
	var doc rolesDoc
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range doc.Rollegrupper {
		for _, r := range g.Roller {
			var parts []string
			if r.Person != nil && r.Person.Navn != nil {
				parts = nonEmpty([]string{r.Person.Navn.Fornavn, r.Person.Navn.Mellomnavn, r.Person.Navn.Etternavn})
			}
			if r.Bostyrer != nil {
				parts = nonEmpty(r.Bostyrer.Navn)
			}
			if len(parts) > 0 {
				out = append(out, strings.Join(parts, " "))
			}
			for _, p := range parts {
				// Short parts ("Per", "Lie") are English words too.
				if len(p) >= 5 {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// TestRolesMapping (issue 16) checks the rules one by one on the
// recordings: former roles, the chair first, the deceased flag, the three
// holder shapes, year and month of birth only, and the notes.
func TestRolesMapping(t *testing.T) {
	t.Parallel()
	recs := roleRecordings(t)
	get := func(t *testing.T, name, id, form string) *registry.RolesReport {
		t.Helper()
		reg, _ := rolesRegistry(t, id, form, moduletest.JSONResponder(http.StatusOK, recs[name]))
		rep, err := reg.Roles(t.Context(), "NO", id)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	summary := func(rep *registry.RolesReport) []string {
		var out []string
		for _, r := range rep.Roles {
			s := string(r.Group) + "/" + r.RoleCode + "/" + r.Holder.Name
			if !r.Current {
				s += " (former)"
			}
			out = append(out, s)
		}
		return out
	}
	hasNote := func(notes []string, part string) bool {
		for _, n := range notes {
			if strings.Contains(n, part) {
				return true
			}
		}
		return false
	}

	t.Run("resigned chair", func(t *testing.T) {
		t.Parallel()
		rep := get(t, "roller_310000019_resigned-chair_fratraadt_2024shape_SYNTHETIC", "310000019", "AS")
		want := []string{"board/LEDE/Ny Ledersen", "board/NEST/Nest Ledersen", "board/MEDL/Testa Medlemsen", "board/LEDE/Gammel Leder Fratredsen (former)"}
		if diff := cmp.Diff(want, summary(rep)); diff != "" {
			t.Errorf("roles (-want +got):\n%s", diff)
		}
		former := rep.Roles[3]
		if former.ResignedAt != nil || !hasNote(former.Notes, "fratraadt") {
			t.Errorf("former chair: %+v", former)
		}
		if *former.Holder.BirthYear != 1950 || *former.Holder.BirthMonth != 12 {
			t.Errorf("birth %d-%d, want 1950-12", *former.Holder.BirthYear, *former.Holder.BirthMonth)
		}
	})
	t.Run("deregistered member", func(t *testing.T) {
		t.Parallel()
		rep := get(t, "roller_923609016_equinor_asa_2026-09_ANONYMISED-TRIMMED", equinorID, "ASA")
		last := rep.Roles[len(rep.Roles)-1]
		if last.Current || last.RoleCode != "MEDL" || last.Holder.Name != "Per Olav Hansen" || !hasNote(last.Notes, "avregistrert") {
			t.Errorf("last role %+v, want the deregistered member", last)
		}
		if rep.Roles[0].RoleCode != "LEDE" || !rep.Roles[0].Current {
			t.Errorf("first role %+v, want the chair", rep.Roles[0])
		}
		if !hasNote(rep.Roles[3].Notes, "Elected by the employees") {
			t.Errorf("employee-elected member notes %v", rep.Roles[3].Notes)
		}
	})
	t.Run("deceased member", func(t *testing.T) {
		t.Parallel()
		rep := get(t, "roller_310000027_deceased-board-member_SYNTHETIC", "310000027", "AS")
		m := rep.Roles[1]
		if m.Holder.Deceased == nil || !*m.Holder.Deceased || !hasNote(m.Notes, "deceased") || !m.Current {
			t.Errorf("deceased member %+v", m)
		}
		if d := rep.Roles[0].Holder.Deceased; d == nil || *d {
			t.Errorf("living chair deceased = %v, want false", d)
		}
	})
	t.Run("corporate auditor and odd shapes", func(t *testing.T) {
		t.Parallel()
		rep := get(t, "roller_310000035_corporate-auditor_and-odd-shapes_SYNTHETIC", "310000035", "AS")
		want := []string{
			"signatory/SIFE/Signe Fellesen", "partner/DTSO/Delta Kersen", "auditor/REVI/NY REVISOR AS",
			"other/QQQQ/UKJENT ROLLE AS", "auditor/REVI/REVISJON OG PARTNERE ANS (former)",
		}
		if diff := cmp.Diff(want, summary(rep)); diff != "" {
			t.Errorf("roles (-want +got):\n%s", diff)
		}
		auditor := rep.Roles[4].Holder
		if auditor.Kind != registry.HolderEntity || *auditor.ID != "310000043" || *auditor.Country != "NO" ||
			*auditor.LegalForm != "Ansvarlig selskap" || auditor.BirthYear != nil || auditor.Deceased != nil {
			t.Errorf("auditor holder %+v", auditor)
		}
		if p := rep.Roles[1].Holder; p.BirthYear != nil || p.BirthMonth != nil || p.Deceased != nil {
			t.Errorf("partner with an unreadable birth date: %+v", p)
		}
		if !hasNote(rep.Notes, "1 role(s) of type DTPR have a holder this service cannot read") {
			t.Errorf("notes %v", rep.Notes)
		}
	})
	t.Run("trustee in bankruptcy", func(t *testing.T) {
		t.Parallel()
		rep := get(t, "roller_915330193_konkurs_with-BOBE-bostyrer_2026-09_ANONYMISED", "915330193", "AS")
		var bobe *registry.Role
		for i := range rep.Roles {
			if rep.Roles[i].RoleCode == "BOBE" {
				bobe = &rep.Roles[i]
			}
		}
		if bobe == nil || bobe.Group != registry.RoleOther || bobe.Holder.Kind != registry.HolderPerson ||
			bobe.Holder.Name != "Adv. Ola Nordmann" || bobe.Holder.BirthYear != nil || !bobe.Current {
			t.Fatalf("trustee %+v", bobe)
		}
	})
	t.Run("sole proprietorship", func(t *testing.T) {
		t.Parallel()
		rep := get(t, "roller_123456785_ENK_INNH_SYNTHETIC", "123456785", "ENK")
		if rep.Roles[0].Group != registry.RoleManagement || rep.Roles[1].Group != registry.RoleOwner {
			t.Errorf("roles %v", summary(rep))
		}
		if !hasNote(rep.Notes, "sole proprietorship (ENK)") || !hasNote(rep.Notes, "natural person") {
			t.Errorf("notes %v", rep.Notes)
		}
	})
	t.Run("signature and procuration", func(t *testing.T) {
		t.Parallel()
		rep := get(t, "roller_161616168_AS_SIGN_PROK_SYNTHETIC_shape-unverified", "161616168", "AS")
		want := []string{"board/LEDE/Kari Nordmann", "board/MEDL/Per Eksempel", "management/DAGL/Ola Nordmann",
			"signatory/SIGN/Kari Nordmann", "procuration/PROK/Ola Nordmann"}
		if diff := cmp.Diff(want, summary(rep)); diff != "" {
			t.Errorf("roles (-want +got):\n%s", diff)
		}
		if !hasNote(rep.Notes, "https://data.brreg.no/fullmakt/enheter/161616168/signatur") {
			t.Errorf("notes %v lack the Fullmakt service", rep.Notes)
		}
	})
}

// TestRolesTableComplete: every role type code of the research list is
// mapped, to a valid group, with an English and a Norwegian label.
func TestRolesTableComplete(t *testing.T) {
	t.Parallel()
	codes := strings.Fields("DAGL LEDE NEST MEDL VARA OBS SIGN SIFE SIHV PROK POFE POHV REVI REGN INNH DTPR DTSO KOMP BEST BOBE FFØR KONT REPR EIKM KDEB HLSE KIRK KTRF OPMV ORGL ADOS HFOR KENK")
	seen := map[string]bool{}
	for _, rt := range roleTypes() {
		if seen[rt.Code] {
			t.Errorf("%s twice", rt.Code)
		}
		seen[rt.Code] = true
		if !rt.Group.Valid() || rt.Group == "" || rt.English == "" || rt.Local == "" {
			t.Errorf("%+v", rt)
		}
	}
	for _, c := range codes {
		if !seen[c] {
			t.Errorf("role type %s is not mapped", c)
		}
	}
	if len(seen) != len(codes) {
		t.Errorf("%d codes mapped, %d listed", len(seen), len(codes))
	}
}

// TestRolesSubunit (issue 16): a sub-unit is answered with the roles of its
// parent and a note; the sub-unit's own number is never sent to /roller.
func TestRolesSubunit(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+digdirSubID, httpmock.NewBytesResponder(http.StatusNotFound, nil))
	mt.RegisterResponder(http.MethodGet, testBase+"/underenheter/"+digdirSubID,
		moduletest.JSONResponder(http.StatusOK, recording(t, "underenhet_924203617_digdir_avd_bronnoysund_bedr_2025-02.json")))
	roles := moduletest.JSONResponder(http.StatusOK, roleRecordings(t)["roller_810004622_person_role_docs"])
	mt.RegisterResponder(http.MethodGet, testBase+"/enheter/991825827/roller", func(r *http.Request) (*http.Response, error) {
		if a, ua := r.Header.Get("Accept"), r.Header.Get("User-Agent"); a != acceptRoles || ua == "" {
			t.Errorf("Accept %q, User-Agent %q", a, ua)
		}
		return roles(r)
	})
	reg := newTestRegistry(t, mt)
	rep, err := reg.Roles(t.Context(), "NO", digdirSubID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ID != digdirSubID || len(rep.Roles) != 1 || rep.Roles[0].RoleCode != "LEDE" {
		t.Errorf("report %+v", rep)
	}
	if !strings.Contains(rep.Notes[0], "sub-unit") || !strings.Contains(rep.Notes[0], "991825827") {
		t.Errorf("first note %q", rep.Notes[0])
	}
	if *rep.SourceURL != humanURL("991825827", false) {
		t.Errorf("source_url %s", *rep.SourceURL)
	}
	calls := mt.GetCallCountInfo()
	if calls["GET "+testBase+"/enheter/"+digdirSubID+"/roller"] != 0 || calls["GET "+testBase+"/enheter/991825827/roller"] != 1 {
		t.Errorf("calls %v", calls)
	}

	// A sub-unit without a parent gets no request and a note.
	c := newTestCountry(t, httpmock.NewMockTransport())
	orphan := &registry.CompanyReport{Country: "NO", ID: digdirSubID, Name: "X", IsSubunit: true}
	got, err := c.Roles(t.Context(), orphan)
	if err != nil || len(got.Roles) != 0 || len(got.Notes) != 1 {
		t.Errorf("orphan sub-unit: %+v, %v", got, err)
	}
}

// TestRolesUpstreamOutcomes (issue 16): the roles call maps the register's
// answers as a lookup does; a 404 for a unit the lookup found is an empty
// report with a note.
func TestRolesUpstreamOutcomes(t *testing.T) {
	t.Parallel()
	equinor := roleRecordings(t)["roller_923609016_equinor_asa_2026-09_ANONYMISED-TRIMMED"]
	tests := []struct {
		name      string
		responses []httpmock.Responder
		wantCode  registry.Code // "" for success
		wantGone  bool
		wantCalls int // roles calls
	}{
		{name: "404 is an empty report", wantCalls: 1, responses: []httpmock.Responder{httpmock.NewBytesResponder(404, nil)}},
		{name: "empty object is an empty report", wantCalls: 1, responses: []httpmock.Responder{moduletest.JSONResponder(200, []byte(`{}`))}},
		{name: "410 is not_found, gone", wantCode: registry.CodeNotFound, wantGone: true, wantCalls: 1,
			responses: []httpmock.Responder{httpmock.NewBytesResponder(410, nil)}},
		{name: "400 is invalid_id", wantCode: registry.CodeInvalidID, wantCalls: 1,
			responses: []httpmock.Responder{moduletest.JSONResponder(400, recording(t, "error_400_invalid_orgnr_roller_docs.json"))}},
		{name: "429 is rate_limited", wantCode: registry.CodeRateLimited, wantCalls: 1,
			responses: []httpmock.Responder{moduletest.JSONResponder(429, nil)}},
		{name: "500 then 200 is retried", wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(500, recording(t, "error_500_docs.json")), moduletest.JSONResponder(200, equinor)}},
		{name: "malformed twice", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(200, equinor[:len(equinor)/2])}},
		{name: "HTML page twice", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{func(*http.Request) (*http.Response, error) {
				r := httpmock.NewStringResponse(200, "<html></html>")
				r.Header.Set("Content-Type", "text/html")
				return r, nil
			}}},
		{name: "body over the size limit", wantCode: registry.CodeUpstreamError, wantCalls: 2,
			responses: []httpmock.Responder{moduletest.JSONResponder(200, []byte(`{"x":"`+strings.Repeat("A", maxBodyBytes)+`"}`))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg, mt := rolesRegistry(t, equinorID, "ASA", moduletest.Sequence(tt.responses...))
			rep, err := reg.Roles(t.Context(), "NO", equinorID)
			if got := mt.GetCallCountInfo()["GET "+testBase+"/enheter/"+equinorID+"/roller"]; got != tt.wantCalls {
				t.Errorf("roles calls = %d, want %d", got, tt.wantCalls)
			}
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Roles: %v", err)
				}
				if rep.Notes == nil || rep.Roles == nil {
					t.Errorf("report %+v", rep)
				}
				return
			}
			e := moduletest.AsError(t, err)
			if e.Code != tt.wantCode || e.Gone != tt.wantGone || e.Country != "NO" {
				t.Errorf("error %+v, want %s gone=%v", e, tt.wantCode, tt.wantGone)
			}
		})
	}
}

// TestRolesNoPersonalDataInErrorsOrLogs (issue 16): whatever the register
// answers, no error text and no log line (at debug level) holds a person's
// name or birth date.
func TestRolesNoPersonalDataInErrorsOrLogs(t *testing.T) {
	t.Parallel()
	var secrets []string
	recs := roleRecordings(t)
	for _, b := range recs {
		secrets = append(secrets, personNames(t, b)...)
		secrets = append(secrets, birthDates(t, b)...)
	}
	if len(secrets) < 40 {
		t.Fatalf("only %d names and dates collected", len(secrets))
	}
	var logs moduletest.SyncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var errs []string
	for name, body := range recs {
		id := strings.Split(name, "_")[1]
		for _, resp := range []httpmock.Responder{
			moduletest.JSONResponder(200, body),
			moduletest.JSONResponder(200, body[:len(body)-3]),
			moduletest.JSONResponder(200, append([]byte(`{"rollegrupper":"`), body...)),
			moduletest.JSONResponder(500, body),
			moduletest.JSONResponder(400, body),
			moduletest.JSONResponder(429, body),
			moduletest.JSONResponder(418, body),
		} {
			reg, _ := rolesRegistry(t, id, "ENK", resp, registry.WithLogger(logger))
			if _, err := reg.Roles(t.Context(), "NO", id); err != nil {
				e := moduletest.AsError(t, err)
				errs = append(errs, err.Error(), e.Hint)
				if e.Err != nil {
					errs = append(errs, e.Err.Error())
				}
			}
		}
	}
	if len(errs) == 0 || logs.Len() == 0 {
		t.Fatalf("%d errors and %d bytes of logs: the test exercised nothing", len(errs), logs.Len())
	}
	all := strings.Join(errs, "\n") + "\n" + logs.String()
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("an error or log line holds %q", s)
		}
	}
}

// FuzzMapRoles feeds arbitrary JSON into the roles mapping: it never
// panics, every report encodes, every group is valid, every holder is a
// person or an entity, and no birth date longer than year and month
// survives.
func FuzzMapRoles(f *testing.F) {
	moduletest.AddFiles(f, filepath.Join("testdata", "brreg", "roles", "*.json"))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"rollegrupper":[{"roller":[{"type":null,"person":{"navn":null,"fodselsdato":"0000-00-00"}}]}]}`))
	f.Add([]byte(`{"rollegrupper":[{"type":{"kode":"FFØR"},"roller":[{"enhet":{"navn":"x"},"rekkefolge":"a"},{"bostyrer":{"navn":["a",null]}}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var doc rolesDoc
		if json.Unmarshal(body, &doc) != nil {
			return
		}
		roles, notes := mapRoles(&doc)
		rep := registry.RolesReport{Roles: roles, Notes: notes}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatalf("report does not encode: %v", err)
		}
		for _, r := range roles {
			if !r.Group.Valid() || r.Group == "" {
				t.Errorf("group %q", r.Group)
			}
			if r.Holder.Kind != registry.HolderPerson && r.Holder.Kind != registry.HolderEntity {
				t.Errorf("holder kind %q", r.Holder.Kind)
			}
			if r.Control == nil || r.Notes == nil || r.Role == "" {
				t.Errorf("role %+v", r)
			}
			if (r.Holder.BirthYear == nil) != (r.Holder.BirthMonth == nil) {
				t.Errorf("birth %v %v", r.Holder.BirthYear, r.Holder.BirthMonth)
			}
		}
		for _, d := range birthDates(t, body) {
			// A date that also stands elsewhere in the input (in a name)
			// may rightly be in the report.
			if bytes.Count(body, []byte(d)) == 1 && bytes.Contains(b, []byte(d)) {
				t.Errorf("birth date %s in the report", d)
			}
		}
	})
}

// TestRulesDocumentRoles: the rules document has the roles section with
// every mapped code and the Fullmakt service.
func TestRulesDocumentRoles(t *testing.T) {
	t.Parallel()
	doc := newTestCountry(t, httpmock.NewMockTransport()).Rules()
	for _, want := range []string{"## Roles", "avregistrert", "bostyrer", fullmaktURL, "| FFØR | management |"} {
		if !strings.Contains(doc, want) {
			t.Errorf("rules lack %q", want)
		}
	}
	for _, rt := range roleTypes() {
		if !strings.Contains(doc, "| "+rt.Code+" | "+string(rt.Group)+" | "+rt.English+" |") {
			t.Errorf("rules lack the row of %s", rt.Code)
		}
	}
}

// TestBoardOrderWithMissingRekkefolge: within a group the chair comes first,
// then the roles in the register's rekkefolge, then those without one in
// the register's order, whatever order the register sends them in (a review
// found a comparator that was not a total order).
func TestBoardOrderWithMissingRekkefolge(t *testing.T) {
	t.Parallel()
	body := []byte(`{"rollegrupper":[{"type":{"kode":"STYR","beskrivelse":"Styre"},"roller":[
		{"type":{"kode":"MEDL","beskrivelse":"Styremedlem"},"person":{"navn":{"fornavn":"C","etternavn":"THREE"}},"rekkefolge":3},
		{"type":{"kode":"MEDL","beskrivelse":"Styremedlem"},"person":{"navn":{"fornavn":"N","etternavn":"NONE"}}},
		{"type":{"kode":"MEDL","beskrivelse":"Styremedlem"},"person":{"navn":{"fornavn":"A","etternavn":"ONE"}},"rekkefolge":1},
		{"type":{"kode":"LEDE","beskrivelse":"Styrets leder"},"person":{"navn":{"fornavn":"B","etternavn":"TWO"}},"rekkefolge":2}]}]}`)
	var doc rolesDoc
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	roles, _ := mapRoles(&doc)
	var got []string
	for _, r := range roles {
		got = append(got, r.RoleCode+" "+r.Holder.Name)
	}
	want := []string{"LEDE B TWO", "MEDL A ONE", "MEDL C THREE", "MEDL N NONE"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}
