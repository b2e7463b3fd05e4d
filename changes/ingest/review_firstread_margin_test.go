package ingest

import (
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_FirstReadStartsAtBaselineStampWithoutMargin (issue 28: "a
// baseline is taken when a company is added, so the first event is a real
// change"; the fix of TestChangeWiring): when the oldest baseline is older
// than the minute of grace, the first read starts exactly at its TakenAt.
// TakenAt is stamped by changes.RegistryFetcher after Refresh returned (the
// report read, then the roles read: two upstream calls), on the clock of
// the replica that took it, while dato/time are Brønnøysund's publication
// stamps. A change published a second before the stamp but after the
// report was read is in neither the baseline nor the feed read from the
// stamp: it is never reported. The roles feed's afterTime is exclusive,
// so there even an event at the stamp's millisecond is skipped. The grace
// given to now (a minute) is not given to the baseline.
func TestReview_FirstReadStartsAtBaselineStampWithoutMargin(t *testing.T) {
	t.Parallel()
	// Both items were published at 2026-09-01T10:30:11.706Z; the baseline
	// was stamped 10:30:12.9 (its report had been read at 10:30:11.2).
	stamp := time.Date(2026, 9, 1, 10, 30, 12, 900_000_000, time.UTC)
	role := func(name string) registry.Role {
		return registry.Role{Group: registry.RoleManagement, RoleCode: "DAGL", Role: "Chief executive", Current: true,
			Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: name}}
	}
	for _, tc := range []struct {
		feed, file, id string
		base           changes.Snapshot
		now            answer
		kind           changes.Kind
	}{
		{feed: "enheter", file: "oppdateringer_enheter_includeChanges_914375916_name-and-address-change_2026-09_ANONYMISED.json",
			id:   "914375916",
			base: snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil),
			now:  ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")),
			kind: changes.KindNameChanged},
		{feed: "roller", file: "oppdateringer_roller_SYNTHETIC.json", id: "923609016",
			base: snapshot(report("NO", "923609016", "EQUINOR ASA"), &registry.RolesReport{ID: "923609016", Roles: []registry.Role{role("Kari Nordmann")}}),
			now:  answer{rep: report("NO", "923609016", "EQUINOR ASA"), roles: &registry.RolesReport{ID: "923609016", Roles: []registry.Role{role("Ola Nordmann")}}},
			kind: changes.KindRolesChanged},
	} {
		t.Run(tc.feed, func(t *testing.T) {
			t.Parallel()
			st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
			srv.addRecording(t, tc.feed, tc.file)
			base := tc.base
			base.TakenAt = stamp
			watch(t, st, "NO", []string{tc.id}, base)
			f.set("NO", tc.id, tc.now)
			n := newTestNorway(t, st, f, srv)
			for _, at := range []time.Time{t0, t0.Add(time.Minute)} { // 12:00, then the next sync
				if err := n.Sync(t.Context(), at); err != nil {
					t.Fatal(err)
				}
			}
			cs := companyChanges(t, st, "NO", tc.id)
			if len(cs) != 1 || cs[0].Kind != tc.kind {
				t.Errorf("%s: %d changes %+v after the first syncs (requests %v); want the %s published before the baseline's stamp and missing from it",
					tc.feed, len(cs), recordedOf(cs), srv.requestsOf(tc.feed), tc.kind)
			}
		})
	}
}
