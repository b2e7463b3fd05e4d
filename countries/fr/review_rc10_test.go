package fr

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// TestReview_FRRolesChairNotFirst: Registry.Roles documents its order as
// "by group ..., keeping the register's order within a group (the chair
// first)", and the Danish module sorts its board so (FORMAND first). The
// French module keeps the API's order, where Danone's Président du conseil
// d'administration is the last of ten board roles, so a caller reading the
// first board role as the chair is told an ordinary director.
func TestReview_FRRolesChairNotFirst(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(http.StatusOK, recording(t, danoneFile)))
	reg := newTestRegistry(t, mt, registry.WithClock(fixedNow))
	out, err := reg.Roles(t.Context(), "FR", "552032534")
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for _, r := range out.Roles {
		if r.Group == registry.RoleBoard {
			first = r.RoleCode + " " + r.Holder.Name
			break
		}
	}
	if diff := cmp.Diff("Président du conseil d'administration GILLES SCHNEPP", first); diff != "" {
		t.Errorf("first board role (-want +got):\n%s", diff)
	}
}
