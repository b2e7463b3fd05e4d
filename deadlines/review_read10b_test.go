package deadlines_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestReview_DKPrepaymentNoteNamesInstalmentLeftOut (rev-read10b, P2): a
// Danish company founded on 9999-01-15, asked that day, pays no acontoskat
// in its first income year, and the tax_prepayment note says "The first
// listed is of the income year 10000." finish leaves that instalment
// (10000-03-20) out, so nothing is listed, but since 2c6039c drops only
// the notes with a -MM-DD date after 9999, the note stays (the kind rule
// before it dropped the note with its kind).
func TestReview_DKPrepaymentNoteNamesInstalmentLeftOut(t *testing.T) {
	t.Parallel()
	for _, period := range []deadlines.DanishVATPeriod{deadlines.DanishVATHalfYearly, deadlines.DanishVATByAge} {
		r, d := rv10DK(period)
		founded := registry.NewDate(9999, 1, 15)
		r.FoundedAt, r.RegisteredAt = &founded, &founded
		out := deadlines.Denmark(r, d, founded)
		listed := slices.ContainsFunc(out.Deadlines, func(d registry.Deadline) bool { return d.Kind == deadlines.TaxPrepayment })
		var got []string
		for _, n := range out.Notes {
			if strings.HasPrefix(n, "tax_prepayment: ") && strings.Contains(n, "The first listed") && !listed {
				got = append(got, n)
			}
		}
		if diff := cmp.Diff([]string(nil), got); diff != "" {
			t.Errorf("VAT period %v: notes about a first listed tax_prepayment, none listed (-want +got):\n%s", period, diff)
		}
	}
}

// TestReview_DKVATNoteNamesYear10000WhenNothingLeftOut (rev-read10b, P2):
// finish scans the notes only when it left a deadline out. Asked on any day
// from 9998-07-07 through 9999-06-30 about a company founded on 9998-07-07
// (VAT periods by age), Denmark leaves nothing out, and its VAT note keeps
// "here until 10000-06-30" (the walk below takes 9999's days): a date after
// 9999 in a note,
// what 2c6039c and TestDeadlinesStayWritable (which walks only companies
// founded in 2010) say no note names.
func TestReview_DKVATNoteNamesYear10000WhenNothingLeftOut(t *testing.T) {
	t.Parallel()
	r, d := rv10DK(deadlines.DanishVATByAge)
	founded := registry.NewDate(9998, 7, 7)
	r.FoundedAt, r.RegisteredAt = &founded, &founded
	var bad []string
	for today := registry.NewDate(9999, 1, 1); today.Year < 10000; today = today.AddDays(1) {
		for _, n := range deadlines.Denmark(r, d, today).Notes {
			if fiveDigitYear.MatchString(n) {
				bad = append(bad, today.String()+": "+fiveDigitYear.FindString(n))
				break
			}
		}
	}
	if diff := cmp.Diff([]string(nil), bad); diff != "" {
		t.Errorf("todays whose notes name a date after 9999 (-want +got):\n%s", diff)
	}
}
