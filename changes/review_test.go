package changes_test

import (
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/moduletest"
)

// TestReview_RolesEndpoint404IsReportedAsRolesRemoved (issue 28: "a
// register outage or a 404 must not produce a false" change): an active
// unit (its report answers 200, unchanged) whose roles endpoint answers
// 404 once is fetched as a roles report without roles (the Norwegian
// module's rule for deleted units), and Diff reports roles_changed: every
// board member and signatory removed. The next fetch, with the roles back,
// reports them all added again: two webhooks of a change that never
// happened. The same holds for Companies House, whose module reads a 404 of
// an officer or PSC list as an empty list.
func TestReview_RolesEndpoint404IsReportedAsRolesRemoved(t *testing.T) {
	t.Parallel()
	clock := fakeclock.New(now)
	unit := moduletest.Recording(t, "brreg", "enhet_923609016_equinor_asa_2026-08.json")
	roles := moduletest.Recording(t, "brreg", "roller_923609016_equinor_asa_2026-03_REDACTED-birth-day.json")
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", testBase+"/enheter/923609016", moduletest.JSONResponder(200, unit))
	mt.RegisterResponder("GET", testBase+"/enheter/923609016/roller", moduletest.Sequence(
		moduletest.JSONResponder(200, roles),
		moduletest.JSONResponder(404, []byte(`{"timestamp":"2026-09-01T10:00:00.000+00:00","status":404,"error":"Not Found","path":"/enhetsregisteret/api/enheter/923609016/roller"}`))))
	f := norway(t, mt, clock)
	first, err := f.Fetch(t.Context(), "NO", "923609016")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	second, err := f.Fetch(t.Context(), "NO", "923609016")
	if err != nil {
		t.Fatal(err)
	}
	got, err := changes.Diff(first, second, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		t.Errorf("an unchanged active unit whose roles endpoint answered 404 once: %s, old %.80s… new %s", c.Kind, c.Old, c.New)
	}
}
