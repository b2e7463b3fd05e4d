package deadlines_test

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestReview_DKPrepaymentNoteDueIsNotListedDueDate (rev-read10c, P2): since
// 655afd7 Denmark's first-year prepayment note says "The first listed is of
// the income year Y, due D" with D the statutory 20 March / 20 November.
// When that day is not a bank day the instalment listed beside it has a
// later due_date: a company founded 2026-06-01, asked 2026-11-27, reads
// "due 2027-03-20" (a Saturday) in the note and due_date 2027-03-22 on the
// deadline. The note's "due" should be the listed due_date (or say
// "statutory date").
func TestReview_DKPrepaymentNoteDueIsNotListedDueDate(t *testing.T) {
	t.Parallel()
	r, d := rv10DK(deadlines.DanishVATHalfYearly)
	founded := registry.NewDate(2026, 6, 1)
	r.FoundedAt, r.RegisteredAt = &founded, &founded
	today := registry.NewDate(2026, 11, 27)
	out := deadlines.Denmark(r, d, today)
	var listed []string
	for _, x := range out.Deadlines {
		if x.Kind == deadlines.TaxPrepayment {
			listed = append(listed, x.DueDate.String())
		}
	}
	var named []string
	re := regexp.MustCompile(`The first listed is of the income year \d+, due (\d{4}-\d\d-\d\d)\.`)
	for _, n := range out.Notes {
		if m := re.FindStringSubmatch(n); m != nil {
			named = append(named, m[1])
		}
	}
	if len(listed) == 0 || len(named) == 0 {
		t.Fatalf("fixture: listed %q, note dates %q, notes %q", listed, named, out.Notes)
	}
	if diff := cmp.Diff(listed[:1], named); diff != "" {
		t.Errorf("the note's due date vs the due_date of the instalment listed (-listed +note):\n%s", diff)
	}
}
