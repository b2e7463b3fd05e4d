package se

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// TestReview_SEStruckOffTimestampDatesDropped: Bolagsverket's own OpenAPI
// example (organisationer_200_aktiebolag_docs-example.json) gives
// avregistreringsdatum and fromDatum as timestamps,
// "2023-05-05T00:00:00.000+00:00"; the research says the field is "a
// plain date or" that form, and that a deregistration date makes the
// company dissolved. upstream.Date parses only YYYY-MM-DD, so the
// struck-off AB (deregistered 2023-05-05, reason LIAV) is answered as
// bankrupt, with no deregistered_at and no bankruptcy_date.
func TestReview_SEStruckOffTimestampDatesDropped(t *testing.T) {
	t.Parallel()
	r := moduletest.NewRegistry(t, build(t, newRegister(t)), registry.WithClock(fixedNow))
	rep, err := r.Lookup(t.Context(), "SE", "5299999994")
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Status       registry.Status
		Deregistered string
	}
	g := got{Status: rep.Status}
	if rep.DeregisteredAt != nil {
		g.Deregistered = rep.DeregisteredAt.String()
	}
	if diff := cmp.Diff(got{registry.StatusDissolved, "2023-05-05"}, g); diff != "" {
		t.Errorf("struck-off AB (-want +got):\n%s", diff)
	}
}
