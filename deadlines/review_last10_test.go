package deadlines_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestReview_DKAnnualReportNoteNamesYear10000: 7cebd3a guarded the DK
// tax_return roll note with writable(due), but the annual_report note
// ("… is a Sunday and not a business day") is written for any statutory
// date, before finish drops the deadline as unwritable. An ApS whose
// financial year ends 30 October, on 9999-05-01: the annual report of the
// year ending 9999-10-30 is due 10000-04-30, left out of the list, yet
// the notes say "annual_report: 10000-04-30 is a Sunday …". A sweep of
// the six engines over 9998-06-01..9999-12-31 (every year-end month, days
// 28/30/31) finds this note alone. Suggested fix: guard it with
// writable(stat), as the tax_return note.
func TestReview_DKAnnualReportNoteNamesYear10000(t *testing.T) {
	t.Parallel()
	r, d := rv10DK(deadlines.DanishVATHalfYearly)
	d.YearEndMonth, d.YearEndDay = time.October, 30
	out := deadlines.Denmark(r, d, registry.NewDate(9999, 5, 1))
	unwritable := regexp.MustCompile(`\d{5,}-\d\d-\d\d`)
	var got []string
	for _, n := range out.Notes {
		if unwritable.MatchString(n) {
			got = append(got, n)
		}
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("notes naming dates past 9999 of deadlines left out (-want +got):\n%s", diff)
	}
}
