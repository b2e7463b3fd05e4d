package deadlines_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestReview_Doors12ReadmePastTodayGetsTodaysRules (rev-doors12): the
// README (ea82c50) says of the deadline engines that "any today gets
// today's rules (a past one is not computed under the law of its time)".
// Denmark's engine does compute a past day under the law of its time:
// Store Bededag, abolished as a holiday from 2024, still stops the bank
// days of 2021. A large employer's withholding for April 2021 is due on
// the last bank day of April; by today's rules that is Friday 30 April
// 2021, but the engine gives Thursday 29 April (30 April 2021 was Store
// Bededag). The package doc states this exception; the README's sentence
// does not.
func TestReview_Doors12ReadmePastTodayGetsTodaysRules(t *testing.T) {
	t.Parallel()
	duties := dkApSDuties()
	duties.LargeEmployer = true
	rep := deadlines.Denmark(dkApS(), duties, registry.NewDate(2021, 4, 1))
	var got registry.Date
	for _, d := range rep.Deadlines {
		if d.Kind == deadlines.EmployerWithholding && d.PeriodStart != nil && *d.PeriodStart == registry.NewDate(2021, 4, 1) {
			got = d.StatutoryDate
		}
	}
	if diff := cmp.Diff(registry.NewDate(2021, 4, 30), got); diff != "" {
		t.Errorf("April 2021's withholding, today 2021-04-01 (-today's rules, as the README says +got):\n%s", diff)
	}
}
