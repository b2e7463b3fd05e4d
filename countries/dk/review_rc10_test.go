package dk

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_DKShareholdersInOwnerGroup: registry.RoleOwner was documented
// as "owns a sole proprietorship or is a municipality owning an entity",
// but the Danish module puts every legal owner of the register of owners
// (EJERREGISTER, holders of 5 % or more) of an ApS in that group: 12
// current "owner" roles for Tietgen Invest ApS, a company that is neither.
// The review asserted no owner role for the ApS. fix-fr10 widened the
// group's doc to the legal owners a register lists (holders of 5 % or more,
// the share in the notes), so this now asserts that reading: each current
// owner of the ApS is a register-of-owners holder, none a proprietor, and
// carries its registered share.
func TestReview_DKShareholdersInOwnerGroup(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry(t, newFakeCVR(t, allRecordings(), ""), registry.WithClock(fixedNow))
	out, err := reg.Roles(t.Context(), "DK", apsID)
	if err != nil {
		t.Fatal(err)
	}
	type owner struct {
		Code, Role string
		Notes      []string
	}
	var got []owner
	for _, r := range out.Roles {
		if r.Group == registry.RoleOwner && r.Current {
			got = append(got, owner{r.RoleCode, r.Role, r.Notes})
		}
	}
	holder := owner{"EJERREGISTER", "Legal owner (in the register of owners)",
		[]string{"Registered share: 5 % of the capital and 5 % of the votes."}}
	if diff := cmp.Diff(slices.Repeat([]owner{holder}, 12), got); diff != "" {
		t.Errorf("current roles in group owner of an ApS (-doc +got):\n%s", diff)
	}
}
