package deadlines_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestDenmarkStoreBededagStopsBankDaysUntil2023 (rev-doors12 found the
// README saying that no past day is computed under the law of its time):
// Denmark's calendar is the one that is, by year. Store Bededag was a
// public holiday, and a bank closing day, until it was abolished from
// 1 January 2024 (the package doc's "Danish holidays and bank closing
// days"): on 30 April 2021 it still stops the bank days, so a large
// employer's withholding for April 2021, due on the month's last bank
// day, falls on Thursday 29 April. The README now names this exception.
func TestDenmarkStoreBededagStopsBankDaysUntil2023(t *testing.T) {
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
	if diff := cmp.Diff(registry.NewDate(2021, 4, 29), got); diff != "" {
		t.Errorf("April 2021's withholding, today 2021-04-01 (-want +got):\n%s", diff)
	}
}
