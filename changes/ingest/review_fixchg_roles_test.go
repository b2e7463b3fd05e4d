package ingest

import (
	"fmt"
	"log/slog"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_CompanyMissThenRolesGoneReportedAtOnce (issue 28: "a register
// outage or a 404 must not produce a false" change; the fix's rule: a
// whole group of roles gone is reported on the second consecutive
// answer): Snapshot.Misses counts both the company's not_found answers
// and the roles' vanished answers. A company answered not_found once (an
// outage: Misses 1), then found with its roles endpoint's one-off 404
// (roles empty), is reported roles_changed to [] at that first roles
// answer, because refresh reads old.Misses != 0 as "the roles vanished
// once already". The next answer brings the roles back, as a second
// false roles_changed.
func TestReview_CompanyMissThenRolesGoneReportedAtOnce(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	full := &registry.RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: "EKSEMPEL AS", Roles: []registry.Role{
		{Group: registry.RoleBoard, RoleCode: "LEDE", Role: "Chair", Current: true, Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "Kari Nordmann"}}}}
	empty := &registry.RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: "EKSEMPEL AS", Roles: []registry.Role{}}
	rep := report("NO", "923609016", "EKSEMPEL AS")
	watch(t, st, "NO", []string{"923609016"}, snapshot(rep, full))
	f.set("NO", "923609016", answer{err: &registry.Error{Code: registry.CodeNotFound}},
		answer{rep: rep, roles: empty}, answer{rep: rep, roles: full})
	r := refresher{store: st, fetch: f, log: slog.New(slog.DiscardHandler)}
	for i := range 3 {
		var b changes.Batch
		if err := r.refreshInto(t.Context(), signal{country: "NO", id: "923609016", eventID: fmt.Sprint("roller/", i)}, t0, &b); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(t.Context(), b); err != nil {
			t.Fatal(err)
		}
		if cs := companyChanges(t, st, "NO", "923609016"); len(cs) != 0 {
			t.Fatalf("answer %d (not_found, then roles once empty, then roles back): %+v; want no change", i+1, recordedOf(cs))
		}
	}
}
