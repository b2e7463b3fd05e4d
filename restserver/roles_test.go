package restserver_test

import (
	"context"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/restserver"
)

// rolesFake is a fakeCountry that answers roles: a chair, a former member
// and an auditor firm. Its person names are distinctive so that a test can
// look for them in the logs.
type rolesFake struct{ fakeCountry }

func (f *rolesFake) Roles(_ context.Context, rep *registry.CompanyReport) (*registry.RolesReport, error) {
	if rep.ID == "222222" {
		return nil, &registry.Error{Code: registry.CodeUpstreamError, Message: "The fake register's roles answered 503.", Retryable: true}
	}
	person := func(name string, y, m int) registry.RoleHolder {
		return registry.RoleHolder{Kind: registry.HolderPerson, Name: name, BirthYear: &y, BirthMonth: &m, Deceased: countrykit.Ptr(false)}
	}
	return &registry.RolesReport{
		Country: rep.Country, Registry: rep.Registry, ID: rep.ID, Name: rep.Name,
		Roles: []registry.Role{
			{Group: registry.RoleAuditor, RoleCode: "REVI", Role: "Auditor", RoleLocal: countrykit.Ptr("Revisor"),
				Holder: registry.RoleHolder{Kind: registry.HolderEntity, Name: "FAKE REVISJON AS", ID: countrykit.Ptr("999999"), Country: countrykit.Ptr(rep.Country)}, Current: true},
			{Group: registry.RoleBoard, RoleCode: "MEDL", Role: "Board member", Holder: person("Formerly Boardmember", 1950, 12)},
			{Group: registry.RoleBoard, RoleCode: "LEDE", Role: "Chair of the board", Holder: person("Chaira Personsdottir", 1970, 1),
				AppointedAt: registry.NewDate(2020, time.March, 1).Ptr(), Current: true},
		},
		Source: countrykit.Ptr("Fake register"), SourceURL: countrykit.Ptr("https://fake.example/" + rep.ID), License: countrykit.Ptr("CC0"),
		Notes: []string{"Who may sign is registered elsewhere."},
	}, nil
}

// newRolesHarness serves ZZ with roles and ZX without.
func newRolesHarness(t *testing.T) *harness {
	t.Helper()
	clock := newFakeClock()
	reg, err := registry.New([]registry.Country{&rolesFake{fakeCountry{code: "ZZ"}}, &fakeCountry{code: "ZX"}},
		registry.WithClock(clock.Now), registry.WithUpstreamTimeout(roomyTimeout),
		registry.WithRetryPause(0), registry.WithVersion("1.2.3-test"))
	if err != nil {
		t.Fatal(err)
	}
	return newHarnessWith(t, reg, clock, restserver.WithRateLimit(0))
}

// TestRolesRoute (issue 16): GET /v1/{country}/company/{id}/roles answers
// the RolesReport, sorted, documented in openapi.json, with the errors of a
// lookup, and not_implemented for a country without roles.
func TestRolesRoute(t *testing.T) {
	t.Parallel()
	h := newRolesHarness(t)
	const route = "/v1/{country}/company/{id}/roles"
	for _, tt := range []struct {
		name   string
		path   string
		status int
		code   registry.Code
	}{
		{"roles", "/v1/zz/company/123%20456/roles", 200, ""},
		{"roles invalid_id", "/v1/ZZ/company/12345/roles", 400, registry.CodeInvalidID},
		{"roles not_found", "/v1/ZZ/company/000000/roles", 404, registry.CodeNotFound},
		{"roles unsupported_country", "/v1/XX/company/123456/roles", 404, registry.CodeUnsupportedCountry},
		{"roles not_implemented", "/v1/ZX/company/123456/roles", 501, registry.CodeNotImplemented},
		{"roles upstream_error", "/v1/ZZ/company/222222/roles", 502, registry.CodeUpstreamError},
		{"roles lookup upstream_timeout", "/v1/ZZ/company/504504/roles", 504, registry.CodeUpstreamTimeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := h.get(t, tt.path)
			if res.status != tt.status {
				t.Fatalf("GET %s: status %d, want %d\n%s", tt.path, res.status, tt.status, res.body)
			}
			if tt.code != "" {
				if e := errorOf(t, res.body); e.Code != tt.code || e.Hint == "" {
					t.Errorf("error %+v, want %s with a hint", e, tt.code)
				}
				if got := res.header.Get("Cache-Control"); got != "no-store" {
					t.Errorf("Cache-Control %q", got)
				}
			}
			h.check(t, route, res)
			golden(t, "routes/"+strings.ReplaceAll(tt.name, " ", "_")+".golden", indent(t, res.body))
		})
	}
	// The subtests run after this function returns: another id.
	_ = h.get(t, "/v1/ZZ/company/654321/roles")
	if got := h.get(t, "/v1/ZZ/company/654321/roles"); !strings.Contains(string(got.body), `"cached":true`) {
		t.Errorf("second call not cached: %s", got.body)
	}
	if res := h.do(t, "POST", "/v1/ZZ/company/123456/roles", nil); res.status != 405 {
		t.Errorf("POST: status %d, want 405", res.status)
	}
	for _, doc := range []string{"/llms.txt", "/llms-full.txt", "/openapi.json"} {
		if body := string(h.get(t, doc).body); !strings.Contains(body, "/roles") {
			t.Errorf("%s does not mention the roles route", doc)
		}
	}
	if body := string(h.get(t, "/llms-full.txt").body); !strings.Contains(body, "### RolesReport") || !strings.Contains(body, "company_roles(") {
		t.Error("llms-full.txt lacks the RolesReport document or the company_roles tool")
	}
}

// TestRolesNoPersonalDataInLogs (issue 16): the access log of a roles
// request names no holder.
func TestRolesNoPersonalDataInLogs(t *testing.T) {
	t.Parallel()
	h := newRolesHarness(t)
	for _, p := range []string{"/v1/ZZ/company/123456/roles", "/v1/ZZ/company/222222/roles", "/v1/ZZ/company/000000/roles"} {
		res := h.get(t, p)
		if strings.Contains(string(res.body), "Chaira") != (res.status == 200) {
			t.Errorf("GET %s: %d %s", p, res.status, res.body)
		}
	}
	logs := h.logs.String()
	if !strings.Contains(logs, "/roles") {
		t.Fatalf("no access log: %s", logs)
	}
	for _, s := range []string{"Chaira", "Personsdottir", "Formerly Boardmember", "1970-01"} {
		if strings.Contains(logs, s) {
			t.Errorf("the log holds %q", s)
		}
	}
}
