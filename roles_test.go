package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// rolesCountry is a fakeCountry that answers roles.
type rolesCountry struct {
	fakeCountry
	calls atomic.Int64
	roles []registry.Role
}

func (c *rolesCountry) Roles(_ context.Context, rep *registry.CompanyReport) (*registry.RolesReport, error) {
	c.calls.Add(1)
	return &registry.RolesReport{Country: rep.Country, Registry: rep.Registry, ID: rep.ID, Name: rep.Name,
		Roles: append([]registry.Role(nil), c.roles...)}, nil
}

func role(g registry.RoleGroup, code string, current bool) registry.Role {
	return registry.Role{Group: g, RoleCode: code, Role: code, Current: current,
		Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "P " + code}}
}

// TestRoles (issue 16): the entity is looked up first, roles are sorted
// current before former, then by group with the module's order kept inside
// a group, and the answer is cached.
func TestRoles(t *testing.T) {
	t.Parallel()
	c := &rolesCountry{fakeCountry: fakeCountry{code: "NO"}, roles: []registry.Role{
		role(registry.RoleAuditor, "REVI", true),
		role(registry.RoleBoard, "MEDL", false),
		role(registry.RoleManagement, "DAGL", true),
		role(registry.RoleBoard, "LEDE", true),
		role(registry.RoleBoard, "MEDL", true),
		role("", "KONT", true),
	}}
	r, err := registry.New([]registry.Country{c})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Roles(t.Context(), "no", "123 456")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, ro := range got.Roles {
		order = append(order, string(ro.Group)+"/"+ro.RoleCode)
	}
	want := []string{"board/LEDE", "board/MEDL", "management/DAGL", "auditor/REVI", "other/KONT", "board/MEDL"}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if got.ID != "123456" || got.Name != "FAKE AS" || got.Cached || got.FetchedAt == nil {
		t.Errorf("identity %+v", got)
	}
	again, err := r.Roles(t.Context(), "NO", "123456")
	if err != nil || !again.Cached || !again.FetchedAt.Equal(*got.FetchedAt) {
		t.Errorf("second call not cached: %+v %v", again, err)
	}
	if c.calls.Load() != 1 || c.lookups.Load() != 1 {
		t.Errorf("roles calls %d, lookups %d; want 1 and 1", c.calls.Load(), c.lookups.Load())
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"group":"other"`, `"control":[]`, `"notes":[]`, `"birth_year":null`, `"role_local":null`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("JSON lacks %s: %s", s, b)
		}
	}
}

// TestRolesErrors: a module without roles is not_implemented, an unknown
// entity is the lookup's not_found, an invalid id never reaches the
// register.
func TestRolesErrors(t *testing.T) {
	t.Parallel()
	plain := newRegistry(t, &fakeCountry{code: "NO"})
	_, err := plain.Roles(t.Context(), "NO", "123456")
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeNotImplemented || e.HTTPStatus() != 501 || e.Country != "NO" {
		t.Errorf("module without roles: %v", err)
	}
	c := &rolesCountry{fakeCountry: fakeCountry{code: "NO"}}
	r, err := registry.New([]registry.Country{c})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Roles(t.Context(), "NO", "000000"); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("unknown entity: %v", err)
	}
	if _, err := r.Roles(t.Context(), "NO", "12x"); !errors.Is(err, registry.ErrInvalidID) {
		t.Errorf("invalid id: %v", err)
	}
	if _, err := r.Roles(t.Context(), "SE", "123456"); !errors.Is(err, registry.ErrUnsupportedCountry) {
		t.Errorf("unknown country: %v", err)
	}
	if c.calls.Load() != 0 {
		t.Errorf("the module's Roles was called %d times", c.calls.Load())
	}
}

// TestRoleGroupText: the zero group is other; unknown groups are refused.
func TestRoleGroupText(t *testing.T) {
	t.Parallel()
	var g registry.RoleGroup
	if b, err := g.MarshalText(); err != nil || string(b) != "other" {
		t.Errorf("zero: %s %v", b, err)
	}
	if _, err := registry.RoleGroup("ceo").MarshalText(); err == nil {
		t.Error("ceo accepted")
	}
	if err := g.UnmarshalText([]byte("beneficial_owner")); err != nil || g != registry.RoleBeneficialOwner {
		t.Errorf("unmarshal: %v %v", g, err)
	}
}
