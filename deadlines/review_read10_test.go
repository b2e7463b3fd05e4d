package deadlines_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestReview_FinishKeepsLastYearsFrenchReturnNote (rev-read10, P2): asked
// on 9999-05-10, France's engine notes that the return of financial year
// 9998 was due on 9999-05-04 and may still be sent online until
// 9999-05-19, all dates that can be written. The next tax_return
// (financial year 9999, due in 10000) is left out, so finish drops every
// "tax_return: ..." note, this one too; before d7459e9 it was kept.
func TestReview_FinishKeepsLastYearsFrenchReturnNote(t *testing.T) {
	t.Parallel()
	r, d := rv10FR()
	out := deadlines.France(r, d, registry.NewDate(9999, 5, 10))
	var got []string
	for _, n := range out.Notes {
		if strings.HasPrefix(n, "tax_return: ") {
			got = append(got, n)
		}
	}
	want := []string{"tax_return: the return for the financial year 9998 was due on 9999-05-04; filed online it may still be " +
		"sent until 9999-05-19."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tax_return notes (-want +got):\n%s", diff)
	}
}

// TestReview_DanishVATNoteNamesYear10000 (rev-read10, P2): a company
// founded on 9998-07-07 with VAT periods by age files quarterly until
// 10000-06-30, and Denmark's VAT note says so; the note does not begin
// with a kind, so finish keeps it although it left the VAT deadlines of
// 10000 out. TestDeadlinesStayWritable's "no note names a year past 9999"
// holds only for its reports founded long ago.
func TestReview_DanishVATNoteNamesYear10000(t *testing.T) {
	t.Parallel()
	r, d := rv10DK(deadlines.DanishVATByAge)
	founded := registry.NewDate(9998, 7, 7)
	r.FoundedAt, r.RegisteredAt = &founded, &founded
	out := deadlines.Denmark(r, d, registry.NewDate(9999, 12, 20))
	var bad []string
	for _, n := range out.Notes {
		if fiveDigitYear.MatchString(n) {
			bad = append(bad, n)
		}
	}
	if diff := cmp.Diff([]string(nil), bad); diff != "" {
		t.Errorf("notes naming a year past 9999 (-want +got):\n%s", diff)
	}
}
