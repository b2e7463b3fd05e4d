package fr

import (
	"net/http"
	"strings"
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

// TestReview_FRSearchHintSaysRaiseLimitPastThePage: the module asks the API
// for at most 25 rows (per_page's maximum) whatever the limit, so a search
// for "la poste" (10,000 matches) with limit 50 can never return more than
// 25 hits; yet the Registry's hint tells the caller to "raise limit (at
// most 100)", which brings no more hits. The request shows the cap.
func TestReview_FRSearchHintSaysRaiseLimitPastThePage(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	var perPage []string
	mt.RegisterResponder(http.MethodGet, testBase+"/search", func(req *http.Request) (*http.Response, error) {
		perPage = append(perPage, req.URL.Query().Get("per_page"))
		return moduletest.JSONResponder(http.StatusOK, recording(t, laPosteFile))(req)
	})
	reg := newTestRegistry(t, mt, registry.WithClock(fixedNow))
	res, err := reg.Search(t.Context(), "FR", "la poste", 50)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"25"}, perPage); diff != "" {
		t.Fatalf("per_page sent (-want +got):\n%s", diff)
	}
	type answer struct {
		Truncated       bool
		HintRaisesLimit bool
	}
	got := answer{res.Truncated, res.Hint != nil && strings.Contains(*res.Hint, "raise limit")}
	if diff := cmp.Diff(answer{Truncated: true, HintRaisesLimit: false}, got); diff != "" {
		t.Errorf("hint %q (-want +got):\n%s", *res.Hint, diff)
	}
}
