package deadlines_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestDeadlinesStayWritable: whatever today, every engine answers only
// dates that registry.ParseDate reads back (YYYY-MM-DD, years 0 to 9999);
// a deadline that would fall outside is left out with a note, and the
// note is absent when nothing was left out (rev-deadlines10,
// TestReview_DatesStayYYYYMMDD, for all six countries).
func TestDeadlinesStayWritable(t *testing.T) {
	t.Parallel()
	const note = "Deadlines with a date outside the years 0000 to 9999 are left out: dates are written YYYY-MM-DD."
	engines := map[string]func(today registry.Date) *registry.DeadlineReport{
		"NO": func(today registry.Date) *registry.DeadlineReport {
			r, d := rv10NO()
			return deadlines.Norway(r, d, today)
		},
		"DK": func(today registry.Date) *registry.DeadlineReport {
			r, d := rv10DK(deadlines.DanishVATHalfYearly)
			return deadlines.Denmark(r, d, today)
		},
		"FI": func(today registry.Date) *registry.DeadlineReport {
			r, d := rv10FI()
			return deadlines.Finland(r, d, today)
		},
		"SE": func(today registry.Date) *registry.DeadlineReport {
			r, d := rv10SE()
			return deadlines.Sweden(r, d, today)
		},
		"FR": func(today registry.Date) *registry.DeadlineReport {
			r, d := rv10FR()
			return deadlines.France(r, d, today)
		},
		"GB": func(today registry.Date) *registry.DeadlineReport {
			r := rv10Report("GB", "companieshouse", "12279804", "ltd", registry.NewDate(2019, 10, 24))
			return deadlines.UnitedKingdom(r, rv10UK(false), today)
		},
	}
	for country, engine := range engines {
		for _, today := range []registry.Date{registry.NewDate(9999, 12, 31), registry.NewDate(9999, 6, 30),
			registry.NewDate(0, 1, 1), registry.NewDate(-3, 5, 1), registry.NewDate(2026, 11, 27)} {
			out := engine(today)
			var bad []string
			for _, d := range out.Deadlines {
				dates := []registry.Date{d.StatutoryDate, d.DueDate}
				for _, p := range []*registry.Date{d.PeriodStart, d.PeriodEnd} {
					if p != nil {
						dates = append(dates, *p)
					}
				}
				for _, x := range dates {
					if _, err := registry.ParseDate(x.String()); err != nil {
						bad = append(bad, string(d.Kind)+" "+x.String())
					}
				}
			}
			if diff := cmp.Diff([]string(nil), bad); diff != "" {
				t.Errorf("%s today %s: dates not written YYYY-MM-DD (-want +got):\n%s", country, today, diff)
			}
			if today.Year == 2026 && (slices.Contains(out.Notes, note) || len(out.Deadlines) == 0) {
				t.Errorf("%s today %s: %d deadlines, notes %q", country, today, len(out.Deadlines), out.Notes)
			}
			if today == registry.NewDate(9999, 12, 31) && !slices.Contains(out.Notes, note) {
				t.Errorf("%s today %s: no note of the deadlines left out: %q", country, today, out.Notes)
			}
		}
		// No note names a date a deadline left out would have had: finish
		// drops the notes of a kind it leaves out entirely.
		for today := registry.NewDate(9998, 6, 1); today.Year < 10000; today = today.AddDays(7) {
			for _, n := range engine(today).Notes {
				if fiveDigitYear.MatchString(n) {
					t.Errorf("%s today %s: a note names a year past 9999: %q", country, today, n)
				}
			}
		}
	}
}

// fiveDigitYear matches a date written with a year of five digits or more.
var fiveDigitYear = regexp.MustCompile(`\d{5,}-\d\d-\d\d`)
